package dev.l0.spark.pipeline;

import static dev.l0.spark.pipeline.PipelineFixtures.*;
import static org.junit.jupiter.api.Assertions.*;

import dev.l0.ir.ScalarType;
import java.util.List;
import java.util.Map;
import org.apache.spark.sql.types.DataTypes;
import org.apache.spark.sql.types.StructType;
import org.junit.jupiter.api.Test;

/** Kind detection, bindings (struct and array columns) and output schemas. */
class PipelineKindTest {

  @Test
  void mapIsRows() {
    PipelineSpec spec =
        plan("fun [f64] main([f64] xs) = map(fn f64 (f64 x) => 2.0 * x, xs)", doubles("x"), "x");
    assertEquals(PipelineKind.ROWS, spec.kind());
    assertEquals(List.of("map"), spec.kernelShapes());
    assertEquals("rows [_1] <- [x], 1 kernel [map]", spec.summary());
    assertEquals(
        DataTypes.createStructType(
            List.of(DataTypes.createStructField("_1", DataTypes.DoubleType, false))),
        spec.outputSchema());
  }

  @Test
  void aProgramPlannedAgainIsNotOptimisedAgain() {
    L0Source source =
        L0Source.reachable(
            dev.l0.syntax.L0Parser.parse(
                "fun [f64] main([f64] xs) = map(fn f64 (f64 x) => x + 1.0, xs)", "again.l0"),
            "fun [f64] main([f64] xs) = map(fn f64 (f64 x) => x + 1.0, xs)",
            "again.l0",
            "main",
            Map.of());
    PipelineSpec.Kernels first = PipelinePlanner.kernels(source);
    // an equal source (Spark plans each query over a pipeline again) gets the plan made first
    PipelineSpec.Kernels again =
        PipelinePlanner.kernels(
            new L0Source(
                source.text(),
                source.sourceName(),
                source.entry(),
                source.functions(),
                source.origins()));
    assertSame(first, again);
    assertEquals(List.of("map"), again.shapes());
  }

  @Test
  void aProgramIsPlannedAgainUnderOtherClusteringLimits() {
    String text = "fun [f64] main([f64] xs) = map(fn f64 (f64 x) => x * 3.0, xs)";
    L0Source source =
        L0Source.reachable(
            dev.l0.syntax.L0Parser.parse(text, "limits.l0"), text, "limits.l0", "main", Map.of());
    PipelineSpec.Kernels first = PipelinePlanner.kernels(source);
    String property = "l0.opt.cluster.exactLimit";
    String before = System.getProperty(property);
    System.setProperty(property, "7");
    try {
      // the optimiser's settings are part of what a plan depends on
      PipelineSpec.Kernels limited = PipelinePlanner.kernels(source);
      assertNotSame(first, limited);
      assertSame(limited, PipelinePlanner.kernels(source));
    } finally {
      if (before == null) {
        System.clearProperty(property);
      } else {
        System.setProperty(property, before);
      }
    }
    assertSame(first, PipelinePlanner.kernels(source));
  }

  @Test
  void filterAndMapThenFilterAreRows() {
    assertEquals(
        PipelineKind.ROWS,
        plan("fun [f64] main([f64] xs) = filter(fn bool (f64 x) => 0.0 < x, xs)", doubles("x"), "x")
            .kind());
    PipelineSpec spec =
        plan(
            "fun {[f64], [f64]} main([f64] xs, [f64] ys) =\n"
                + "  let kept = filter(fn bool (f64 x, f64 y) => x < y, zip(xs, ys)) in\n"
                + "  unzip(map(fn {f64, f64} (f64 x, f64 y) => {x * y, x + y}, kept))\n",
            doubles("a", "b"),
            "a",
            "b");
    assertEquals(PipelineKind.ROWS, spec.kind());
    assertEquals(List.of("_1", "_2"), List.of(spec.outputSchema().fieldNames()));
  }

  @Test
  void reduceAndRedomapAreReduce() {
    PipelineSpec reduce =
        plan(
            "fun i64 main([i64] xs) = reduce(op +, 0i64, xs)",
            schema(field("n", DataTypes.LongType)),
            "n");
    assertEquals(PipelineKind.REDUCE, reduce.kind());
    assertEquals(DataTypes.LongType, reduce.outputSchema().fields()[0].dataType());
    PipelineSpec redomap =
        PipelinePlanner.plan(
            request(
                "fun f64 main([f64] q, [f64] p) = reduce(op +, 0.0, map(op *, zip(q, p)))",
                List.of("quantities", "prices"),
                List.of("total")),
            doubles("quantities", "prices"));
    assertEquals(PipelineKind.REDUCE, redomap.kind());
    assertEquals("reduce [total] <- [quantities, prices], 1 kernel [redomap]", redomap.summary());
  }

  @Test
  void tupleOfReducesIsReduceWithOneColumnPerComponent() {
    PipelineSpec spec =
        plan(
            "fun {f64, {f64, i32}} main([f64] xs, [i32] ns) =\n"
                + "  let total = reduce(op +, 0.0, xs) in\n"
                + "  {total, reduce(fn {f64, i32} (f64 a, i32 b, f64 c, i32 d) => {max(a, c), b + d}, {0.0, 0}, zip(xs, ns))}\n",
            schema(field("x", DataTypes.DoubleType), field("n", DataTypes.IntegerType)),
            "x",
            "n");
    assertEquals(PipelineKind.REDUCE, spec.kind());
    assertEquals(List.of("_1", "_2", "_3"), List.of(spec.outputSchema().fieldNames()));
    assertEquals(DataTypes.IntegerType, spec.outputSchema().fields()[2].dataType());
  }

  @Test
  void scanAndScanOfMapAreScan() {
    assertEquals(
        PipelineKind.SCAN,
        plan("fun [f64] main([f64] xs) = scan(op +, 0.0, xs)", doubles("x"), "x").kind());
    PipelineSpec spec =
        plan(
            "fun [f64] main([f64] xs) = scan(op +, 0.0, map(fn f64 (f64 x) => x * x, xs))",
            doubles("x"),
            "x");
    assertEquals(PipelineKind.SCAN, spec.kind());
    assertEquals(DataTypes.DoubleType, spec.outputSchema().fields()[0].dataType());
  }

  @Test
  void structColumnsSupplyOneParameterPerLeaf() {
    StructType schema =
        schema(
            field("id", DataTypes.LongType),
            field(
                "opt",
                schema(
                    field("spot", DataTypes.DoubleType),
                    field(
                        "terms",
                        schema(
                            field("strike", DataTypes.DoubleType),
                            field("years", DataTypes.FloatType))))));
    PipelineSpec spec =
        plan(
            "fun [f64] main([f64] s, [f64] k, [f32] t) =\n"
                + "  map(fn f64 (f64 s, f64 k, f32 t) => (s - k) * f64(t), zip(s, k, t))\n",
            schema,
            "opt");
    assertEquals(
        List.of("opt.spot", "opt.terms.strike", "opt.terms.years"),
        spec.inputs().stream().map(InputBinding::columnPath).toList());
    assertEquals(List.of(1, 1, 1), spec.inputs().get(2).fieldPath());
    assertEquals(List.of(1, 1, 0), spec.inputs().get(1).fieldPath());
    assertEquals(ScalarType.F32, spec.inputs().get(2).elementType());
    assertEquals(List.of("opt"), spec.readColumns());
    PipelineSpec single =
        plan(
            "fun [f64] main([f64] k, [f64] s) = map(op -, zip(k, s))",
            schema,
            "opt.terms.strike",
            "opt.spot");
    assertEquals(
        List.of(List.of(1, 1, 0), List.of(1, 0)),
        single.inputs().stream().map(InputBinding::fieldPath).toList());
    assertEquals(List.of("opt"), single.readColumns());
  }

  @Test
  void arrayColumnsBecomeInnerDimensions() {
    StructType schema =
        schema(
            field("w", DataTypes.DoubleType),
            field("path", DataTypes.createArrayType(DataTypes.DoubleType)),
            field(
                "grid",
                DataTypes.createArrayType(DataTypes.createArrayType(DataTypes.IntegerType))));
    PipelineSpec spec =
        plan(
            "fun {[f64], [[f64]]} main([f64] w, [[f64]] path, [[[i32]]] grid) =\n"
                + "  unzip(map(fn {f64, [f64]} (f64 w, [f64] p, [[i32]] g) =>\n"
                + "    {w * reduce(op +, 0.0, p), map(fn f64 ([i32] r) => f64(reduce(op +, 0, r)), g)}, zip(w, path, grid)))\n",
            schema,
            "w",
            "path",
            "grid");
    assertEquals(List.of(1, 2, 3), spec.inputs().stream().map(InputBinding::rank).toList());
    assertEquals(DataTypes.createArrayType(DataTypes.DoubleType), spec.inputs().get(1).leafType());
    assertEquals(List.of("w", "path", "grid"), spec.readColumns());
    assertEquals(
        DataTypes.createArrayType(DataTypes.DoubleType, false),
        spec.outputSchema().fields()[1].dataType());
    assertFalse(spec.outputSchema().fields()[1].nullable());
  }

  @Test
  void nullReplacementsAreBoundToTheirLeaves() {
    StructType schema =
        schema(
            field("opt", schema(field("a", DataTypes.DoubleType), field("b", DataTypes.LongType))));
    PipelineRequest request =
        request(
            "fun [f64] main([f64] a, [i64] b) = map(fn f64 (f64 a, i64 b) => a * f64(b), zip(a, b))",
            "test.l0",
            "main",
            List.of("opt"),
            List.of("y"),
            Map.of("opt.b", 7, "opt.a", 0));
    PipelineSpec spec = PipelinePlanner.plan(request, schema);
    assertEquals(0.0, spec.inputs().get(0).nullReplacement());
    assertEquals(7L, spec.inputs().get(1).nullReplacement());
  }

  @Test
  void explainShowsKindBindingsAndKernels() {
    String explain =
        plan("fun [f64] main([f64] xs) = map(fn f64 (f64 x) => 2.0 * x, xs)", doubles("x"), "x")
            .explain();
    assertTrue(explain.contains("kind: rows"), explain);
    assertTrue(explain.contains("x (double) -> [f64]"), explain);
    assertTrue(explain.contains("kernels: 1"), explain);
  }

  @Test
  void otherEntriesOfTheFileDoNotCountAsKernels() {
    String text =
        "fun f64 other([f64] xs) = reduce(op +, 0.0, xs)\n\n"
            + "fun [f64] main([f64] xs) = map(fn f64 (f64 x) => 2.0 * x, xs)\n";
    PipelineSpec spec = plan(text, doubles("x"), "x");
    assertEquals(1, spec.kernelCount());
    assertEquals(List.of("map"), spec.kernelShapes());
  }
}
