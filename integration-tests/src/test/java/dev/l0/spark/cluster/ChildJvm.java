package dev.l0.spark.cluster;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * A Java program running in its own process, its standard output and error captured together in a
 * log file. Every wait is bounded; {@link #close()} ends the process and every process it started
 * (a Worker's executors, say).
 */
public final class ChildJvm implements AutoCloseable {
  private static final Duration POLL = Duration.ofMillis(200);
  private static final Duration STOP_GRACE = Duration.ofSeconds(10);

  private final String name;
  private final Process process;
  private final Path log;

  private ChildJvm(String name, Process process, Path log) {
    this.name = name;
    this.process = process;
    this.log = log;
  }

  /**
   * Starts {@code java <jvmOptions> -cp <classpath> <mainClass> <args>} with {@code environment}
   * added to this process's, writing its output to {@code <logFolder>/<name>.log}.
   */
  public static ChildJvm start(
      String name,
      List<String> jvmOptions,
      String classpath,
      String mainClass,
      List<String> args,
      Map<String, String> environment,
      Path logFolder) {
    List<String> command = new ArrayList<>();
    command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
    command.addAll(jvmOptions);
    command.add("-cp");
    command.add(classpath);
    command.add(mainClass);
    command.addAll(args);
    Path log = logFolder.resolve(name + ".log");
    ProcessBuilder builder =
        new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(log.toFile());
    builder.environment().putAll(environment);
    try {
      return new ChildJvm(name, builder.start(), log);
    } catch (IOException e) {
      throw new UncheckedIOException("cannot start " + name + ": " + command, e);
    }
  }

  /**
   * Waits until the output has a line containing {@code text}; fails, showing the output, if the
   * process ends or time runs out first.
   */
  public void awaitLine(String text, Duration timeout) throws InterruptedException {
    long deadline = System.nanoTime() + timeout.toNanos();
    while (!output().contains(text)) {
      if (!process.isAlive()) {
        throw new AssertionError(
            name
                + " exited with "
                + process.exitValue()
                + " before printing '"
                + text
                + "'\n"
                + describe());
      }
      if (System.nanoTime() > deadline) {
        throw new AssertionError(
            name + " did not print '" + text + "' within " + timeout + "\n" + describe());
      }
      Thread.sleep(POLL.toMillis());
    }
  }

  /**
   * Waits for the process to end and returns its exit code; fails, showing the output, if time runs
   * out.
   */
  public int awaitExit(Duration timeout) throws InterruptedException {
    if (!process.waitFor(timeout.toMillis(), TimeUnit.MILLISECONDS)) {
      throw new AssertionError(name + " still running after " + timeout + "\n" + describe());
    }
    return process.exitValue();
  }

  /** Everything the process printed so far. */
  public String output() {
    try {
      return Files.readString(log, StandardCharsets.UTF_8);
    } catch (IOException e) {
      throw new UncheckedIOException("cannot read the output of " + name + " in " + log, e);
    }
  }

  /** The process's name and everything it printed, for a failure message. */
  public String describe() {
    return "----- output of "
        + name
        + " ("
        + log
        + ") -----\n"
        + output()
        + "----- end of "
        + name
        + " -----";
  }

  /**
   * Ends the process's descendants and the process itself: politely, then forcibly after a grace
   * period (at once if this thread is interrupted, whose interrupt status is then kept).
   */
  @Override
  public void close() {
    List<ProcessHandle> descendants = process.descendants().toList();
    descendants.forEach(ProcessHandle::destroy);
    process.destroy();
    try {
      if (!process.waitFor(STOP_GRACE.toMillis(), TimeUnit.MILLISECONDS)) {
        process.destroyForcibly();
      }
    } catch (InterruptedException e) {
      process.destroyForcibly();
      Thread.currentThread().interrupt();
    }
    descendants.stream().filter(ProcessHandle::isAlive).forEach(ProcessHandle::destroyForcibly);
  }
}
