import static org.apache.spark.sql.functions.col;

import dev.l0.spark.L0;
import java.util.List;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;

/** README's explain example, the null's partition/row numbering, a running max after orderBy. */
public class J9ExplainNullRowsScan {
  static int failures = 0;

  static void check(boolean ok, String what) {
    System.out.println((ok ? "ok   " : "FAIL ") + what);
    if (!ok) failures++;
  }

  public static void main(String[] args) {
    SparkSession spark = SparkSession.builder().master("local[2]")
        .config("spark.sql.extensions", "dev.l0.spark.L0Extensions").getOrCreate();
    Dataset<Row> positions = spark.range(0, 1000, 1, 2).selectExpr("CAST(id - 500 AS DOUBLE) AS quantity", "CAST(id AS DOUBLE) AS price");
    String portfolio = """
        fun f64 main([f64] quantities, [f64] prices) =
          let values = map(op *, zip(quantities, prices)) in
          let longs  = filter(fn bool (f64 v) => 0.0 < v, values) in
          reduce(op +, 0.0, longs)
        """;
    Dataset<Row> total = positions.transform(L0.pipeline(portfolio).on("quantity", "price").as("total"));
    String plan = ((org.apache.spark.sql.classic.Dataset<Row>) total).queryExecution().explainString(
        org.apache.spark.sql.execution.SimpleMode$.MODULE$);
    check(plan.contains("L0Pipeline reduce [total] <- [quantity, price], 1 kernel [redomap], device=auto"), "df.explain() line as README:\n" + plan);
    String explained = L0.explainString(total);
    System.out.println(explained);
    check(explained.contains("kernel"), "L0.explain lists kernels");
    double want = 0; for (int i = 501; i < 1000; i++) want += (i - 500.0) * i;
    check(total.first().getDouble(0) == want, "portfolio total " + total.first().getDouble(0) + " vs " + want);
    // null numbering: id 70 is row 20 of partition 1 (ids 50..99)
    Dataset<Row> withNull = spark.range(0, 100, 1, 2).selectExpr("IF(id = 70, NULL, CAST(id AS DOUBLE)) AS v");
    try {
      withNull.transform(L0.pipeline("fun [f64] main([f64] v) = map(fn f64 (f64 x) => x + 1.0, v)").on("v").as("w")).collectAsList();
      check(false, "null accepted");
    } catch (Exception e) {
      String m = String.valueOf(e.getMessage());
      check(m.contains("column 'v' has a null in partition 1, row 20") && m.contains("J9ExplainNullRowsScan.java:"), "null at partition 1, row 20");
    }
    // scan after orderBy: running max, in the sorted order, across partitions
    Dataset<Row> sorted = spark.range(0, 5000, 1, 3).selectExpr("id", "sin(CAST(id AS DOUBLE) * 0.37) * id AS v").orderBy(col("v").desc(), col("id"));
    Dataset<Row> runMax = sorted.transform(L0.pipeline(
        "fun [f64] main([f64] v) = scan(fn f64 (f64 a, f64 b) => if a < b then b else a, -1.0e300, v)").on("v").as("m"));
    List<Row> got = runMax.collectAsList();
    List<Row> in = sorted.select("v").collectAsList();
    boolean ok = got.size() == in.size();
    double m = -1.0e300;
    for (int i = 0; ok && i < in.size(); i++) { m = Math.max(m, in.get(i).getDouble(0)); ok = got.get(i).getDouble(0) == m; }
    check(ok, "running max over a sorted frame equals Java's");
    spark.stop();
    System.out.println(failures == 0 ? "J9 PASS" : "J9 FAIL " + failures);
    System.exit(failures == 0 ? 0 : 1);
  }
}
