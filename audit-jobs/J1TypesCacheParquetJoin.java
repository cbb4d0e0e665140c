import static org.apache.spark.sql.functions.col;

import dev.l0.spark.L0;
import java.nio.file.Files;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.RowFactory;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.types.DataTypes;
import org.apache.spark.sql.types.StructType;

/** f32/f64/i32/i64/bool columns, several outputs, 4 partitions, cache, Parquet round trip, join. */
public class J1TypesCacheParquetJoin {
  static int failures = 0;

  static void check(boolean ok, String what) {
    System.out.println((ok ? "ok   " : "FAIL ") + what);
    if (!ok) failures++;
  }

  public static void main(String[] args) throws Exception {
    SparkSession spark = SparkSession.builder().master("local[2]")
        .config("spark.sql.extensions", "dev.l0.spark.L0Extensions").getOrCreate();
    StructType schema = new StructType()
        .add("id", DataTypes.LongType, false)
        .add("x", DataTypes.DoubleType, false)
        .add("f", DataTypes.FloatType, false)
        .add("k", DataTypes.IntegerType, false)
        .add("n", DataTypes.LongType, false)
        .add("b", DataTypes.BooleanType, false);
    List<Row> rows = new ArrayList<>();
    java.util.Random rnd = new java.util.Random(7);
    int count = 10_001;
    for (int i = 0; i < count; i++) {
      rows.add(RowFactory.create((long) i, rnd.nextDouble() * 50 + 0.01, rnd.nextFloat() * 3,
          rnd.nextInt(1000) - 500, rnd.nextLong() >> 20, rnd.nextBoolean()));
    }
    Dataset<Row> df = spark.createDataFrame(rows, schema).repartition(4);
    String program = """
        fun {[f64], [f32], [i32], [i64], [bool]} main([f64] x, [f32] f, [i32] k, [i64] n, [bool] b) =
          unzip(map(fn {f64, f32, i32, i64, bool} (f64 x, f32 f, i32 k, i64 n, bool b) =>
                 {exp(x / 10.0) + log(x) * sqrt(x), f * 2.0f32 + 1.0f32, k * 3 - 1, n + i64(k), b && 0 < k},
               zip(x, f, k, n, b)))
        """;
    Dataset<Row> out = df.transform(
        L0.pipeline(program).on("x", "f", "k", "n", "b").as("y", "g", "k3", "nk", "bk").carry("id", "x", "f", "k", "n", "b"));
    out.explain();
    out.cache();
    long c1 = out.count();
    List<Row> res = out.collectAsList();
    check(c1 == count && res.size() == count, "row count " + c1 + " / " + res.size());
    int bad = 0;
    for (Row r : res) {
      double x = r.getDouble(r.fieldIndex("x"));
      float f = r.getFloat(r.fieldIndex("f"));
      int k = r.getInt(r.fieldIndex("k"));
      long n = r.getLong(r.fieldIndex("n"));
      boolean b = r.getBoolean(r.fieldIndex("b"));
      double y = StrictMath.exp(x / 10.0) + StrictMath.log(x) * StrictMath.sqrt(x);
      if (Double.doubleToRawLongBits(y) != Double.doubleToRawLongBits(r.getDouble(r.fieldIndex("y")))
          || Float.floatToRawIntBits(f * 2.0f + 1.0f) != Float.floatToRawIntBits(r.getFloat(r.fieldIndex("g")))
          || k * 3 - 1 != r.getInt(r.fieldIndex("k3"))
          || n + k != r.getLong(r.fieldIndex("nk"))
          || (b && 0 < k) != r.getBoolean(r.fieldIndex("bk"))) {
        if (bad++ < 3) System.out.println("  mismatch row " + r);
      }
    }
    check(bad == 0, "every row bit-identical to StrictMath/Java (" + bad + " bad)");
    System.out.println("schema: " + out.schema().simpleString());
    // Spark SQL of the same (exp/log/sqrt of Spark are java.lang.Math, could differ in last bits)
    long sqlDiff = out.where(col("k3").notEqual(col("k").multiply(3).minus(1))
        .or(col("nk").notEqual(col("n").plus(col("k"))))).count();
    check(sqlDiff == 0, "integer outputs equal Spark SQL on the cached frame");
    // Parquet round trip
    java.nio.file.Path dir = Files.createTempDirectory("j1");
    String path = dir.resolve("out.parquet").toString();
    out.write().parquet(path);
    Dataset<Row> back = spark.read().parquet(path);
    check(back.schema().equals(out.schema()) || back.schema().simpleString().equals(out.schema().simpleString()),
        "parquet schema " + back.schema().simpleString());
    check(back.exceptAll(out).count() == 0 && out.exceptAll(back).count() == 0, "parquet round trip equal");
    // transform over the read-back Parquet (nullable columns now)
    Dataset<Row> again = back.transform(L0.pipeline(program).on("x", "f", "k", "n", "b").as("y2", "g2", "k32", "nk2", "bk2").carry("id", "y"));
    long diff2 = again.where(col("y2").notEqual(col("y"))).count();
    check(diff2 == 0, "pipeline over parquet (nullable cols) gives the same y");
    // join after transform
    Dataset<Row> labels = spark.range(0, count, 3).withColumnRenamed("id", "id").selectExpr("id", "concat('L', id) AS label");
    Dataset<Row> joined = out.join(labels, "id");
    check(joined.count() == (count + 2) / 3, "join after transform count " + joined.count());
    Map<Long, Double> ys = new HashMap<>();
    for (Row r : res) ys.put(r.getLong(r.fieldIndex("id")), r.getDouble(r.fieldIndex("y")));
    int jb = 0;
    for (Row r : joined.collectAsList()) {
      if (!ys.get(r.getLong(r.fieldIndex("id"))).equals(r.getDouble(r.fieldIndex("y")))) jb++;
      if (!r.getString(r.fieldIndex("label")).equals("L" + r.getLong(r.fieldIndex("id")))) jb++;
    }
    check(jb == 0, "joined rows keep their values");
    // reuse: a second transform on the cached DataFrame
    Dataset<Row> agg = out.transform(L0.pipeline("fun f64 main([f64] y) = reduce(op +, 0.0, y)").on("y").as("s"));
    double s = agg.first().getDouble(0);
    double js = 0; for (Row r : res) js += r.getDouble(r.fieldIndex("y"));
    check(Math.abs(s - js) <= 1e-9 * Math.abs(js), "reduce over cached frame " + s + " vs " + js);
    spark.stop();
    System.out.println(failures == 0 ? "J1 PASS" : "J1 FAIL " + failures);
    System.exit(failures == 0 ? 0 : 1);
  }
}
