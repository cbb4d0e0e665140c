import dev.l0.spark.L0;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.RowFactory;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.types.DataTypes;
import org.apache.spark.sql.types.StructType;

/** Bad input as a user would write it: every error must name the column / call site / line:col. */
public class J6BadInput {
  static int failures = 0;

  static void check(boolean ok, String what) {
    System.out.println((ok ? "ok   " : "FAIL ") + what);
    if (!ok) failures++;
  }

  static String messages(Throwable e) {
    StringBuilder b = new StringBuilder();
    for (Throwable t = e; t != null; t = t.getCause()) {
      String m = String.valueOf(t.getMessage());
      int nl = m.indexOf("\n\tat ");
      b.append(" | ").append(t.getClass().getSimpleName()).append(": ").append(nl < 0 ? m : m.substring(0, nl));
    }
    return b.toString();
  }

  interface Action { void run() throws Exception; }

  static void expectError(String what, Action a, String... mustContain) {
    try {
      a.run();
      check(false, what + ": no error");
    } catch (Throwable e) {
      String m = messages(e);
      boolean ok = true;
      for (String s : mustContain) ok &= m.contains(s);
      System.out.println("  " + what + " ->" + m.substring(0, Math.min(m.length(), 700)));
      check(ok, what + " names " + String.join(", ", mustContain));
    }
  }

  public static void main(String[] args) throws Exception {
    SparkSession spark = SparkSession.builder().master("local[2]")
        .config("spark.sql.extensions", "dev.l0.spark.L0Extensions").getOrCreate();
    StructType schema = new StructType()
        .add("qty", DataTypes.IntegerType, true)
        .add("price", DataTypes.DoubleType, true)
        .add("name", DataTypes.StringType, true);
    List<Row> rows = new ArrayList<>();
    for (int i = 0; i < 100; i++) rows.add(RowFactory.create(i, i == 42 ? null : i * 1.5, "n" + i));
    Dataset<Row> df = spark.createDataFrame(rows, schema).repartition(2);
    String mul = "fun [f64] main([f64] q, [f64] p) = map(op *, zip(q, p))";
    String mulI = "fun [f64] main([i32] q, [f64] p) = map(fn f64 (i32 q, f64 p) => f64(q) * p, zip(q, p))";

    expectError("wrong column name", () -> df.transform(L0.pipeline(mulI).on("qty", "prize").as("v")),
        "prize", "J6BadInput.java:", "price");
    expectError("wrong column type (int column to [f64])", () -> df.transform(L0.pipeline(mul).on("qty", "price").as("v")),
        "qty", "J6BadInput.java:");
    expectError("string column", () -> df.transform(L0.pipeline(mulI).on("qty", "name").as("v")),
        "name", "J6BadInput.java:");
    expectError("too few columns", () -> df.transform(L0.pipeline(mulI).on("qty").as("v")),
        "J6BadInput.java:");
    expectError("type error in program", () -> df.transform(L0.pipeline(
        "fun [f64] main([i32] q, [f64] p) =\n  map(fn f64 (i32 q, f64 p) => q * p, zip(q, p))").on("qty", "price").as("v")),
        "J6BadInput.java:", ":2:");
    expectError("null without nullAs", () -> df.transform(L0.pipeline(mulI).on("qty", "price").as("v")).collectAsList(),
        "J6BadInput.java:", "price", "row");
    expectError("nullAs wrong type", () -> df.transform(L0.pipeline(mulI).on("qty", "price").as("v").nullAs("qty", 0.5)),
        "qty", "0.5");
    expectError("nullAs unknown column", () -> df.transform(L0.pipeline(mulI).on("qty", "price").as("v").nullAs("pricee", 0.0)),
        "pricee", "J6BadInput.java:");
    String bound = "fun [f64] main(f64 scale, [f64] p) = map(fn f64 (f64 p) => scale * p, p)";
    expectError("binding wrong type (Integer for f64)", () -> df.transform(L0.pipeline(bound).with("scale", 2).on("price").as("v")),
        "scale", "f64", "J6BadInput.java:");
    expectError("binding unknown parameter", () -> df.transform(L0.pipeline(bound).with("scal", 2.0).on("price").as("v")),
        "scal", "J6BadInput.java:");
    expectError("binding array for scalar", () -> df.transform(L0.pipeline(bound).with("scale", new double[] {1}).on("price").as("v")),
        "scale", "J6BadInput.java:");
    expectError("irregular double[][] binding", () -> df.transform(L0.pipeline(
        "fun [f64] main([[f64]] m, [f64] p) = map(fn f64 (f64 p) => m[0, 0] * p, p)").with("m", new double[][] {{1, 2}, {3}}).on("price").as("v")),
        "m", "J6BadInput.java:");
    expectError("scalar left to a column", () -> df.transform(L0.pipeline(bound).on("price", "price").as("v")),
        "with(\"scale\"", "J6BadInput.java:");
    expectError("division by zero in a task", () -> df.transform(L0.pipeline(
        "fun [i32] main([i32] q) =\n  map(fn i32 (i32 q) => 100 / (q - 57), q)").on("qty").as("v")).collectAsList(),
        "J6BadInput.java:", ":2:", "division by zero", "row");
    // already written output survives a failing job
    Path dir = Files.createTempDirectory("j6");
    String good = dir.resolve("good").toString();
    df.transform(L0.pipeline(mulI).on("qty", "price").as("v").nullAs("price", 0.0)).write().parquet(good);
    long before = spark.read().parquet(good).count();
    String next = dir.resolve("next").toString();
    expectError("failing write to a new path", () -> df.transform(L0.pipeline(mulI).on("qty", "price").as("v")).write().parquet(next),
        "J6BadInput.java:", "price");
    check(spark.read().parquet(good).count() == before, "earlier output intact (" + before + " rows)");
    check(!Files.exists(Path.of(next, "_SUCCESS")), "no _SUCCESS for the failed output");
    expectError("failing append to the good path", () -> df.transform(L0.pipeline(mulI).on("qty", "price").as("v")).write().mode("append").parquet(good),
        "J6BadInput.java:", "price");
    check(spark.read().parquet(good).count() == before, "earlier output intact after failed append");
    spark.stop();
    System.out.println(failures == 0 ? "J6 PASS" : "J6 FAIL " + failures);
    System.exit(failures == 0 ? 0 : 1);
  }
}
