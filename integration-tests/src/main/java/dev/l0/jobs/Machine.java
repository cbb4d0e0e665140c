package dev.l0.jobs;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.stream.Stream;

/** What the benchmarks' JSON says of the machine they ran on. */
public final class Machine {
  private Machine() {}

  /** The machine's load average over the last minute (other processes compete for the cores). */
  public static double loadAverage() {
    return ManagementFactory.getOperatingSystemMXBean().getSystemLoadAverage();
  }

  /** The CPU seconds of all this JVM's threads so far (the queries' tasks, the driver, JIT, GC). */
  public static double processCpuSeconds() {
    return ((com.sun.management.OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean())
            .getProcessCpuTime()
        / 1e9;
  }

  /** The CPU's model name from {@code /proc/cpuinfo}, or "unknown" where there is none. */
  public static String cpuModel() {
    try (Stream<String> lines = Files.lines(Path.of("/proc/cpuinfo"))) {
      return lines
          .filter(line -> line.startsWith("model name"))
          .map(line -> line.substring(line.indexOf(':') + 1).trim())
          .findFirst()
          .orElse("unknown");
    } catch (IOException | UncheckedIOException e) {
      return "unknown";
    }
  }
}
