package dev.l0.spark.cluster;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.stream.Collectors;
import java.util.stream.Stream;

/**
 * A Spark standalone cluster on 127.0.0.1: a Master and one Worker (2 cores, 2 GiB), each its own
 * JVM started from a {@link SparkDistribution}, on free ports. {@link #close()} stops the Worker,
 * its executors and the Master.
 */
public final class StandaloneCluster implements AutoCloseable {
  private static final String LOOPBACK = "127.0.0.1";

  private final ChildJvm master;
  private final ChildJvm worker;
  private final String masterUrl;
  private final Path workerFolder;

  private StandaloneCluster(ChildJvm master, ChildJvm worker, String masterUrl, Path workerFolder) {
    this.master = master;
    this.worker = worker;
    this.masterUrl = masterUrl;
    this.workerFolder = workerFolder;
  }

  /**
   * Starts the Master, waits until it leads, starts the Worker and waits until it has registered;
   * each wait at most {@code timeout}.
   */
  public static StandaloneCluster start(
      SparkDistribution spark, List<String> jvmOptions, Path folder, Duration timeout)
      throws IOException, InterruptedException {
    int masterPort = freePort();
    String masterUrl = "spark://" + LOOPBACK + ":" + masterPort;
    ChildJvm master =
        ChildJvm.start(
            "spark-master",
            jvmOptions,
            spark.classpath(),
            "org.apache.spark.deploy.master.Master",
            List.of(
                "--host",
                LOOPBACK,
                "--port",
                Integer.toString(masterPort),
                "--webui-port",
                Integer.toString(freePort())),
            spark.environment(),
            folder);
    try {
      master.awaitLine("I have been elected leader", timeout);
      Path workerFolder = Files.createDirectories(folder.resolve("worker"));
      ChildJvm worker =
          ChildJvm.start(
              "spark-worker",
              jvmOptions,
              spark.classpath(),
              "org.apache.spark.deploy.worker.Worker",
              List.of(
                  masterUrl,
                  "--host",
                  LOOPBACK,
                  "--cores",
                  "2",
                  "--memory",
                  "2g",
                  "--webui-port",
                  Integer.toString(freePort()),
                  "--work-dir",
                  workerFolder.toString()),
              spark.environment(),
              folder);
      try {
        worker.awaitLine("Successfully registered with master", timeout);
        return new StandaloneCluster(master, worker, masterUrl, workerFolder);
      } catch (AssertionError | InterruptedException | RuntimeException e) {
        worker.close();
        throw e;
      }
    } catch (AssertionError | InterruptedException | IOException | RuntimeException e) {
      master.close();
      throw e;
    }
  }

  public String masterUrl() {
    return masterUrl;
  }

  /** The Worker's output so far. */
  public String workerOutput() {
    return worker.output();
  }

  /** The Master's and Worker's output and every executor's log, for a failure message. */
  public String describe() {
    String executorLogs;
    try (Stream<Path> files = Files.walk(workerFolder)) {
      executorLogs =
          files
              .filter(Files::isRegularFile)
              .filter(
                  file ->
                      file.getFileName().toString().equals("stderr")
                          || file.getFileName().toString().equals("stdout"))
              .map(file -> "----- executor log " + file + " -----\n" + readOrExplain(file))
              .collect(Collectors.joining("\n"));
    } catch (IOException e) {
      executorLogs = "(cannot list the executor logs in " + workerFolder + ": " + e + ")";
    }
    return master.describe() + "\n" + worker.describe() + "\n" + executorLogs;
  }

  @Override
  public void close() {
    try {
      worker.close();
    } finally {
      master.close();
    }
  }

  private static String readOrExplain(Path file) {
    try {
      return Files.readString(file);
    } catch (IOException e) {
      return "(cannot read " + file + ": " + e + ")";
    }
  }

  private static int freePort() {
    try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getByName(LOOPBACK))) {
      return socket.getLocalPort();
    } catch (IOException e) {
      throw new UncheckedIOException("no free port on " + LOOPBACK, e);
    }
  }
}
