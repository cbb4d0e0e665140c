package dev.l0.jobs;

import java.util.Arrays;
import java.util.Optional;
import org.apache.spark.SparkConf;
import org.apache.spark.sql.SparkSession;

/**
 * The SparkSession every job of this package runs in, with L0's SQL extension, plugin and Kryo
 * registrator switched on. The master is the job's argument if it has one, else the one {@code
 * spark-submit} set, else {@value #DEFAULT_MASTER}; settings given to {@code spark-submit} are
 * kept, and L0's classes are added to any extensions or plugins listed there. A master URL Spark
 * cannot parse is an {@link UnknownMasterException}, which each job reports as a usage error.
 */
public final class JobSessions {
  static final String DEFAULT_MASTER = "local[2]";
  static final String EXTENSIONS = "dev.l0.spark.L0Extensions";
  static final String PLUGIN = "dev.l0.spark.L0Plugin";
  static final String KRYO_REGISTRATOR = "dev.l0.spark.L0KryoRegistrator";

  /** How Spark's error for a master URL it cannot parse starts. */
  static final String UNPARSED_MASTER = "Could not parse Master URL";

  private JobSessions() {}

  /** A master URL Spark cannot parse: the job's command line is wrong, not its run. */
  public static final class UnknownMasterException extends IllegalArgumentException {
    UnknownMasterException(String master, Throwable cause) {
      super("'" + master + "' is no Spark master URL", cause);
    }
  }

  public static SparkSession start(String appName, Optional<String> master) {
    SparkConf conf = new SparkConf(); // reads the spark.* system properties spark-submit sets
    master.ifPresent(conf::setMaster);
    conf.setIfMissing("spark.master", DEFAULT_MASTER);
    conf.setIfMissing("spark.app.name", appName);
    addToList(conf, "spark.sql.extensions", EXTENSIONS);
    addToList(conf, "spark.plugins", PLUGIN);
    conf.setIfMissing("spark.serializer", "org.apache.spark.serializer.KryoSerializer");
    addToList(conf, "spark.kryo.registrator", KRYO_REGISTRATOR);
    conf.setIfMissing("spark.ui.enabled", "false");
    try {
      return SparkSession.builder().config(conf).getOrCreate();
    } catch (Exception e) { // Spark's SparkException, undeclared
      if (String.valueOf(e.getMessage()).startsWith(UNPARSED_MASTER)) {
        throw new UnknownMasterException(conf.get("spark.master"), e);
      }
      throw e;
    }
  }

  /** Adds {@code className} to the comma-separated list under {@code key}, unless it is there. */
  private static void addToList(SparkConf conf, String key, String className) {
    String current = conf.get(key, "").trim();
    if (current.isEmpty()) {
      conf.set(key, className);
    } else if (Arrays.stream(current.split(",")).map(String::trim).noneMatch(className::equals)) {
      conf.set(key, current + "," + className);
    }
  }
}
