package dev.l0.spark.cluster;

import java.io.File;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

/**
 * A stand-in for a Spark distribution: a folder with {@code jars/} holding links to the jars of
 * this JVM's class path that Spark runs on, and none of ours (a Spark job gets L0 from the shaded
 * plugin jar, as a user's job does). A standalone Worker needs such a {@code SPARK_HOME} to launch
 * executors ({@link #environment()}).
 */
public final class SparkDistribution {
  /**
   * Maven groups on the class path that are not part of a Spark installation: ours, JCuda (in the
   * plugin jar), test frameworks.
   */
  private static final List<String> NOT_SPARK_GROUPS =
      List.of(
          "/dev/l0/",
          "/org/jcuda/",
          "/org/junit/",
          "/net/jqwik/",
          "/org/opentest4j/",
          "/org/apiguardian/");

  /** This project's jars (built in the reactor, so outside the Maven repository) are named l0-*. */
  private static final String OUR_JARS = "l0-";

  private final Path home;

  private SparkDistribution(Path home) {
    this.home = home;
  }

  /**
   * Links the Spark jars of this JVM's class path ({@code java.class.path}) into {@code
   * <home>/jars}.
   */
  public static SparkDistribution ofThisClassPath(Path home) throws IOException {
    String classpath = System.getProperty("java.class.path");
    Path jars = Files.createDirectories(home.resolve("jars"));
    List<Path> sparkJars =
        Arrays.stream(classpath.split(File.pathSeparator))
            .filter(entry -> entry.endsWith(".jar"))
            .filter(
                entry ->
                    NOT_SPARK_GROUPS.stream()
                        .noneMatch(entry.replace(File.separatorChar, '/')::contains))
            .map(Path::of)
            .filter(jar -> !jar.getFileName().toString().startsWith(OUR_JARS))
            .toList();
    if (sparkJars.stream()
        .noneMatch(jar -> jar.getFileName().toString().startsWith("spark-core_"))) {
      throw new IllegalStateException("no spark-core jar on the class path " + classpath);
    }
    for (Path jar : sparkJars) {
      Path link = jars.resolve(jar.getFileName());
      if (!Files.exists(link)) {
        Files.createSymbolicLink(link, jar.toAbsolutePath());
      }
    }
    return new SparkDistribution(home);
  }

  /** Deletes the links and the folder (the linked jars stay). */
  public void delete() throws IOException {
    Path jars = home.resolve("jars");
    try (Stream<Path> links = Files.list(jars)) {
      for (Path link : links.toList()) {
        Files.delete(link);
      }
    }
    Files.delete(jars);
    Files.delete(home);
  }

  /** The class path of a program run from this distribution ({@code java} expands the wildcard). */
  public String classpath() {
    return home.resolve("jars") + File.separator + "*";
  }

  /**
   * The environment of Spark's daemons run from this distribution: a Worker needs SPARK_HOME and
   * the Scala version to launch executors (Spark's launcher looks for {@code $SPARK_HOME/jars});
   * everything binds to the loopback address.
   */
  public Map<String, String> environment() {
    return Map.of(
        "SPARK_HOME",
        home.toString(),
        "SPARK_SCALA_VERSION",
        "2.13",
        "SPARK_LOCAL_IP",
        "127.0.0.1");
  }
}
