package dev.l0.kernels.cudaexec;

import dev.l0.ir.ScalarType;
import dev.l0.ir.ScalarValue;
import dev.l0.kernels.cuda.CudaPrinter;
import dev.l0.kernels.exec.HostEnvironment;
import dev.l0.kernels.exec.HostValue;
import dev.l0.kernels.exec.RunMeter;
import dev.l0.kernels.ir.Buffer;
import dev.l0.kernels.ir.CapacityReruns;
import dev.l0.kernels.ir.GroupInput;
import dev.l0.kernels.ir.GroupOutput;
import dev.l0.kernels.ir.KernelExpr;
import dev.l0.kernels.ir.KernelGroup;
import dev.l0.kernels.ir.KernelStmt;
import dev.l0.kernels.jvm.FlatArray;
import dev.l0.kernels.runtime.CudaContext;
import dev.l0.kernels.runtime.CudaKernel;
import dev.l0.kernels.runtime.CudaModule;
import dev.l0.kernels.runtime.DeviceBuffer;
import dev.l0.kernels.runtime.KernelArgument;
import dev.l0.kernels.runtime.LaunchShape;
import dev.l0.kernels.sim.HostProgram;
import dev.l0.kernels.sim.HostScalars;
import java.lang.reflect.Array;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.LongConsumer;

/**
 * Runs one kernel group on a GPU as the kernel IR's host does (package {@code dev.l0.kernels.ir}):
 * copies the inputs into pooled device buffers, runs the host steps in order (host scalars
 * evaluated by {@link HostScalars}, the simulator's evaluator; allocations zero-filled on the
 * device, a thread-private buffer's at each launch, for the launch's threads, as {@link
 * CudaPrinter} lays it out; launches on the host's grid size with blocks of the size the run is
 * given and the printer's shared memory), checks the error word after every launch, and downloads
 * the outputs. A launch that raised error code {@code k} fails with {@code errors.get(k - 1)}'s
 * {@code L0RuntimeError}, as on the simulator; a capacity overflow reruns the group with larger
 * growing arrays ({@link CapacityReruns}). Device buffers go back to the pool after every run.
 * Inputs are read from the host runner's environment flat (a {@link FlatArray}'s primitive array is
 * copied as it is, straight from the Java heap), outputs come back flat; every copy is measured in
 * the call's {@link RunMeter}. Not synchronised: {@link CudaKernelExecutor} runs one group at a
 * time per GPU.
 */
final class DeviceGroupRunner {
  /** The error code, 4 bytes of padding, then the values of its raise. */
  private static final int ERROR_WORD_BYTES = 8 + 8 * KernelStmt.MAX_ERROR_VALUES;

  private final KernelGroup group;
  private final CudaContext context;
  private final HostScalars host;
  private final List<HostProgram.Step<CudaKernel>> steps;
  private final List<List<HostScalars.Expression>> outputShapes;

  /** For {@code group}, whose kernels {@code module} holds. */
  DeviceGroupRunner(KernelGroup group, CudaContext context, CudaModule module) {
    this.group = group;
    this.context = context;
    HostProgram<CudaKernel> program = HostProgram.compile(group, k -> module.kernel(k.name()));
    this.host = program.host();
    this.steps = program.steps();
    this.outputShapes = program.outputShapes();
  }

  /**
   * The group's outputs by name (arrays flat, scalars boxed), computed from the values of the
   * group's inputs in {@code environment}, launching blocks of {@code blockSize} threads (a power
   * of two); copies between host and device go to its meter.
   */
  Map<String, HostValue> run(HostEnvironment environment, int blockSize) {
    return run(environment, blockSize, launchNanos -> {});
  }

  /**
   * {@link #run(HostEnvironment, int)}, telling {@code launchNanos} the wall-clock nanoseconds of
   * each launch, from the launch to the end of the context's synchronisation after it (no
   * transfers).
   */
  Map<String, HostValue> run(HostEnvironment environment, int blockSize, LongConsumer launchNanos) {
    return CapacityReruns.run(scale -> run(environment, blockSize, launchNanos, scale));
  }

  /**
   * {@link #run(HostEnvironment, int, LongConsumer)} with growing arrays' capacities at {@code
   * capacityScale}.
   */
  private Map<String, HostValue> run(
      HostEnvironment environment, int blockSize, LongConsumer launchNanos, long capacityScale) {
    HostScalars.Values values = host.newValues();
    values.set(host.slotOf(KernelGroup.BLOCK_SIZE.name()), ScalarValue.i64(blockSize));
    values.set(host.slotOf(KernelGroup.CAPACITY_SCALE.name()), ScalarValue.i64(capacityScale));
    Map<String, DeviceBuffer> buffers = new HashMap<>();
    Map<String, Long> threadPrivateElements = new HashMap<>();
    RunMeter meter = environment.meter();
    try (DeviceBuffer errorWord = zeroed(ERROR_WORD_BYTES)) {
      bindInputs(environment, values, buffers);
      for (HostProgram.Step<CudaKernel> step : steps) {
        runStep(
            step, values, buffers, threadPrivateElements, errorWord, blockSize, launchNanos, meter);
      }
      return outputs(values, buffers, meter);
    } finally {
      buffers.values().forEach(DeviceBuffer::close);
    }
  }

  private void bindInputs(
      HostEnvironment environment, HostScalars.Values values, Map<String, DeviceBuffer> buffers) {
    for (GroupInput input : group.inputs()) {
      if (input instanceof GroupInput.Array a) {
        FlatArray array = environment.flat(input.name());
        for (int d = 0; d < a.shape().size(); d++) {
          values.set(host.slotOf(a.shape().get(d).name()), ScalarValue.i64(array.size(d)));
        }
        buffers.put(a.buffer().name(), upload(array, environment.meter()));
      } else {
        values.set(
            host.slotOf(((GroupInput.Scalar) input).variable().name()),
            environment.scalar(input.name()));
      }
    }
  }

  private void runStep(
      HostProgram.Step<CudaKernel> step,
      HostScalars.Values values,
      Map<String, DeviceBuffer> buffers,
      Map<String, Long> threadPrivateElements,
      DeviceBuffer errorWord,
      int blockSize,
      LongConsumer launchNanos,
      RunMeter meter) {
    if (step instanceof HostProgram.Define<CudaKernel> d) {
      values.set(d.slot(), d.value().evaluate(values));
    } else if (step instanceof HostProgram.Allocate<CudaKernel> a && a.buffer().isThreadPrivate()) {
      threadPrivateElements.put(a.buffer().name(), a.elements().evaluateSize(values));
    } else if (step instanceof HostProgram.Allocate<CudaKernel> a) {
      long bytes = HostStaging.bytes(a.buffer().elementType(), a.elements().evaluateSize(values));
      DeviceBuffer previous = buffers.put(a.buffer().name(), zeroed(bytes));
      if (previous != null) {
        previous.close();
      }
    } else if (step instanceof HostProgram.Launch<CudaKernel> l) {
      launch(l, values, buffers, threadPrivateElements, errorWord, blockSize, launchNanos, meter);
    } else {
      HostProgram.ReadScalar<CudaKernel> r = (HostProgram.ReadScalar<CudaKernel>) step;
      long index = r.index().evaluateIndex(values);
      ScalarType type = r.buffer().elementType();
      DeviceBuffer buffer = buffer(buffers, r.buffer());
      long bytes = HostStaging.bytes(type, index + 1);
      if (index < 0 || bytes > buffer.bytes()) {
        throw new IllegalArgumentException(
            "reads element "
                + index
                + " of "
                + r.buffer().name()
                + " of "
                + buffer.bytes()
                + " bytes");
      }
      values.set(r.slot(), HostStaging.element(download(buffer, type, index, 1, meter), type, 0));
    }
  }

  private void launch(
      HostProgram.Launch<CudaKernel> l,
      HostScalars.Values values,
      Map<String, DeviceBuffer> buffers,
      Map<String, Long> threadPrivateElements,
      DeviceBuffer errorWord,
      int blockSize,
      LongConsumer launchNanos,
      RunMeter meter) {
    long grid = l.gridSize().evaluateIndex(values);
    if (grid < 1 || grid > Integer.MAX_VALUE) {
      throw new IllegalArgumentException(
          "launches " + l.kernel().name() + " on " + grid + " blocks");
    }
    for (Buffer b : l.kernel().buffers()) {
      if (b.isThreadPrivate()) {
        Long perThread = threadPrivateElements.get(b.name());
        if (perThread == null) {
          throw new IllegalArgumentException(
              "thread-private buffer " + b.name() + " is used before it is sized");
        }
        long elements = CudaPrinter.threadPrivateElements(perThread, grid * blockSize);
        DeviceBuffer previous =
            buffers.put(
                b.name(),
                context
                    .memoryPool()
                    .allocate(Math.max(HostStaging.bytes(b.elementType(), elements), 1)));
        if (previous != null) {
          previous.close();
        }
      }
    }
    List<KernelArgument> arguments = new ArrayList<>();
    arguments.add(KernelArgument.of(errorWord));
    l.kernel().buffers().forEach(b -> arguments.add(KernelArgument.of(buffer(buffers, b))));
    for (int k = 0; k < l.scalarSlots().size(); k++) {
      arguments.add(argument(l.kernel().scalars().get(k), values.get(l.scalarSlots().get(k))));
    }
    long shared = CudaPrinter.sharedMemoryBytes(l.kernel(), blockSize);
    long start = System.nanoTime();
    l.loaded()
        .launch(
            new LaunchShape((int) grid, 1, 1, blockSize, 1, 1), Math.toIntExact(shared), arguments);
    launchNanos.accept(System.nanoTime() - start);
    int code = ((int[]) download(errorWord, ScalarType.I32, 0, 1, meter))[0];
    if (code != 0) {
      long[] recorded =
          (long[]) download(errorWord, ScalarType.I64, 1, KernelStmt.MAX_ERROR_VALUES, meter);
      throw CapacityReruns.failure(group.errors().get(code - 1), recorded);
    }
  }

  private static KernelArgument argument(KernelExpr.Var parameter, ScalarValue value) {
    switch (parameter.type()) {
      case BOOL:
        return KernelArgument.ofBoolean(((ScalarValue.Bool) value).value());
      case I32:
        return KernelArgument.ofInt((int) ((ScalarValue.Int) value).value());
      case I64:
        return KernelArgument.ofLong(((ScalarValue.Int) value).value());
      case F32:
        return KernelArgument.ofFloat((float) ((ScalarValue.Float) value).value());
      default:
        return KernelArgument.ofDouble(((ScalarValue.Float) value).value());
    }
  }

  private Map<String, HostValue> outputs(
      HostScalars.Values values, Map<String, DeviceBuffer> buffers, RunMeter meter) {
    Map<String, HostValue> out = new LinkedHashMap<>();
    for (int k = 0; k < group.outputs().size(); k++) {
      GroupOutput output = group.outputs().get(k);
      ScalarType type = output.buffer().elementType();
      DeviceBuffer buffer = buffer(buffers, output.buffer());
      int[] shape =
          outputShapes.get(k).stream()
              .mapToInt(e -> Math.toIntExact(e.evaluateSize(values)))
              .toArray();
      long elements = 1;
      for (int size : shape) {
        elements = Math.multiplyExact(elements, size);
      }
      long bytes = HostStaging.bytes(type, elements);
      if (bytes > buffer.bytes()) {
        throw new IllegalArgumentException(
            "output "
                + output.name()
                + " needs "
                + bytes
                + " bytes, its buffer "
                + output.buffer().name()
                + " has "
                + buffer.bytes());
      }
      int length = Math.toIntExact(elements);
      if (shape.length == 0) {
        ScalarValue scalar = HostStaging.element(download(buffer, type, 0, 1, meter), type, 0);
        out.put(output.name(), HostValue.of(scalar));
      } else {
        Object data = HostStaging.flatData(download(buffer, type, 0, length, meter), type);
        out.put(output.name(), HostValue.of(new FlatArray(type, data, shape)));
      }
    }
    return out;
  }

  private static DeviceBuffer buffer(Map<String, DeviceBuffer> buffers, Buffer b) {
    DeviceBuffer buffer = buffers.get(b.name());
    if (buffer == null) {
      throw new IllegalArgumentException("buffer " + b.name() + " is used before it is allocated");
    }
    return buffer;
  }

  /** A device buffer holding {@code array}'s elements, copied in bulk. */
  private DeviceBuffer upload(FlatArray array, RunMeter meter) {
    long bytes = HostStaging.bytes(array.elementType(), Array.getLength(array.data()));
    DeviceBuffer buffer = context.memoryPool().allocate(Math.max(bytes, 1));
    if (bytes == 0) {
      return buffer;
    }
    long start = System.nanoTime();
    try {
      context.upload(HostStaging.hostArray(array), buffer, bytes);
    } catch (RuntimeException e) {
      buffer.close();
      throw e;
    }
    meter.addTransfer(bytes, System.nanoTime() - start);
    return buffer;
  }

  /**
   * A device buffer of {@code bytes} zero bytes (at least one, as the pool asks), set on the
   * device.
   */
  private DeviceBuffer zeroed(long bytes) {
    DeviceBuffer buffer = context.memoryPool().allocate(Math.max(bytes, 1));
    try {
      context.zero(buffer, buffer.bytes());
    } catch (RuntimeException e) {
      buffer.close();
      throw e;
    }
    return buffer;
  }

  /**
   * The {@code length} elements of {@code type} from element {@code first} of {@code buffer}, as a
   * copyable array ({@link HostStaging#hostArray(ScalarType, int)}); the copy counts as a transfer.
   */
  private Object download(
      DeviceBuffer buffer, ScalarType type, long first, int length, RunMeter meter) {
    Object host = HostStaging.hostArray(type, length);
    long bytes = HostStaging.bytes(type, length);
    if (bytes == 0) {
      return host;
    }
    long start = System.nanoTime();
    context.download(buffer, HostStaging.bytes(type, first), host, bytes);
    meter.addTransfer(bytes, System.nanoTime() - start);
    return host;
  }
}
