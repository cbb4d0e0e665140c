package dev.l0.kernels.jvm;

import dev.l0.ir.ScalarType;
import dev.l0.ir.ScalarValue;
import dev.l0.kernels.exec.HostEnvironment;
import dev.l0.kernels.exec.HostValue;
import dev.l0.kernels.ir.Buffer;
import dev.l0.kernels.ir.CapacityReruns;
import dev.l0.kernels.ir.GroupInput;
import dev.l0.kernels.ir.GroupOutput;
import dev.l0.kernels.ir.Kernel;
import dev.l0.kernels.ir.KernelGroup;
import dev.l0.kernels.ir.KernelStmt;
import dev.l0.kernels.ir.SharedArray;
import dev.l0.kernels.lower.LaunchConfiguration;
import dev.l0.kernels.sim.HostProgram;
import dev.l0.kernels.sim.HostScalars;
import java.lang.reflect.Array;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.IdentityHashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Queue;
import java.util.Set;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Runs one kernel group on the JVM as the kernel IR's host does (package {@code
 * dev.l0.kernels.ir}), with blocks of one thread: the host steps by {@link HostProgram} (the
 * simulator's and CUDA's), buffers as primitive arrays (the inputs' {@link FlatArray} data as they
 * are, copied only where a kernel writes them; allocations zero-filled, from the call's {@link
 * dev.l0.kernels.exec.SpareArrays}), and each launch's blocks in contiguous ranges on at most
 * {@code parallelism} threads ({@link ParallelRanges}). Each worker of a launch has its own shared
 * arrays, its own array of every thread-private buffer, which every thread it runs reuses, and its
 * own workspace ({@link KernelThreads#newWorkspace}, a staged kernel's chunk arrays, kept for later
 * launches): a launch allocates thread-private memory per worker, never per thread. After a launch
 * the error of its lowest failing block, if any, is thrown as its {@code L0RuntimeError} (for a
 * map, the first failing row's); a capacity overflow instead reruns the group with larger growing
 * arrays ({@link CapacityReruns}). Outputs come back as {@link FlatArray}s, scalars boxed.
 * Thread-safe: a run's state is its own.
 */
public final class JvmGroupRunner {
  private static final long BLOCK_SIZE = 1;

  private final KernelGroup group;
  private final int parallelism;
  private final HostScalars host;
  private final List<HostProgram.Step<KernelThreads>> steps;
  private final List<List<HostScalars.Expression>> outputShapes;
  private final AtomicLong threadPrivateElements = new AtomicLong();

  /**
   * The host slots a run sets before its steps, found once (a Spark task runs the group once per
   * batch): the block size, the capacity scale, and per group input its scalar's slot or its
   * dimensions' slots.
   */
  private final int blockSizeSlot;

  private final int capacityScaleSlot;
  private final int[][] inputSlots;

  /**
   * Per launched kernel, the workspaces of finished launches, taken again by later launches (a
   * Spark task runs the group once per batch): a workspace is scratch memory that a worker writes
   * before it reads, so it needs no clearing. At most as many are kept as the machine has
   * processors, about the most workers that run the kernel at once.
   */
  private final Map<KernelThreads, BlockingQueue<Object>> spareWorkspaces = new IdentityHashMap<>();

  /**
   * The buffers some kernel of the group stores into: an input among them is copied before a run,
   * the caller's array left as it is.
   */
  private final Set<String> written = new HashSet<>();

  /** The kernels' forms specialised to their launches' scalars ({@link LaunchSpecialisations}). */
  private final LaunchSpecialisations specialisations;

  /**
   * For {@code group}, lowered with {@link LaunchConfiguration#THREAD_PER_ROW}, running each launch
   * on at most {@code parallelism} threads.
   */
  public JvmGroupRunner(KernelGroup group, int parallelism) {
    this(
        group,
        parallelism,
        JaninoKernels::compile,
        LaunchSpecialisations.inBackground(JaninoKernels::compileForm));
  }

  /**
   * As {@link #JvmGroupRunner(KernelGroup, int)}, each kernel compiled by {@code compiler}: for a
   * benchmark or test that runs the same group in another form ({@link
   * JavaKernelIrPrinter#printPerRow}).
   */
  JvmGroupRunner(
      KernelGroup group,
      int parallelism,
      java.util.function.Function<Kernel, KernelThreads> compiler) {
    this(group, parallelism, compiler, LaunchSpecialisations.none());
  }

  /**
   * As {@link #JvmGroupRunner(KernelGroup, int)}, each kernel compiled by {@code compiler} and
   * launches run the forms {@code specialisations} gives.
   */
  JvmGroupRunner(
      KernelGroup group,
      int parallelism,
      java.util.function.Function<Kernel, KernelThreads> compiler,
      LaunchSpecialisations specialisations) {
    if (parallelism < 1) {
      throw new IllegalArgumentException("a kernel needs at least one thread, not " + parallelism);
    }
    this.group = group;
    this.parallelism = parallelism;
    this.specialisations = specialisations;
    HostProgram<KernelThreads> program = HostProgram.compile(group, compiler);
    this.host = program.host();
    this.steps = program.steps();
    this.outputShapes = program.outputShapes();
    this.blockSizeSlot = host.slotOf(KernelGroup.BLOCK_SIZE.name());
    this.capacityScaleSlot = host.slotOf(KernelGroup.CAPACITY_SCALE.name());
    this.inputSlots = new int[group.inputs().size()][];
    for (int k = 0; k < inputSlots.length; k++) {
      if (group.inputs().get(k) instanceof GroupInput.Array a) {
        inputSlots[k] = a.shape().stream().mapToInt(d -> host.slotOf(d.name())).toArray();
      } else {
        inputSlots[k] =
            new int[] {host.slotOf(((GroupInput.Scalar) group.inputs().get(k)).variable().name())};
      }
    }
    group.kernels().forEach(k -> collectStores(k.body()));
    for (HostProgram.Step<KernelThreads> step : steps) {
      if (step instanceof HostProgram.Launch<KernelThreads> l) {
        spareWorkspaces.computeIfAbsent(
            l.loaded(),
            unused -> new ArrayBlockingQueue<>(Runtime.getRuntime().availableProcessors()));
      }
    }
  }

  private void collectStores(List<KernelStmt> body) {
    for (KernelStmt s : body) {
      if (s instanceof KernelStmt.Store store) {
        written.add(store.buffer().name());
      } else if (s instanceof KernelStmt.If i) {
        collectStores(i.thenBody());
        collectStores(i.elseBody());
      } else if (s instanceof KernelStmt.For f) {
        collectStores(f.body());
      } else if (s instanceof KernelStmt.While w) {
        collectStores(w.body());
      }
    }
  }

  /**
   * The Java source the JVM backend compiles for {@code kernel} (printed as {@link JaninoKernels}
   * compiles it).
   */
  public static String javaSource(Kernel kernel) {
    return JaninoKernels.compiled(kernel).source();
  }

  public KernelGroup group() {
    return group;
  }

  /**
   * The launches so far that ran a form of their kernel specialised to their scalars ({@link
   * LaunchSpecialisations}).
   */
  long specialisedLaunches() {
    return specialisations.specialisedLaunches();
  }

  /**
   * The elements of thread-private arrays that launches of this runner have allocated so far, all
   * runs together: per launch, the sizes of the kernel's thread-private buffers times the workers
   * that ran it (at most the parallelism), whatever the number of threads.
   */
  public long threadPrivateElementsAllocated() {
    return threadPrivateElements.get();
  }

  /**
   * The group's outputs by name (arrays flat, scalars boxed), computed from its inputs' values in
   * {@code environment}.
   */
  public Map<String, HostValue> run(HostEnvironment environment) {
    return CapacityReruns.run(scale -> run(environment, scale));
  }

  /**
   * {@link #run(HostEnvironment)} with growing arrays' capacities at {@code capacityScale} ({@link
   * CapacityReruns}).
   */
  private Map<String, HostValue> run(HostEnvironment environment, long capacityScale) {
    HostScalars.Values values = host.newValues();
    values.set(blockSizeSlot, ScalarValue.i64(BLOCK_SIZE));
    values.set(capacityScaleSlot, ScalarValue.i64(capacityScale));
    Map<String, Object> buffers = new HashMap<>();
    Map<String, Integer> perThread = new HashMap<>();
    bindInputs(environment, values, buffers);
    for (HostProgram.Step<KernelThreads> step : steps) {
      if (step instanceof HostProgram.Define<KernelThreads> d) {
        values.set(d.slot(), d.value().evaluate(values));
      } else if (step instanceof HostProgram.Allocate<KernelThreads> a) {
        int elements = elements(a.elements().evaluateSize(values), a.buffer());
        if (a.buffer().isThreadPrivate()) {
          perThread.put(a.buffer().name(), elements);
        } else {
          buffers.put(
              a.buffer().name(), environment.spares().allocate(a.buffer().elementType(), elements));
        }
      } else if (step instanceof HostProgram.Launch<KernelThreads> l) {
        launch(l, values, buffers, perThread);
      } else {
        HostProgram.ReadScalar<KernelThreads> r = (HostProgram.ReadScalar<KernelThreads>) step;
        Object data = buffer(buffers, r.buffer());
        long index = r.index().evaluateIndex(values);
        if (index < 0 || index >= Array.getLength(data)) {
          throw new IllegalArgumentException(
              "reads element "
                  + index
                  + " of "
                  + r.buffer().name()
                  + " of "
                  + Array.getLength(data)
                  + " elements");
        }
        values.set(r.slot(), element(data, r.buffer().elementType(), (int) index));
      }
    }
    return outputs(values, buffers);
  }

  private void bindInputs(
      HostEnvironment environment, HostScalars.Values values, Map<String, Object> buffers) {
    for (int k = 0; k < inputSlots.length; k++) {
      GroupInput input = group.inputs().get(k);
      if (input instanceof GroupInput.Array a) {
        FlatArray array = environment.flat(input.name());
        for (int d = 0; d < inputSlots[k].length; d++) {
          values.set(inputSlots[k][d], ScalarValue.i64(array.size(d)));
        }
        Object data = array.data();
        if (written.contains(a.buffer().name())) {
          int length = Array.getLength(data);
          Object copy = FlatArray.allocate(array.elementType(), length);
          System.arraycopy(data, 0, copy, 0, length);
          data = copy;
        }
        buffers.put(a.buffer().name(), data);
      } else {
        values.set(inputSlots[k][0], environment.scalar(input.name()));
      }
    }
  }

  private void launch(
      HostProgram.Launch<KernelThreads> l,
      HostScalars.Values values,
      Map<String, Object> buffers,
      Map<String, Integer> perThread) {
    long grid = l.gridSize().evaluateIndex(values);
    if (grid < 1 || grid > Integer.MAX_VALUE) {
      throw new IllegalArgumentException(
          "launches " + l.kernel().name() + " on " + grid + " blocks");
    }
    Kernel kernel = l.kernel();
    List<Buffer> kernelBuffers = kernel.buffers();
    List<SharedArray> shared = kernel.shared();
    // the buffers, the shared arrays, and the worker's workspace last
    Object[] memory = new Object[kernelBuffers.size() + shared.size() + 1];
    int[] privateSizes = new int[kernelBuffers.size()];
    for (int k = 0; k < kernelBuffers.size(); k++) {
      Buffer b = kernelBuffers.get(k);
      if (b.isThreadPrivate()) {
        Integer elements = perThread.get(b.name());
        if (elements == null) {
          throw new IllegalArgumentException(
              "thread-private buffer " + b.name() + " is used before it is sized");
        }
        privateSizes[k] = elements;
      } else {
        memory[k] = buffer(buffers, b);
      }
    }
    Object[] scalars = new Object[kernel.scalars().size()];
    List<ScalarValue> scalarValues = new ArrayList<>(scalars.length);
    for (int k = 0; k < scalars.length; k++) {
      ScalarValue value = values.get(l.scalarSlots().get(k));
      scalarValues.add(value);
      scalars[k] = box(value);
    }
    LaunchSpecialisations.Choice choice = specialisations.choose(kernel, l.loaded(), scalarValues);
    KernelThreads code = choice.code();
    int gridDim = (int) grid;
    // the first error of the lowest failing range: (range start << 32 | code), smallest wins, and
    // the values its raise recorded
    AtomicLong firstError = new AtomicLong(Long.MAX_VALUE);
    long[][] firstValues = {null};
    BlockingQueue<Object> spares;
    synchronized (spareWorkspaces) {
      spares =
          spareWorkspaces.computeIfAbsent(
              code, unused -> new ArrayBlockingQueue<>(Runtime.getRuntime().availableProcessors()));
    }
    Queue<Object> used = new ConcurrentLinkedQueue<>();
    ParallelRanges.run(
        gridDim,
        parallelism,
        () -> {
          Object[] own = memory.clone();
          Object workspace = spares.poll();
          if (workspace == null) {
            workspace = code.newWorkspace();
          }
          if (workspace != null) {
            used.add(workspace);
          }
          own[own.length - 1] = workspace;
          for (int k = 0; k < kernelBuffers.size(); k++) {
            if (kernelBuffers.get(k).isThreadPrivate()) {
              own[k] = FlatArray.allocate(kernelBuffers.get(k).elementType(), privateSizes[k]);
              threadPrivateElements.addAndGet(privateSizes[k]);
            }
          }
          for (int k = 0; k < shared.size(); k++) {
            own[kernelBuffers.size() + k] =
                FlatArray.allocate(
                    shared.get(k).elementType(),
                    Math.toIntExact(shared.get(k).elements(BLOCK_SIZE)));
          }
          return (start, end) -> {
            long began = System.nanoTime();
            JvmSupport.takeRaised(0);
            int raised = code.run(own, scalars, start, end, gridDim);
            if (raised != 0) {
              long key = ((long) start << 32) | raised;
              long[] recorded = JvmSupport.takeRaised(raised);
              synchronized (firstValues) {
                if (key < firstError.get()) {
                  firstError.set(key);
                  firstValues[0] = recorded;
                }
              }
            }
            // counted range by range, so that a long launch asks for its form while it runs
            specialisations.ran(kernel, scalarValues, choice, System.nanoTime() - began);
          };
        });
    used.forEach(spares::offer);
    if (firstError.get() != Long.MAX_VALUE) {
      int errorCode = (int) (firstError.get() & 0xffffffffL);
      throw CapacityReruns.failure(group.errors().get(errorCode - 1), firstValues[0]);
    }
  }

  private Map<String, HostValue> outputs(HostScalars.Values values, Map<String, Object> buffers) {
    Map<String, HostValue> out = new LinkedHashMap<>();
    for (int k = 0; k < group.outputs().size(); k++) {
      GroupOutput output = group.outputs().get(k);
      ScalarType type = output.buffer().elementType();
      Object data = buffer(buffers, output.buffer());
      List<HostScalars.Expression> shapeOf = outputShapes.get(k);
      int[] shape = new int[shapeOf.size()];
      long elements = 1;
      for (int d = 0; d < shape.length; d++) {
        shape[d] = Math.toIntExact(shapeOf.get(d).evaluateSize(values));
        elements = Math.multiplyExact(elements, shape[d]);
      }
      int length = Array.getLength(data);
      if (elements > length) {
        throw new IllegalArgumentException(
            "output "
                + output.name()
                + " needs "
                + elements
                + " elements, its buffer "
                + output.buffer().name()
                + " has "
                + length);
      }
      if (shape.length == 0) {
        out.put(output.name(), HostValue.of(element(data, type, 0)));
      } else {
        Object exact = data;
        if (elements < length) {
          exact = FlatArray.allocate(type, (int) elements);
          System.arraycopy(data, 0, exact, 0, (int) elements);
        }
        out.put(output.name(), HostValue.of(new FlatArray(type, exact, shape)));
      }
    }
    return out;
  }

  private static int elements(long elements, Buffer buffer) {
    if (elements > Integer.MAX_VALUE - 8) {
      throw new IllegalArgumentException(
          "allocates "
              + elements
              + " elements for "
              + buffer.name()
              + ", more than a JVM array holds");
    }
    return (int) elements;
  }

  private static Object buffer(Map<String, Object> buffers, Buffer b) {
    Object data = buffers.get(b.name());
    if (data == null) {
      throw new IllegalArgumentException("buffer " + b.name() + " is used before it is allocated");
    }
    return data;
  }

  private static ScalarValue element(Object data, ScalarType type, int index) {
    return switch (type) {
      case BOOL -> ScalarValue.bool(((boolean[]) data)[index]);
      case I32 -> ScalarValue.i32(((int[]) data)[index]);
      case I64 -> ScalarValue.i64(((long[]) data)[index]);
      case F32 -> ScalarValue.f32(((float[]) data)[index]);
      case F64 -> ScalarValue.f64(((double[]) data)[index]);
    };
  }

  /** A scalar parameter as the generated code unboxes it. */
  private static Object box(ScalarValue v) {
    if (v instanceof ScalarValue.Bool b) {
      return b.value();
    }
    // if-else, not ?:, which would promote an Integer to a Long and a Float to a Double
    if (v instanceof ScalarValue.Int i) {
      if (i.type() == ScalarType.I32) {
        return Integer.valueOf((int) i.value());
      }
      return Long.valueOf(i.value());
    }
    ScalarValue.Float f = (ScalarValue.Float) v;
    if (f.type() == ScalarType.F32) {
      return Float.valueOf((float) f.value());
    }
    return Double.valueOf(f.value());
  }
}
