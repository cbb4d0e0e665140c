package dev.l0.kernels.sim;

import static dev.l0.kernels.sim.TestValues.array;
import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.l0.interp.Interpreter;
import dev.l0.ir.ScalarType;
import dev.l0.ir.ScalarValue;
import dev.l0.ir.Type;
import dev.l0.ir.Value;
import dev.l0.kernels.exec.HostRunner;
import dev.l0.kernels.ir.ReductionOrder;
import dev.l0.syntax.L0Parser;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Reductions, scans and filters lowered to kernels and simulated, over sizes 0, 1, 7, around one
 * block, around one block of chunks and over many blocks of chunks, with small blocks: integer
 * results equal the interpreter's bit for bit, float results equal a Java computation of the
 * documented reduction order ({@link ReductionOrder}) bit for bit, and no kernel has a defect or
 * falls back.
 */
class ReductionSimulationTest {
  private static List<Integer> sizes(int blockSize) {
    int chunk = (int) ReductionOrder.MIN_CHUNK_ELEMENTS * blockSize;
    return List.of(0, 1, 7, blockSize - 1, blockSize + 1, chunk - 1, chunk + 1, 3 * chunk + 5);
  }

  private static Value simulate(String source, List<Value> args, int blockSize) {
    HostRunner runner =
        HostRunner.compile(L0Parser.parse(source, "test.l0"), new SimulatorExecutor(blockSize));
    return runner.call("main", args);
  }

  private static void assertSameAsInterpreter(String source, List<Value> args, int blockSize) {
    Value expected = new Interpreter(L0Parser.parse(source, "test.l0")).call("main", args);
    assertEquals(
        expected,
        simulate(source, args, blockSize),
        "n=" + ((Value.Array) args.get(0)).length() + ", block size " + blockSize);
  }

  private static Value i32s(int n, Random random) {
    return array(ScalarType.I32, n, i -> ScalarValue.i32(random.nextInt(2001) - 1000));
  }

  @ParameterizedTest
  @ValueSource(ints = {4, 8, 32})
  void integerRedomapsScansAndFiltersEqualTheInterpreter(int blockSize) {
    Random random = new Random(blockSize);
    for (int n : sizes(blockSize)) {
      Value xs = i32s(n, random);
      assertSameAsInterpreter(
          "fun i32 main([i32] xs) = reduce(op +, 0, map(fn i32 (i32 x) => x * x - 3 * x, xs))",
          List.of(xs),
          blockSize);
      assertSameAsInterpreter(
          "fun i32 main([i32] xs) = reduce(fn i32 (i32 a, i32 b) => if a < b then b else a, -5000, xs)",
          List.of(xs),
          blockSize);
      assertSameAsInterpreter(
          "fun [i64] main([i32] xs) = scan(op +, 0i64, map(fn i64 (i32 x) => i64(x) * 1000000007i64, xs))",
          List.of(xs),
          blockSize);
      assertSameAsInterpreter(
          "fun [i32] main([i32] xs) = filter(fn bool (i32 x) => x % 3 = 0, xs)",
          List.of(xs), blockSize);
      // Composition of the affine maps x -> a*x + b: associative but not commutative, so the order
      // of the combines shows.
      assertSameAsInterpreter(
          "fun {i32, i32} main([i32] xs, [i32] ys) = "
              + "reduce(fn {i32, i32} ({i32, i32} f, {i32, i32} g) => let {a, b} = f in let {c, d} = g in {a * c, b * c + d}, "
              + "{1, 0}, zip(xs, ys))",
          List.of(xs, i32s(n, random)),
          blockSize);
    }
  }

  @ParameterizedTest
  @ValueSource(ints = {4, 32})
  void floatReductionsAndScansFollowTheDocumentedOrder(int blockSize) {
    Random random = new Random(blockSize);
    for (int n : sizes(blockSize)) {
      float[] floats = new float[n];
      double[] doubles = new double[n];
      for (int i = 0; i < n; i++) {
        floats[i] = random.nextFloat() * 100 - 50;
        doubles[i] = random.nextDouble() * 100 - 50;
      }
      Value fs = array(ScalarType.F32, n, i -> ScalarValue.f32(floats[i]));
      float sum =
          ReductionOrder.reduce(n, 0.0f, (acc, i) -> acc + floats[(int) i] * 0.1f, Float::sum);
      assertEquals(
          ScalarValue.f32(sum),
          simulate(
              "fun f32 main([f32] xs) = reduce(op +, 0.0f32, map(fn f32 (f32 x) => x * 0.1f32, xs))",
              List.of(fs),
              blockSize));

      Value ds = array(ScalarType.F64, n, i -> ScalarValue.f64(doubles[i]));
      List<Double> scan =
          ReductionOrder.scan(n, 0.0, (acc, i) -> acc + doubles[(int) i] / 3.0, Double::sum);
      assertEquals(
          array(ScalarType.F64, n, i -> ScalarValue.f64(scan.get(i))),
          simulate(
              "fun [f64] main([f64] xs) = scan(op +, 0.0, map(fn f64 (f64 x) => x / 3.0, xs))",
              List.of(ds),
              blockSize));
    }
  }

  @ParameterizedTest
  @ValueSource(ints = {4, 32})
  void reductionsInsideAMapFoldLeftToRightInTheirThread(int blockSize) {
    Random random = new Random(blockSize);
    for (int rows : List.of(0, 1, 7, blockSize + 1, 40)) {
      Value m =
          array(
              Type.array(ScalarType.F64),
              rows,
              r -> array(ScalarType.F64, 21, c -> ScalarValue.f64(random.nextDouble() * 10 - 5)));
      assertSameAsInterpreter(
          "fun [f64] main([[f64]] m) = map(fn f64 ([f64] row) => reduce(op +, 0.0, row), m)",
          List.of(m),
          blockSize);
    }
  }
}
