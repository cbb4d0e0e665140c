package dev.l0.kernels.cudaexec;

import dev.l0.ir.ScalarType;
import dev.l0.ir.ScalarValue;
import dev.l0.ir.Value;
import dev.l0.kernels.cuda.CudaPrinter;
import dev.l0.kernels.ir.Buffer;
import dev.l0.kernels.ir.GroupInput;
import dev.l0.kernels.ir.GroupOutput;
import dev.l0.kernels.ir.KernelExpr;
import dev.l0.kernels.ir.KernelGroup;
import dev.l0.kernels.jvm.FlatArray;
import dev.l0.kernels.runtime.CudaContext;
import dev.l0.kernels.runtime.CudaKernel;
import dev.l0.kernels.runtime.CudaModule;
import dev.l0.kernels.runtime.DeviceBuffer;
import dev.l0.kernels.runtime.KernelArgument;
import dev.l0.kernels.runtime.LaunchShape;
import dev.l0.kernels.runtime.PinnedHostBuffer;
import dev.l0.kernels.sim.HostProgram;
import dev.l0.kernels.sim.HostScalars;
import java.lang.reflect.Array;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;
import java.util.function.LongConsumer;

/**
 * Runs one kernel group on a GPU as the kernel IR's host does (package {@code dev.l0.kernels.ir}):
 * uploads the inputs through pinned staging into pooled device buffers, runs the host steps in
 * order (host scalars evaluated by {@link HostScalars}, the simulator's evaluator; allocations
 * zero-filled; launches on the host's grid size with blocks of a fixed size and the printer's
 * shared memory), checks the error word after every launch, and downloads the outputs. A
 * launch that raised error code {@code k} fails with {@code errors.get(k - 1)}'s
 * {@code L0RuntimeError}, as on the simulator. Device buffers go back to the pool after every run.
 */
final class DeviceGroupRunner {
  private static final int ERROR_WORD_BYTES = 4;

  private final KernelGroup group;
  private final CudaContext context;
  private final int blockSize;
  private final HostScalars host;
  private final List<HostProgram.Step<CudaKernel>> steps;
  private final List<List<HostScalars.Expression>> outputShapes;

  /** For {@code group}, whose kernels {@code module} holds, with blocks of {@code blockSize} threads. */
  DeviceGroupRunner(KernelGroup group, CudaContext context, CudaModule module, int blockSize) {
    this.group = group;
    this.context = context;
    this.blockSize = blockSize;
    HostProgram<CudaKernel> program = HostProgram.compile(group, k -> module.kernel(k.name()));
    this.host = program.host();
    this.steps = program.steps();
    this.outputShapes = program.outputShapes();
  }

  /** The group's outputs by name, computed from {@code inputs} (a value for every group input, by name). */
  Map<String, Value> run(Map<String, Value> inputs) {
    return run(inputs, launchNanos -> {});
  }

  /**
   * {@link #run(Map)}, telling {@code launchNanos} the wall-clock nanoseconds of each launch, from
   * the launch to the end of the context's synchronisation after it (no transfers).
   */
  Map<String, Value> run(Map<String, Value> inputs, LongConsumer launchNanos) {
    HostScalars.Values values = host.newValues();
    values.set(host.slotOf(KernelGroup.BLOCK_SIZE.name()), ScalarValue.i64(blockSize));
    Map<String, DeviceBuffer> buffers = new HashMap<>();
    try (DeviceBuffer errorWord = zeroed(ERROR_WORD_BYTES)) {
      bindInputs(inputs, values, buffers);
      for (HostProgram.Step<CudaKernel> step : steps) {
        runStep(step, values, buffers, errorWord, launchNanos);
      }
      return outputs(values, buffers);
    } finally {
      buffers.values().forEach(DeviceBuffer::close);
    }
  }

  private void bindInputs(Map<String, Value> inputs, HostScalars.Values values, Map<String, DeviceBuffer> buffers) {
    for (GroupInput input : group.inputs()) {
      Value value = inputs.get(input.name());
      if (value == null) {
        throw new IllegalArgumentException("no value for input " + input.name() + " of " + group.name());
      }
      if (input instanceof GroupInput.Array a) {
        FlatArray array = FlatArray.of((Value.Array) value, a.buffer().elementType(), a.shape().size());
        for (int d = 0; d < a.shape().size(); d++) {
          values.set(host.slotOf(a.shape().get(d).name()), ScalarValue.i64(array.size(d)));
        }
        buffers.put(a.buffer().name(), upload(array));
      } else {
        values.set(host.slotOf(((GroupInput.Scalar) input).variable().name()), (ScalarValue) value);
      }
    }
  }

  private void runStep(HostProgram.Step<CudaKernel> step, HostScalars.Values values, Map<String, DeviceBuffer> buffers, DeviceBuffer errorWord,
      LongConsumer launchNanos) {
    if (step instanceof HostProgram.Define<CudaKernel> d) {
      values.set(d.slot(), d.value().evaluate(values));
    } else if (step instanceof HostProgram.Allocate<CudaKernel> a) {
      long bytes = HostStaging.bytes(a.buffer().elementType(), a.elements().evaluateIndex(values));
      DeviceBuffer previous = buffers.put(a.buffer().name(), zeroed(bytes));
      if (previous != null) {
        previous.close();
      }
    } else if (step instanceof HostProgram.Launch<CudaKernel> l) {
      launch(l, values, buffers, errorWord, launchNanos);
    } else {
      HostProgram.ReadScalar<CudaKernel> r = (HostProgram.ReadScalar<CudaKernel>) step;
      long index = r.index().evaluateIndex(values);
      ScalarType type = r.buffer().elementType();
      DeviceBuffer buffer = buffer(buffers, r.buffer());
      long bytes = HostStaging.bytes(type, index + 1);
      if (index < 0 || bytes > buffer.bytes()) {
        throw new IllegalArgumentException("reads element " + index + " of " + r.buffer().name() + " of " + buffer.bytes() + " bytes");
      }
      values.set(r.slot(), HostStaging.element(download(buffer, bytes), type, (int) index));
    }
  }

  private void launch(HostProgram.Launch<CudaKernel> l, HostScalars.Values values, Map<String, DeviceBuffer> buffers, DeviceBuffer errorWord,
      LongConsumer launchNanos) {
    long grid = l.gridSize().evaluateIndex(values);
    if (grid < 1 || grid > Integer.MAX_VALUE) {
      throw new IllegalArgumentException("launches " + l.kernel().name() + " on " + grid + " blocks");
    }
    List<KernelArgument> arguments = new ArrayList<>();
    arguments.add(KernelArgument.of(errorWord));
    l.kernel().buffers().forEach(b -> arguments.add(KernelArgument.of(buffer(buffers, b))));
    for (int k = 0; k < l.scalarSlots().size(); k++) {
      arguments.add(argument(l.kernel().scalars().get(k), values.get(l.scalarSlots().get(k))));
    }
    long shared = CudaPrinter.sharedMemoryBytes(l.kernel(), blockSize);
    long start = System.nanoTime();
    l.loaded().launch(new LaunchShape((int) grid, 1, 1, blockSize, 1, 1), Math.toIntExact(shared), arguments);
    launchNanos.accept(System.nanoTime() - start);
    int code = download(errorWord, ERROR_WORD_BYTES).getInt(0);
    if (code != 0) {
      throw group.errors().get(code - 1).toRuntimeError();
    }
  }

  private static KernelArgument argument(KernelExpr.Var parameter, ScalarValue value) {
    switch (parameter.type()) {
      case BOOL: return KernelArgument.ofBoolean(((ScalarValue.Bool) value).value());
      case I32: return KernelArgument.ofInt((int) ((ScalarValue.Int) value).value());
      case I64: return KernelArgument.ofLong(((ScalarValue.Int) value).value());
      case F32: return KernelArgument.ofFloat((float) ((ScalarValue.Float) value).value());
      default: return KernelArgument.ofDouble(((ScalarValue.Float) value).value());
    }
  }

  private Map<String, Value> outputs(HostScalars.Values values, Map<String, DeviceBuffer> buffers) {
    Map<String, Value> out = new LinkedHashMap<>();
    for (int k = 0; k < group.outputs().size(); k++) {
      GroupOutput output = group.outputs().get(k);
      ScalarType type = output.buffer().elementType();
      DeviceBuffer buffer = buffer(buffers, output.buffer());
      int[] shape = outputShapes.get(k).stream().mapToInt(e -> Math.toIntExact(e.evaluateIndex(values))).toArray();
      long elements = 1;
      for (int size : shape) {
        elements = Math.multiplyExact(elements, size);
      }
      long bytes = HostStaging.bytes(type, elements);
      if (bytes > buffer.bytes()) {
        throw new IllegalArgumentException("output " + output.name() + " needs " + bytes + " bytes, its buffer "
            + output.buffer().name() + " has " + buffer.bytes());
      }
      ByteBuffer data = download(buffer, bytes);
      out.put(output.name(), shape.length == 0 ? HostStaging.element(data, type, 0)
          : new FlatArray(type, HostStaging.read(data, type, (int) elements), shape).toValue());
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

  /** A device buffer holding {@code array}'s elements. */
  private DeviceBuffer upload(FlatArray array) {
    long bytes = HostStaging.bytes(array.elementType(), Array.getLength(array.data()));
    return uploaded(bytes, staging -> HostStaging.write(array, staging));
  }

  /** A device buffer of {@code bytes} zero bytes. */
  private DeviceBuffer zeroed(long bytes) {
    return uploaded(bytes, staging -> {
      for (int i = 0; i < bytes; i++) {
        staging.put(i, (byte) 0);
      }
    });
  }

  /** A device buffer of {@code bytes} bytes (at least one, as the pool asks), its contents filled in pinned staging. */
  private DeviceBuffer uploaded(long bytes, Consumer<ByteBuffer> fill) {
    DeviceBuffer buffer = context.memoryPool().allocate(Math.max(bytes, 1));
    if (bytes == 0) {
      return buffer;
    }
    try (PinnedHostBuffer staging = context.allocatePinned(bytes)) {
      fill.accept(staging.asByteBuffer());
      context.upload(staging, buffer, bytes);
    } catch (RuntimeException e) {
      buffer.close();
      throw e;
    }
    return buffer;
  }

  /** The first {@code bytes} bytes of {@code buffer}, copied to the heap in the machine's order. */
  private ByteBuffer download(DeviceBuffer buffer, long bytes) {
    ByteBuffer copy = ByteBuffer.allocate(Math.toIntExact(bytes)).order(ByteOrder.nativeOrder());
    if (bytes == 0) {
      return copy;
    }
    try (PinnedHostBuffer staging = context.allocatePinned(bytes)) {
      context.download(buffer, staging, bytes);
      copy.put(staging.asByteBuffer());
    }
    copy.clear();
    return copy;
  }
}
