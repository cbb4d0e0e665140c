package dev.l0.kernels.runtime;

import static org.junit.platform.engine.discovery.DiscoverySelectors.selectPackage;

import dev.l0.kernels.report.JsonLine;
import java.io.PrintStream;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.platform.engine.TestExecutionResult;
import org.junit.platform.launcher.Launcher;
import org.junit.platform.launcher.TagFilter;
import org.junit.platform.launcher.TestExecutionListener;
import org.junit.platform.launcher.TestIdentifier;
import org.junit.platform.launcher.core.LauncherDiscoveryRequestBuilder;
import org.junit.platform.launcher.core.LauncherFactory;

/**
 * Runs the {@code @Tag("gpu")} tests of package {@code dev.l0} on the class path, where there is no
 * Maven: {@code bin/gpu-check} starts it on a GPU machine from the bundle's {@code tests/} folder
 * ({@code bin/gpu-bundle}). Prints one JSON line per test ({@code {"check": "gpu-test", "class":
 * ..., "test": ..., "status": "SUCCESSFUL" | "FAILED" | "ABORTED" | "SKIPPED", "error": ...}}) and
 * a summary line; exits 1 if a test failed or none was found, else 0.
 */
public final class GpuTestLauncher {
  private GpuTestLauncher() {}

  public static void main(String[] args) {
    System.exit(run(System.out));
  }

  static int run(PrintStream out) {
    AtomicInteger found = new AtomicInteger();
    AtomicInteger failed = new AtomicInteger();
    AtomicInteger successful = new AtomicInteger();
    long start = System.nanoTime();
    TestExecutionListener report =
        new TestExecutionListener() {
          @Override
          public void executionFinished(TestIdentifier test, TestExecutionResult result) {
            if (!test.isTest()) {
              return;
            }
            found.incrementAndGet();
            if (result.getStatus() == TestExecutionResult.Status.FAILED) {
              failed.incrementAndGet();
            } else if (result.getStatus() == TestExecutionResult.Status.SUCCESSFUL) {
              successful.incrementAndGet();
            }
            JsonLine line = line(test).add("status", result.getStatus().name());
            result.getThrowable().ifPresent(e -> line.add("error", e.toString()));
            out.println(line.text());
          }

          @Override
          public void executionSkipped(TestIdentifier test, String reason) {
            out.println(line(test).add("status", "SKIPPED").add("error", reason).text());
          }
        };
    Launcher launcher = LauncherFactory.create();
    launcher.execute(
        LauncherDiscoveryRequestBuilder.request()
            .selectors(selectPackage("dev.l0"))
            .filters(TagFilter.includeTags("gpu"))
            .build(),
        report);
    out.println(
        new JsonLine()
            .add("check", "gpu-tests")
            .add("found", found.get())
            .add("successful", successful.get())
            .add("failed", failed.get())
            .add("seconds", (System.nanoTime() - start) / 1e9)
            .text());
    return failed.get() == 0 && found.get() > 0 ? 0 : 1;
  }

  private static JsonLine line(TestIdentifier test) {
    String[] parts = test.getUniqueId().split("/");
    String className = "";
    for (String part : parts) {
      if (part.startsWith("[class:")) {
        className = part.substring("[class:".length(), part.length() - 1);
      }
    }
    return new JsonLine()
        .add("check", "gpu-test")
        .add("class", className)
        .add("test", test.getDisplayName());
  }
}
