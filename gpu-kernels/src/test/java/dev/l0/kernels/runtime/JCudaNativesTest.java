package dev.l0.kernels.runtime;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * JCuda's native binding is unpacked into the per-user folder, never into the JVM's temp folder.
 */
class JCudaNativesTest {
  @TempDir Path dir;

  private static List<String> names(Path folder) throws IOException {
    try (Stream<Path> files = Files.list(folder)) {
      return files.map(p -> p.getFileName().toString()).sorted().toList();
    }
  }

  /**
   * In a JVM of its own, since JCuda loads its binding once per JVM: probing CUDA (as {@code l0 run
   * --device auto} does) unpacks it.
   */
  @Test
  void probingCudaUnpacksTheBindingIntoTheNativeFolderOnly() throws Exception {
    Path natives = dir.resolve("native");
    Path temp = Files.createDirectory(dir.resolve("tmp"));
    Path program = Files.writeString(dir.resolve("one.l0"), "fun i32 main() = 1\n");
    Process process =
        new ProcessBuilder(
                Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-D" + JCudaNatives.DIRECTORY_PROPERTY + "=" + natives,
                "-Djava.io.tmpdir=" + temp,
                "-cp",
                System.getProperty("java.class.path"),
                "dev.l0.cli.Main",
                "run",
                program.toString(),
                "--device",
                "auto")
            .redirectErrorStream(true)
            .start();
    process.getOutputStream().close();
    String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    assertTrue(process.waitFor(120, TimeUnit.SECONDS), output);
    assertEquals(0, process.exitValue(), output);
    assertTrue(
        names(natives).stream().anyMatch(n -> n.startsWith("libJCudaDriver-")),
        names(natives) + "\n" + output);
    assertEquals(List.of(), names(temp), output);
  }

  @Test
  void theFolderIsPerUserUnlessThePropertyNamesOne() {
    assertEquals(Path.of("/home/ann/.cache/l0/native"), JCudaNatives.directory(null, "/home/ann"));
    assertEquals(Path.of("/home/ann/.cache/l0/native"), JCudaNatives.directory(" ", "/home/ann"));
    assertEquals(Path.of("/srv/l0"), JCudaNatives.directory("/srv/l0", "/home/ann"));
  }
}
