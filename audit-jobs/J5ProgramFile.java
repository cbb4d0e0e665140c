import dev.l0.spark.L0;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;

/** An L0 program in the thesis's syntax read from a file, with a named entry; a syntax error in a file. */
public class J5ProgramFile {
  static int failures = 0;

  static void check(boolean ok, String what) {
    System.out.println((ok ? "ok   " : "FAIL ") + what);
    if (!ok) failures++;
  }

  public static void main(String[] args) throws Exception {
    SparkSession spark = SparkSession.builder().master("local[2]")
        .config("spark.sql.extensions", "dev.l0.spark.L0Extensions").getOrCreate();
    Dataset<Row> flows = spark.range(0, 1000, 1, 2).selectExpr("0.01 + CAST(id % 7 AS DOUBLE) / 100.0 AS rate",
        "CAST(id % 30 AS DOUBLE) / 4.0 AS years", "CAST(id AS DOUBLE) * 10.0 AS amount");
    // as a user who found no file overload would: read the text
    String text = Files.readString(Path.of("programs/discount.l0"));
    Dataset<Row> out = flows.transform(L0.pipeline(text).entry("pv").on("rate", "years", "amount").as("df", "pv").carry("rate", "years", "amount"));
    int bad = 0;
    for (Row r : out.collectAsList()) {
      double df = StrictMath.exp(-r.getDouble(0) * r.getDouble(1));
      if (df != r.getDouble(3) || df * r.getDouble(2) != r.getDouble(4)) bad++;
    }
    check(bad == 0, "file program (entry pv) bit-identical to StrictMath (" + bad + " bad)");
    // the Path overload (L0.pipeline(Path)) cites the file name
    Dataset<Row> out2 = flows.transform(L0.pipeline(Path.of("programs/discount.l0")).entry("pv").on("rate", "years", "amount").as("df", "pv"));
    check(out2.count() == 1000, "L0.pipeline(Path) runs");
    try {
      flows.transform(L0.pipeline(Path.of("programs/broken.l0")).on("rate").as("y"));
      check(false, "syntax error accepted");
    } catch (Exception e) {
      System.out.println("  broken file: " + e.getMessage());
      check(e.getMessage().contains("broken.l0:2:") && e.getMessage().contains("J5ProgramFile.java:"), "syntax error names file:line:col and call site");
    }
    try {
      flows.transform(L0.pipeline(Files.readString(Path.of("programs/broken.l0"))).on("rate").as("y"));
      check(false, "syntax error accepted");
    } catch (Exception e) {
      System.out.println("  broken text: " + e.getMessage());
      check(e.getMessage().contains(":2:") && e.getMessage().contains("J5ProgramFile.java:"), "syntax error in text names line:col and call site");
    }
    try {
      flows.transform(L0.pipeline(Path.of("programs/missing.l0")).on("rate").as("y"));
      check(false, "missing file accepted");
    } catch (Exception e) {
      System.out.println("  missing file: " + e.getMessage());
      check(e.getMessage().contains("missing.l0") && e.getMessage().contains("J5ProgramFile.java:"), "missing file named with call site");
    }
    try {
      flows.transform(L0.pipeline(text).entry("nosuch").on("rate").as("y"));
      check(false, "unknown entry accepted");
    } catch (Exception e) {
      System.out.println("  unknown entry: " + e.getMessage());
      check(e.getMessage().contains("nosuch"), "unknown entry named");
    }
    spark.stop();
    System.out.println(failures == 0 ? "J5 PASS" : "J5 FAIL " + failures);
    System.exit(failures == 0 ? 0 : 1);
  }
}
