import static org.apache.spark.sql.functions.*;

import dev.l0.spark.ExactSums;
import dev.l0.spark.L0;
import java.util.List;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;

/** A filter pipeline, reduce aggregates (i32 wraps, i64, f64 exact), a scan over 3 partitions. */
public class J2FilterReduceScan {
  static int failures = 0;

  static void check(boolean ok, String what) {
    System.out.println((ok ? "ok   " : "FAIL ") + what);
    if (!ok) failures++;
  }

  public static void main(String[] args) {
    SparkSession spark = SparkSession.builder().master("local[2]")
        .config("spark.sql.extensions", "dev.l0.spark.L0Extensions").getOrCreate();
    Dataset<Row> df = spark.range(0, 100_000, 1, 3)
        .selectExpr("id", "CAST(id % 997 AS INT) AS k", "sin(CAST(id AS DOUBLE)) * 1e6 AS v");
    // filter
    Dataset<Row> filtered = df.transform(L0.pipeline(
        "fun {[i32], [f64]} main([i32] k, [f64] v) = unzip(filter(fn bool (i32 k, f64 v) => k % 7 = 3 && 0.0 < v, zip(k, v)))")
        .on("k", "v").as("k", "v"));
    Dataset<Row> expected = df.where("k % 7 = 3 AND v > 0").select("k", "v");
    check(filtered.count() == expected.count(), "filter count " + filtered.count() + " vs " + expected.count());
    check(filtered.exceptAll(expected).count() == 0 && expected.exceptAll(filtered).count() == 0,
        "filter rows equal Spark SQL's");
    List<Row> a = filtered.collectAsList(), b = expected.collectAsList();
    check(a.equals(b), "filter keeps physical order");
    // reduce: several aggregates at once
    String agg = """
        fun {i32, i64, f64, f64} main([i32] k, [f64] v) =
          {reduce(op +, 0, map(fn i32 (i32 k) => k * 100000, k)),
           reduce(op +, 0i64, map(fn i64 (i32 k) => i64(k), k)),
           reduce(op +, 0.0, v),
           reduce(fn f64 (f64 a, f64 b) => if a < b then b else a, -1.0e300, v)}
        """;
    Dataset<Row> r = df.transform(L0.pipeline(agg).on("k", "v").as("wrap", "sum", "fsum", "max").exactFloatSums());
    r.explain();
    Row got = r.first();
    Row want = df.agg(sum(col("k").multiply(100000)), sum("k"), ExactSums.exactSum(col("v")), max("v")).first();
    long wrapJava = 0; int w = 0;
    for (long i = 0; i < 100_000; i++) w += (int) (i % 997) * 100000;
    check(got.getInt(0) == w, "i32 sum wraps: " + got.getInt(0) + " vs java " + w + " (spark widens to " + want.get(0) + ")");
    check(got.getLong(1) == want.getLong(1), "i64 sum " + got.getLong(1) + " vs " + want.getLong(1));
    check(got.getDouble(2) == want.getDouble(2), "exact f64 sum " + got.getDouble(2) + " vs ExactSums " + want.getDouble(2));
    check(got.getDouble(3) == want.getDouble(3), "max " + got.getDouble(3) + " vs " + want.getDouble(3));
    // scan across partitions
    Dataset<Row> scanned = df.transform(L0.pipeline(
        "fun [i64] main([i64] id) = scan(op +, 0i64, id)").on("id").as("cum"));
    List<Row> cum = scanned.collectAsList();
    boolean ok = cum.size() == 100_000;
    long acc = 0;
    for (int i = 0; ok && i < cum.size(); i++) { acc += i; ok = cum.get(i).getLong(0) == acc; }
    check(ok, "scan of ids over 3 partitions = prefix sums");
    // a fused map -> reduce via two transforms
    Dataset<Row> fused = df.transform(L0.pipeline("fun [f64] main([f64] v) = map(fn f64 (f64 v) => v * 2.0, v)").on("v").as("v2"))
        .transform(L0.pipeline("fun f64 main([f64] v) = reduce(op +, 0.0, v)").on("v2").as("s").exactFloatSums());
    fused.explain();
    double fs = fused.first().getDouble(0);
    double ws = df.agg(ExactSums.exactSum(col("v").multiply(2.0))).first().getDouble(0);
    check(fs == ws, "fused map+reduce exact " + fs + " vs " + ws);
    // empty input to reduce
    Row empty = df.where("id < 0").transform(L0.pipeline("fun f64 main([f64] v) = reduce(op +, 0.0, v)").on("v").as("s")).first();
    check(empty.getDouble(0) == 0.0, "reduce over no rows gives neutral " + empty);
    spark.stop();
    System.out.println(failures == 0 ? "J2 PASS" : "J2 FAIL " + failures);
    System.exit(failures == 0 ? 0 : 1);
  }
}
