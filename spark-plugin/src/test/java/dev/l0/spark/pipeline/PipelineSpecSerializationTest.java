package dev.l0.spark.pipeline;

import static dev.l0.spark.pipeline.PipelineFixtures.*;
import static org.junit.jupiter.api.Assertions.*;

import dev.l0.ir.ScalarType;
import dev.l0.kernels.jvm.FlatArray;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.ObjectInputStream;
import java.io.ObjectOutputStream;
import java.util.List;
import java.util.Map;
import org.apache.spark.sql.types.DataTypes;
import org.apache.spark.sql.types.StructType;
import org.junit.jupiter.api.Test;

/** A spec crosses the wire to executors by Java serialization and still runs. */
class PipelineSpecSerializationTest {

  @SuppressWarnings("unchecked")
  private static <T> T roundTrip(T value) throws IOException, ClassNotFoundException {
    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    try (ObjectOutputStream out = new ObjectOutputStream(bytes)) {
      out.writeObject(value);
    }
    try (ObjectInputStream in =
        new ObjectInputStream(new ByteArrayInputStream(bytes.toByteArray()))) {
      return (T) in.readObject();
    }
  }

  @Test
  void aSpecSurvivesSerializationAndRuns() throws Exception {
    StructType schema =
        schema(
            field(
                "opt", schema(field("q", DataTypes.DoubleType), field("p", DataTypes.DoubleType))));
    PipelineRequest request =
        request(
            "fun f64 main([f64] q, [f64] p) = reduce(op +, 0.0, map(op *, zip(q, p)))",
            "test.l0",
            "main",
            List.of("opt"),
            List.of("total"),
            Map.of("opt.q", 0.0));
    PipelineSpec spec = PipelinePlanner.plan(request, schema);
    PipelineSpec copy = roundTrip(spec);
    assertEquals(spec, copy);
    assertEquals(spec.hashCode(), copy.hashCode());
    assertEquals(spec.summary(), copy.summary());
    assertEquals(spec.inputs(), copy.inputs());
    assertEquals(spec.outputSchema(), copy.outputSchema());
    assertEquals(request, roundTrip(request));
    ColumnBatch batch = new ColumnBatch(2, List.of(new double[] {1, 2}, new double[] {3, 4}));
    try (PartitionRunner runner = PartitionRunner.open(copy, JVM)) {
      runner.fold(batch);
      PartialResult partial = roundTrip(runner.partial());
      assertArrayEquals(
          new double[] {22.0},
          (double[]) PartialCombiner.finish(copy, List.of(partial, partial), JVM).columns().get(0));
    }
  }

  /**
   * The optimiser's explanation of a program (its internal form, tens of kilobytes for a large
   * program) stays on the driver, out of every task's plan; a copy explains the same.
   */
  @Test
  void theOptimisersExplanationDoesNotTravel() throws Exception {
    StructType schema = schema(field("x", DataTypes.DoubleType));
    PipelineSpec spec =
        PipelinePlanner.plan(
            request(
                "fun [f64] main([f64] xs) = map(fn f64 (f64 x) => exp(x) * 2.0, xs)",
                "travel.l0",
                "main",
                List.of("x"),
                List.of("y"),
                Map.of()),
            schema);
    String explained = spec.explain();
    // the internal form names the map's result main_res_N, which the source text does not
    assertTrue(explained.contains("main_res_"), explained);
    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    try (ObjectOutputStream out = new ObjectOutputStream(bytes)) {
      out.writeObject(spec);
    }
    String serialised = bytes.toString(java.nio.charset.StandardCharsets.ISO_8859_1);
    assertFalse(serialised.contains("main_res_"), "the explanation travelled");
    assertEquals(explained, roundTrip(spec).explain());
  }

  @Test
  void partialsWithFlatArraysSurviveSerialization() throws Exception {
    FlatArray grid = new FlatArray(ScalarType.I32, new int[] {1, 2, 3, 4, 5, 6}, new int[] {2, 3});
    PartialResult partial = new PartialResult(List.of(1.5, new long[] {7, 8}, grid));
    PartialResult copy = roundTrip(partial);
    assertEquals(1.5, copy.values().get(0));
    assertArrayEquals(new long[] {7, 8}, (long[]) copy.values().get(1));
    FlatArray copied = (FlatArray) copy.values().get(2);
    assertEquals(ScalarType.I32, copied.elementType());
    assertArrayEquals(new int[] {2, 3}, copied.shape());
    assertArrayEquals(new int[] {1, 2, 3, 4, 5, 6}, (int[]) copied.data());
  }

  @Test
  void keysDifferWithTheProgramAndAgreeForTheSameProgram() {
    String text = "fun [f64] main([f64] xs) = map(fn f64 (f64 x) => 2.0 * x, xs)";
    PipelineSpec a = plan(text, doubles("x"), "x");
    PipelineSpec b = plan("// the same program\n" + text, doubles("y"), "y");
    PipelineSpec c = plan(text.replace("2.0", "3.0"), doubles("x"), "x");
    assertEquals(a.key(), b.key());
    assertNotEquals(a.key(), c.key());
    assertTrue(a.key().matches("[0-9a-f]{64}"), a.key());
  }
}
