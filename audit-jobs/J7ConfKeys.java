import static org.apache.spark.sql.functions.*;

import dev.l0.spark.ExactSums;
import dev.l0.spark.L0;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;

/** The spark.l0.* keys of README's table: defaults, documented effects, bad values. */
public class J7ConfKeys {
  static int failures = 0;

  static void check(boolean ok, String what) {
    System.out.println((ok ? "ok   " : "FAIL ") + what);
    if (!ok) failures++;
  }

  static String messages(Throwable e) {
    StringBuilder b = new StringBuilder();
    for (Throwable t = e; t != null; t = t.getCause()) {
      String m = String.valueOf(t.getMessage());
      int nl = m.indexOf("\n");
      b.append(" | ").append(t.getClass().getSimpleName()).append(": ").append(nl < 0 ? m : m.substring(0, nl));
    }
    return b.toString();
  }

  static String plan(Dataset<Row> df) {
    return ((org.apache.spark.sql.classic.Dataset<Row>) df).queryExecution().executedPlan().toString();
  }

  public static void main(String[] args) {
    SparkSession spark = SparkSession.builder().master("local[2]")
        .config("spark.sql.extensions", "dev.l0.spark.L0Extensions")
        .config("spark.plugins", "dev.l0.spark.L0Plugin")
        .config("spark.l0.programCache.maxPrograms", "3")
        .config("spark.l0.gpu.concurrentTasks", "2")
        .getOrCreate();
    Dataset<Row> df = spark.range(0, 200_000, 1, 2).selectExpr("sin(CAST(id AS DOUBLE)) * 1e10 + 1e-3 * id AS v");
    String sum = "fun f64 main([f64] v) = reduce(op +, 0.0, v)";
    String twice = "fun [f64] main([f64] v) = map(fn f64 (f64 x) => x * 2.0, v)";
    // spark.l0.device
    String p = plan(df.transform(L0.pipeline(twice).on("v").as("w")));
    check(p.contains("device=auto"), "default device auto: " + p.lines().filter(l -> l.contains("L0Pipeline")).findFirst().orElse(p));
    spark.conf().set("spark.l0.device", "jvm");
    p = plan(df.transform(L0.pipeline(twice).on("v").as("w")));
    check(p.contains("device=jvm"), "spark.l0.device=jvm shows in the plan");
    spark.conf().set("spark.l0.device", "cuda");
    try {
      long n = df.transform(L0.pipeline(twice).on("v").as("w")).count();
      check(false, "device=cuda without CUDA ran " + n);
    } catch (Exception e) {
      System.out.println("  cuda:" + messages(e).substring(0, Math.min(600, messages(e).length())));
      check(messages(e).toLowerCase().contains("cuda"), "device=cuda without CUDA is an error naming CUDA");
    }
    spark.conf().set("spark.l0.device", "gpu");
    try {
      df.transform(L0.pipeline(twice).on("v").as("w")).count();
      check(false, "device=gpu accepted");
    } catch (Exception e) {
      System.out.println("  bad device:" + messages(e));
      check(messages(e).contains("spark.l0.device") && messages(e).contains("gpu"), "bad device value names key and value");
    }
    spark.conf().unset("spark.l0.device");
    // spark.l0.batchRows: float sum depends on it, exact sums do not
    double dflt = df.transform(L0.pipeline(sum).on("v").as("s")).first().getDouble(0);
    spark.conf().set("spark.l0.batchRows", "7");
    double small = df.transform(L0.pipeline(sum).on("v").as("s")).first().getDouble(0);
    double smallExact = df.transform(L0.pipeline(sum).on("v").as("s").exactFloatSums()).first().getDouble(0);
    spark.conf().set("spark.l0.batchRows", "0");
    try {
      df.transform(L0.pipeline(sum).on("v").as("s")).first();
      check(false, "batchRows=0 accepted");
    } catch (Exception e) {
      System.out.println("  batchRows=0:" + messages(e));
      check(messages(e).contains("spark.l0.batchRows"), "batchRows=0 names the key");
    }
    spark.conf().set("spark.l0.batchRows", "lots");
    try {
      df.transform(L0.pipeline(sum).on("v").as("s")).first();
      check(false, "batchRows=lots accepted");
    } catch (Exception e) {
      System.out.println("  batchRows=lots:" + messages(e));
      check(messages(e).contains("spark.l0.batchRows") && messages(e).contains("lots"), "batchRows=lots names key and value");
    }
    spark.conf().unset("spark.l0.batchRows");
    double exact = df.agg(ExactSums.exactSum(col("v"))).first().getDouble(0);
    double defaultExact = df.transform(L0.pipeline(sum).on("v").as("s").exactFloatSums()).first().getDouble(0);
    System.out.println("  sums: default " + dflt + ", batchRows=7 " + small + ", exact " + exact);
    check(smallExact == exact && defaultExact == exact, "exactFloatSums() same bits for batchRows 7 and default");
    // spark.l0.exactFloatSums
    spark.conf().set("spark.l0.exactFloatSums", "true");
    Dataset<Row> s2 = df.transform(L0.pipeline(sum).on("v").as("s"));
    check(s2.first().getDouble(0) == exact && plan(s2).contains("exact float sums"), "spark.l0.exactFloatSums=true makes the sum exact");
    Dataset<Row> noSum = df.transform(L0.pipeline(twice).on("v").as("w"));
    check(noSum.count() == 200_000, "spark.l0.exactFloatSums=true: no error for a map pipeline");
    spark.conf().set("spark.l0.exactFloatSums", "yes");
    try {
      df.transform(L0.pipeline(sum).on("v").as("s")).first();
      check(false, "exactFloatSums=yes accepted");
    } catch (Exception e) {
      System.out.println("  exactFloatSums=yes:" + messages(e));
      check(messages(e).contains("spark.l0.exactFloatSums"), "exactFloatSums=yes names the key");
    }
    spark.conf().unset("spark.l0.exactFloatSums");
    // spark.l0.aggregate.fused
    Dataset<Row> agg = df.transform(L0.pipeline(twice).on("v").as("w")).agg(sum("w"), count(lit(1)), avg("w"));
    Row a1 = agg.collectAsList().get(0);
    String fusedPlan = plan(agg);
    spark.conf().set("spark.l0.aggregate.fused", "false");
    Dataset<Row> agg2 = df.transform(L0.pipeline(twice).on("v").as("w")).agg(sum("w"), count(lit(1)), avg("w"));
    Row a2 = agg2.collectAsList().get(0);
    String plainPlan = plan(agg2);
    Row sparkOwn = df.selectExpr("v * 2.0 AS w").agg(sum("w"), count(lit(1)), avg("w")).first();
    check(fusedPlan.contains("L0PartialAggregate") && !plainPlan.contains("L0PartialAggregate"),
        "aggregate.fused true/false switches L0PartialAggregate:\n" + fusedPlan + "\n" + plainPlan);
    check(a1.equals(a2) && a1.equals(sparkOwn), "fused aggregate equals Spark's bits: " + a1 + " / " + a2 + " / " + sparkOwn);
    spark.conf().unset("spark.l0.aggregate.fused");
    // jvm.batchRows: a per-row pipeline's batches; metrics not read here, just run with a tiny value
    spark.conf().set("spark.l0.jvm.batchRows", "3");
    Dataset<Row> tiny = df.transform(L0.pipeline(twice).on("v").as("w").carry("v")).selectExpr("w = v * 2.0 AS same", "v");
    check(tiny.where("NOT same").count() == 0, "jvm.batchRows=3 gives the same rows");
    spark.conf().unset("spark.l0.jvm.batchRows");
    // programCache.maxPrograms=3: more programs than that still run
    for (int i = 0; i < 5; i++) {
      String prog = "fun [f64] main([f64] v) = map(fn f64 (f64 x) => x + " + i + ".0, v)";
      check(df.transform(L0.pipeline(prog).on("v").as("w").carry("v")).where("w <> v + " + i + ".0").count() == 0, "program " + i + " with a cache of 3");
    }
    spark.stop();
    System.out.println(failures == 0 ? "J7 PASS" : "J7 FAIL " + failures);
    System.exit(failures == 0 ? 0 : 1);
  }
}
