package dev.l0.kernels.cudaexec;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.l0.interp.Interpreter;
import dev.l0.ir.Program;
import dev.l0.ir.Value;
import dev.l0.kernels.exec.EvaluatorExecutor;
import dev.l0.kernels.exec.HostRunner;
import dev.l0.kernels.exec.KernelExecutor;
import dev.l0.kernels.exec.KernelScope;
import dev.l0.kernels.exec.PreparedKernel;
import dev.l0.kernels.runtime.OutOfDeviceMemoryException;
import dev.l0.opt.KernelPlan;
import dev.l0.testing.TestPrograms;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * A map kernel run in pieces of its rows, on a stand-in device (the evaluator) that runs out of
 * memory above a given number of rows: the pieces shrink until they fit, every row is computed
 * once, and the result is the interpreter's; where not even one row fits, the out-of-memory failure
 * reaches the caller.
 */
class RowPiecesTest {
  private static final Program BLACK_SCHOLES = TestPrograms.load(TestPrograms.P0_BLACKSCHOLES);

  /**
   * Runs map kernels in row pieces on the evaluator, failing for pieces of more than {@code
   * rowLimit} rows.
   */
  private static final class SmallDevice implements KernelExecutor {
    final int rowLimit;
    final List<Integer> pieceRows = new ArrayList<>();

    SmallDevice(int rowLimit) {
      this.rowLimit = rowLimit;
    }

    @Override
    public String name() {
      return "small device";
    }

    @Override
    public PreparedKernel prepare(KernelPlan.Kernel kernel, KernelScope scope) {
      assertTrue(RowPieces.splits(kernel), kernel.describe());
      PreparedKernel whole = new EvaluatorExecutor().prepare(kernel, scope);
      String firstInput = kernel.inputs().get(0).toString();
      return environment ->
          RowPieces.run(
              kernel,
              environment,
              piece -> {
                int rows = piece.size(firstInput, 0);
                if (rows > rowLimit) {
                  throw new OutOfDeviceMemoryException("cuMemAlloc for " + rows + " rows");
                }
                pieceRows.add(rows);
                return whole.run(piece);
              });
    }
  }

  private static List<Value> options(int n) {
    return List.of(TestPrograms.blackScholesOptions(n, new Random(n)));
  }

  @Test
  void piecesShrinkUntilTheyFitAndGiveTheWholeResult() {
    SmallDevice device = new SmallDevice(3);
    HostRunner runner = HostRunner.compile(BLACK_SCHOLES, device);
    List<Value> args = options(10);
    assertEquals(
        new Interpreter(BLACK_SCHOLES).call("blackscholes", args),
        runner.call("blackscholes", args));
    assertEquals(List.of(2, 2, 2, 2, 2), device.pieceRows);
  }

  @Test
  void aMapThatFitsRunsInOnePieceAndAnEmptyOneAsIs() {
    SmallDevice device = new SmallDevice(100);
    HostRunner runner = HostRunner.compile(BLACK_SCHOLES, device);
    for (int n : List.of(0, 100)) {
      List<Value> args = options(n);
      assertEquals(
          new Interpreter(BLACK_SCHOLES).call("blackscholes", args),
          runner.call("blackscholes", args));
    }
    assertEquals(List.of(0, 100), device.pieceRows);
  }

  @Test
  void whereNotEvenOneRowFitsTheFailureReachesTheCaller() {
    HostRunner runner = HostRunner.compile(BLACK_SCHOLES, new SmallDevice(0));
    assertThrows(OutOfDeviceMemoryException.class, () -> runner.call("blackscholes", options(5)));
  }
}
