package dev.l0.kernels.sim;

import dev.l0.ir.L0ResourceError;
import dev.l0.ir.L0RuntimeError;
import dev.l0.ir.Value;
import dev.l0.kernels.exec.HostEnvironment;
import dev.l0.kernels.exec.HostValue;
import dev.l0.kernels.exec.KernelExecutor;
import dev.l0.kernels.exec.KernelScope;
import dev.l0.kernels.exec.Memoized;
import dev.l0.kernels.exec.PreparedKernel;
import dev.l0.kernels.ir.GroupInput;
import dev.l0.kernels.ir.KernelGroup;
import dev.l0.kernels.lower.KernelLowering;
import dev.l0.kernels.lower.LaunchConfiguration;
import dev.l0.opt.KernelPlan;
import dev.l0.opt.ir.Ident;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Supplier;
import java.util.stream.Collectors;

/**
 * Runs a host runner's kernels on the simulator: each kernel of the plan is lowered to a kernel
 * group once (or rejected with the lowering's {@code UnsupportedKernelException}) and simulated on
 * every call with blocks of a fixed size. A group whose simulation finds a defect fails with {@link
 * KernelDefectException}; one that only reaches the simulator's limits ({@link
 * SimulationIssue#isLimit}) fails with an {@code L0ResourceError}. A call whose kernels raise a
 * run-time error of the program is simulated again lowered with {@link
 * LaunchConfiguration#THREAD_PER_ROW} in blocks of one thread, whose first error (blocks run in
 * order) is the first failing row's, and that run's {@code L0RuntimeError} is the call's: with a
 * grid-stride loop a thread runs rows far apart (thread 0 rows 0, 32768, ...) before the next
 * thread runs row 1, as the CUDA executor's rerun on the JVM backend reports the interpreter's
 * error where a GPU's threads race to record theirs.
 */
public final class SimulatorExecutor implements KernelExecutor {
  private final int blockSize;
  private final LaunchConfiguration configuration;

  /**
   * Simulates with blocks of {@code blockSize} threads (a power of two; small ones exercise the
   * multi-block paths).
   */
  public SimulatorExecutor(int blockSize) {
    this(blockSize, LaunchConfiguration.DEFAULT);
  }

  /**
   * Simulates with blocks of {@code blockSize} threads the kernels lowered for {@code
   * configuration}.
   */
  public SimulatorExecutor(int blockSize, LaunchConfiguration configuration) {
    if (blockSize < 1 || Integer.bitCount(blockSize) != 1) {
      throw new IllegalArgumentException("the block size must be a power of two, not " + blockSize);
    }
    this.blockSize = blockSize;
    this.configuration = configuration;
  }

  @Override
  public String name() {
    return "sim";
  }

  @Override
  public PreparedKernel prepare(KernelPlan.Kernel kernel, KernelScope scope) {
    KernelGroup group = KernelLowering.lowerIn(scope.program(), kernel, configuration);
    SimtSimulator simulator = SimtSimulator.of(group);
    Supplier<SimtSimulator> threadPerRow =
        new Memoized<>(
            () ->
                SimtSimulator.of(
                    KernelLowering.lowerIn(
                        scope.program(), kernel, LaunchConfiguration.THREAD_PER_ROW)));
    return environment -> {
      try {
        return run(simulator, kernel, environment, blockSize);
      } catch (L0RuntimeError raced) {
        return run(threadPerRow.get(), kernel, environment, 1);
      }
    };
  }

  /**
   * Simulates on boxed values: the environment boxes flat inputs, the outputs stay boxed. A limit
   * reached is an {@code L0ResourceError} at {@code kernel}'s SOAC, naming it as the program wrote
   * it ({@link KernelLowering#asWritten}).
   */
  private List<HostValue> run(
      SimtSimulator simulator,
      KernelPlan.Kernel kernel,
      HostEnvironment environment,
      int blockSize) {
    Map<String, Value> inputs = new HashMap<>();
    for (GroupInput input : simulator.group().inputs()) {
      inputs.put(input.name(), environment.value(input.name()));
    }
    SimulationResult result = simulator.run(inputs, blockSize);
    if (!result.report().isClean()) {
      if (result.report().issues().stream().allMatch(SimulationIssue::isLimit)) {
        throw new L0ResourceError(
            KernelLowering.position(kernel),
            KernelLowering.asWritten(kernel)
                + " goes beyond the SIMT simulator's limits ("
                + KernelLaunch.STEP_LIMIT
                + " steps per thread and launch, "
                + SimtSimulator.MAX_ELEMENTS
                + " elements per buffer): "
                + result.report().issues().stream()
                    .map(issue -> ((SimulationIssue.Limit) issue).beyond())
                    .collect(Collectors.joining("; "))
                + "; the JVM backend (--device jvm) has no such limits",
            false);
      }
      throw new KernelDefectException(simulator.group().name(), result.report());
    }
    if (result.error().isPresent()) {
      throw result.runtimeError().orElseThrow();
    }
    return kernel.outputs().stream()
        .map(id -> HostValue.of(output(simulator, result, id)))
        .toList();
  }

  private static Value output(SimtSimulator simulator, SimulationResult result, Ident id) {
    Value value = result.outputs().get(id.name());
    if (value == null) {
      throw new IllegalStateException(simulator.group().name() + " has no output " + id.name());
    }
    return value;
  }
}
