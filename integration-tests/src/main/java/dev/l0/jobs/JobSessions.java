package dev.l0.jobs;

import java.util.Arrays;
import java.util.Optional;
import java.util.ServiceLoader;
import java.util.regex.Matcher;
import org.apache.spark.SparkConf;
import org.apache.spark.SparkMasterRegex;
import org.apache.spark.scheduler.ExternalClusterManager;
import org.apache.spark.sql.SparkSession;

/**
 * The SparkSession every job of this package runs in, with L0's SQL extension, plugin and Kryo
 * registrator switched on. The master is the job's argument if it has one, else the one {@code
 * spark-submit} set, else {@value #DEFAULT_MASTER}; settings given to {@code spark-submit} are
 * kept, and L0's classes are added to any extensions or plugins listed there. A master URL Spark
 * cannot parse is an {@link UnknownMasterException}, found before Spark starts (so that Spark logs
 * no error of its own first), which each job reports as a usage error.
 */
public final class JobSessions {
  static final String DEFAULT_MASTER = "local[2]";
  static final String EXTENSIONS = "dev.l0.spark.L0Extensions";
  static final String PLUGIN = "dev.l0.spark.L0Plugin";
  static final String KRYO_REGISTRATOR = "dev.l0.spark.L0KryoRegistrator";

  private JobSessions() {}

  /** A master URL Spark cannot parse: the job's command line is wrong, not its run. */
  public static final class UnknownMasterException extends IllegalArgumentException {
    UnknownMasterException(String master) {
      super(notAMaster(master));
    }
  }

  /** The message of an {@link UnknownMasterException} for {@code master}. */
  public static String notAMaster(String master) {
    return "'"
        + master
        + "' is no Spark master URL (local, local[N], local[*], local[N,F], local-cluster[N,C,M],"
        + " spark://HOST:PORT, or one a cluster manager on the class path takes)";
  }

  /**
   * Fails where Spark's {@code SparkContext} would not parse {@code master}, as it parses it: one
   * of Spark's own forms ({@link SparkMasterRegex}; a local master with at least one thread), else
   * a URL that a cluster manager on the class path ({@link ExternalClusterManager}, as YARN's and
   * Kubernetes') says it can create. Spark itself finds this only while it starts, after logging
   * the failed start as an ERROR with its stack trace.
   */
  public static void checkMaster(String master) {
    if (master.equals("local")
        || atLeastOneThread(SparkMasterRegex.LOCAL_N_REGEX().pattern().matcher(master))
        || atLeastOneThread(SparkMasterRegex.LOCAL_N_FAILURES_REGEX().pattern().matcher(master))
        || SparkMasterRegex.LOCAL_CLUSTER_REGEX().pattern().matcher(master).matches()
        || SparkMasterRegex.SPARK_REGEX().pattern().matcher(master).matches()) {
      return;
    }
    ClassLoader loader =
        Optional.ofNullable(Thread.currentThread().getContextClassLoader())
            .orElse(JobSessions.class.getClassLoader());
    for (ExternalClusterManager manager :
        ServiceLoader.load(ExternalClusterManager.class, loader)) {
      if (manager.canCreate(master)) {
        return;
      }
    }
    throw new UnknownMasterException(master);
  }

  /**
   * Whether {@code local} matches and its first group, the thread count, is {@code *} or an {@code
   * int} above 0, as Spark reads it.
   */
  private static boolean atLeastOneThread(Matcher local) {
    if (!local.matches()) {
      return false;
    }
    String threads = local.group(1);
    try {
      return threads.equals("*") || Integer.parseInt(threads) > 0;
    } catch (NumberFormatException e) { // more digits than an int holds
      return false;
    }
  }

  public static SparkSession start(String appName, Optional<String> master) {
    // spark-submit passes its master as the system property spark.master. It is checked before
    // Spark logs anything: a new SparkConf already logs warnings about the host's name.
    String masterUrl = master.orElseGet(() -> System.getProperty("spark.master", DEFAULT_MASTER));
    checkMaster(masterUrl);
    SparkConf conf = new SparkConf(); // reads the spark.* system properties spark-submit sets
    conf.setMaster(masterUrl);
    conf.setIfMissing("spark.app.name", appName);
    addToList(conf, "spark.sql.extensions", EXTENSIONS);
    addToList(conf, "spark.plugins", PLUGIN);
    conf.setIfMissing("spark.serializer", "org.apache.spark.serializer.KryoSerializer");
    addToList(conf, "spark.kryo.registrator", KRYO_REGISTRATOR);
    conf.setIfMissing("spark.ui.enabled", "false");
    return SparkSession.builder().config(conf).getOrCreate();
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
