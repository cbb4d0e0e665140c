package dev.l0.kernels.jvm;

import dev.l0.kernels.exec.HostEnvironment;
import dev.l0.kernels.exec.HostValue;
import dev.l0.kernels.exec.KernelExecutor;
import dev.l0.kernels.exec.KernelScope;
import dev.l0.kernels.exec.PreparedKernel;
import dev.l0.kernels.ir.KernelGroup;
import dev.l0.kernels.lower.KernelLowering;
import dev.l0.kernels.lower.LaunchConfiguration;
import dev.l0.opt.KernelPlan;
import dev.l0.opt.ir.Ident;
import java.util.List;
import java.util.Map;

/**
 * The JVM backend as a {@link KernelExecutor}: each kernel of the plan is lowered to a kernel group
 * once, as for every backend ({@link KernelLowering}, with {@link
 * JvmGroupRunner#LAUNCH_CONFIGURATION}; a kernel the lowering rejects is rejected with its reason),
 * its kernels printed as Java and compiled, and every call runs the group ({@link JvmGroupRunner})
 * on the host runner's flat arrays, returning the outputs flat; only scalars are boxed. Each launch
 * runs on at most {@link #parallelism()} threads. Thread-safe: every run has its own state.
 */
public final class JvmKernelExecutor implements KernelExecutor {
  private final int parallelism;

  /** The forms of every kernel this executor prepares specialised to their launches' scalars. */
  private final LaunchSpecialisations specialisations;

  /** Runs each launch on as many threads as the machine has processors. */
  public JvmKernelExecutor() {
    this(defaultParallelism());
  }

  /**
   * Runs each launch on at most {@code parallelism} threads (at least 1), the calling thread
   * included.
   */
  public JvmKernelExecutor(int parallelism) {
    this(parallelism, LaunchSpecialisations.inBackground(JaninoKernels::compileForm));
  }

  /**
   * As {@link #JvmKernelExecutor(int)}, the kernels' launches running the forms {@code
   * specialisations} gives.
   */
  JvmKernelExecutor(int parallelism, LaunchSpecialisations specialisations) {
    if (parallelism < 1) {
      throw new IllegalArgumentException(
          "the JVM backend needs at least one thread per kernel, not " + parallelism);
    }
    this.parallelism = parallelism;
    this.specialisations = specialisations;
    // while the program's kernels compile, warm the lane-wise math they will call
    dev.l0.kernels.vector.VectorMathWarmUp.startOnce();
  }

  /** The threads a launch uses when no parallelism is given: the available processors. */
  public static int defaultParallelism() {
    return Runtime.getRuntime().availableProcessors();
  }

  /** The most threads one launch runs on. */
  public int parallelism() {
    return parallelism;
  }

  @Override
  public String name() {
    return "jvm";
  }

  @Override
  public PreparedKernel prepare(KernelPlan.Kernel kernel, KernelScope scope) {
    JvmGroupRunner runner = runner(kernel, scope);
    List<Ident> outputs = kernel.outputs();
    return environment -> run(runner, outputs, environment);
  }

  /**
   * The runner of {@code kernel}'s group, lowered and compiled; the lowering's rejection passes
   * through.
   */
  JvmGroupRunner runner(KernelPlan.Kernel kernel, KernelScope scope) {
    KernelGroup group =
        KernelLowering.lowerIn(scope.program(), kernel, LaunchConfiguration.THREAD_PER_ROW);
    return new JvmGroupRunner(group, parallelism, JaninoKernels::compile, specialisations);
  }

  /** The launches so far of the kernels this executor prepared that ran a specialised form. */
  long specialisedLaunches() {
    return specialisations.specialisedLaunches();
  }

  private static List<HostValue> run(
      JvmGroupRunner runner, List<Ident> outputs, HostEnvironment environment) {
    Map<String, HostValue> results = runner.run(environment);
    return outputs.stream()
        .map(
            id -> {
              HostValue value = results.get(id.name());
              if (value == null) {
                throw new IllegalStateException(
                    runner.group().name() + " has no output " + id.name());
              }
              return value;
            })
        .toList();
  }
}
