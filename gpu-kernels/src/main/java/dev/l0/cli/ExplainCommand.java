package dev.l0.cli;

import dev.l0.kernels.cuda.CudaPrinter;
import dev.l0.kernels.cudaexec.CudaKernelExecutor;
import dev.l0.kernels.ir.HostStep;
import dev.l0.kernels.ir.Kernel;
import dev.l0.kernels.ir.KernelGroup;
import dev.l0.kernels.jvm.JvmGroupRunner;
import dev.l0.kernels.jvm.JvmKernelForm;
import dev.l0.kernels.lower.KernelExplanation;
import dev.l0.kernels.lower.KernelLowering;
import dev.l0.kernels.lower.LaunchConfiguration;
import dev.l0.kernels.lower.UnsupportedKernelException;
import dev.l0.opt.KernelPlan;
import dev.l0.opt.OptimizedProgram;
import dev.l0.opt.Optimizer;
import java.io.IOException;
import java.io.InputStream;
import java.io.PrintStream;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * {@code l0 explain FILE.l0 [--device jvm|cuda] [--cuda] [--java]}: the optimised internal program,
 * its kernels, {@code kernels: N}, then how each kernel runs on the JVM backend and on CUDA (only
 * the one {@code --device} names): its skeleton, its per-thread arrays in bytes, and how it reads
 * ({@link KernelExplanation}), on the JVM also how the Java of each launch runs ({@link
 * JvmKernelForm}); with {@code --cuda}, then each kernel's CUDA C; with {@code --java}, then the
 * Java source the JVM backend compiles for each launch.
 */
final class ExplainCommand implements Command {
  private static final String NOT_LOWERED = "not lowered: ";

  @Override
  public Set<String> options() {
    return Set.of("device");
  }

  @Override
  public Set<String> flags() {
    return Set.of("cuda", "java");
  }

  @Override
  public int execute(CliArgs args, InputStream in, PrintStream out, PrintStream err)
      throws IOException {
    Map<String, LaunchConfiguration> devices = devices(args);
    OptimizedProgram optimized = Optimizer.optimize(ProgramFiles.parseAndCheck(args.programFile()));
    out.print(optimized.explain());
    KernelPlan plan = optimized.kernelPlan();
    for (int k = 0; k < plan.kernels().size(); k++) {
      for (Map.Entry<String, LaunchConfiguration> device : devices.entrySet()) {
        String line = explain(plan, plan.kernels().get(k), device.getValue());
        if (device.getKey().equals("jvm") && !line.startsWith(NOT_LOWERED)) {
          line += "; Java: " + javaForms(plan, plan.kernels().get(k));
        }
        out.println("kernel " + (k + 1) + " on " + device.getKey() + ": " + line);
      }
    }
    if (args.flag("cuda")) {
      for (int k = 0; k < plan.kernels().size(); k++) {
        out.println();
        out.println("// kernel " + (k + 1) + ": " + plan.kernels().get(k).describe());
        try {
          out.print(
              CudaPrinter.print(
                  KernelLowering.lower(plan, plan.kernels().get(k)),
                  CudaKernelExecutor.DEFAULT_BLOCK_SIZE));
        } catch (UnsupportedKernelException e) {
          out.println("// not lowered: " + e.getMessage());
        }
      }
    }
    if (args.flag("java")) {
      for (int k = 0; k < plan.kernels().size(); k++) {
        out.println();
        out.println("// kernel " + (k + 1) + ": " + plan.kernels().get(k).describe());
        try {
          for (Kernel kernel :
              KernelLowering.lower(plan, plan.kernels().get(k), LaunchConfiguration.THREAD_PER_ROW)
                  .kernels()) {
            out.print(JvmGroupRunner.javaSource(kernel));
          }
        } catch (UnsupportedKernelException e) {
          out.println("// not lowered: " + e.getMessage());
        }
      }
    }
    out.flush();
    return Main.EXIT_OK;
  }

  /**
   * How {@code kernel} runs on a backend, or why it cannot be lowered (a run then fails to
   * compile).
   */
  private static String explain(
      KernelPlan plan, KernelPlan.Kernel kernel, LaunchConfiguration configuration) {
    try {
      return KernelExplanation.explain(plan, kernel, configuration);
    } catch (UnsupportedKernelException e) {
      return NOT_LOWERED + e.getMessage();
    }
  }

  /**
   * How the JVM backend's Java runs each launch of {@code kernel}'s group ({@link JvmKernelForm}),
   * in launch order.
   */
  private static String javaForms(KernelPlan plan, KernelPlan.Kernel kernel) {
    KernelGroup group = KernelLowering.lower(plan, kernel, LaunchConfiguration.THREAD_PER_ROW);
    List<String> forms = new ArrayList<>();
    for (HostStep step : group.steps()) {
      if (step instanceof HostStep.Launch launch) {
        forms.add(JvmKernelForm.describe(launch.kernel()));
      }
    }
    return String.join(", then ", forms);
  }

  /** The backends to explain, by name, with the launch configuration each lowers for. */
  private static Map<String, LaunchConfiguration> devices(CliArgs args) {
    Map<String, LaunchConfiguration> devices = new LinkedHashMap<>();
    String device = args.option("device").orElse("all");
    if (device.equals("all") || device.equals("jvm")) {
      devices.put("jvm", LaunchConfiguration.THREAD_PER_ROW);
    }
    if (device.equals("all") || device.equals("cuda")) {
      devices.put("cuda", LaunchConfiguration.DEFAULT);
    }
    if (devices.isEmpty()) {
      throw new CliArgs.UsageError("explain --device takes jvm or cuda, not '" + device + "'");
    }
    return devices;
  }
}
