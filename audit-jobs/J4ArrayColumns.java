import static org.apache.spark.sql.functions.*;

import dev.l0.spark.L0;
import java.util.List;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;

/** array<double> input columns (inner map/reduce per row), array outputs, 4 partitions. */
public class J4ArrayColumns {
  static int failures = 0;

  static void check(boolean ok, String what) {
    System.out.println((ok ? "ok   " : "FAIL ") + what);
    if (!ok) failures++;
  }

  public static void main(String[] args) {
    SparkSession spark = SparkSession.builder().master("local[2]")
        .config("spark.sql.extensions", "dev.l0.spark.L0Extensions").getOrCreate();
    Dataset<Row> df = spark.range(0, 3000, 1, 4).selectExpr("id",
        "transform(sequence(0, 7), j -> CAST(id * 8 + j AS DOUBLE) / 100.0) AS xs",
        "transform(sequence(0, 7), j -> CAST(j AS INT)) AS js");
    String program = """
        fun {[f64], [[f64]], [i32]} main([[f64]] xs, [[i32]] js) =
          unzip(map(fn {f64, [f64], i32} ([f64] x, [i32] j) =>
                 let sq = map(fn f64 (f64 v) => sqrt(v) * log(v + 1.0), x) in
                 {reduce(op +, 0.0, sq), map(op *, zip(x, map(fn f64 (i32 k) => f64(k), j))), reduce(op +, 0, j)},
               zip(xs, js)))
        """;
    Dataset<Row> out = df.transform(L0.pipeline(program).on("xs", "js").as("s", "xj", "sj").carry("id", "xs"));
    System.out.println("schema " + out.schema().simpleString());
    List<Row> res = out.collectAsList();
    int bad = 0;
    for (Row r : res) {
      List<Double> xs = r.getList(1);
      double[] sq = new double[xs.size()];
      for (int i = 0; i < sq.length; i++) sq[i] = StrictMath.sqrt(xs.get(i)) * StrictMath.log(xs.get(i) + 1.0);
      List<Double> xj = r.getList(3);
      boolean ok = r.getInt(4) == 28 && xj.size() == 8;
      for (int i = 0; ok && i < 8; i++) ok = xj.get(i) == xs.get(i) * i;
      // the per-row sum: compare within the last bits (reduce order is a tree, not a left fold)
      double left = 0; for (double v : sq) left += v;
      if (!ok || Math.abs(left - r.getDouble(2)) > 1e-12 * Math.abs(left)) {
        if (bad++ < 3) System.out.println("  mismatch " + r);
      }
    }
    check(res.size() == 3000 && bad == 0, "array columns per row (" + bad + " bad)");
    // Spark SQL of the elementwise product
    long diff = out.where(not(expr("xj = transform(xs, (v, i) -> v * CAST(i AS DOUBLE))"))).count();
    check(diff == 0, "array output equals Spark SQL transform: " + diff + " differ");
    // irregular lengths within one partition: error naming the column and both lengths
    Dataset<Row> irregular = spark.range(0, 10, 1, 1).selectExpr("transform(sequence(0, CAST(IF(id = 5, 3, 4) AS INT)), j -> CAST(j AS DOUBLE)) AS xs");
    try {
      irregular.transform(L0.pipeline("fun [f64] main([[f64]] xs) = map(fn f64 ([f64] x) => reduce(op +, 0.0, x), xs)").on("xs").as("s")).collectAsList();
      check(false, "irregular arrays accepted");
    } catch (Exception e) {
      String m = rootMessage(e);
      System.out.println("  irregular: " + m);
      check(m.contains("xs") && m.contains("J4ArrayColumns.java"), "irregular array error names column and call site");
    }
    spark.stop();
    System.out.println(failures == 0 ? "J4 PASS" : "J4 FAIL " + failures);
    System.exit(failures == 0 ? 0 : 1);
  }

  static String rootMessage(Throwable e) {
    StringBuilder b = new StringBuilder();
    for (Throwable t = e; t != null; t = t.getCause()) b.append(" || ").append(t.getClass().getSimpleName()).append(": ").append(t.getMessage());
    return b.toString();
  }
}
