package dev.l0.kernels.sim;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.l0.interp.Interpreter;
import dev.l0.ir.Program;
import dev.l0.ir.ScalarType;
import dev.l0.ir.ScalarValue;
import dev.l0.ir.Value;
import dev.l0.kernels.exec.HostRunner;
import dev.l0.kernels.ir.KernelGroup;
import dev.l0.kernels.lower.KernelLowering;
import dev.l0.kernels.lower.LaunchConfiguration;
import dev.l0.opt.KernelPlan;
import dev.l0.opt.Optimizer;
import dev.l0.syntax.L0Parser;
import dev.l0.types.TypeChecker;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Maps whose rows run maps of their own (the FinPar programs' shape: a loop over a row's array
 * updated by a map each step, rows of a row's array updated in place, reductions of a map's
 * results) lowered with a block per row ({@code BlockRows}): the rows' maps run strided over the
 * block's threads. Simulated with the rows forced to the blocks (threshold {@code Long.MAX_VALUE})
 * and to the threads (threshold 0), at most 3 blocks so that blocks loop over rows, blocks of 1, 4
 * and 32 threads, and 0, 1, 7 and 45 rows of 1, 7 and 45 elements: both equal the interpreter bit
 * for bit, with no race, out-of-bounds access or divergent barrier (each fails the simulated run).
 */
class BlockRowsSimulationTest {
  private static final LaunchConfiguration THREAD_PER_ROW = new LaunchConfiguration(3, 0);
  private static final LaunchConfiguration BLOCK_PER_ROW =
      new LaunchConfiguration(3, Long.MAX_VALUE);

  /** A row's array carried by a loop, each step a map that reads its neighbours' elements. */
  private static final String SWEEPS =
      """
      fun [real] main(int steps, [[real]] m) =
        map(fn real ([real] row) =>
              let n = size(0, row) in
              loop (v = map(fn real (real x) => x * 0.5 + 1.0, row)) = for s < steps do
                map(fn real (int i) =>
                      if i = 0 then v[i] + real(s) else 0.5 * (v[i] + v[i - 1]) + real(s),
                    iota(n))
              in v[n - 1] - 3.0 * reduce(op +, 0.0, v),
            m)
      """;

  /**
   * Rows of a row's array updated in place by a map (as OptionPricing's Sobol rows), a reduction of
   * the last, and a map of two of them.
   */
  private static final String ROWS_IN_PLACE =
      """
      fun [real] main(int steps, [[real]] m) =
        map(fn real ([real] row) =>
              let n = size(0, row) in
              let rows = replicate(steps + 1, row) in
              loop (rows) = for p < steps do
                let rows[p + 1] = map(fn real (int j) => rows[p, j] * 2.0 + real(j), iota(n)) in
                rows
              in
              let total = reduce(op +, 0.0, rows[steps]) in
              let diffs = map(fn real (int j) => rows[steps, j] - rows[0, j] + total, iota(n)) in
              diffs[0] + diffs[n - 1] * 0.25,
            m)
      """;

  /**
   * A sequential loop per element inside the strided rows (as LocVolCalib's tridiagonal solves), an
   * array the block makes and updates one element at a time, and a scalar result.
   */
  private static final String SOLVES_AND_UPDATES =
      """
      fun [real] main(int steps, [[real]] m) =
        map(fn real ([real] row) =>
              let n = size(0, row) in
              let prefix = map(fn real (int i) =>
                                 loop (acc = 0.0) = for k < i + 1 do acc * 0.5 + row[k] in acc,
                               iota(n)) in
              let w = copy(prefix) in
              loop (w) = for s < steps do
                let last = w[n - 1] in
                let w[0] = w[0] + last in
                w
              in reduce(op +, 0.0, w) + w[0],
            m)
      """;

  private static Value simulate(
      Program program, List<Value> args, int blockSize, LaunchConfiguration configuration) {
    return HostRunner.compile(program, new SimulatorExecutor(blockSize, configuration))
        .call("main", args);
  }

  private static KernelGroup mapGroup(Program program, LaunchConfiguration configuration) {
    KernelPlan plan = Optimizer.optimize(TypeChecker.check(program)).kernelPlan();
    return KernelLowering.lower(plan, plan.kernels().get(0), configuration);
  }

  /** Whether a kernel of {@code group} runs a block per row where the rows are few. */
  private static boolean runsRowsStrided(KernelGroup group) {
    return KernelLowering.runsFewRowsByBlock(group);
  }

  private static Value matrix(int rows, int columns, Random random) {
    return TestValues.matrix(
        ScalarType.F64, rows, columns, () -> ScalarValue.f64(random.nextDouble() * 20 - 10));
  }

  @ParameterizedTest
  @ValueSource(strings = {SWEEPS, ROWS_IN_PLACE, SOLVES_AND_UPDATES})
  void rowsOfMapsRunByBlockOnlyWhereAsked(String source) {
    Program program = L0Parser.parse(source, "rows.l0");
    assertTrue(runsRowsStrided(mapGroup(program, BLOCK_PER_ROW)), source);
    assertTrue(runsRowsStrided(mapGroup(program, LaunchConfiguration.DEFAULT)), source);
    assertFalse(runsRowsStrided(mapGroup(program, THREAD_PER_ROW)), source);
    assertFalse(runsRowsStrided(mapGroup(program, LaunchConfiguration.THREAD_PER_ROW)), source);
    assertFalse(
        runsRowsStrided(mapGroup(program, LaunchConfiguration.DEFAULT.withBlockRowsBelow(0))),
        source);
    assertTrue(
        runsRowsStrided(mapGroup(program, THREAD_PER_ROW.withBlockRowsBelow(Long.MAX_VALUE))),
        source);
  }

  @Test
  void blocksRunRowsBelowFourRowsPerResidentBlock() {
    // an H200 in blocks of 256: 132 multiprocessors of 8 blocks; OptionPricing large has 4,096 rows
    assertEquals(4224, LaunchConfiguration.forDevice(132, 8).blockRowsBelow());
    // never below the segmented threshold, never where there is none
    assertEquals(4096, LaunchConfiguration.DEFAULT.blockRowsBelow());
    assertEquals(Long.MAX_VALUE, BLOCK_PER_ROW.blockRowsBelow());
    assertEquals(Long.MAX_VALUE, new LaunchConfiguration(Long.MAX_VALUE, 1).blockRowsBelow());
    assertEquals(0, THREAD_PER_ROW.blockRowsBelow());
    assertEquals(0, LaunchConfiguration.THREAD_PER_ROW.blockRowsBelow());
  }

  @ParameterizedTest
  @ValueSource(ints = {1, 4, 32})
  void blocksAndThreadsPerRowEqualTheInterpreter(int blockSize) {
    Random random = new Random(blockSize);
    for (String source : List.of(SWEEPS, ROWS_IN_PLACE, SOLVES_AND_UPDATES)) {
      Program program = L0Parser.parse(source, "rows.l0");
      for (int rows : List.of(0, 1, 7, 45)) {
        for (int columns : List.of(1, 7, 45)) {
          List<Value> args = List.of(ScalarValue.i32(3), matrix(rows, columns, random));
          Value expected = new Interpreter(program).call("main", args);
          String where = rows + " rows of " + columns + ", blocks of " + blockSize + ":\n" + source;
          assertEquals(
              expected,
              simulate(program, args, blockSize, BLOCK_PER_ROW),
              "block per row, " + where);
          assertEquals(
              expected,
              simulate(program, args, blockSize, THREAD_PER_ROW),
              "thread per row, " + where);
        }
      }
    }
  }
}
