import static dev.l0.dsl.L0.*;

import dev.l0.dsl.Arr;
import dev.l0.dsl.F64;
import dev.l0.ir.Program;
import dev.l0.spark.L0;
import java.util.ArrayList;
import java.util.List;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.RowFactory;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.types.DataTypes;
import org.apache.spark.sql.types.StructType;

/** Java DSL pipeline, struct columns and nullAs on a struct leaf, all binding array types, fused chain. */
public class J8DslStructsBindings {
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

  public static void main(String[] args) {
    SparkSession spark = SparkSession.builder().master("local[2]")
        .config("spark.sql.extensions", "dev.l0.spark.L0Extensions").getOrCreate();
    StructType leg = new StructType().add("notional", DataTypes.DoubleType, true).add("rate", DataTypes.FloatType, true);
    StructType schema = new StructType().add("id", DataTypes.IntegerType, false).add("leg", leg, true)
        .add("flag", DataTypes.BooleanType, true).add("n", DataTypes.LongType, true);
    List<Row> rows = new ArrayList<>();
    for (int i = 0; i < 3000; i++) {
      rows.add(RowFactory.create(i, RowFactory.create(i % 9 == 0 ? null : 1000.0 + i, (float) (i % 7) / 100f),
          i % 5 == 0 ? null : i % 2 == 0, i % 11 == 0 ? null : (long) i * 1_000_000_007L));
    }
    Dataset<Row> df = spark.createDataFrame(rows, schema).repartition(3);
    // struct column = one parameter per leaf; nullAs on the struct leaf and bool/long columns
    String prog = """
        fun {[f64], [i64]} main([f64] notional, [f32] rate, [bool] flag, [i64] n, [f32] adj, [i64] steps, [bool] mask, [i32] idx) =
          unzip(map(fn {f64, i64} (f64 a, f32 r, bool f, i64 n) =>
                 {if f && mask[0] then a * f64(r + adj[idx[1]]) else -a, n + steps[2]},
               zip(notional, rate, flag, n)))
        """;
    Dataset<Row> out = df.transform(L0.pipeline(prog)
        .with("adj", new float[] {0.5f, 0.25f}).with("steps", new long[] {1, 2, 3}).with("mask", new boolean[] {true})
        .with("idx", new int[] {0, 1})
        .on("leg", "flag", "n").as("v", "m")
        .nullAs("leg.notional", 1.0).nullAs("flag", true).nullAs("n", -1L).carry("id", "leg", "flag", "n"));
    int bad = 0;
    List<Row> res = out.collectAsList();
    for (Row r : res) {
      Row l = r.getStruct(1);
      double a = l.isNullAt(0) ? 1.0 : l.getDouble(0);
      float rate = l.getFloat(1);
      boolean f = r.isNullAt(2) ? true : r.getBoolean(2);
      long n = r.isNullAt(3) ? -1L : r.getLong(3);
      double v = f ? a * (double) (rate + 0.25f) : -a;
      if (v != r.getDouble(4) || n + 3 != r.getLong(5)) {
        if (bad++ < 3) System.out.println("  mismatch " + r + " want " + v);
      }
    }
    check(res.size() == 3000 && bad == 0, "struct leaves, nullAs on leg.notional/bool/long, float[]/long[]/boolean[]/int[] bindings (" + bad + " bad)");
    // nullAs nearest float, and out-of-range values
    try {
      df.transform(L0.pipeline(prog).with("adj", new float[] {0.5f, 0.25f}).with("steps", new long[] {1, 2, 3})
          .with("mask", new boolean[] {true}).with("idx", new int[] {0, 1}).on("leg", "flag", "n").as("v", "m")
          .nullAs("leg.rate", 1.0E300));
      check(false, "nullAs 1e300 for a float accepted");
    } catch (Exception e) {
      System.out.println("  nullAs 1e300:" + messages(e));
      check(messages(e).contains("leg.rate") && messages(e).contains("J8DslStructsBindings.java:"), "nullAs 1e300 on a float leaf names leg.rate and call site");
    }
    try {
      df.transform(L0.pipeline(prog).with("adj", new double[] {0.5, 0.25}).with("steps", new long[] {1, 2, 3})
          .with("mask", new boolean[] {true}).with("idx", new int[] {0, 1}).on("leg", "flag", "n").as("v", "m"));
      check(false, "double[] for [f32] accepted");
    } catch (Exception e) {
      System.out.println("  double[] for [f32]:" + messages(e));
      check(messages(e).contains("adj") && messages(e).contains("double[]"), "double[] for [f32] names both types");
    }
    // Java DSL program, chained transforms fused through a select
    Program pv = program(p -> p.fun("main", Arr.of(F64.TYPE), Arr.of(F64.TYPE), (amounts, years) ->
        map(zip(amounts, years), (amount, t) -> amount.mul(t.mul(-0.05).exp()))));
    Dataset<Row> flows = spark.range(0, 10_000, 1, 4).selectExpr("CAST(id AS DOUBLE) AS amount", "CAST(id % 30 AS DOUBLE) AS years");
    Dataset<Row> chained = flows.transform(L0.pipeline(pv).on("amount", "years").as("pv")).select("pv")
        .transform(L0.pipeline("fun f64 main([f64] pv) = reduce(op +, 0.0, pv)").on("pv").as("total").exactFloatSums());
    String plan = ((org.apache.spark.sql.classic.Dataset<Row>) chained).queryExecution().executedPlan().toString();
    System.out.println(plan);
    double total = chained.first().getDouble(0);
    double[] values = new double[10_000];
    for (int i = 0; i < values.length; i++) values[i] = i * StrictMath.exp((i % 30) * -0.05);
    double want = new java.math.BigDecimal(0).doubleValue();
    java.math.BigDecimal exact = java.math.BigDecimal.ZERO;
    for (double v : values) exact = exact.add(new java.math.BigDecimal(v));
    want = exact.doubleValue();
    check(total == want, "DSL map + text reduce, exact: " + total + " vs " + want);
    check(plan.split("L0Pipeline", -1).length == 2, "two transforms through a select fuse into one L0Pipeline node");
    // DSL type error reported at the Java line
    try {
      Program badProg = program(p -> p.fun("main", Arr.of(F64.TYPE), (xs) -> p.call("main", Arr.of(F64.TYPE), xs, xs)));
      flows.transform(L0.pipeline(badProg).on("amount").as("x"));
      check(false, "bad DSL program accepted");
    } catch (Exception e) {
      System.out.println("  bad DSL:" + messages(e));
      check(messages(e).contains("J8DslStructsBindings.java:"), "DSL error names the Java line");
    }
    spark.stop();
    System.out.println(failures == 0 ? "J8 PASS" : "J8 FAIL " + failures);
    System.exit(failures == 0 ? 0 : 1);
  }
}
