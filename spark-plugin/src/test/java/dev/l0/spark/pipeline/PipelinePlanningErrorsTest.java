package dev.l0.spark.pipeline;

import static dev.l0.spark.pipeline.PipelineFixtures.*;
import static org.junit.jupiter.api.Assertions.*;

import java.math.BigDecimal;
import java.util.List;
import java.util.Map;
import org.apache.spark.sql.types.DataTypes;
import org.apache.spark.sql.types.StructType;
import org.junit.jupiter.api.Test;

/** Every way planning can fail, with the message the user sees. */
class PipelinePlanningErrorsTest {
  private static final String PREFIX = "L0 pipeline at " + CALL_SITE + ": ";
  private static final String DOUBLE_MAP =
      "fun [f64] main([f64] xs) =\n  map(fn f64 (f64 x) => 2.0 * x, xs)\n";

  private static String failure(String text, StructType schema, String... columns) {
    return failure(request(text, List.of(columns), List.of()), schema);
  }

  private static String failure(PipelineRequest request, StructType schema) {
    PipelinePlanningException e =
        assertThrows(PipelinePlanningException.class, () -> PipelinePlanner.plan(request, schema));
    assertTrue(e.getMessage().startsWith(PREFIX), e.getMessage());
    return e.getMessage().substring(PREFIX.length());
  }

  @Test
  void syntaxAndTypeErrorsKeepTheirSourcePosition() {
    String syntax =
        failure(
            "fun [f64] main([f64] xs) =\n  map(fn f64 (f64 x) => x +, xs)\n", doubles("a"), "a");
    assertTrue(syntax.startsWith("test.l0:2:"), syntax);
    String type =
        failure(
            "fun [f64] main([f64] xs) =\n  map(fn f64 (f64 x) => x + 1, xs)\n", doubles("a"), "a");
    assertTrue(type.startsWith("test.l0:2:"), type);
  }

  @Test
  void missingEntryListsTheFunctions() {
    PipelineRequest request =
        request(DOUBLE_MAP, "test.l0", "price", List.of("a"), List.of(), Map.of());
    assertEquals(
        "the program test.l0 has no function 'price'; it defines main",
        failure(request, doubles("a")));
  }

  @Test
  void missingColumnIsNamedWithTheSchema() {
    StructType schema =
        schema(field("spot", DataTypes.DoubleType), field("n", DataTypes.IntegerType));
    assertEquals(
        "the input has no column 'strike'; its columns are spot double, n int",
        failure(DOUBLE_MAP, schema, "strike"));
    assertEquals(
        "the input has no column 'spot.x'; its columns are spot double, n int",
        failure(DOUBLE_MAP, schema, "spot.x"));
  }

  @Test
  void wrongSparkTypeNamesColumnSparkTypeAndL0Type() {
    StructType schema = schema(field("n", DataTypes.IntegerType));
    assertEquals(
        "column 'n' has Spark type int, but parameter 'xs' of 'main([f64] xs)' is [f64], which needs a column "
            + "of double (no implicit casts)",
        failure(DOUBLE_MAP, schema, "n"));
    StructType arrays = schema(field("m", DataTypes.createArrayType(DataTypes.DoubleType)));
    assertEquals(
        "column 'm' has Spark type array<double>, but parameter 'xs' of 'main([f64] xs)' is [f64], which needs "
            + "a column of double (no implicit casts)",
        failure(DOUBLE_MAP, arrays, "m"));
  }

  @Test
  void columnsThatDoNotMatchTheParametersListBoth() {
    assertEquals(
        "the columns [a, b] supply 2 input(s) (a double, b double), but 'main([f64] xs)' takes 1 input(s), one "
            + "per leaf of its parameters (xs: [f64])",
        failure(DOUBLE_MAP, doubles("a", "b"), "a", "b"));
    StructType structs =
        schema(
            field(
                "opt", schema(field("s", DataTypes.DoubleType), field("k", DataTypes.DoubleType))));
    assertEquals(
        "the columns [opt] supply 2 input(s) (opt.s double, opt.k double), but 'main([f64] xs)' takes 1 input(s), "
            + "one per leaf of its parameters (xs: [f64])",
        failure(DOUBLE_MAP, structs, "opt"));
    assertEquals(
        "on(...) names no columns; name the columns that feed 'main([f64] xs)'",
        failure(DOUBLE_MAP, doubles("a")));
  }

  @Test
  void aKernelTheLoweringRejectsFailsPlanningAtItsSourcePosition() {
    String ragged =
        "fun [[f64]] main([i32] ns) =\n  map(fn [f64] (i32 n) => replicate(n, 1.0), ns)\n";
    assertEquals(
        "test.l0:2:3: cannot lower the map at 2:3 in main to kernels for the jvm backend: an array result "
            + "whose size depends on values the kernel computes, so the host cannot bound it before the kernel runs",
        failure(ragged, schema(field("n", DataTypes.IntegerType)), "n"));
  }

  @Test
  void parametersMustBeArraysOverTheRows() {
    String text = "fun [f64] main([f64] xs, f64 k) =\n  map(fn f64 (f64 x) => k * x, xs)\n";
    assertEquals(
        "parameter 'k' of 'main([f64] xs, f64 k)' has type f64, but every input of a pipeline must be an array "
            + "over the rows (a parameter may be an array of scalars, an array of tuples or a tuple of arrays, one input per "
            + "leaf; fed by column 'b'); a driver-side value binds it: with(\"k\", value)",
        failure(text, doubles("a", "b"), "a", "b"));
  }

  @Test
  void aScalarParameterLeftWithoutWithIsNamedWhenTheColumnsAreTooFew() {
    // The user forgot with("k", ...) and named the one column the array parameter wants: naming
    // more columns cannot feed a scalar, so the error says what binds it.
    String text = "fun [f64] main(f64 k, [f64] xs) =\n  map(fn f64 (f64 x) => k * x, xs)\n";
    assertEquals(
        "the columns [a] supply 1 input(s) (a double), but 'main(f64 k, [f64] xs)' takes 2 input(s), one per "
            + "leaf of its parameters (k: f64; xs: [f64]); 'k' (f64) is a scalar, which no column can feed; a "
            + "driver-side value binds it: with(\"k\", value)",
        failure(text, doubles("a"), "a"));
    String two = "fun [f64] main(f64 k, i32 n, [f64] xs) =\n  map(fn f64 (f64 x) => k * x, xs)\n";
    assertEquals(
        "the columns [a] supply 1 input(s) (a double), but 'main(f64 k, i32 n, [f64] xs)' takes 3 input(s), one "
            + "per leaf of its parameters (k: f64; n: i32; xs: [f64]); 'k' (f64) and 'n' (i32) are scalars, which "
            + "no column can feed; driver-side values bind them: with(\"k\", value), with(\"n\", value)",
        failure(two, doubles("a"), "a"));
  }

  @Test
  void outputNamesMustMatchTheResults() {
    String text =
        "fun {[f64], [f64]} main([f64] xs) =\n  {xs, map(fn f64 (f64 x) => 2.0 * x, xs)}\n";
    assertEquals(
        "'main' returns {[f64], [f64]}, which is 2 output column(s), but as(...) names 3: a, b, c",
        failure(request(text, List.of("a"), List.of("a", "b", "c")), doubles("a")));
    assertEquals(
        "as(...) names the output column 'a' twice",
        failure(request(text, List.of("a"), List.of("a", "a")), doubles("a")));
    assertEquals(
        "as(...) names the output columns 'a' and 'A', one name while spark.sql.caseSensitive is false",
        failure(request(text, List.of("a"), List.of("a", "A")), doubles("a")));
    assertEquals(
        List.of("a", "A"),
        List.of(
            PipelinePlanner.plan(request(text, List.of("a"), List.of("a", "A")), doubles("a"), true)
                .outputSchema()
                .fieldNames()));
  }

  @Test
  void topLevelCodeMayNotLookAcrossRows() {
    String size =
        "fun [f64] main([f64] xs) =\n  let n = size(0, xs) in\n  map(fn f64 (f64 x) => x, xs)\n";
    assertEquals(
        "size at test.l0:2:11 works on whole columns ('xs'), which looks across rows; at the top level a pipeline "
            + "may only use map, filter, zip, unzip, let and tuples over its columns, and reduce or scan them as its results "
            + "(per-row code belongs inside the functions passed to map and filter)",
        failure(size, doubles("a"), "a"));
    String index = "fun f64 main([f64] xs) =\n  xs[0]\n";
    assertTrue(
        failure(index, doubles("a"), "a")
            .startsWith("indexing at test.l0:2:3 works on whole columns ('xs')"));
    String concat = "fun [f64] main([f64] xs, [f64] ys) =\n  concat(xs, ys)\n";
    assertTrue(
        failure(concat, doubles("a", "b"), "a", "b")
            .startsWith("concat at test.l0:2:3 works on whole columns ('xs', 'ys')"));
    String call =
        "fun [f64] twice([f64] a) =\n  map(fn f64 (f64 x) => 2.0 * x, a)\n\nfun [f64] main([f64] xs) =\n  twice(xs)\n";
    assertTrue(
        failure(call, doubles("a"), "a")
            .startsWith("the call of 'twice' at test.l0:5:3 works on whole columns ('xs')"));
  }

  @Test
  void perRowFunctionsMayNotReadWholeColumns() {
    String text = "fun [f64] main([f64] xs) =\n  map(fn f64 (f64 x) => x + xs[0], xs)\n";
    assertEquals(
        "the function of the map at test.l0:2:3 uses 'xs', a whole column, but it sees one row at a time; pass "
            + "'xs' as an input of the map (zip it) instead",
        failure(text, doubles("a"), "a"));
  }

  @Test
  void reductionsCanOnlyBeResults() {
    String text =
        "fun [f64] main([f64] xs) =\n  let s = reduce(op +, 0.0, xs) in\n  map(fn f64 (f64 x) => x / s, xs)\n";
    assertEquals(
        "'s', the result of the reduce at test.l0:2:11, is used by map at test.l0:3:3; a pipeline's reduces and "
            + "scans can only be its results (feeding them into more work would need another pass over the rows)",
        failure(text, doubles("a"), "a"));
  }

  @Test
  void reductionsUsedWithoutALetAreNamedAsResultsToo() {
    // A reduce or scan used in place, not bound by a let first, was said to work on whole columns.
    String scaled = "fun f64 main([f64] xs) =\n  reduce(op +, 0.0, xs) * 2.0\n";
    assertEquals(
        "the result of the reduce at test.l0:2:3 is used by operator '*' at test.l0:2:25; a pipeline's reduces "
            + "and scans can only be its results (feeding them into more work would need another pass over the "
            + "rows)",
        failure(scaled, doubles("a"), "a"));
    String mapped = "fun [f64] main([f64] xs) =\n  map(fn f64 (f64 x) => x, scan(op +, 0.0, xs))\n";
    assertEquals(
        "the result of the scan at test.l0:2:28 is used by map at test.l0:2:3; a pipeline's reduces and scans "
            + "can only be its results (feeding them into more work would need another pass over the rows)",
        failure(mapped, doubles("a"), "a"));
  }

  @Test
  void mixedKindsAreRejected() {
    String text =
        "fun {[f64], f64} main([f64] xs) =\n  {map(fn f64 (f64 x) => 2.0 * x, xs), reduce(op +, 0.0, xs)}\n";
    assertEquals(
        "the results of 'main' mix kinds: result 1 is row-wise, result 2 is a reduce (at test.l0:2:40); a "
            + "pipeline's results must be all row-wise, all reduces or all scans",
        failure(text, doubles("a"), "a"));
  }

  @Test
  void constantResultsAreRejected() {
    String text = "fun {f64, f64} main([f64] xs) =\n  {reduce(op +, 0.0, xs), 1.0}\n";
    assertEquals(
        "result 2 of 'main' (at test.l0:2:3) does not depend on the rows; every result must be row-wise, a "
            + "reduce or a scan of the columns",
        failure(text, doubles("a"), "a"));
  }

  @Test
  void zipOfDifferentlyFilteredRowsIsRejected() {
    String text =
        "fun [{f64, f64}] main([f64] xs) =\n  let pos = filter(fn bool (f64 x) => 0.0 < x, xs) in\n"
            + "  zip(pos, xs)\n";
    assertEquals(
        "zip at test.l0:3:3 combines arrays with different rows (the rows the filter at test.l0:2:13 kept and "
            + "all rows); zip only arrays that a filter has not thinned differently",
        failure(text, doubles("a"), "a"));
  }

  @Test
  void rowWiseResultsMustHaveTheSameRows() {
    String twoFilters =
        "fun {[f64], [f64]} main([f64] xs) =\n"
            + "  {filter(fn bool (f64 x) => x > 1.5, xs), filter(fn bool (f64 x) => x < 2.5, xs)}\n";
    assertEquals(
        "results 1 and 2 of 'main' have different rows (the rows the filter at test.l0:2:4 kept and "
            + "the rows the filter at test.l0:2:44 kept); a pipeline's row-wise results become the "
            + "columns of its output rows, so a filter must thin them all alike (zip them and filter "
            + "once)",
        failure(twoFilters, doubles("x"), "x"));
    String filteredAndNot =
        "fun {[f64], [f64]} main([f64] xs) =\n"
            + "  {map(fn f64 (f64 x) => x + 1.0, xs), filter(fn bool (f64 x) => x > 0.5, xs)}\n";
    assertEquals(
        "results 1 and 2 of 'main' have different rows (all rows and the rows the filter at "
            + "test.l0:2:40 kept); a pipeline's row-wise results become the columns of its output "
            + "rows, so a filter must thin them all alike (zip them and filter once)",
        failure(filteredAndNot, doubles("x"), "x"));
  }

  @Test
  void operatorsMustNotCaptureEntryVariables() {
    String text =
        "fun f64 main([f64] xs) =\n  let k = 2.0 in\n  reduce(fn f64 (f64 a, f64 b) => a + k * b, 0.0, xs)\n";
    assertEquals(
        "the operator of the reduce or scan at test.l0:3:3 uses 'k' from the entry function; combining partial "
            + "results needs an operator that uses only its own parameters (write the constant inside the function)",
        failure(text, doubles("a"), "a"));
  }

  @Test
  void reduceResultsMustBeReturnedWhole() {
    String text =
        "fun f64 main([f64] xs, [f64] ys) =\n  let {s, t} = reduce(fn {f64, f64} (f64 a, f64 b, f64 c, f64 d) "
            + "=> {a + c, b + d}, {0.0, 0.0}, zip(xs, ys)) in\n  s\n";
    assertEquals(
        "the tuple pattern at test.l0:2:7 takes apart the result of the reduce at test.l0:2:16; a pipeline must "
            + "return its reduce and scan results whole (each tuple component becomes an output column)",
        failure(text, doubles("a", "b"), "a", "b"));
  }

  @Test
  void anUnzippedScanTakenApartByAPatternIsNamedAsTheScan() {
    String scan =
        "scan(fn {f64, f64} (f64 a, f64 b, f64 c, f64 d) => {a + c, b + d}, {0.0, 0.0}, zip(xs, ys))";
    String text =
        "fun {[f64], [f64]} main([f64] xs, [f64] ys) =\n  let {s, t} = unzip("
            + scan
            + ") in\n  {s, t}\n";
    assertEquals(
        "the tuple pattern at test.l0:2:7 takes apart the result of the scan at test.l0:2:22; a "
            + "pipeline must return its reduce and scan results whole (each tuple component "
            + "becomes an output column)",
        failure(text, doubles("a", "b"), "a", "b"));
  }

  @Test
  void neutralElementsMustBeConstants() {
    String text =
        "fun [f64] main([f64] xs) =\n  let first = reduce(op +, 0.0, xs) in\n  scan(op +, first, xs)\n";
    assertTrue(
        failure(text, doubles("a"), "a")
            .startsWith("'first', the result of the reduce at test.l0:2:15, is used by scan"));
  }

  @Test
  void nullReplacementsMustNameReadColumnsAndFit() {
    PipelineRequest unknown =
        request(DOUBLE_MAP, "test.l0", "main", List.of("a"), List.of(), Map.of("b", 0.0));
    assertEquals(
        "nullAs(...) names b, which the pipeline does not read; it reads a",
        failure(unknown, doubles("a", "b")));
    String ints = "fun [i32] main([i32] xs) =\n  map(fn i32 (i32 x) => 2 * x, xs)\n";
    PipelineRequest fraction =
        request(ints, "test.l0", "main", List.of("n"), List.of(), Map.of("n", 0.5));
    assertEquals(
        "nullAs(\"n\", 0.5) does not fit column 'n', whose elements are i32 (Spark int)",
        failure(fraction, schema(field("n", DataTypes.IntegerType))));
  }

  @Test
  void aNullReplacementOfAWholeStructNamesItsFields() {
    String sum = "fun [f64] main([f64] a, [f64] b) =\n  map(op +, zip(a, b))\n";
    StructType legs =
        schema(
            field(
                "leg",
                new StructType()
                    .add("notional", DataTypes.DoubleType)
                    .add("rate", DataTypes.DoubleType)));
    PipelineRequest whole =
        request(sum, "test.l0", "main", List.of("leg"), List.of(), Map.of("leg", 0.0));
    assertEquals(
        "nullAs(...) names leg, a struct column (struct<notional:double,rate:double>); a"
            + " replacement stands for one scalar field's nulls (a null struct included): name its"
            + " fields, e.g. nullAs(\"leg.notional\", value)",
        failure(whole, legs));
  }

  @Test
  void nullReplacementsBeyondTheColumnsRangeDoNotFit() {
    String floats = "fun [f32] main([f32] xs) =\n  map(fn f32 (f32 x) => 2.0f32 * x, xs)\n";
    StructType f32 = schema(field("f", DataTypes.FloatType));
    // 1e300 would be an infinity as a float, 2^63 is one past the largest long.
    assertEquals(
        "nullAs(\"f\", 1.0E300) does not fit column 'f', whose elements are f32 (Spark float)",
        failure(
            request(floats, "test.l0", "main", List.of("f"), List.of(), Map.of("f", 1e300)), f32));
    String longs = "fun [i64] main([i64] qs) =\n  map(fn i64 (i64 q) => 2i64 * q, qs)\n";
    assertEquals(
        "nullAs(\"q\", 9.223372036854776E18) does not fit column 'q', whose elements are i64"
            + " (Spark bigint)",
        failure(
            request(longs, "test.l0", "main", List.of("q"), List.of(), Map.of("q", 0x1p63)),
            schema(field("q", DataTypes.LongType))));
    assertEquals(
        "nullAs(\"x\", 1E+400) does not fit column 'x', whose elements are f64 (Spark double)",
        failure(
            request(
                DOUBLE_MAP,
                "test.l0",
                "main",
                List.of("x"),
                List.of(),
                Map.of("x", new BigDecimal("1e400"))),
            doubles("x")));
    // Within range: the nearest float, and a NaN or infinity asked for, are kept.
    for (Object fits : List.of(0.1, Double.NaN, Double.NEGATIVE_INFINITY, 3L)) {
      PipelinePlanner.plan(
          request(floats, "test.l0", "main", List.of("f"), List.of(), Map.of("f", fits)), f32);
    }
  }
}
