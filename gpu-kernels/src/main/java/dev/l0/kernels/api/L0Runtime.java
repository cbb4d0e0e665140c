package dev.l0.kernels.api;

import dev.l0.ir.FunDef;
import dev.l0.ir.Program;
import dev.l0.kernels.cudaexec.CudaKernelExecutor;
import dev.l0.kernels.exact.ExactFloatSumProgram;
import dev.l0.kernels.exec.HostRunner;
import dev.l0.kernels.exec.KernelExecutor;
import dev.l0.kernels.jvm.JvmKernelExecutor;
import dev.l0.kernels.runtime.CudaProbe;
import dev.l0.kernels.runtime.CudaUnavailableException;
import dev.l0.kernels.runtime.DeviceKind;
import dev.l0.kernels.runtime.DeviceSelection;
import dev.l0.kernels.runtime.DeviceSelector;
import dev.l0.opt.Optimizer;
import dev.l0.syntax.L0Parser;
import dev.l0.types.TypeChecker;
import dev.l0.types.TypedProgram;
import java.util.Objects;
import java.util.Optional;

/**
 * Compiles an L0 program for a device: parse (for text), type check, optimise (thesis ch. 5-7) and
 * prepare every kernel of its plan for the device's executor, once; the {@link CompiledProgram}
 * then runs many times. The device is chosen by {@link DeviceSelector} for a GPU named by its
 * device ordinal (GPU {@value CudaProbe#DEFAULT_ORDINAL} where the call names none): {@code auto}
 * is CUDA on that GPU where it, a driver and a PTX compiler work, else the JVM backend, with the
 * reason (e.g. {@code GPU 3 requested, the machine has 1}); {@code cuda} where CUDA cannot work is
 * a {@link CudaUnavailableException}; {@code jvm} is taken as asked. On CUDA the kernels run
 * through {@link CudaKernelExecutor} on that GPU, which runs a kernel that fails on the GPU on the
 * JVM backend instead, with one logged line.
 */
public final class L0Runtime {
  private L0Runtime() {}

  /**
   * {@link #compile(String, String, String, DeviceKind, int)} on GPU {@value
   * CudaProbe#DEFAULT_ORDINAL}.
   */
  public static CompiledProgram compile(
      String l0Text, String sourceName, String entry, DeviceKind device) {
    return compile(l0Text, sourceName, entry, device, CudaProbe.DEFAULT_ORDINAL);
  }

  /**
   * Parses {@code l0Text} (positions name {@code sourceName}) and compiles function {@code entry}
   * for {@code device} on GPU {@code gpuOrdinal}; throws {@code L0CompileError} for a bad program
   * and {@code IllegalArgumentException} for a negative ordinal.
   */
  public static CompiledProgram compile(
      String l0Text, String sourceName, String entry, DeviceKind device, int gpuOrdinal) {
    long start = System.nanoTime();
    return compileStarted(
        L0Parser.parse(
            Objects.requireNonNull(l0Text, "l0Text"),
            Objects.requireNonNull(sourceName, "sourceName")),
        entry,
        device,
        gpuOrdinal,
        JvmKernelExecutor.defaultParallelism(),
        start);
  }

  /**
   * {@link #compile(Program, String, DeviceKind, int)} on GPU {@value CudaProbe#DEFAULT_ORDINAL}.
   */
  public static CompiledProgram compile(Program program, String entry, DeviceKind device) {
    return compile(program, entry, device, CudaProbe.DEFAULT_ORDINAL);
  }

  /**
   * Compiles function {@code entry} of {@code program} (e.g. built with the Java DSL) for {@code
   * device} on GPU {@code gpuOrdinal}; throws {@code L0CompileError} for a bad program and {@code
   * IllegalArgumentException} for a negative ordinal.
   */
  public static CompiledProgram compile(
      Program program, String entry, DeviceKind device, int gpuOrdinal) {
    return compileStarted(
        program,
        entry,
        device,
        gpuOrdinal,
        JvmKernelExecutor.defaultParallelism(),
        System.nanoTime());
  }

  /**
   * {@link #compile(Program, String, DeviceKind, int)} whose kernels, where they run on the JVM
   * backend, run each launch on at most {@code jvmThreads} threads (at least 1; the default is the
   * machine's available processors), e.g. a Spark task's {@code spark.task.cpus}.
   */
  public static CompiledProgram compile(
      Program program, String entry, DeviceKind device, int gpuOrdinal, int jvmThreads) {
    return compileStarted(program, entry, device, gpuOrdinal, jvmThreads, System.nanoTime());
  }

  /**
   * {@link #compile(Program, String, DeviceKind, int, int)} with exact float sums: every result of
   * {@code entry} that is a float sum (a {@code reduce} with operator {@code +} on {@code f32} or
   * {@code f64}, or component-wise on tuples of them, and neutral element 0, written as a result)
   * is the correctly rounded sum of its values, the same bits on every device and thread count: the
   * kernels compute the summands on the device, the host adds them exactly ({@link
   * ExactFloatSumProgram}, on at most {@code jvmThreads} threads, one exact accumulator each,
   * merged exactly) and rounds once. An {@code L0CompileError} where no result is a float sum;
   * other results are unchanged.
   */
  public static CompiledProgram compileWithExactFloatSums(
      Program program, String entry, DeviceKind device, int gpuOrdinal, int jvmThreads) {
    long start = System.nanoTime();
    requireNonNull(program, entry, device);
    TypedProgram asWritten = TypeChecker.check(program);
    FunDef function = entryOf(asWritten, entry);
    ExactFloatSumProgram exact = ExactFloatSumProgram.of(program, entry).summedOn(jvmThreads);
    return compile(
        TypeChecker.check(exact.summands()),
        asWritten,
        function,
        DeviceSelector.select(device, gpuOrdinal),
        jvmThreads,
        start,
        Optional.of(exact));
  }

  /**
   * {@link #compile(Program, String, DeviceKind, int, int)} for a compilation that started at
   * {@code startNanos} ({@link System#nanoTime()}).
   */
  private static CompiledProgram compileStarted(
      Program program,
      String entry,
      DeviceKind device,
      int gpuOrdinal,
      int jvmThreads,
      long startNanos) {
    requireNonNull(program, entry, device);
    TypedProgram typed = TypeChecker.check(program);
    return compile(
        typed,
        entryOf(typed, entry).name(),
        DeviceSelector.select(device, gpuOrdinal),
        jvmThreads,
        startNanos);
  }

  /** A {@link NullPointerException} naming the first of the arguments that is null. */
  private static void requireNonNull(Program program, String entry, DeviceKind device) {
    Objects.requireNonNull(program, "program");
    Objects.requireNonNull(entry, "entry");
    Objects.requireNonNull(device, "device (AUTO, CUDA or JVM)");
  }

  /**
   * Function {@code entry} of the checked {@code typed}; an {@link IllegalArgumentException} naming
   * the functions where there is none.
   */
  private static FunDef entryOf(TypedProgram typed, String entry) {
    Program program = typed.program();
    program
        .function(entry)
        .orElseThrow(
            () ->
                new IllegalArgumentException(
                    "no function '"
                        + entry
                        + "'; the program defines "
                        + String.join(", ", program.functionNames())));
    return typed.function(entry);
  }

  /**
   * Compiles function {@code entry} of checked program {@code typed} for the device {@code
   * selection} chose (JVM launches on at most {@code jvmThreads} threads), a compilation that
   * started at {@code startNanos}.
   */
  static CompiledProgram compile(
      TypedProgram typed,
      String entry,
      DeviceSelection selection,
      int jvmThreads,
      long startNanos) {
    return compile(
        typed, typed, typed.function(entry), selection, jvmThreads, startNanos, Optional.empty());
  }

  /**
   * Compiles the entry of checked program {@code typed} for the device {@code selection} chose (JVM
   * launches on at most {@code jvmThreads} threads), a compilation that started at {@code
   * startNanos}; {@code function} is the entry as the caller sees it, in {@code asWritten}, {@code
   * exact} the exact float sums whose summands {@code typed} computes, if any.
   */
  private static CompiledProgram compile(
      TypedProgram typed,
      TypedProgram asWritten,
      FunDef function,
      DeviceSelection selection,
      int jvmThreads,
      long startNanos,
      Optional<ExactFloatSumProgram> exact) {
    KernelExecutor executor = executorFor(selection, jvmThreads);
    HostRunner runner = new HostRunner(Optimizer.optimize(typed), executor);
    return new CompiledProgram(
        runner,
        executor,
        function.name(),
        function.params().stream().map(p -> new Parameter(p.name(), p.type())).toList(),
        function.returnType(),
        new LostSizes(asWritten, function),
        selection,
        System.nanoTime() - startNanos,
        exact);
  }

  /**
   * The executor that runs kernels on the selected device: {@link CudaKernelExecutor} on the
   * selection's GPU for CUDA, {@link JvmKernelExecutor} on all available processors for the JVM.
   */
  public static KernelExecutor executorFor(DeviceSelection selection) {
    return executorFor(selection, JvmKernelExecutor.defaultParallelism());
  }

  /**
   * {@link #executorFor(DeviceSelection)} with JVM launches (on CUDA: narrow launches and those
   * that fail on the GPU) on at most {@code jvmThreads} threads.
   */
  public static KernelExecutor executorFor(DeviceSelection selection, int jvmThreads) {
    return selection.chosen() == DeviceKind.CUDA
        ? CudaKernelExecutor.onThisMachine(selection.gpuOrdinal(), jvmThreads)
        : new JvmKernelExecutor(jvmThreads);
  }
}
