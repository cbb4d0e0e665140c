package dev.l0.jobs;

import org.apache.spark.launcher.JavaModuleOptions;

/**
 * Prints the JVM flags Spark needs on Java 17+ ({@code --add-opens ...}, Spark's own list, which
 * {@code spark-submit} adds but a plain {@code java} command does not); {@code bin/l0-job} starts
 * its jobs' JVMs with them.
 */
public final class SparkJvmOptions {
  private SparkJvmOptions() {}

  public static void main(String[] args) {
    System.out.println(JavaModuleOptions.defaultModuleOptions());
  }
}
