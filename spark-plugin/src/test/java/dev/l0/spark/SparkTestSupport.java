package dev.l0.spark;

import dev.l0.spark.plan.L0PipelineExec;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.apache.spark.api.java.JavaSparkContext;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.execution.SparkPlan;
import org.apache.spark.sql.execution.adaptive.AdaptiveSparkPlanExec;
import org.apache.spark.sql.execution.adaptive.QueryStageExec;
import org.apache.spark.sql.types.StructType;
import scala.jdk.javaapi.CollectionConverters;

/**
 * What the Spark tests of this module share: a local[2] session with the extension, data frames in
 * a known order, plan search.
 */
final class SparkTestSupport {
  private SparkTestSupport() {}

  /** A new local[2] session with the L0 extension and {@code settings} on top. */
  static SparkSession startSession(Class<?> testClass, Map<String, String> settings) {
    SparkSession.Builder builder =
        SparkSession.builder()
            .master("local[2]")
            .appName(testClass.getSimpleName())
            .config("spark.ui.enabled", "false")
            .config("spark.sql.shuffle.partitions", "2")
            .config("spark.sql.extensions", L0Extensions.class.getName());
    settings.forEach(builder::config);
    return builder.getOrCreate();
  }

  static void stopSession(SparkSession spark) {
    spark.stop();
    SparkSession.clearActiveSession();
    SparkSession.clearDefaultSession();
  }

  /**
   * {@code rows} as a data frame of {@code partitions} partitions that keeps their order (partition
   * by partition).
   */
  static Dataset<Row> frame(SparkSession spark, List<Row> rows, StructType schema, int partitions) {
    JavaSparkContext context = JavaSparkContext.fromSparkContext(spark.sparkContext());
    return spark.createDataFrame(context.parallelize(rows, partitions), schema);
  }

  /**
   * The L0 pipeline nodes of the executed physical plan (through adaptive execution and query
   * stages).
   */
  static List<L0PipelineExec> pipelineExecs(Dataset<Row> df) {
    return execs(df, L0PipelineExec.class);
  }

  /**
   * The nodes of class {@code type} in the executed physical plan (through adaptive execution and
   * query stages; after an action, the plan that ran).
   */
  static <T extends SparkPlan> List<T> execs(Dataset<Row> df, Class<T> type) {
    List<T> found = new ArrayList<>();
    collect(
        ((org.apache.spark.sql.classic.Dataset<Row>) df).queryExecution().executedPlan(),
        type,
        found);
    return found;
  }

  private static <T extends SparkPlan> void collect(SparkPlan plan, Class<T> type, List<T> found) {
    if (type.isInstance(plan)) {
      found.add(type.cast(plan));
    }
    if (plan instanceof AdaptiveSparkPlanExec) {
      collect(((AdaptiveSparkPlanExec) plan).executedPlan(), type, found);
    }
    if (plan instanceof QueryStageExec) {
      collect(((QueryStageExec) plan).plan(), type, found);
    }
    for (SparkPlan child : CollectionConverters.asJava(plan.children())) {
      collect(child, type, found);
    }
  }

  /** The text of a class-path resource, e.g. {@code /programs/p0_blackscholes.l0}. */
  static String resource(String path) {
    try (InputStream in = SparkTestSupport.class.getResourceAsStream(path)) {
      if (in == null) {
        throw new IllegalArgumentException("no resource " + path);
      }
      return new String(in.readAllBytes(), StandardCharsets.UTF_8);
    } catch (IOException e) {
      throw new IllegalStateException("cannot read " + path, e);
    }
  }

  /** The messages of {@code error} and all its causes, one per line. */
  static String messages(Throwable error) {
    StringBuilder text = new StringBuilder();
    for (Throwable t = error; t != null; t = t.getCause()) {
      text.append(t.getClass().getName()).append(": ").append(t.getMessage()).append('\n');
    }
    return text.toString();
  }
}
