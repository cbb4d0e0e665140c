package dev.l0.spark;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * conf/ documents every spark.l0.* key and names the real classes; its GPU discovery script prints
 * Spark's JSON.
 */
class ConfFolderTest {
  private static final Path CONF = Path.of("..", "conf");

  @Test
  void theTemplateAndTheReadmeListEveryKey() throws Exception {
    String template = Files.readString(CONF.resolve("spark-defaults.conf.template"));
    String readme = Files.readString(CONF.resolve("README.md"));
    for (String key : L0Settings.KEYS) {
      assertTrue(
          template.contains("# " + key + " "),
          () -> key + " is missing from spark-defaults.conf.template");
      assertTrue(readme.contains("`" + key + "`"), () -> key + " is missing from conf/README.md");
    }
    for (Class<?> named :
        new Class<?>[] {L0Plugin.class, L0Extensions.class, L0KryoRegistrator.class}) {
      assertTrue(
          template.contains(named.getName()),
          () -> named.getName() + " is missing from the template");
    }
  }

  @Test
  void theDiscoveryScriptPrintsSparksResourceJson() throws Exception {
    Process script =
        new ProcessBuilder(CONF.resolve("getGpusResources.sh").toString())
            .redirectErrorStream(true)
            .start();
    assertTrue(script.waitFor(30, TimeUnit.SECONDS), "the discovery script did not finish in 30 s");
    String output = new String(script.getInputStream().readAllBytes()).strip();
    assertEquals(0, script.exitValue(), output);
    assertTrue(
        output.matches("\\{\"name\":\"gpu\",\"addresses\":\\[(\"\\d+\"(,\"\\d+\")*)?\\]\\}"),
        output);
  }
}
