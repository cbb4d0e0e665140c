package dev.l0.kernels.sim;

import dev.l0.kernels.ir.Buffer;
import dev.l0.kernels.ir.GroupInput;
import dev.l0.kernels.ir.GroupOutput;
import dev.l0.kernels.ir.HostStep;
import dev.l0.kernels.ir.Kernel;
import dev.l0.kernels.ir.KernelGroup;
import java.util.ArrayList;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Function;

/**
 * A kernel group's host steps compiled once against one {@link HostScalars}: the slots of the block
 * size, the inputs' sizes and scalars and every defined variable, each step's expressions, and the
 * outputs' shapes. {@code K} is how a backend holds a loaded kernel (the simulator's compiled
 * kernel, a CUDA function); each kernel is loaded once however often it is launched.
 */
public final class HostProgram<K> {
  /** A host step with its expressions compiled. */
  public sealed interface Step<K> {}

  public record Define<K>(int slot, HostScalars.Expression value) implements Step<K> {}

  public record Allocate<K>(Buffer buffer, HostScalars.Expression elements) implements Step<K> {}

  public record Launch<K>(
      Kernel kernel, K loaded, List<Integer> scalarSlots, HostScalars.Expression gridSize)
      implements Step<K> {}

  public record ReadScalar<K>(int slot, Buffer buffer, HostScalars.Expression index)
      implements Step<K> {}

  private final HostScalars host;
  private final List<Step<K>> steps = new ArrayList<>();
  private final List<List<HostScalars.Expression>> outputShapes = new ArrayList<>();

  private HostProgram(KernelGroup group, Function<Kernel, K> load) {
    host = new HostScalars(group.name());
    host.declare(KernelGroup.BLOCK_SIZE);
    host.declare(KernelGroup.CAPACITY_SCALE);
    for (GroupInput input : group.inputs()) {
      if (input instanceof GroupInput.Array a) {
        a.shape().forEach(host::declare);
      } else {
        host.declare(((GroupInput.Scalar) input).variable());
      }
    }
    Map<Kernel, K> loaded = new IdentityHashMap<>();
    for (HostStep step : group.steps()) {
      if (step instanceof HostStep.Define d) {
        HostScalars.Expression value = host.compile(d.value());
        steps.add(new Define<>(host.declare(d.variable()), value));
      } else if (step instanceof HostStep.Allocate a) {
        steps.add(new Allocate<>(a.buffer(), host.compile(a.elements())));
      } else if (step instanceof HostStep.Launch l) {
        K kernel = loaded.computeIfAbsent(l.kernel(), load);
        List<Integer> scalars =
            l.kernel().scalars().stream().map(v -> host.slotOf(v.name())).toList();
        steps.add(new Launch<>(l.kernel(), kernel, scalars, host.compile(l.gridSize())));
      } else {
        HostStep.ReadScalar r = (HostStep.ReadScalar) step;
        HostScalars.Expression index = host.compile(r.index());
        steps.add(new ReadScalar<>(host.declare(r.variable()), r.buffer(), index));
      }
    }
    for (GroupOutput output : group.outputs()) {
      outputShapes.add(output.shape().stream().map(host::compile).toList());
    }
  }

  /**
   * Compiles {@code group}'s host steps, loading each kernel with {@code load}; a group that refers
   * to an undeclared variable is rejected with an {@code IllegalArgumentException}.
   */
  public static <K> HostProgram<K> compile(KernelGroup group, Function<Kernel, K> load) {
    return new HostProgram<>(group, load);
  }

  public HostScalars host() {
    return host;
  }

  public List<Step<K>> steps() {
    return steps;
  }

  /** Per output, the expressions of its sizes. */
  public List<List<HostScalars.Expression>> outputShapes() {
    return outputShapes;
  }
}
