package dev.l0.spark.pipeline;

import static dev.l0.spark.pipeline.PipelineFixtures.*;
import static org.junit.jupiter.api.Assertions.*;

import java.util.List;
import java.util.Map;
import org.apache.spark.sql.types.StructType;
import org.junit.jupiter.api.Test;

/**
 * The driver plans a pipeline's program once: planning the same pipeline again (a job that builds
 * it for every query) reuses the parsed, checked and printed programs and binds only the new
 * values.
 */
class PipelinePlanCacheTest {
  private static final String SCALED_SUM =
      "fun f64 main(f64 scale, [f64] xs) = reduce(op +, 0.0, map(fn f64 (f64 x) => x * scale, xs))";

  private static PipelineRequest scaledSum(Object scale, String column) {
    return new PipelineRequest(
        SCALED_SUM,
        "cache.l0",
        "main",
        List.of(column),
        List.of("total"),
        Map.of(),
        CALL_SITE,
        List.of(new BoundArgument("scale", scale)),
        FloatSums.ORDERED,
        List.of(),
        Map.of());
  }

  private static double total(PipelineSpec spec, double... xs) {
    try (PartitionRunner runner = PartitionRunner.open(spec, JVM)) {
      runner.fold(new ColumnBatch(xs.length, List.of(xs)));
      return ((double[])
              PartialCombiner.finish(spec, List.of(runner.partial()), JVM).columns().get(0))
          [0];
    }
  }

  @Test
  void planningTheSamePipelineAgainReusesItsProgramsAndBindsTheNewValues() {
    StructType schema = doubles("x");
    PipelineSpec twice = PipelinePlanner.plan(scaledSum(2.0, "x"), schema);
    PipelineSpec thrice = PipelinePlanner.plan(scaledSum(3.0, "x"), schema);
    assertSame(twice.programs().main(), thrice.programs().main());
    assertSame(twice.programs().combiner(), thrice.programs().combiner());
    assertEquals(twice.key(), thrice.key());
    assertNotEquals(twice, thrice); // the bound values tell them apart
    assertEquals(6.0, total(twice, 1.0, 2.0));
    assertEquals(9.0, total(thrice, 1.0, 2.0));
    assertEquals(twice, PipelinePlanner.plan(scaledSum(2.0, "x"), schema));
  }

  @Test
  void anotherSchemaOrProgramIsPlannedAfresh() {
    PipelineSpec x = PipelinePlanner.plan(scaledSum(2.0, "x"), doubles("x"));
    PipelineSpec y = PipelinePlanner.plan(scaledSum(2.0, "y"), doubles("y"));
    assertNotSame(x.programs().main(), y.programs().main());
    assertEquals(List.of("y"), y.readColumns());
    assertEquals(4.0, total(y, 1.0, 1.0));
  }

  @Test
  void aValueThatDoesNotFitIsRefusedAlsoWhenThePipelineWasPlannedBefore() {
    StructType schema = doubles("x");
    PipelinePlanner.plan(scaledSum(2.0, "x"), schema);
    PipelinePlanningException refused =
        assertThrows(
            PipelinePlanningException.class,
            () -> PipelinePlanner.plan(scaledSum(new double[] {2.0}, "x"), schema));
    assertTrue(refused.getMessage().contains("scale"), refused.getMessage());
  }
}
