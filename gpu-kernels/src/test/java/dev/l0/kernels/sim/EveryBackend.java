package dev.l0.kernels.sim;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.l0.interp.Interpreter;
import dev.l0.ir.L0RuntimeError;
import dev.l0.ir.Program;
import dev.l0.ir.Value;
import dev.l0.kernels.cuda.CudaCompileException;
import dev.l0.kernels.cuda.CudaPrinter;
import dev.l0.kernels.cuda.NvccCompiler;
import dev.l0.kernels.cudaexec.CudaKernelExecutor;
import dev.l0.kernels.exec.HostRunner;
import dev.l0.kernels.exec.KernelExecutor;
import dev.l0.kernels.exec.KernelScope;
import dev.l0.kernels.exec.PreparedKernel;
import dev.l0.kernels.ir.Kernel;
import dev.l0.kernels.jvm.JvmKernelExecutor;
import dev.l0.kernels.lower.LoweredPrograms;
import dev.l0.opt.KernelPlan;
import dev.l0.syntax.L0Parser;
import dev.l0.values.ValueReader;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.function.Consumer;

/**
 * The check the optimiser's golden tests share: a program's {@code main} gives the reference
 * interpreter's result bit for bit on the simulator (blocks of 1 and 32 threads) and on the JVM
 * backend, each running exactly the expected kernels, so a test asserts where the code ran as well
 * as what it gave; or, where the interpreter fails, every backend fails as it does.
 */
final class EveryBackend {
  /** The backends every test here runs on. */
  static final List<KernelExecutor> BACKENDS =
      List.of(new SimulatorExecutor(1), new SimulatorExecutor(32), new JvmKernelExecutor(2));

  private EveryBackend() {}

  /** {@code input} (L0 values in text) read as the arguments of {@code program}'s {@code main}. */
  static List<Value> mainArguments(Program program, String input) {
    return ValueReader.read(
        input,
        program.function("main").orElseThrow().params().stream().map(p -> p.type()).toList(),
        "input");
  }

  /**
   * Parses {@code source} (named {@code fileName} in messages), runs its {@code main} on {@code
   * input} and asserts the result and the kernels ({@code kernels}, by kind) on every backend.
   */
  static Program assertRunsAs(List<String> kernels, String source, String fileName, String input) {
    Program program = L0Parser.parse(source, fileName);
    List<Value> args = mainArguments(program, input);
    Value interpreted = new Interpreter(program).call("main", args);
    for (KernelExecutor backend : BACKENDS) {
      List<String> runs = new ArrayList<>();
      assertEquals(
          interpreted,
          HostRunner.compile(
                  program, KernelArrayProgramsOnEveryBackendTest.recording(backend, runs))
              .call("main", args),
          backend.name());
      assertEquals(kernels, runs, backend.name() + " ran these kernels");
    }
    return program;
  }

  /**
   * Asserts that {@code program} lowers without rejections and prints as a CUDA module holding
   * every kernel, which {@code nvcc} compiles (as {@code moduleName}) where it is installed.
   */
  static void assertPrintsCompilableCuda(Program program, String moduleName) {
    LoweredPrograms lowered = LoweredPrograms.of(program);
    assertEquals(List.of(), lowered.rejections());
    List<Kernel> cuda = lowered.groups().stream().flatMap(g -> g.kernels().stream()).toList();
    assertFalse(cuda.isEmpty(), "no kernel to print");
    String module = CudaPrinter.printModule(cuda, CudaKernelExecutor.DEFAULT_BLOCK_SIZE);
    cuda.forEach(k -> assertTrue(module.contains(k.name()), k.name()));
    Optional<NvccCompiler> nvcc = NvccCompiler.onThisMachine();
    if (nvcc.isPresent()) {
      try {
        nvcc.get().compileToPtx(module, moduleName);
      } catch (CudaCompileException e) {
        throw new AssertionError("the kernels do not compile: " + e.getMessage(), e);
      }
    }
  }

  /**
   * Parses {@code source}, runs its {@code main} on {@code input}, on which the interpreter fails,
   * and asserts that every backend fails in the same operation at the same position after running
   * exactly {@code kernels} (by kind, the failing one last).
   */
  static void assertFailsAs(List<String> kernels, String source, String fileName, String input) {
    Program program = L0Parser.parse(source, fileName);
    List<Value> args = mainArguments(program, input);
    L0RuntimeError interpreted =
        assertThrows(L0RuntimeError.class, () -> new Interpreter(program).call("main", args));
    for (KernelExecutor backend : BACKENDS) {
      List<String> runs = new ArrayList<>();
      HostRunner runner =
          HostRunner.compile(
              program, KernelArrayProgramsOnEveryBackendTest.recording(backend, runs));
      L0RuntimeError failure =
          assertThrows(L0RuntimeError.class, () -> runner.call("main", args), backend.name());
      assertEquals(
          interpreted.operation() + " at " + interpreted.pos(),
          failure.operation() + " at " + failure.pos(),
          backend.name() + ": " + failure.getMessage());
      assertEquals(kernels, runs, backend.name() + " ran these kernels");
    }
  }

  /**
   * The error {@code program}'s {@code main} on {@code args} fails with on {@code backend},
   * asserting where it was raised: by a kernel's run on the backend where {@code byAKernel}, else
   * by no kernel (the host, checking a certificate of the optimiser's before the kernel runs).
   */
  static L0RuntimeError failure(
      Program program, List<Value> args, KernelExecutor backend, boolean byAKernel) {
    List<L0RuntimeError> raised = new ArrayList<>();
    KernelExecutor watched = watching(backend, kind -> {}, raised::add);
    HostRunner runner = HostRunner.compile(program, watched);
    L0RuntimeError failure =
        assertThrows(L0RuntimeError.class, () -> runner.call("main", args), backend.name());
    if (byAKernel) {
      assertFalse(raised.isEmpty(), backend.name() + ": no kernel raised " + failure.getMessage());
      assertSame(raised.get(raised.size() - 1), failure, backend.name() + ": a kernel's error");
    } else {
      assertEquals(List.of(), raised, backend.name() + ": kernels raised");
    }
    return failure;
  }

  /**
   * {@code backend}, telling {@code onRun} the kind of every kernel it runs and {@code onRaise} the
   * program's error a kernel's run raises.
   */
  static KernelExecutor watching(
      KernelExecutor backend, Consumer<String> onRun, Consumer<L0RuntimeError> onRaise) {
    return new KernelExecutor() {
      @Override
      public String name() {
        return backend.name();
      }

      @Override
      public PreparedKernel prepare(KernelPlan.Kernel kernel, KernelScope scope) {
        PreparedKernel prepared = backend.prepare(kernel, scope);
        return environment -> {
          onRun.accept(kernel.kind().keyword());
          try {
            return prepared.run(environment);
          } catch (L0RuntimeError e) {
            onRaise.accept(e);
            throw e;
          }
        };
      }
    };
  }
}
