package dev.l0.spark;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * conf/ documents every spark.l0.* key and every l0.* system property and names the real classes;
 * its GPU discovery script prints Spark's JSON.
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

  /** Every {@code l0.*} system property the main sources read is in conf/README.md's table. */
  @Test
  void theReadmeListsEverySystemPropertyTheCodeReads() throws Exception {
    String readme = Files.readString(CONF.resolve("README.md"));
    Pattern property = Pattern.compile("\"(l0(?:\\.[A-Za-z]+)+)\"");
    Set<String> read = new TreeSet<>();
    for (String module : List.of("dsl", "optimizer", "gpu-kernels", "spark-plugin")) {
      try (Stream<Path> sources = Files.walk(Path.of("..", module, "src", "main", "java"))) {
        for (Path source : sources.filter(p -> p.toString().endsWith(".java")).toList()) {
          Matcher m = property.matcher(Files.readString(source));
          while (m.find()) {
            read.add(m.group(1));
          }
        }
      }
    }
    assertTrue(read.contains("l0.cuda.blockSize"), read::toString);
    for (String name : read) {
      assertTrue(
          readme.contains("| `" + name + "` |"),
          () -> name + " is read by the code but missing from conf/README.md's table");
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
