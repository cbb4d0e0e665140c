package dev.l0.kernels.sim;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.l0.interp.Interpreter;
import dev.l0.ir.Program;
import dev.l0.ir.Value;
import dev.l0.kernels.exec.HostRunner;
import dev.l0.kernels.exec.KernelExecutor;
import dev.l0.kernels.jvm.JvmKernelExecutor;
import dev.l0.opt.KernelPlan;
import dev.l0.opt.OptimizedProgram;
import dev.l0.opt.Optimizer;
import dev.l0.syntax.L0Parser;
import dev.l0.testing.IswimPrograms;
import dev.l0.types.TypeChecker;
import dev.l0.values.ValueReader;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The maps of scans that ISWIM makes (thesis §8.3, Figs. 35 and 36 at depths 1 to 3, with a fused
 * producer and a fused consumer) run as one map kernel each on the simulator (blocks of 1 and of 32
 * threads) and on the JVM backend, a thread per column scanning it in order, and a transposed
 * result the program returns is copied by a second map kernel: none runs on the optimiser's
 * evaluator, and the results are the interpreter's, bit for bit.
 */
class IswimKernelsTest {
  private static final List<KernelExecutor> BACKENDS =
      List.of(new SimulatorExecutor(1), new SimulatorExecutor(32), new JvmKernelExecutor(2));

  @Test
  void eachMapOfScansRunsAsOneKernelOnEveryBackendWithTheInterpretersResult() {
    for (List<String> programAndInput : IswimPrograms.withInputs()) {
      Program program = L0Parser.parse(programAndInput.get(0), "iswim.l0");
      List<Value> args =
          ValueReader.read(
              programAndInput.get(1),
              program.function("main").orElseThrow().params().stream().map(p -> p.type()).toList(),
              "input");
      Value interpreted = new Interpreter(program).call("main", args);
      OptimizedProgram optimized = Optimizer.optimize(TypeChecker.check(program));
      List<String> structures =
          optimized.kernelPlan().kernels().stream().map(KernelPlan.Kernel::structure).toList();
      assertTrue(
          structures.get(0).startsWith("map{") && structures.get(0).contains("scan"),
          optimized.explain());
      assertTrue(
          structures.size() <= 2 && structures.stream().skip(1).allMatch("map"::equals),
          () -> "at most the copy of a transposed result besides: " + optimized.explain());
      for (KernelExecutor backend : BACKENDS) {
        List<String> runs = new ArrayList<>();
        HostRunner runner =
            new HostRunner(
                optimized, KernelArrayProgramsOnEveryBackendTest.recording(backend, runs));
        assertEquals(interpreted, runner.call("main", args), backend.name() + ": " + program);
        assertEquals(
            java.util.Collections.nCopies(structures.size(), "map"),
            runs,
            backend.name() + " ran the map of scans (and the copy) as kernels");
      }
    }
  }
}
