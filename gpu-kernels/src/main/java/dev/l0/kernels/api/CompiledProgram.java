package dev.l0.kernels.api;

import dev.l0.ir.Type;
import dev.l0.kernels.cudaexec.CudaKernelExecutor;
import dev.l0.kernels.exact.ExactFloatSumProgram;
import dev.l0.kernels.exec.HostRunner;
import dev.l0.kernels.exec.HostValue;
import dev.l0.kernels.exec.KernelExecutor;
import dev.l0.kernels.exec.RunMeter;
import dev.l0.kernels.exec.SpareArrays;
import dev.l0.kernels.runtime.DeviceSelection;
import dev.l0.types.NestingLimit;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.stream.Collectors;

/**
 * An L0 program compiled once for one device ({@link L0Runtime#compile}); its entry function runs
 * on every {@link #run} call. Arguments and results are Java values: a scalar boxed ({@code
 * Boolean}, {@code Integer} for i32, {@code Long} for i64, {@code Float}, {@code Double}); a tuple
 * an {@code Object[]} of its components; an array of scalars a primitive array ({@code double[]}
 * ...) or, as an argument, a direct or heap NIO buffer ({@code DoubleBuffer}, or a {@code
 * ByteBuffer} in its own byte order, elements from position to limit) for rank 1, and a {@link
 * dev.l0.kernels.jvm.FlatArray} (row-major data and shape; as an argument also nested Java arrays
 * such as {@code double[][]}) for higher ranks; an array of tuples an {@code Object[]} of its
 * columns. Arguments that do not fit are an {@link IllegalArgumentException} naming the parameter
 * and both types; so are nested Java arrays with an empty dimension ({@code new double[0][3]} keeps
 * no 3) where the entry could see the sizes below it ({@link LostSizes}). The program's own
 * failures are {@code L0RuntimeError}s.
 *
 * <p>Arrays are not boxed on the way: primitive arrays, {@code FlatArray}s and heap buffers whose
 * array holds exactly their elements go to the kernels as they are, without a copy, so the caller
 * must not change them while the call runs; direct buffers and buffer slices are copied once, in
 * bulk. Arrays a kernel computed come back as the kernel left them, not copied (a result the
 * program returns unchanged from an argument is that argument's array). Only host code that needs
 * an array's elements outside a kernel (e.g. a transpose between kernels, a kernel the device's
 * executor rejected) boxes that array, once per call.
 *
 * <p>Thread-safe: {@link #run} and {@link #runMeasured} may be called from several threads at once
 * (one compiled program shared by the tasks of a Spark executor); each call has its own variables
 * and measurements. On the JVM the calls run side by side; on CUDA their kernel groups take turns
 * on the program's GPU with those of every other program on that GPU, and run side by side with
 * programs on other GPUs. Closing it releases the GPU modules and context of a CUDA program; it
 * must not be closed while a call runs.
 */
public final class CompiledProgram implements AutoCloseable {
  private final HostRunner runner;
  private final KernelExecutor executor;
  private final String entry;
  private final List<Parameter> parameters;
  private final Type resultType;
  private final LostSizes lostSizes;
  private final DeviceSelection device;
  private final long compileNanos;
  private final long kernelCacheHits;
  private final Optional<ExactFloatSumProgram> exactFloatSums;
  private volatile boolean closed;

  CompiledProgram(
      HostRunner runner,
      KernelExecutor executor,
      String entry,
      List<Parameter> parameters,
      Type resultType,
      LostSizes lostSizes,
      DeviceSelection device,
      long compileNanos,
      Optional<ExactFloatSumProgram> exactFloatSums) {
    this.runner = runner;
    this.executor = executor;
    this.entry = entry;
    this.parameters = List.copyOf(parameters);
    this.resultType = resultType;
    this.lostSizes = lostSizes;
    this.device = device;
    this.compileNanos = compileNanos;
    this.kernelCacheHits = executor.kernelCacheHits();
    this.exactFloatSums = exactFloatSums;
  }

  /**
   * Where compiled with {@link L0Runtime#compileWithExactFloatSums}, one line per result of the
   * entry: an exact float sum (summands computed by the kernels, added exactly on the host, rounded
   * once), or as compiled and why; empty otherwise.
   */
  public List<String> exactFloatSums() {
    return exactFloatSums.map(ExactFloatSumProgram::notes).orElse(List.of());
  }

  /**
   * The device the kernels run on, why (e.g. {@code jvm: requested}) and the GPU it was chosen for.
   */
  public DeviceSelection device() {
    return device;
  }

  /** The name of the executor that runs the kernels: {@code cuda} or {@code jvm}. */
  public String executorName() {
    return executor.name();
  }

  /** The entry function's name. */
  public String entry() {
    return entry;
  }

  /** The entry function's parameters, in order. */
  public List<Parameter> parameters() {
    return parameters;
  }

  /** The entry function's result type. */
  public Type resultType() {
    return resultType;
  }

  /**
   * The nanoseconds {@link L0Runtime#compile} took to make this program: parsing, checking,
   * optimising, choosing the device and preparing every kernel.
   */
  public long compileNanos() {
    return compileNanos;
  }

  /**
   * How many of this program's kernels were found already compiled in the CUDA PTX disk cache when
   * it was compiled; 0 on the JVM.
   */
  public long kernelCacheHits() {
    return kernelCacheHits;
  }

  /**
   * Runs the entry function on {@code arguments}, one per parameter, and returns its result. A
   * single {@code Object[]} argument (a tuple or the columns of an array of tuples) must be cast to
   * {@code Object}, or Java spreads it over the parameters.
   */
  public Object run(Object... arguments) {
    return runMeasured(arguments).result();
  }

  /** {@link #run}, also returning what this call alone spent in kernels and host/device copies. */
  public MeasuredRun runMeasured(Object... arguments) {
    return runMeasuredWithSpares(SpareArrays.NONE, arguments);
  }

  /**
   * {@link #runMeasured}, where the JVM backend's kernels allocate their buffers (results among
   * them) from {@code spares}: arrays that earlier calls with the same {@code spares} allocated and
   * the caller has given back ({@link SpareArrays#giveBack}) are reused, zero-filled, instead of
   * new ones. Other backends ignore it.
   */
  public MeasuredRun runMeasuredWithSpares(SpareArrays spares, Object... arguments) {
    if (closed) {
      throw new IllegalStateException(entry + " was closed; compile the program again to run it");
    }
    if (arguments == null || arguments.length != parameters.size()) {
      throw new IllegalArgumentException(
          entry
              + " takes "
              + parameters.size()
              + " argument(s) ("
              + parameters.stream().map(Parameter::toString).collect(Collectors.joining(", "))
              + "), got "
              + (arguments == null ? "null" : String.valueOf(arguments.length))
              + "; pass a lone Object[] argument as (Object) array");
    }
    List<HostValue> components = new ArrayList<>();
    for (int k = 0; k < arguments.length; k++) {
      Parameter parameter = parameters.get(k);
      JavaArguments.addComponents(
          arguments[k], parameter.type(), parameter.name(), lostSizes, components);
    }
    RunMeter meter = new RunMeter();
    // As the CLI runs programs: a deeply nested program on a large stack, so that a program within
    // the nesting limit runs whatever the caller's stack; a shallow one on the caller's thread.
    List<HostValue> resultComponents =
        NestingLimit.onLargeStackBeyond(
            runner.nestingDepth(), () -> runner.callFlattened(entry, components, meter, spares));
    Object result =
        JavaResults.toJava(
            exactFloatSums.isPresent()
                ? exactFloatSums.get().finish(resultComponents)
                : resultComponents,
            resultType);
    return new MeasuredRun(
        result,
        new RunMeasurements(meter.kernelNanos(), meter.transferBytes(), meter.transferNanos()));
  }

  /**
   * Releases what the device holds for this program (on CUDA its GPU modules and context, on the
   * JVM nothing); a later {@link #run} or {@link #runMeasured} is an {@link IllegalStateException}.
   */
  @Override
  public void close() {
    closed = true;
    if (executor instanceof CudaKernelExecutor cuda) {
      cuda.close();
    }
  }
}
