package dev.l0.kernels.sim;

import dev.l0.ir.L0CompileError;
import dev.l0.ir.L0RuntimeError;
import dev.l0.ir.ScalarValue;
import dev.l0.ir.Value;
import dev.l0.kernels.ir.Buffer;
import dev.l0.kernels.ir.CapacityReruns;
import dev.l0.kernels.ir.GroupInput;
import dev.l0.kernels.ir.GroupOutput;
import dev.l0.kernels.ir.KernelError;
import dev.l0.kernels.ir.KernelExpr;
import dev.l0.kernels.ir.KernelGroup;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Runs a {@link KernelGroup} as a GPU host would, with every launch simulated by {@link
 * KernelLaunch}: binds the inputs, runs the host steps in order (allocations, scalar definitions,
 * launches, read-backs), stops at the first launch that raises a run-time error, and reads the
 * outputs back; a launch that raised a capacity overflow reruns the group with larger growing
 * arrays ({@link CapacityReruns}). The group is compiled once; each {@link #run} takes the block
 * size, so tests can force small blocks and exercise the multi-block paths.
 */
public final class SimtSimulator {
  /** The largest buffer the simulator allocates. */
  static final long MAX_ELEMENTS = 1L << 26;

  /**
   * Thrown by a host step that would go beyond one of the simulator's limits; the launch ends with
   * {@link #issue}.
   */
  private static final class LimitReached extends RuntimeException {
    private final transient SimulationIssue issue;

    LimitReached(SimulationIssue issue) {
      super(issue.describe(), null, false, false);
      this.issue = issue;
    }
  }

  private final KernelGroup group;
  private final HostScalars host;
  private final List<HostProgram.Step<CompiledKernel>> steps;
  private final List<List<HostScalars.Expression>> outputShapes;

  private SimtSimulator(KernelGroup group) {
    this.group = group;
    HostProgram<CompiledKernel> program = HostProgram.compile(group, CompiledKernel::compile);
    this.host = program.host();
    this.steps = program.steps();
    this.outputShapes = program.outputShapes();
  }

  /**
   * Compiles {@code group}'s kernels and host steps; a group that refers to an undeclared variable,
   * buffer or shared array is rejected with an {@code IllegalArgumentException}.
   */
  public static SimtSimulator of(KernelGroup group) {
    return new SimtSimulator(group);
  }

  public KernelGroup group() {
    return group;
  }

  /**
   * Runs the group on {@code inputs} (a value for every {@link GroupInput}, by name: arrays of
   * scalars of the input's rank, or scalars) with blocks of {@code blockSize} threads, a power of
   * two.
   */
  public SimulationResult run(Map<String, Value> inputs, int blockSize) {
    if (blockSize < 1 || Integer.bitCount(blockSize) != 1) {
      throw new IllegalArgumentException("the block size must be a power of two, not " + blockSize);
    }
    return CapacityReruns.run(
        scale -> {
          SimulationResult result = runAtScale(inputs, blockSize, scale);
          if (result.error().isPresent() && result.error().get().capacityOverflow()) {
            throw new CapacityReruns.Overflow(result.error().get());
          }
          return result;
        });
  }

  /**
   * {@link #run(Map, int)} once, with growing arrays' capacities at {@code capacityScale} ({@link
   * CapacityReruns}).
   */
  SimulationResult runAtScale(Map<String, Value> inputs, int blockSize, long capacityScale) {
    HostScalars.Values values = host.newValues();
    values.set(host.slotOf(KernelGroup.BLOCK_SIZE.name()), ScalarValue.i64(blockSize));
    values.set(host.slotOf(KernelGroup.CAPACITY_SCALE.name()), ScalarValue.i64(capacityScale));
    Map<String, ScalarArray> buffers = new HashMap<>();
    Map<String, Integer> threadPrivateElements = new HashMap<>();
    bindInputs(inputs, values, buffers);
    List<SimulationIssue> issues = new ArrayList<>();
    try {
      for (HostProgram.Step<CompiledKernel> step : steps) {
        if (step instanceof HostProgram.Launch<CompiledKernel> l) {
          KernelLaunch.Outcome outcome =
              launch(l, values, buffers, threadPrivateElements, blockSize);
          issues.addAll(outcome.issues());
          if (outcome.stopped()) {
            return new SimulationResult(Map.of(), Optional.empty(), new SimulationReport(issues));
          }
          if (outcome.errorCode() != 0) {
            KernelError error = group.errors().get(outcome.errorCode() - 1);
            return new SimulationResult(
                Map.of(), Optional.of(error), outcome.errorValues(), new SimulationReport(issues));
          }
        } else if (step instanceof HostProgram.Allocate<CompiledKernel> a
            && a.buffer().isThreadPrivate()) {
          threadPrivateElements.put(a.buffer().name(), elements(group.name(), a, values));
        } else {
          runHostStep(group.name(), step, values, buffers);
        }
      }
      return new SimulationResult(
          outputs(values, buffers), Optional.empty(), new SimulationReport(issues));
    } catch (LimitReached limit) {
      issues.add(limit.issue);
      return new SimulationResult(Map.of(), Optional.empty(), new SimulationReport(issues));
    } catch (L0RuntimeError
        | L0CompileError
        | IllegalArgumentException
        | ArithmeticException
        | IndexOutOfBoundsException failure) {
      issues.add(new SimulationIssue.HostStepFailure(group.name(), failure.getMessage()));
      return new SimulationResult(Map.of(), Optional.empty(), new SimulationReport(issues));
    }
  }

  private void bindInputs(
      Map<String, Value> inputs, HostScalars.Values values, Map<String, ScalarArray> buffers) {
    for (GroupInput input : group.inputs()) {
      Value value = inputs.get(input.name());
      if (value == null) {
        throw new IllegalArgumentException(
            "no value for input " + input.name() + " of " + group.name());
      }
      if (input instanceof GroupInput.Array a) {
        List<Long> shape = RowMajor.shape(value, a.shape().size());
        for (int d = 0; d < shape.size(); d++) {
          values.set(host.slotOf(a.shape().get(d).name()), ScalarValue.i64(shape.get(d)));
        }
        Buffer b = a.buffer();
        buffers.put(
            b.name(),
            ScalarArray.of(b.name(), b.elementType(), RowMajor.flatten(value, shape.size())));
      } else {
        KernelExpr.Var variable = ((GroupInput.Scalar) input).variable();
        if (!(value instanceof ScalarValue s) || s.type() != variable.type()) {
          throw new IllegalArgumentException(
              "input " + input.name() + " must be a " + variable.type() + ", not " + value);
        }
        values.set(host.slotOf(variable.name()), s);
      }
    }
  }

  /**
   * Launches {@code l}; each thread-private buffer is the CUDA printer's layout, the launch's
   * threads' arrays interleaved in one array made for the launch.
   */
  private KernelLaunch.Outcome launch(
      HostProgram.Launch<CompiledKernel> l,
      HostScalars.Values values,
      Map<String, ScalarArray> buffers,
      Map<String, Integer> threadPrivateElements,
      int blockSize) {
    long grid = l.gridSize().evaluateIndex(values);
    if (grid < 1 || grid > Integer.MAX_VALUE / blockSize) {
      throw new IllegalArgumentException(
          "launches " + l.kernel().name() + " on " + grid + " blocks");
    }
    List<ScalarArray> bound = new ArrayList<>();
    List<Integer> perThread = new ArrayList<>();
    for (Buffer b : l.kernel().buffers()) {
      if (b.isThreadPrivate()) {
        Integer elements = threadPrivateElements.get(b.name());
        if (elements == null) {
          throw new IllegalArgumentException(
              "thread-private buffer " + b.name() + " is used before it is sized");
        }
        long threads = grid * blockSize;
        long total = elements * threads;
        if (total > MAX_ELEMENTS) {
          throw new LimitReached(
              new SimulationIssue.AllocationLimit(
                  group.name(), b.name(), total, threads, MAX_ELEMENTS));
        }
        bound.add(new ScalarArray(b.name(), b.elementType(), (int) total));
        perThread.add(elements);
      } else {
        bound.add(buffer(buffers, b));
        perThread.add(KernelLaunch.GLOBAL);
      }
    }
    List<ScalarValue> params = l.scalarSlots().stream().map(values::get).toList();
    return new KernelLaunch(l.loaded(), bound, perThread, params, blockSize, (int) grid).run();
  }

  /** The elements {@code a} allocates: a limit reached past {@link #MAX_ELEMENTS}. */
  private static int elements(
      String groupName, HostProgram.Allocate<CompiledKernel> a, HostScalars.Values values) {
    long elements = a.elements().evaluateSize(values);
    if (elements > MAX_ELEMENTS) {
      throw new LimitReached(
          new SimulationIssue.AllocationLimit(
              groupName, a.buffer().name(), elements, 0, MAX_ELEMENTS));
    }
    return (int) elements;
  }

  /** Runs a definition, an allocation or a read-back. */
  private static void runHostStep(
      String groupName,
      HostProgram.Step<CompiledKernel> step,
      HostScalars.Values values,
      Map<String, ScalarArray> buffers) {
    if (step instanceof HostProgram.Define<CompiledKernel> d) {
      values.set(d.slot(), d.value().evaluate(values));
    } else if (step instanceof HostProgram.Allocate<CompiledKernel> a) {
      buffers.put(
          a.buffer().name(),
          new ScalarArray(
              a.buffer().name(), a.buffer().elementType(), elements(groupName, a, values)));
    } else {
      HostProgram.ReadScalar<CompiledKernel> r = (HostProgram.ReadScalar<CompiledKernel>) step;
      ScalarArray buffer = buffer(buffers, r.buffer());
      long index = r.index().evaluateIndex(values);
      if (index < 0 || index >= buffer.size()) {
        throw new IllegalArgumentException(
            "reads element " + index + " of " + buffer.name() + " of size " + buffer.size());
      }
      values.set(r.slot(), buffer.get((int) index));
    }
  }

  private static ScalarArray buffer(Map<String, ScalarArray> buffers, Buffer b) {
    ScalarArray array = buffers.get(b.name());
    if (array == null) {
      throw new IllegalArgumentException("buffer " + b.name() + " is used before it is allocated");
    }
    return array;
  }

  private Map<String, Value> outputs(HostScalars.Values values, Map<String, ScalarArray> buffers) {
    Map<String, Value> out = new LinkedHashMap<>();
    for (int k = 0; k < group.outputs().size(); k++) {
      GroupOutput output = group.outputs().get(k);
      ScalarArray data = buffer(buffers, output.buffer());
      List<Long> shape = outputShapes.get(k).stream().map(e -> e.evaluateSize(values)).toList();
      long elements = shape.stream().reduce(1L, Math::multiplyExact);
      if (elements > data.size()) {
        throw new IllegalArgumentException(
            "output "
                + output.name()
                + " of shape "
                + shape
                + " needs "
                + elements
                + " elements, its buffer "
                + data.name()
                + " has "
                + data.size());
      }
      out.put(output.name(), RowMajor.unflatten(data, shape));
    }
    return out;
  }
}
