import dev.l0.spark.L0;
import java.util.ArrayList;
import java.util.List;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.RowFactory;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.types.DataTypes;
import org.apache.spark.sql.types.StructType;

/** Driver-side values bound with `with` (scalar, 1-D and 2-D arrays) and nulls replaced by nullAs. */
public class J3WithAndNulls {
  static int failures = 0;

  static void check(boolean ok, String what) {
    System.out.println((ok ? "ok   " : "FAIL ") + what);
    if (!ok) failures++;
  }

  public static void main(String[] args) {
    SparkSession spark = SparkSession.builder().master("local[2]")
        .config("spark.sql.extensions", "dev.l0.spark.L0Extensions").getOrCreate();
    StructType schema = new StructType()
        .add("bucket", DataTypes.IntegerType, true)
        .add("amount", DataTypes.DoubleType, true)
        .add("w", DataTypes.FloatType, true);
    List<Row> rows = new ArrayList<>();
    for (int i = 0; i < 5000; i++) {
      rows.add(RowFactory.create(i % 11 == 0 ? null : i % 4, i % 13 == 0 ? null : i * 0.25, i % 17 == 0 ? null : (float) (i % 5)));
    }
    Dataset<Row> df = spark.createDataFrame(rows, schema).repartition(3);
    double[] rates = {0.01, 0.02, 0.03, 0.04};
    double[][] matrix = {{1.0, 2.0}, {3.0, 4.0}, {5.0, 6.0}, {7.0, 8.0}};
    String program = """
        fun {[f64], [f32]} main([f64] rates, [[f64]] m, f64 scale, i64 shift, [i32] bucket, [f64] amount, [f32] w) =
          unzip(map(fn {f64, f32} (i32 b, f64 a, f32 w) =>
                 {scale * a * exp(-rates[b]) + m[b, 1] + f64(shift), w * 0.1f32},
               zip(bucket, amount, w)))
        """;
    Dataset<Row> out = df.transform(L0.pipeline(program)
        .with("rates", rates).with("m", matrix).with("scale", 2.0).with("shift", 5L)
        .on("bucket", "amount", "w").as("v", "w10")
        .nullAs("bucket", 3).nullAs("amount", -1.0).nullAs("w", 0.1)
        .carry("bucket", "amount", "w"));
    rates[0] = 99.0; // the values were copied when planning
    List<Row> res = out.collectAsList();
    int bad = 0;
    for (Row r : res) {
      int b = r.isNullAt(0) ? 3 : r.getInt(0);
      double a = r.isNullAt(1) ? -1.0 : r.getDouble(1);
      float w = r.isNullAt(2) ? 0.1f : r.getFloat(2);
      double v = 2.0 * a * StrictMath.exp(-new double[] {0.01, 0.02, 0.03, 0.04}[b]) + matrix[b][1] + 5.0;
      if (Double.doubleToRawLongBits(v) != Double.doubleToRawLongBits(r.getDouble(3))
          || Float.floatToRawIntBits(w * 0.1f) != Float.floatToRawIntBits(r.getFloat(4))) {
        if (bad++ < 3) System.out.println("  mismatch " + r + " want " + v + ", " + (w * 0.1f));
      }
    }
    check(res.size() == 5000 && bad == 0, "with + nullAs values bit-identical (" + bad + " bad), nulls kept in carried columns: "
        + res.stream().filter(r -> r.isNullAt(0)).count());
    // same values bound again with different data: the compiled program is shared, results differ
    Dataset<Row> out2 = df.transform(L0.pipeline(program)
        .with("rates", new double[] {0, 0, 0, 0}).with("m", matrix).with("scale", 1.0).with("shift", 0L)
        .on("bucket", "amount", "w").as("v", "w10").nullAs("bucket", 0).nullAs("amount", 0.0).nullAs("w", 0.0));
    check(out2.where("v IS NULL").count() == 0 && out2.count() == 5000, "second binding runs");
    spark.stop();
    System.out.println(failures == 0 ? "J3 PASS" : "J3 FAIL " + failures);
    System.exit(failures == 0 ? 0 : 1);
  }
}
