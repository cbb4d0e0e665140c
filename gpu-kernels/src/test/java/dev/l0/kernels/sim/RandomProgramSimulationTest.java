package dev.l0.kernels.sim;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.l0.interp.Interpreter;
import dev.l0.ir.L0RuntimeError;
import dev.l0.ir.ScalarType;
import dev.l0.ir.Value;
import dev.l0.kernels.exec.HostRunner;
import dev.l0.opt.OptimizedProgram;
import dev.l0.opt.Optimizer;
import dev.l0.opt.ir.Body;
import dev.l0.opt.ir.Exp;
import dev.l0.opt.ir.InternalProgram;
import dev.l0.opt.ir.Stm;
import dev.l0.testing.FailingProgramCase;
import dev.l0.testing.ProgramCase;
import dev.l0.testing.RandomPrograms;
import dev.l0.types.TypeChecker;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.statistics.Statistics;

/**
 * Random well-typed programs run with their kernels on the simulator, for block sizes 1, 4 and 32,
 * with no kernel defect: every block size gives the same outcome, and that outcome is the
 * interpreter's result bit for bit (or a failure in the same operation), except that a program with
 * a float reduction or scan is held to the documented reduction order ({@code ReductionOrder}), not
 * to the interpreter's left fold, once its arrays span several chunks; and random programs that
 * fail at run time fail in the interpreter's operation.
 */
class RandomProgramSimulationTest {
  private static final int[] BLOCK_SIZES = {1, 4, 32};

  @Provide
  Arbitrary<ProgramCase> programs() {
    return RandomPrograms.programs();
  }

  @Property(tries = 300)
  void simulatedKernelsGiveTheInterpretersResults(@ForAll("programs") ProgramCase c) {
    String interpreted = outcome(() -> new Interpreter(c.program()).call(c.entry(), c.args()));
    OptimizedProgram optimized = Optimizer.optimize(TypeChecker.check(c.program()));
    boolean floatReduction = hasFloatReduction(optimized.internal());
    Statistics.label("float reduction or scan").collect(floatReduction);
    String first = null;
    for (int blockSize : BLOCK_SIZES) {
      HostRunner runner = HostRunner.compile(c.program(), new SimulatorExecutor(blockSize));
      String simulated = outcome(() -> runner.call(c.entry(), c.args()));
      if (first == null) {
        first = simulated;
        Statistics.label("kernels simulated").collect(optimized.kernelPlan().kernels().size());
      }
      assertEquals(
          first, simulated, "block size " + blockSize + " against block size " + BLOCK_SIZES[0]);
      if (!floatReduction || interpreted.startsWith("failure")) {
        assertEquals(interpreted, simulated, "block size " + blockSize);
      }
    }
  }

  @Provide
  Arbitrary<FailingProgramCase> failingPrograms() {
    return RandomPrograms.failingPrograms();
  }

  /**
   * Programs that fail at run time, half of them inside a kernel's rows: every block size fails in
   * the interpreter's operation, never with a kernel defect.
   */
  @Property(tries = 100)
  void simulatedKernelsFailWhereTheInterpreterFails(
      @ForAll("failingPrograms") FailingProgramCase f) {
    ProgramCase c = f.program();
    String interpreted = outcome(() -> new Interpreter(c.program()).call(c.entry(), c.args()));
    for (int blockSize : BLOCK_SIZES) {
      HostRunner runner = HostRunner.compile(c.program(), new SimulatorExecutor(blockSize));
      assertEquals(
          interpreted,
          outcome(() -> runner.call(c.entry(), c.args())),
          "block size " + blockSize + "\n" + c);
    }
  }

  /** Whether a reduce, redomap, scan or scanomap anywhere in {@code program} combines floats. */
  static boolean hasFloatReduction(InternalProgram program) {
    return program.functions().stream().anyMatch(f -> hasFloatReduction(f.body()));
  }

  private static boolean hasFloatReduction(Body body) {
    for (Stm stm : body.stms()) {
      Exp e = stm.exp();
      boolean reduction = e instanceof Exp.Screma s && s.folds();
      if (reduction
          && e.lambdas().get(0).returnTypes().stream()
              .anyMatch(t -> t.baseElement() instanceof ScalarType s && s.isFloat())) {
        return true;
      }
      if (e.bodies().stream().anyMatch(RandomProgramSimulationTest::hasFloatReduction)
          || e.lambdas().stream().anyMatch(l -> hasFloatReduction(l.body()))) {
        return true;
      }
    }
    return false;
  }

  /** The value, or the failing operation and its source position. */
  static String outcome(java.util.function.Supplier<Value> run) {
    try {
      return "value " + run.get();
    } catch (L0RuntimeError e) {
      return "failure in " + e.operation() + " at " + e.pos();
    }
  }
}
