package dev.l0.spark.endtoend;

import static dev.l0.dsl.L0.f64;
import static dev.l0.dsl.L0.map;
import static dev.l0.dsl.L0.program;
import static dev.l0.dsl.L0.reduce;
import static dev.l0.spark.endtoend.NumericAssertions.assertBitIdentical;
import static org.apache.spark.sql.functions.col;
import static org.apache.spark.sql.functions.expr;
import static org.apache.spark.sql.functions.sum;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.l0.dsl.Arr;
import dev.l0.dsl.F64;
import dev.l0.ir.Program;
import dev.l0.opt.KernelPlan;
import dev.l0.opt.Optimizer;
import dev.l0.spark.L0;
import dev.l0.spark.L0Pipeline;
import dev.l0.syntax.L0Parser;
import dev.l0.types.TypeChecker;
import java.util.List;
import java.util.regex.Pattern;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * {@code df.transform(a).transform(b)} plans as one L0 pipeline node, and {@code df.explain()}
 * shows the kernels (as {@code "1 kernel [redomap]"}) that the optimiser makes of the composition
 * written by hand as one L0 function; the result is what running {@code a}, collecting its result
 * into a new DataFrame and running {@code b} on that gives. The values are small integers held in
 * doubles, so every sum is exact whatever the order of addition.
 */
class PipelineFusionPlanTest {
  private static final String PRODUCTS_EXPR =
      "map(fn real (real x, real y) => x * y + 1.0, zip(xs, ys))";
  private static final String PRODUCTS_TEXT =
      "fun [real] main([real] xs, [real] ys) = " + PRODUCTS_EXPR;
  private static final String POSITIVE_TEXT =
      "fun [real] main([real] zs) = filter(fn bool (real z) => 0.0 < z, zs)";

  /** Products, then positive, written by hand as one expression. */
  private static final String POSITIVE_PRODUCTS_EXPR =
      "filter(fn bool (real z) => 0.0 < z, " + PRODUCTS_EXPR + ")";

  /** The sum of squares, written with the Java DSL. */
  private static final Program SUM_OF_SQUARES =
      program(
          prog ->
              prog.fun(
                  "main",
                  Arr.of(F64.TYPE),
                  zs -> reduce(map(zs, z -> z.mul(z)), f64(0.0), (a, b) -> a.add(b))));

  private static SparkSession spark;
  private static Dataset<Row> table;

  @BeforeAll
  static void startSpark() {
    spark = LocalSpark.builder(PipelineFusionPlanTest.class, 2).getOrCreate();
    table =
        spark
            .range(0, 100_000, 1, 3)
            .select(
                col("id"),
                expr("cast(id % 1000 as double)").as("x"),
                expr("cast(id % 7 - 3 as double)").as("y"));
  }

  @AfterAll
  static void stopSpark() {
    spark.stop();
  }

  private static L0Pipeline products() {
    return L0.pipeline(PRODUCTS_TEXT).on("x", "y").as("z");
  }

  private static L0Pipeline positive(String column) {
    return L0.pipeline(POSITIVE_TEXT).on(column).as("positive");
  }

  private static L0Pipeline sumOfSquares(String column) {
    return L0.pipeline(SUM_OF_SQUARES).on(column).as("total");
  }

  /**
   * {@code frame}'s rows collected and made into a new DataFrame, so nothing can fuse across it.
   */
  private static Dataset<Row> materialised(Dataset<Row> frame) {
    return spark.createDataFrame(frame.collectAsList(), frame.schema());
  }

  /**
   * {@code frame} plans as one L0 pipeline node, and its line in {@code df.explain()} shows the
   * kernels the optimiser makes of {@code composedByHand}, the same computation as one L0 function.
   */
  private static void assertOnePipelineWithTheKernelsOf(Dataset<Row> frame, String composedByHand) {
    List<?> nodes = SparkPlans.pipelineNodes(frame);
    assertEquals(1, nodes.size(), "L0 pipeline nodes in\n" + SparkPlans.executedPlan(frame));
    List<String> kernels =
        Optimizer.optimize(TypeChecker.check(L0Parser.parse(composedByHand, "composed.l0")))
            .kernelPlan()
            .kernels()
            .stream()
            .map(KernelPlan.Kernel::structure)
            .toList();
    String explained = SparkPlans.explain(frame);
    Pattern summary =
        Pattern.compile("\\b" + kernels.size() + " kernels? " + Pattern.quote(kernels.toString()));
    assertTrue(
        summary.matcher(explained).find(),
        "df.explain() shows " + kernels.size() + " kernel(s) " + kernels + ":\n" + explained);
  }

  private static double total(Dataset<Row> reduced) {
    List<Row> rows = reduced.collectAsList();
    assertEquals(1, rows.size(), "a reduction gives one row");
    return rows.get(0).getDouble(0);
  }

  @Test
  void mapThenReduceIsOnePipeline() {
    Dataset<Row> fused = table.transform(products()).transform(sumOfSquares("z"));
    assertOnePipelineWithTheKernelsOf(
        fused,
        "fun real main([real] xs, [real] ys) = reduce(op +, 0.0, map(fn real (real z) => z * z, "
            + PRODUCTS_EXPR
            + "))");

    String l0Explained = L0.explainString(fused);
    assertTrue(
        l0Explained.contains("redomap") && l0Explained.contains("configured device"),
        "L0.explainString shows the optimised program, its kernels and the device:\n"
            + l0Explained);

    double separately =
        total(materialised(table.transform(products())).transform(sumOfSquares("z")));
    double sparkSql = table.agg(sum(expr("(x * y + 1.0D) * (x * y + 1.0D)"))).first().getDouble(0);
    double fusedTotal = total(fused);
    assertBitIdentical(separately, fusedTotal, "fused against a, collected, then b");
    assertBitIdentical(sparkSql, fusedTotal, "fused against Spark SQL");
  }

  @Test
  void mapThenFilterIsOnePipelineKeepingTheSameRowsInOrder() {
    Dataset<Row> fused = table.transform(products()).transform(positive("z"));
    assertOnePipelineWithTheKernelsOf(
        fused, "fun [real] main([real] xs, [real] ys) = " + POSITIVE_PRODUCTS_EXPR);

    double[] separately =
        CollectedColumns.of(materialised(table.transform(products())).transform(positive("z")))
            .doubles("positive");
    double[] fusedRows = CollectedColumns.of(fused).doubles("positive");
    assertTrue(
        separately.length > 0 && separately.length < 100_000,
        "the filter keeps some rows, not all: " + separately.length);
    assertArrayEquals(separately, fusedRows, "fused against a, collected, then b");
  }

  @Test
  void threeTransformsAreOnePipeline() {
    Dataset<Row> fused =
        table.transform(products()).transform(positive("z")).transform(sumOfSquares("positive"));
    assertOnePipelineWithTheKernelsOf(
        fused,
        "fun real main([real] xs, [real] ys) = reduce(op +, 0.0, map(fn real (real z) => z * z, "
            + POSITIVE_PRODUCTS_EXPR
            + "))");

    double sparkSql =
        table
            .select(expr("x * y + 1.0D").as("z"))
            .filter(col("z").gt(0.0))
            .agg(sum(col("z").multiply(col("z"))))
            .first()
            .getDouble(0);
    assertBitIdentical(sparkSql, total(fused), "three fused transforms against Spark SQL");
  }

  /**
   * A select of one of two outputs between the pipelines: Spark prunes the lower pipeline's child
   * to the columns it reads ({@code x}, {@code y}, not {@code id}) once a Project sits above it,
   * and the fused node still finds them (it once indexed the pruned child with the ordinals the
   * lower pipeline was planned with, and failed with an ArrayIndexOutOfBoundsException).
   */
  @Test
  void fusesThroughASelectOfOneOfTwoOutputs() {
    L0Pipeline productsAndSums =
        L0.pipeline(
                "fun [{real, real}] main([real] xs, [real] ys) = "
                    + "map(fn {real, real} (real x, real y) => {x * y, x + y}, zip(xs, ys))")
            .on("x", "y")
            .as("p", "s");
    Dataset<Row> fused = table.transform(productsAndSums).select("s").transform(positive("s"));
    assertEquals(
        1,
        SparkPlans.pipelineNodes(fused).size(),
        "L0 pipeline nodes in\n" + SparkPlans.executedPlan(fused));
    double[] separately =
        CollectedColumns.of(
                materialised(table.transform(productsAndSums).select("s")).transform(positive("s")))
            .doubles("positive");
    assertTrue(separately.length > 0, "the filter keeps some rows");
    assertArrayEquals(separately, CollectedColumns.of(fused).doubles("positive"));
  }
}
