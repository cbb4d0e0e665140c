import dev.l0.spark.L0;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;

/** Column names as README resolves them: after a join (ambiguous), dotted names, backticks, case. */
public class J10ColumnNamesAfterJoin {
  static int failures = 0;

  static void check(boolean ok, String what) {
    System.out.println((ok ? "ok   " : "FAIL ") + what);
    if (!ok) failures++;
  }

  public static void main(String[] args) {
    SparkSession spark = SparkSession.builder().master("local[2]")
        .config("spark.sql.extensions", "dev.l0.spark.L0Extensions").getOrCreate();
    Dataset<Row> a = spark.range(0, 100, 1, 2).selectExpr("id", "CAST(id AS DOUBLE) AS x");
    Dataset<Row> b = spark.range(0, 100, 1, 3).selectExpr("id", "CAST(id * 2 AS DOUBLE) AS x", "CAST(id AS DOUBLE) AS `a.b`");
    Dataset<Row> joined = a.join(b, a.col("id").equalTo(b.col("id")));
    String twice = "fun [f64] main([f64] v) = map(fn f64 (f64 x) => x * 2.0, v)";
    try {
      joined.transform(L0.pipeline(twice).on("x").as("y"));
      check(false, "ambiguous x accepted");
    } catch (Exception e) {
      System.out.println("  ambiguous: " + e.getMessage());
      check(e.getMessage().contains("ambiguous") && e.getMessage().contains("J10ColumnNamesAfterJoin.java:"), "ambiguous column after join is a planning error at the call site");
    }
    Dataset<Row> picked = joined.select(a.col("id"), b.col("x").as("x2"), b.col("`a.b`"));
    Dataset<Row> out = picked.transform(L0.pipeline(twice).on("X2").as("y").carry("id", "x2"));
    check(out.where("y <> x2 * 2.0").count() == 0 && out.count() == 100, "case-insensitive name after select/alias");
    Dataset<Row> dotted = picked.transform(L0.pipeline(twice).on("a.b").as("y").carry("`a.b`"));
    check(dotted.where("y <> `a.b` * 2.0").count() == 0, "a column named a.b by its whole name");
    Dataset<Row> quoted = picked.transform(L0.pipeline(twice).on("`a.b`").as("y"));
    check(quoted.count() == 100, "backticked a.b");
    spark.stop();
    System.out.println(failures == 0 ? "J10 PASS" : "J10 FAIL " + failures);
    System.exit(failures == 0 ? 0 : 1);
  }
}
