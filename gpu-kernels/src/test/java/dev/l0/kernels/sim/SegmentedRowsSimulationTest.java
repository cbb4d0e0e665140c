package dev.l0.kernels.sim;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.l0.interp.Interpreter;
import dev.l0.ir.Program;
import dev.l0.ir.ScalarType;
import dev.l0.ir.ScalarValue;
import dev.l0.ir.Value;
import dev.l0.kernels.exec.HostRunner;
import dev.l0.kernels.lower.LaunchConfiguration;
import dev.l0.syntax.L0Parser;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Maps whose body is one integer or boolean reduction or scan over a row, simulated with the rows
 * forced to the threads (threshold 0) and to the blocks (threshold {@code Long.MAX_VALUE}), with 3
 * blocks at most so that blocks loop over rows, block sizes 4, 8 and 32, and 0, 1, 7 and many rows
 * and columns: both lowerings give the interpreter's result bit for bit, with no race,
 * out-of-bounds access or divergent barrier (the simulator's defects), and no kernel falls back.
 */
class SegmentedRowsSimulationTest {
  private static final LaunchConfiguration THREAD_PER_ROW = new LaunchConfiguration(3, 0);
  private static final LaunchConfiguration BLOCK_PER_ROW =
      new LaunchConfiguration(3, Long.MAX_VALUE);
  private static final List<Integer> SIZES = List.of(0, 1, 7, 45);

  private static Value simulate(
      Program program, List<Value> args, int blockSize, LaunchConfiguration configuration) {
    HostRunner runner =
        HostRunner.compile(program, new SimulatorExecutor(blockSize, configuration));
    return runner.call("main", args);
  }

  private static void assertBothLoweringsEqualTheInterpreter(
      String source, List<Value> args, int blockSize) {
    Program program = L0Parser.parse(source, "test.l0");
    Value expected = new Interpreter(program).call("main", args);
    String where = source + " on " + shape(args.get(0)) + " with block size " + blockSize;
    assertEquals(
        expected, simulate(program, args, blockSize, THREAD_PER_ROW), "thread per row: " + where);
    assertEquals(
        expected, simulate(program, args, blockSize, BLOCK_PER_ROW), "block per row: " + where);
  }

  private static String shape(Value matrix) {
    Value.Array rows = (Value.Array) matrix;
    return rows.length()
        + " rows of "
        + (rows.length() == 0 ? 0 : ((Value.Array) rows.elements().get(0)).length());
  }

  private static Value matrix(int rows, int columns, Random random) {
    return TestValues.matrix(
        ScalarType.I32, rows, columns, () -> ScalarValue.i32(random.nextInt(2001) - 1000));
  }

  @ParameterizedTest
  @ValueSource(ints = {4, 8, 32})
  void rowReductionsAreTheSameOnThreadsAndBlocks(int blockSize) {
    Random random = new Random(blockSize);
    for (int rows : SIZES) {
      for (int columns : SIZES) {
        Value m = matrix(rows, columns, random);
        assertBothLoweringsEqualTheInterpreter(
            "fun [i32] main([[i32]] m) = map(fn i32 ([i32] row) => reduce(op +, 0, row), m)",
            List.of(m),
            blockSize);
        assertBothLoweringsEqualTheInterpreter(
            "fun [i64] main([[i32]] m) = "
                + "map(fn i64 ([i32] row) => reduce(op +, 0i64, map(fn i64 (i32 x) => i64(x) * i64(x) * 1000003i64, row)), m)",
            List.of(m),
            blockSize);
        assertBothLoweringsEqualTheInterpreter(
            "fun [bool] main([[i32]] m) = "
                + "map(fn bool ([i32] row) => reduce(op &&, true, map(fn bool (i32 x) => -990 < x, row)), m)",
            List.of(m),
            blockSize);
        // Composition of affine maps: associative but not commutative, so a wrong combine order
        // shows.
        assertBothLoweringsEqualTheInterpreter(
            "fun [{i32, i32}] main([[i32]] a, [[i32]] b) = "
                + "map(fn {i32, i32} ([i32] xs, [i32] ys) => reduce(fn {i32, i32} ({i32, i32} f, {i32, i32} g) => "
                + "let {p, q} = f in let {r, s} = g in {p * r, q * r + s}, {1, 0}, zip(xs, ys)), zip(a, b))",
            List.of(m, matrix(rows, columns, random)),
            blockSize);
      }
    }
  }

  @ParameterizedTest
  @ValueSource(ints = {4, 8, 32})
  void rowScansAreTheSameOnThreadsAndBlocks(int blockSize) {
    Random random = new Random(blockSize);
    for (int rows : SIZES) {
      for (int columns : SIZES) {
        Value m = matrix(rows, columns, random);
        assertBothLoweringsEqualTheInterpreter(
            "fun [[i32]] main([[i32]] m) = map(fn [i32] ([i32] row) => scan(op +, 0, row), m)",
            List.of(m),
            blockSize);
        assertBothLoweringsEqualTheInterpreter(
            "fun [[i64]] main([[i32]] m) = "
                + "map(fn [i64] ([i32] row) => scan(op +, 0i64, map(fn i64 (i32 x) => i64(x) * i64(x) * 1000003i64, row)), m)",
            List.of(m),
            blockSize);
        assertBothLoweringsEqualTheInterpreter(
            "fun [[bool]] main([[i32]] m) = "
                + "map(fn [bool] ([i32] row) => scan(op ||, false, map(fn bool (i32 x) => 900 < x, row)), m)",
            List.of(m),
            blockSize);
        assertBothLoweringsEqualTheInterpreter(
            "fun [[{i32, i32}]] main([[i32]] a, [[i32]] b) = "
                + "map(fn [{i32, i32}] ([i32] xs, [i32] ys) => scan(fn {i32, i32} ({i32, i32} f, {i32, i32} g) => "
                + "let {p, q} = f in let {r, s} = g in {p * r, q * r + s}, {1, 0}, zip(xs, ys)), zip(a, b))",
            List.of(m, matrix(rows, columns, random)),
            blockSize);
      }
    }
  }

  /**
   * A scan of the rows a filter keeps of a map: ISWIM scans its columns, rows whose size only the
   * filter knows, so the map of column scans keeps a thread per row in both configurations (its
   * block per row wrote its prefixes to rows of a known size, and lowering it failed with a
   * NullPointerException; RandomPrograms.kernelArrayProgram(400182)).
   */
  @ParameterizedTest
  @ValueSource(ints = {4, 32})
  void aScanOfAFiltersRowsRunsOnThreadsAndBlocks(int blockSize) {
    Random random = new Random(blockSize);
    for (int rows : SIZES) {
      assertBothLoweringsEqualTheInterpreter(
          "fun [[i32]] main([[i32]] m) = "
              + "scan(fn [i32] ([i32] a, [i32] b) => map(op +, zip(a, b)), replicate(2, 0), "
              + "filter(fn bool ([i32] row) => 0 < row[0], map(fn [i32] ([i32] r) => replicate(2, r[0]), m)))",
          List.of(matrix(rows, 7, random)),
          blockSize);
    }
  }

  @ParameterizedTest
  @ValueSource(ints = {4, 32})
  void rowReductionsReadingFreeVariablesAndRaisingErrorsAgree(int blockSize) {
    Random random = new Random(blockSize);
    for (int rows : SIZES) {
      Value m = matrix(rows, 7, random);
      assertBothLoweringsEqualTheInterpreter(
          "fun [i32] main([[i32]] m, i32 k) = "
              + "map(fn i32 ([i32] row) => reduce(fn i32 (i32 a, i32 b) => if a < b then b else a, -2147483648, "
              + "map(fn i32 (i32 x) => x * k, row)), m)",
          List.of(m, ScalarValue.i32(-3)),
          blockSize);
    }
  }
}
