package dev.l0.newuser;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.l0.kernels.runtime.DeviceKind;
import dev.l0.kernels.runtime.DeviceSelector;
import dev.l0.spark.L0;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.function.Supplier;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;

/**
 * The session a new user's job starts, as "Running pipelines in Spark" in README.md shows it (the
 * SQL extension on a local master), with the test-only settings the other end-to-end tests use (no
 * UI, loopback host).
 */
final class NewUserSpark {
  private NewUserSpark() {}

  static SparkSession start(Class<?> owner) {
    return SparkSession.builder()
        .master("local[2]")
        .appName(owner.getSimpleName())
        .config("spark.sql.extensions", "dev.l0.spark.L0Extensions")
        .config("spark.ui.enabled", "false")
        .config("spark.driver.host", "127.0.0.1")
        .config("spark.driver.bindAddress", "127.0.0.1")
        .config("spark.sql.shuffle.partitions", "4")
        // managed tables under the module's build folder, not the folder the tests run in
        .config(
            "spark.sql.warehouse.dir",
            Path.of("target", "spark-warehouse").toAbsolutePath().toString())
        .getOrCreate();
  }

  /**
   * The message of what {@code action} throws, with its causes', for asserting what a user reads.
   */
  static String failure(Supplier<?> action) {
    try {
      action.get();
    } catch (Exception e) { // Spark rethrows its checked SparkException undeclared
      StringBuilder all = new StringBuilder();
      for (Throwable t = e; t != null; t = t.getCause()) {
        all.append(t.getClass().getName()).append(": ").append(t.getMessage()).append('\n');
      }
      return all.toString();
    }
    throw new AssertionError("expected a failure, but it ran");
  }

  /**
   * Asserts that {@code df}, after an action on it, ran its one pipeline in {@code tasks} tasks, on
   * the GPU where this machine's CUDA works, else on the JVM backend.
   */
  static void assertRan(Dataset<?> df, int tasks) {
    String explained = L0.explainString(df);
    String counted = tasks + (tasks == 1 ? " task" : " tasks");
    String ran =
        DeviceSelector.select(DeviceKind.AUTO).chosen() == DeviceKind.CUDA
            ? "\nran: " + counted + " on the GPU, 0 tasks on the JVM backend\n"
            : "\nran: 0 tasks on the GPU, " + counted + " on the JVM backend\n";
    assertTrue(explained.contains(ran), explained);
  }

  static void assertSameBits(double expected, double actual, String what) {
    assertEquals(
        Double.doubleToRawLongBits(expected),
        Double.doubleToRawLongBits(actual),
        what + ": expected " + expected + ", got " + actual);
  }

  static void assertSameBits(float expected, float actual, String what) {
    assertEquals(
        Float.floatToRawIntBits(expected),
        Float.floatToRawIntBits(actual),
        what + ": expected " + expected + ", got " + actual);
  }

  /**
   * {@code df}'s rows as strings, sorted: its rows as a multiset, to compare whatever the order.
   */
  static List<String> sorted(Dataset<Row> df) {
    List<String> rows = new ArrayList<>();
    for (Row row : df.collectAsList()) {
      rows.add(row.toString());
    }
    rows.sort(Comparator.naturalOrder());
    return rows;
  }
}
