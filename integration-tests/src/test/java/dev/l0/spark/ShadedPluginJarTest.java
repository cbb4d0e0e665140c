package dev.l0.spark;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Collections;
import java.util.List;
import java.util.jar.JarEntry;
import java.util.jar.JarFile;
import org.junit.jupiter.api.Test;

/**
 * The shaded plugin jar a user gives Spark ({@code --jars}) carries only what runs: classes, Maven
 * and manifest metadata, the JCuda native libraries and the CUDA math library the kernels include;
 * no example programs or data (the CLI jar and the jobs carry those).
 */
class ShadedPluginJarTest {
  private static final Path JAR =
      Path.of(System.getProperty("l0.sparkPluginJar", "missing: set l0.sparkPluginJar"));

  @Test
  void carriesNoResourceThatDoesNotRun() throws IOException {
    assertTrue(
        Files.isRegularFile(JAR),
        "the shaded plugin jar " + JAR + " was not built: run the test in Maven's package phase");
    List<String> resources;
    try (JarFile jar = new JarFile(JAR.toFile())) {
      resources =
          Collections.list(jar.entries()).stream()
              .filter(entry -> !entry.isDirectory())
              .map(JarEntry::getName)
              .filter(name -> !name.endsWith(".class") && !name.startsWith("META-INF/"))
              .filter(name -> !(name.startsWith("lib/libJ") && name.endsWith(".so")))
              .sorted()
              .toList();
    }
    assertEquals(List.of("dev/l0/kernels/cuda/l0_math.cuh"), resources);
  }
}
