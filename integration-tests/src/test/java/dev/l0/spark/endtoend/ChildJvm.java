package dev.l0.spark.endtoend;

import static org.junit.jupiter.api.Assertions.fail;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.apache.spark.launcher.JavaModuleOptions;

/**
 * A main class of this test class path run in its own JVM, with Spark's module flags
 * ({@link JavaModuleOptions}, which spark-submit adds but a plain {@code java} command does not)
 * and the JVM options a test chooses, such as a heap limit. Output and errors go to one file,
 * read when the process ends.
 */
final class ChildJvm {
  private static final int OUTPUT_TAIL_CHARS = 6000;

  /** How the process ended and everything it printed. */
  record Result(int exitCode, String output) {
    /** The text after {@code prefix} on the first line that starts with it. */
    String valueAfter(String prefix) {
      return output.lines().filter(line -> line.startsWith(prefix)).findFirst()
          .map(line -> line.substring(prefix.length()).trim())
          .orElseGet(() -> fail("no line starting with '" + prefix + "' in the output:\n" + tail()));
    }

    /** The end of the output, for failure messages. */
    String tail() {
      return output.length() <= OUTPUT_TAIL_CHARS ? output : "..." + output.substring(output.length() - OUTPUT_TAIL_CHARS);
    }
  }

  private ChildJvm() {}

  /** Runs {@code main} with {@code args}; fails the test if it has not ended within {@code timeout}. */
  static Result run(Class<?> main, List<String> jvmOptions, List<String> args, Duration timeout)
      throws IOException, InterruptedException {
    List<String> command = new ArrayList<>();
    command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
    command.addAll(Arrays.asList(JavaModuleOptions.defaultModuleOptionArray()));
    String sparkLocalDir = System.getProperty("spark.local.dir");
    if (sparkLocalDir != null) {
      command.add("-Dspark.local.dir=" + sparkLocalDir);
    }
    command.addAll(jvmOptions);
    command.addAll(List.of("-cp", System.getProperty("java.class.path"), main.getName()));
    command.addAll(args);
    Path outputFile = Files.createTempFile(main.getSimpleName(), ".out");
    Process process = new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(outputFile.toFile()).start();
    try {
      boolean ended = process.waitFor(timeout.toMillis(), TimeUnit.MILLISECONDS);
      Result result = new Result(ended ? process.exitValue() : -1, Files.readString(outputFile));
      if (!ended) {
        fail(main.getSimpleName() + " did not end within " + timeout + "; its output:\n" + result.tail());
      }
      return result;
    } finally {
      process.destroyForcibly();
      Files.deleteIfExists(outputFile);
    }
  }
}
