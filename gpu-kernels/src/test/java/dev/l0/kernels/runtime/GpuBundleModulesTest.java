package dev.l0.kernels.runtime;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

/**
 * The Java runtime that {@code bin/gpu-bundle} links for the GPU machines holds every module that
 * the CLI's own classes (dsl, optimizer, gpu-kernels) use, as {@code jdeps} finds them. One was
 * missing once: {@code l0 finpar} reads the process's CPU time through {@code jdk.management} and
 * failed with {@code NoClassDefFoundError} on the GPU machine.
 */
class GpuBundleModulesTest {
  private static final Path ROOT = Path.of("..").toAbsolutePath().normalize();

  @Test
  void theLinkedRuntimeHasEveryModuleTheClassesUse() throws Exception {
    Path jdeps = Path.of(System.getProperty("java.home"), "bin", "jdeps");
    assumeTrue(Files.isExecutable(jdeps), "no jdeps in " + jdeps.getParent());
    String buildDir = buildDir();
    List<String> classes =
        List.of("dsl", "optimizer", "gpu-kernels").stream()
            .map(module -> ROOT.resolve(module).resolve(buildDir).resolve("classes").toString())
            .toList();
    classes.forEach(
        folder -> assertTrue(Files.isDirectory(Path.of(folder)), folder + " is not built"));
    List<String> command =
        new java.util.ArrayList<>(
            List.of(
                jdeps.toString(),
                "--print-module-deps",
                "--ignore-missing-deps",
                "--multi-release",
                "17"));
    command.addAll(classes);
    Process process = new ProcessBuilder(command).redirectErrorStream(true).start();
    String output =
        new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8).trim();
    assertTrue(process.waitFor(60, TimeUnit.SECONDS), "jdeps did not finish");
    assertEquals(0, process.exitValue(), output);
    Set<String> used = Set.of(output.lines().reduce((a, b) -> b).orElseThrow().split(","));
    assertTrue(used.contains("java.base"), output);

    String script = Files.readString(ROOT.resolve("bin/gpu-bundle"));
    Matcher modules = Pattern.compile("jlink --add-modules (\\S+)").matcher(script);
    assertTrue(modules.find(), "bin/gpu-bundle calls jlink --add-modules");
    Set<String> linked = Arrays.stream(modules.group(1).split(",")).collect(Collectors.toSet());
    Set<String> missing =
        used.stream().filter(m -> !linked.contains(m)).collect(Collectors.toSet());
    assertEquals(Set.of(), missing, "modules the classes use that bin/gpu-bundle does not link");
  }

  /** The build folder's name ({@code target} unless {@code -Dl0.buildDir}): this test's own. */
  private static String buildDir() throws java.net.URISyntaxException {
    Path testClasses =
        Path.of(
            GpuBundleModulesTest.class.getProtectionDomain().getCodeSource().getLocation().toURI());
    return testClasses.getParent().getFileName().toString();
  }
}
