package dev.l0.spark.endtoend;

import org.apache.spark.sql.SparkSession;

/**
 * The Spark configuration every end-to-end test starts from: an in-process local master with the L0
 * SQL extension and Kryo with L0's registrator, as conf/spark-defaults.conf.template sets them.
 */
final class LocalSpark {
  static final String L0_PLUGIN = "dev.l0.spark.L0Plugin";

  private LocalSpark() {}

  /**
   * A builder for a session on {@code local[threads]} named after {@code owner}; callers may add
   * settings.
   */
  static SparkSession.Builder builder(Class<?> owner, int threads) {
    return SparkSession.builder()
        .master("local[" + threads + "]")
        .appName(owner.getSimpleName())
        .config("spark.sql.extensions", "dev.l0.spark.L0Extensions")
        .config("spark.serializer", "org.apache.spark.serializer.KryoSerializer")
        .config("spark.kryo.registrator", "dev.l0.spark.L0KryoRegistrator")
        .config("spark.ui.enabled", "false")
        .config("spark.driver.host", "127.0.0.1")
        .config("spark.driver.bindAddress", "127.0.0.1");
  }
}
