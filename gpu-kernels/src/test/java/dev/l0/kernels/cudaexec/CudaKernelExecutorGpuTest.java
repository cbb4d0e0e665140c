package dev.l0.kernels.cudaexec;

import static dev.l0.kernels.sim.TestValues.array;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.l0.interp.Interpreter;
import dev.l0.ir.L0RuntimeError;
import dev.l0.ir.Program;
import dev.l0.ir.ScalarType;
import dev.l0.ir.ScalarValue;
import dev.l0.ir.Type;
import dev.l0.ir.Value;
import dev.l0.kernels.exec.HostRunner;
import dev.l0.kernels.exec.RunMeter;
import dev.l0.kernels.runtime.CudaProbe;
import dev.l0.kernels.runtime.JvmFallback;
import dev.l0.kernels.runtime.LogRecorder;
import dev.l0.kernels.runtime.PtxCompilers;
import dev.l0.kernels.sim.SimulatorExecutor;
import dev.l0.syntax.L0Parser;
import dev.l0.testing.ProgramCase;
import dev.l0.testing.RandomPrograms;
import dev.l0.testing.TestPrograms;
import java.util.List;
import java.util.Random;
import java.util.function.Supplier;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Real launches: the corpus programs with every kernel on the GPU equal the interpreter bit for bit
 * (float sums on integer-valued inputs, exact in every order), and random programs equal the
 * simulator with the same block size, which implements the same reduction order; no kernel falls
 * back to the evaluator or to the JVM. Skipped where there is no GPU or no PTX compiler.
 */
@Tag("gpu")
@ExtendWith(EveryLaunchOnTheGpu.class)
class CudaKernelExecutorGpuTest {
  private static final int RANDOM_PROGRAMS = 150;

  private CudaKernelExecutor executor;
  private LogRecorder log;

  @BeforeEach
  void requireAGpuAndACompiler() {
    assumeTrue(CudaProbe.probe().isAvailable(), CudaProbe.probe().description());
    assumeTrue(
        PtxCompilers.onThisMachine().isAvailable(), PtxCompilers.onThisMachine().description());
    executor = CudaKernelExecutor.onThisMachine();
    log = new LogRecorder(JvmFallback.class);
  }

  @AfterEach
  void release() {
    if (executor != null) {
      log.close();
      executor.close();
      assertEquals(List.of(), log.lines(), "kernels that fell back to the JVM");
    }
  }

  private HostRunner onGpu(Program program) {
    HostRunner runner = HostRunner.compile(program, executor);
    return runner;
  }

  private void assertSameAsInterpreter(Program program, String entry, List<Value> args) {
    assertEquals(
        new Interpreter(program).call(entry, args), onGpu(program).call(entry, args), entry);
  }

  @Test
  void blackScholesIsBitIdentical() {
    Program program = TestPrograms.load(TestPrograms.P0_BLACKSCHOLES);
    Random random = new Random(0);
    for (int n : List.of(0, 1, 7, 257, 100_000)) {
      assertSameAsInterpreter(
          program, "blackscholes", List.of(TestPrograms.blackScholesOptions(n, random)));
    }
  }

  /**
   * With the default limit ({@link NarrowLaunches}), a map whose rows run a loop runs on the JVM
   * backend over 100 rows (no copies to the GPU, the launch counted) and on the GPU over 100,000,
   * with the same results; P0, straight-line arithmetic, runs on the GPU over 100 options too.
   */
  @Test
  void aNarrowLaunchWhoseRowsRunLoopsRunsOnTheJvmAndAnyOtherOnTheGpu() {
    Program loops =
        L0Parser.parse(
            "fun [f64] main([f64] xs) =\n"
                + "  map(fn f64 (f64 x) => loop (y = x) = for i < 100 do y * 0.5 + x in y, xs)",
            "narrow.l0");
    Program blackScholes = TestPrograms.load(TestPrograms.P0_BLACKSCHOLES);
    String limit = System.getProperty(NarrowLaunches.PROPERTY);
    System.clearProperty(NarrowLaunches.PROPERTY);
    try (CudaKernelExecutor placing = CudaKernelExecutor.onThisMachine()) {
      Random random = new Random(2);
      for (int n : List.of(100, 100_000)) {
        Value xs = array(ScalarType.F64, n, i -> ScalarValue.f64(random.nextDouble()));
        RunMeter meter = new RunMeter();
        Value result = HostRunner.compile(loops, placing).call("main", List.of(xs), meter);
        assertEquals(new Interpreter(loops).call("main", List.of(xs)), result, n + " rows");
        boolean narrow = n < NarrowLaunches.DEFAULT_MIN_ROWS;
        assertEquals(narrow ? 1 : 0, meter.launchesPlacedOnJvm(), n + " rows");
        assertEquals(narrow, meter.transferBytes() == 0, n + " rows: " + meter.transferBytes());
      }
      Value options = TestPrograms.blackScholesOptions(100, random);
      RunMeter meter = new RunMeter();
      Value prices =
          HostRunner.compile(blackScholes, placing).call("blackscholes", List.of(options), meter);
      assertEquals(
          new Interpreter(blackScholes).call("blackscholes", List.of(options)), prices, "P0");
      assertEquals(0, meter.launchesPlacedOnJvm(), "P0 over 100 options");
    } finally {
      System.setProperty(NarrowLaunches.PROPERTY, limit == null ? "0" : limit);
    }
  }

  /**
   * Two rows fail, the second far enough to be another thread's (the GPU's threads race to record
   * their errors): the call reports the first failing row's error, the interpreter's, every time.
   */
  @Test
  void aFailingMapReportsItsFirstFailingRow() {
    Program program =
        L0Parser.parse(
            "fun [i32] main([i32] xs, [i32] ks) = map(fn i32 (i32 k) => xs[k], ks)\n", "rows.l0");
    Value xs = array(ScalarType.I32, 5, i -> ScalarValue.i32(i + 1));
    Value ks =
        array(ScalarType.I32, 2_000_000, i -> ScalarValue.i32(i == 1 ? 5 : i == 65_536 ? 999 : 0));
    String expected =
        assertThrows(
                L0RuntimeError.class, () -> new Interpreter(program).call("main", List.of(xs, ks)))
            .getMessage();
    for (int run = 0; run < 3; run++) {
      assertEquals(
          expected,
          assertThrows(L0RuntimeError.class, () -> onGpu(program).call("main", List.of(xs, ks)))
              .getMessage());
    }
  }

  @Test
  void matrixProgramsAreBitIdentical() {
    Program matmul = TestPrograms.load(TestPrograms.P1_MATMUL);
    Program paths = TestPrograms.load(TestPrograms.P2_SHORTEST_PATHS);
    Random random = new Random(1);
    for (int n : List.of(0, 1, 3, 100)) {
      Value a = matrix(n, random);
      Value b = matrix(n, random);
      assertSameAsInterpreter(matmul, "main", List.of(a, b));
      assertSameAsInterpreter(paths, "shortest", List.of(a));
    }
  }

  private static Value matrix(int n, Random random) {
    return array(
        Type.array(ScalarType.I32),
        n,
        i -> array(ScalarType.I32, n, j -> ScalarValue.i32(random.nextInt(50))));
  }

  @Test
  void portfolioSumsExactly() {
    Program program = TestPrograms.load("portfolio");
    Random random = new Random(2);
    for (int n : List.of(0, 1, 4095, 4097, 1_000_003)) {
      Value quantities = array(ScalarType.F64, n, i -> ScalarValue.f64(random.nextInt(21) - 10));
      Value prices = array(ScalarType.F64, n, i -> ScalarValue.f64(random.nextInt(100)));
      assertSameAsInterpreter(program, "main", List.of(quantities, prices));
    }
  }

  /** Few rows, each running a loop of maps over {@code ys} and a sum: a block per row on a GPU. */
  private static final String BLOCK_ROWS =
      """
      fun [f64] main([f64] xs, [f64] ys) =
        map(fn f64 (f64 x) =>
              let b = loop (b = map(fn f64 (f64 y) => y + x, ys)) = for s < 10 do
                        map(fn f64 (f64 v) => v * 0.5 + x, b)
                      in b in
              reduce(op +, 0.0, b),
            xs)
      """;

  /** Eight f64 reductions of one array, fused into one redomap of eight accumulators. */
  private static final String EIGHT_REDUCTIONS =
      """
      fun {f64, f64, f64, f64, f64, f64, f64, f64} main([f64] a) =
        let b = map(fn f64 (f64 x) => x * 2.0 + 1.0, a) in
        let c = map(fn f64 (f64 x) => x * x, a) in
        {reduce(fn f64 (f64 p, f64 q) => min(p, q), 1.0 / 0.0, a),
         reduce(fn f64 (f64 p, f64 q) => max(p, q), -1.0 / 0.0, a),
         reduce(op +, 0.0, a),
         reduce(fn f64 (f64 p, f64 q) => min(p, q), 1.0 / 0.0, b),
         reduce(fn f64 (f64 p, f64 q) => max(p, q), -1.0 / 0.0, b),
         reduce(op +, 0.0, b),
         reduce(op +, 0.0, c),
         reduce(fn f64 (f64 p, f64 q) => max(p, q), -1.0 / 0.0, c)}
      """;

  /**
   * In blocks of 1024 threads ({@code l0.cuda.blockSize}) a block-per-row map, whose kernel ptxas
   * gave 255 registers per thread before the kernels carried launch bounds (a block of 1024 holds
   * 64), and a reduction of eight f64 accumulators, whose tree asks for 64 KiB of dynamic shared
   * memory (a launch gets 48 KiB unless the kernel opts in), run on the GPU (no fallback to the
   * JVM) and equal the interpreter.
   */
  @Test
  void blocksOf1024ThreadsRunBlockRowsAndWideReductionTrees() {
    String previous = System.getProperty(CudaKernelExecutor.BLOCK_SIZE_PROPERTY);
    System.setProperty(CudaKernelExecutor.BLOCK_SIZE_PROPERTY, "1024");
    try (CudaKernelExecutor wide = CudaKernelExecutor.onThisMachine()) {
      assertEquals(1024, wide.blockSize());
      Random random = new Random(3);
      Program blockRows = L0Parser.parse(BLOCK_ROWS, "block-rows.l0");
      List<Value> rows =
          List.of(
              array(ScalarType.F64, 64, i -> ScalarValue.f64(random.nextInt(100))),
              array(ScalarType.F64, 5_000, i -> ScalarValue.f64(random.nextInt(100))));
      assertEquals(
          new Interpreter(blockRows).call("main", rows),
          HostRunner.compile(blockRows, wide).call("main", rows),
          "block rows");
      Program reductions = L0Parser.parse(EIGHT_REDUCTIONS, "reductions.l0");
      List<Value> a =
          List.of(
              array(ScalarType.F64, 1_000_000, i -> ScalarValue.f64(random.nextInt(201) - 100)));
      assertEquals(
          new Interpreter(reductions).call("main", a),
          HostRunner.compile(reductions, wide).call("main", a),
          "eight reductions");
    } finally {
      if (previous == null) {
        System.clearProperty(CudaKernelExecutor.BLOCK_SIZE_PROPERTY);
      } else {
        System.setProperty(CudaKernelExecutor.BLOCK_SIZE_PROPERTY, previous);
      }
    }
  }

  @Test
  void randomProgramsEqualTheSimulator() {
    for (ProgramCase c : RandomPrograms.programs().sampleStream().limit(RANDOM_PROGRAMS).toList()) {
      HostRunner simulated =
          HostRunner.compile(
              c.program(), new SimulatorExecutor(CudaKernelExecutor.DEFAULT_BLOCK_SIZE));
      HostRunner onGpu = HostRunner.compile(c.program(), executor);
      assertEquals(
          outcome(() -> simulated.call(c.entry(), c.args())),
          outcome(() -> onGpu.call(c.entry(), c.args())),
          c.toString());
    }
  }

  /** The value, or the failing operation. */
  private static String outcome(Supplier<Value> run) {
    try {
      return "value " + run.get();
    } catch (L0RuntimeError e) {
      return "failure in " + e.operation() + ": " + e.getMessage();
    }
  }
}
