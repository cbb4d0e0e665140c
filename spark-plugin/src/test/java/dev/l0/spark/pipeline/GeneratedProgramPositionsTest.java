package dev.l0.spark.pipeline;

import static dev.l0.spark.pipeline.PipelineFixtures.*;
import static org.junit.jupiter.api.Assertions.*;

import dev.l0.interp.Interpreter;
import dev.l0.ir.L0RuntimeError;
import dev.l0.ir.ScalarType;
import dev.l0.ir.Type;
import dev.l0.values.ValueReader;
import java.util.List;
import org.apache.spark.sql.types.DataTypes;
import org.apache.spark.sql.types.StructType;
import org.junit.jupiter.api.Test;

/**
 * A program the planner generates (two fused pipelines, a scan's totals program) is printed text
 * that the user never wrote: its run-time errors are reported at the user's line and column.
 */
class GeneratedProgramPositionsTest {
  private static final StructType INTS = schema(field("x", DataTypes.IntegerType));

  /**
   * The message of the error {@code source}'s entry raises on {@code input}, as a task reports it.
   */
  private static String failure(PipelineSpec spec, L0Source source, String input) {
    L0RuntimeError error =
        assertThrows(
            L0RuntimeError.class,
            () ->
                new Interpreter(source.program())
                    .call(
                        source.entry(),
                        ValueReader.read(input, List.of(Type.array(ScalarType.I32)), "input")));
    return spec.located(error).getMessage();
  }

  @Test
  void anErrorInFusedPipelinesIsAtTheLineOfTheProgramThatRaisedIt() {
    PipelineSpec first =
        PipelinePlanner.plan(
            request(
                "fun [i32] main([i32] x) =\n  map(fn i32 (i32 v) => 100 / v, x)\n",
                List.of("x"),
                List.of("z")),
            INTS);
    PipelineSpec second =
        PipelinePlanner.plan(
            request(
                "fun [i32] main([i32] z) =\n  map(fn i32 (i32 w) =>\n    w % (w - 4), z)\n",
                List.of("z"), List.of("y")),
            first.outputSchema());
    PipelineSpec merged = PipelinePlanner.merge(first, second).orElseThrow();
    L0Source main = merged.programs().main();
    assertEquals("test.l0:2:29: /: integer division by zero", failure(merged, main, "[0]"));
    assertEquals("test.l0:3:7: %: integer division by zero", failure(merged, main, "[25]"));
  }

  @Test
  void anErrorInAScansTotalsProgramIsAtTheScansOwnLine() {
    PipelineSpec scan =
        plan(
            "fun [i32] main([i32] x) =\n  scan(op +, 0, map(fn i32 (i32 v) => 100 / v, x))\n",
            INTS,
            "x");
    assertEquals(
        "test.l0:2:43: /: integer division by zero",
        failure(scan, scan.programs().totals(), "[0]"));
  }
}
