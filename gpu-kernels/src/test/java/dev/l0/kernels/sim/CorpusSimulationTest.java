package dev.l0.kernels.sim;

import static dev.l0.kernels.sim.TestValues.array;
import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.l0.interp.Interpreter;
import dev.l0.ir.Program;
import dev.l0.ir.ScalarType;
import dev.l0.ir.ScalarValue;
import dev.l0.ir.Type;
import dev.l0.ir.Value;
import dev.l0.kernels.exec.HostRunner;
import dev.l0.syntax.L0Parser;
import dev.l0.testing.TestPrograms;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The corpus programs run with every kernel on the simulator equal the interpreter, with no kernel
 * defect and no kernel falling back, for sizes around the block size and the chunk size with small
 * blocks forced so that the multi-block paths run. Float reductions are given integer-valued
 * inputs, whose sums are exact in every order.
 */
class CorpusSimulationTest {
  private static List<Long> sizes(int blockSize) {
    long chunk = 16L * blockSize;
    return List.of(0L, 1L, 7L, blockSize - 1L, blockSize + 1L, chunk - 1, chunk + 1, 5 * chunk + 3);
  }

  private static void assertSameAsInterpreter(
      Program program, String entry, List<Value> args, int blockSize) {
    HostRunner runner = HostRunner.compile(program, new SimulatorExecutor(blockSize));
    Value expected = new Interpreter(program).call(entry, args);
    assertEquals(expected, runner.call(entry, args), entry + " with block size " + blockSize);
  }

  @ParameterizedTest
  @ValueSource(ints = {4, 32})
  void blackScholesIsBitIdentical(int blockSize) {
    Program program = TestPrograms.load(TestPrograms.P0_BLACKSCHOLES);
    Random random = new Random(blockSize);
    for (long n : List.of(0L, 1L, 7L, blockSize + 1L, 3L * blockSize * 8 + 5)) {
      Value options = TestPrograms.blackScholesOptions((int) n, random);
      assertSameAsInterpreter(program, "blackscholes", List.of(options), blockSize);
    }
  }

  @ParameterizedTest
  @ValueSource(ints = {4, 8})
  void matrixProgramsAreBitIdentical(int blockSize) {
    Program matmul = TestPrograms.load(TestPrograms.P1_MATMUL);
    Program paths = TestPrograms.load(TestPrograms.P2_SHORTEST_PATHS);
    Random random = new Random(blockSize);
    for (int n : List.of(0, 1, 3, blockSize + 1, 13)) {
      Value a = matrix(n, random, 50);
      Value b = matrix(n, random, 50);
      assertSameAsInterpreter(matmul, "main", List.of(a, b), blockSize);
      assertSameAsInterpreter(paths, "shortest", List.of(a), blockSize);
    }
    assertSameAsInterpreter(paths, "main", List.of(), blockSize);
  }

  private static Value matrix(int n, Random random, int bound) {
    return array(
        Type.array(ScalarType.I32),
        n,
        i -> array(ScalarType.I32, n, j -> ScalarValue.i32(random.nextInt(bound))));
  }

  @ParameterizedTest
  @ValueSource(ints = {4, 8, 32})
  void portfolioSumsExactly(int blockSize) {
    Program program = TestPrograms.load("portfolio");
    Random random = new Random(blockSize);
    for (long n : sizes(blockSize)) {
      Value quantities =
          array(ScalarType.F64, (int) n, i -> ScalarValue.f64(random.nextInt(21) - 10));
      Value prices = array(ScalarType.F64, (int) n, i -> ScalarValue.f64(random.nextInt(100)));
      assertSameAsInterpreter(program, "main", List.of(quantities, prices), blockSize);
    }
  }

  /**
   * A map whose rows are empty arrays built outside it: the kernel compares their sizes below the
   * empty dimension with the host's, which keeps them as the interpreter does (found by
   * RandomProgramSimulationTest).
   */
  @ParameterizedTest
  @ValueSource(ints = {1, 4, 32})
  void rowsThatAreEmptyArraysKeepTheInterpretersMeaning(int blockSize) {
    Program program =
        L0Parser.parse(
            String.join(
                "\n",
                "fun [[[i32]]] main(i32 n) =",
                "  let empty = replicate(0, replicate(1, 0)) in",
                "  map(fn [[i32]] ([[i32]] row) => empty, replicate(n, replicate(0, replicate(1, 0))))"),
            "empty_rows.l0");
    for (int n : new int[] {0, 1, 7}) {
      assertSameAsInterpreter(program, "main", List.of(ScalarValue.i32(n)), blockSize);
    }
  }
}
