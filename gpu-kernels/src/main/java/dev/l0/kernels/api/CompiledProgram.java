package dev.l0.kernels.api;

import dev.l0.ir.Type;
import dev.l0.ir.Value;
import dev.l0.kernels.cudaexec.CudaKernelExecutor;
import dev.l0.kernels.exec.HostRunner;
import dev.l0.kernels.exec.KernelExecutor;
import dev.l0.kernels.runtime.DeviceSelection;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Collectors;

/**
 * An L0 program compiled once for one device ({@link L0Runtime#compile}); its entry function runs
 * on every {@link #run} call. Arguments and results are Java values: a scalar boxed
 * ({@code Boolean}, {@code Integer} for i32, {@code Long} for i64, {@code Float}, {@code Double});
 * a tuple an {@code Object[]} of its components; an array of scalars a primitive array
 * ({@code double[]} ...) or, as an argument, a direct or heap NIO buffer ({@code DoubleBuffer},
 * or a {@code ByteBuffer} in its own byte order, elements from position to limit) for rank 1, and a
 * {@link dev.l0.kernels.jvm.FlatArray} (row-major data and shape; as an argument also nested Java
 * arrays such as {@code double[][]}) for higher ranks; an array of tuples an {@code Object[]} of its
 * columns. Arguments are copied into the host runner's values (buffers are read in place, not
 * first copied to Java arrays; the JVM backend then copies each kernel's inputs into primitive
 * arrays again: zero-copy needs a host runner that carries flat arrays). Arguments that do not fit are an
 * {@link IllegalArgumentException} naming the parameter and both types; the program's own
 * failures are {@code L0RuntimeError}s. Closing it releases the GPU modules and context of a CUDA program.
 */
public final class CompiledProgram implements AutoCloseable {
  private final HostRunner runner;
  private final KernelExecutor executor;
  private final String entry;
  private final List<Parameter> parameters;
  private final Type resultType;
  private final DeviceSelection device;

  CompiledProgram(HostRunner runner, KernelExecutor executor, String entry, List<Parameter> parameters, Type resultType,
      DeviceSelection device) {
    this.runner = runner;
    this.executor = executor;
    this.entry = entry;
    this.parameters = List.copyOf(parameters);
    this.resultType = resultType;
    this.device = device;
  }

  /** The device the kernels run on and why, e.g. {@code jvm: requested}. */
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

  /** The kernels that run on the optimiser's evaluator because the device's executor rejected them, each with the reason. */
  public List<String> evaluatorFallbacks() {
    return runner.fallbacks().stream().map(HostRunner.Fallback::toString).toList();
  }

  /**
   * Runs the entry function on {@code arguments}, one per parameter. A single {@code Object[]}
   * argument (a tuple or the columns of an array of tuples) must be cast to {@code Object}, or
   * Java spreads it over the parameters.
   */
  public Object run(Object... arguments) {
    if (arguments == null || arguments.length != parameters.size()) {
      throw new IllegalArgumentException(entry + " takes " + parameters.size() + " argument(s) ("
          + parameters.stream().map(Parameter::toString).collect(Collectors.joining(", ")) + "), got "
          + (arguments == null ? "null" : String.valueOf(arguments.length))
          + "; pass a lone Object[] argument as (Object) array");
    }
    List<Value> values = new ArrayList<>();
    for (int k = 0; k < arguments.length; k++) {
      Parameter parameter = parameters.get(k);
      values.add(JavaArguments.toValue(arguments[k], parameter.type(), parameter.name()));
    }
    return JavaResults.toJava(runner.call(entry, values), resultType);
  }

  /** Releases what the device holds for this program: on CUDA its GPU modules and context, on the JVM nothing. */
  @Override
  public void close() {
    if (executor instanceof CudaKernelExecutor cuda) {
      cuda.close();
    }
  }
}
