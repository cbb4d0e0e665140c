package dev.l0.jobs;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * {@code bin/l0-job}'s own reading of its command line (before it builds anything): a usage error
 * exits 2 with a message at once, and never leaves the script looping.
 */
class L0JobScriptTest {
  private static final Path SCRIPT = Path.of("..", "bin", "l0-job").toAbsolutePath().normalize();

  @Test
  void finparWithDataButNoFolderExitsTwoAtOnce() throws IOException, InterruptedException {
    Process process =
        new ProcessBuilder(SCRIPT.toString(), "finpar", "OptionPricing", "small", "--data")
            .redirectOutput(ProcessBuilder.Redirect.DISCARD)
            .start();
    boolean finished = process.waitFor(30, TimeUnit.SECONDS);
    if (!finished) {
      process.descendants().forEach(ProcessHandle::destroyForcibly); // the looping subshell
      process.destroyForcibly();
    }
    assertTrue(finished, "bin/l0-job finpar ... --data did not finish in 30 s");
    String err = new String(process.getErrorStream().readAllBytes(), StandardCharsets.UTF_8);
    assertEquals(2, process.exitValue(), err);
    assertEquals("l0-job finpar: option '--data' needs a value\n", err);
  }
}
