package dev.l0.kernels.sim;

import static dev.l0.kernels.sim.TestValues.array;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.l0.interp.Interpreter;
import dev.l0.ir.Program;
import dev.l0.ir.ScalarType;
import dev.l0.ir.ScalarValue;
import dev.l0.ir.Type;
import dev.l0.ir.Value;
import dev.l0.kernels.exec.HostRunner;
import dev.l0.kernels.lower.LaunchConfiguration;
import dev.l0.kernels.lower.LoweredPrograms;
import dev.l0.syntax.L0Parser;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Kernels that read their input along rows, a row per thread, read a copy made by the tiled
 * shared-memory transpose; simulated with blocks of 1, 4, 32 and 256 threads, on the tile's edge
 * sizes (0, 1, 31, 32, 33 in both dimensions, 65 x 7, 7 x 65) and on many tiles with the grid
 * capped at 3 blocks (so blocks loop over tiles) or not, they equal the interpreter bit for bit
 * (the row folds run sequentially in both), with no race, out-of-bounds access, read of unwritten
 * shared memory or divergent barrier (any of which fails the run), and no kernel falls back.
 */
class TiledTransposeSimulationTest {
  private static final LaunchConfiguration FEW_BLOCKS = new LaunchConfiguration(3, 0);
  private static final List<Integer> EDGE_SIZES = List.of(0, 1, 31, 32, 33);

  /**
   * Each program's copy of a row is checked element by element: a misplaced element changes the
   * result.
   */
  private static final List<String> ROW_PROGRAMS =
      List.of(
          "fun [f64] main([[f64]] m) = map(fn f64 ([f64] row) => reduce(op +, 0.0, row), m)",
          "fun [[f64]] main([[f64]] m) = map(fn [f64] ([f64] row) => map(fn f64 (f64 x) => x * 3.0 - 1.0, row), m)",
          "fun [[f64]] main([[f64]] m) = map(fn [f64] ([f64] row) => scan(op +, 0.0, row), m)");

  private static void assertSameAsInterpreter(
      String source, Value input, int blockSize, LaunchConfiguration configuration) {
    Program program = L0Parser.parse(source, "test.l0");
    assertTrue(
        LoweredPrograms.of(program).groups().stream()
            .flatMap(g -> g.kernels().stream())
            .anyMatch(k -> k.name().contains("_transpose")),
        "no transpose for " + source);
    HostRunner runner =
        HostRunner.compile(program, new SimulatorExecutor(blockSize, configuration));
    Value expected = new Interpreter(program).call("main", List.of(input));
    assertEquals(
        expected,
        runner.call("main", List.of(input)),
        source
            + " on "
            + shape(input)
            + ", block size "
            + blockSize
            + ", at most "
            + configuration.maxBlocks()
            + " blocks");
  }

  private static String shape(Value value) {
    List<Integer> sizes = new ArrayList<>();
    for (Value v = value;
        v instanceof Value.Array a;
        v = a.length() == 0 ? null : a.elements().get(0)) {
      sizes.add(a.length());
    }
    return sizes.toString();
  }

  private static Value matrix(int rows, int columns, Random random) {
    return TestValues.matrix(
        ScalarType.F64, rows, columns, () -> ScalarValue.f64(random.nextDouble() * 200 - 100));
  }

  @ParameterizedTest
  @ValueSource(ints = {1, 4, 32, 256})
  void rowKernelsOnTheTilesEdgeSizesEqualTheInterpreter(int blockSize) {
    Random random = new Random(blockSize);
    List<int[]> shapes = new ArrayList<>();
    for (int rows : EDGE_SIZES) {
      for (int columns : EDGE_SIZES) {
        shapes.add(new int[] {rows, columns});
      }
    }
    shapes.add(new int[] {65, 7});
    shapes.add(new int[] {7, 65});
    for (int[] shape : shapes) {
      Value m = matrix(shape[0], shape[1], random);
      for (String source : ROW_PROGRAMS) {
        assertSameAsInterpreter(source, m, blockSize, LaunchConfiguration.DEFAULT);
      }
    }
  }

  @ParameterizedTest
  @ValueSource(ints = {4, 32})
  void manyTilesOnManyBlocksOrFewEqualTheInterpreter(int blockSize) {
    Random random = new Random(blockSize);
    for (int[] shape : List.of(new int[] {100, 70}, new int[] {129, 33}, new int[] {3, 200})) {
      Value m = matrix(shape[0], shape[1], random);
      for (String source : ROW_PROGRAMS) {
        assertSameAsInterpreter(source, m, blockSize, LaunchConfiguration.DEFAULT);
        assertSameAsInterpreter(source, m, blockSize, FEW_BLOCKS);
      }
    }
  }

  @ParameterizedTest
  @ValueSource(ints = {4, 32})
  void otherElementTypesAndRanksEqualTheInterpreter(int blockSize) {
    Random random = new Random(blockSize);
    for (int[] shape :
        List.of(
            new int[] {0, 3, 4}, new int[] {1, 1, 1}, new int[] {37, 5, 9}, new int[] {5, 40, 2})) {
      Value cube =
          array(
              Type.array(Type.array(ScalarType.I32)),
              shape[0],
              i ->
                  array(
                      Type.array(ScalarType.I32),
                      shape[1],
                      j ->
                          array(
                              ScalarType.I32,
                              shape[2],
                              k -> ScalarValue.i32(random.nextInt(2001) - 1000))));
      assertSameAsInterpreter(
          "fun [[[i32]]] main([[[i32]]] c) = "
              + "map(fn [[i32]] ([[i32]] plane) => map(fn [i32] ([i32] row) => scan(op +, 0, row), plane), c)",
          cube,
          blockSize,
          FEW_BLOCKS);
      Value flags =
          array(
              Type.array(ScalarType.BOOL),
              shape[0] * shape[1],
              i -> array(ScalarType.BOOL, shape[2], j -> ScalarValue.bool(random.nextInt(3) == 0)));
      assertSameAsInterpreter(
          "fun [[bool]] main([[bool]] m) = map(fn [bool] ([bool] row) => map(fn bool (bool b) => not b, row), m)",
          flags,
          blockSize,
          FEW_BLOCKS);
      Value singles =
          array(
              Type.array(ScalarType.F32),
              shape[0] * shape[2],
              i -> array(ScalarType.F32, shape[1], j -> ScalarValue.f32(random.nextFloat() * 10)));
      assertSameAsInterpreter(
          "fun [f32] main([[f32]] m) = map(fn f32 ([f32] row) => reduce(op +, 0.0f32, row), m)",
          singles,
          blockSize,
          FEW_BLOCKS);
    }
  }
}
