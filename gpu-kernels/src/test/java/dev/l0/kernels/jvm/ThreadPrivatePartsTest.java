package dev.l0.kernels.jvm;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.l0.interp.Interpreter;
import dev.l0.ir.BinaryOperator;
import dev.l0.ir.Program;
import dev.l0.ir.ScalarType;
import dev.l0.ir.Value;
import dev.l0.kernels.exec.HostRunner;
import dev.l0.kernels.ir.Buffer;
import dev.l0.kernels.ir.Kernel;
import dev.l0.kernels.ir.KernelExpr;
import dev.l0.kernels.lower.KernelLowering;
import dev.l0.kernels.lower.LaunchConfiguration;
import dev.l0.kernels.lower.LoweredPrograms;
import dev.l0.opt.KernelPlan;
import dev.l0.opt.OptimizedProgram;
import dev.l0.opt.Optimizer;
import dev.l0.syntax.L0Parser;
import dev.l0.types.TypeChecker;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * An inner loop of a kernel thread that reads arrays the thread made earlier and stores its result
 * to an array of its own runs its costly calls lane-wise ({@link InnerLoopStages}), because the
 * thread's buffer is told apart by parts ({@link ThreadPrivateParts}); a loop whose call reads the
 * part it stores to still runs as it is. The results stay the interpreter's bit for bit.
 */
class ThreadPrivatePartsTest {
  private static final JvmKernelExecutor JVM = new JvmKernelExecutor();

  /**
   * Each thread makes {@code zs}, then steps a loop whose inner map calls exp and log on {@code zs}
   * (read from the thread's buffer) and writes {@code ws} to the thread's buffer too.
   */
  private static final String READS_EARLIER_ARRAYS =
      """
      fun [f64] main ([f64] xs, [f64] ys) =
        map(fn f64 (f64 x) =>
              let n = size(0, ys) in
              let zs = map(fn f64 (f64 y) => y * x, ys) in
              loop (acc = copy(zs)) = for s < 3 do
                let ws = map(fn f64 (i32 i) => exp(zs[i] * f64(s)) + log(zs[n - 1 - i]), iota(n)) in
                map(fn f64 (i32 i) => ws[n - 1 - i] * 0.5 + acc[n - 1 - i], iota(n))
              in reduce(op +, 0.0, acc),
            xs)
      """;

  /** An in-place update whose call reads the element the previous iteration stored. */
  private static final String READS_ITS_OWN_PART =
      """
      fun [f64] main ([f64] xs, [f64] ys) =
        map(fn f64 (f64 x) =>
              let n = size(0, ys) in
              loop (a = map(fn f64 (f64 y) => y * x, ys)) = for i < n - 1 do
                let a[i + 1] = exp(a[i] * 0.001) in a
              in a[n - 1],
            xs)
      """;

  @Test
  void anInnerMapReadingTheThreadsEarlierArraysRunsLaneWiseWithTheInterpretersBits() {
    Kernel kernel = onlyKernel(L0Parser.parse(READS_EARLIER_ARRAYS, "earlier.l0"));
    String form = JvmKernelForm.describe(kernel);
    assertTrue(
        form.contains("inner loops lane-wise: 1 (VectorMath per iteration: exp, log;"), form);
    assertTrue(JvmGroupRunner.javaSource(kernel).contains("VectorMath.exp("));
    assertSameAsInterpreter(
        READS_EARLIER_ARRAYS, values(5, 1), values(InnerLoopStages.CHUNK + 45, 2));
    assertSameAsInterpreter(
        READS_EARLIER_ARRAYS, values(3, 3), values(InnerLoopStages.MIN_ITERATIONS - 1, 4));
  }

  @Test
  void aLoopWhoseCallReadsThePartItStoresToIsNotStaged() {
    Kernel kernel = onlyKernel(L0Parser.parse(READS_ITS_OWN_PART, "own.l0"));
    assertFalse(JvmKernelForm.describe(kernel).contains("inner loops"));
    assertFalse(JvmGroupRunner.javaSource(kernel).contains("VectorMath.exp("));
    assertSameAsInterpreter(READS_ITS_OWN_PART, values(4, 5), values(InnerLoopStages.CHUNK, 6));
  }

  @Test
  void locVolCalibsGridLogAndVolatilityExpRunLaneWise() throws IOException {
    String resource = "/programs/finpar/LocVolCalib.l0";
    String text;
    try (InputStream in = ThreadPrivatePartsTest.class.getResourceAsStream(resource)) {
      text = new String(in.readAllBytes(), StandardCharsets.UTF_8);
    }
    OptimizedProgram optimized =
        Optimizer.optimize(TypeChecker.check(L0Parser.parse(text, resource)));
    KernelPlan plan = optimized.kernelPlan();
    for (KernelPlan.Kernel k : plan.kernels()) {
      for (Kernel kernel :
          KernelLowering.lower(plan, k, LaunchConfiguration.THREAD_PER_ROW).kernels()) {
        String form = JvmKernelForm.describe(kernel);
        assertTrue(
            // the log of the grid before the time loop (LoopInvariantRowCalls), then the exp of
            // the volatility map in it
            form.contains("inner loops lane-wise: 2 (VectorMath per iteration: log, exp;"), form);
      }
    }
  }

  private static final Buffer SCRATCH =
      new Buffer("scratch_f64_3", ScalarType.F64, Buffer.Space.THREAD_PRIVATE);
  private static final KernelExpr P = i64("scratch_f64_3_part_7");
  private static final KernelExpr Q = i64("scratch_f64_3_part_12");
  private static final KernelExpr J = i64("j_20");
  private static final KernelExpr K = i64("k_21");

  @Test
  void indicesAddingDifferentPartStartsOrOneAndNoneAreDifferentArrays() {
    assertFalse(ThreadPrivateParts.mayOverlap(SCRATCH, add(P, J), add(add(Q, mul(J, K)), K)));
    assertFalse(ThreadPrivateParts.mayOverlap(SCRATCH, add(P, J), J));
    assertFalse(ThreadPrivateParts.mayOverlap(SCRATCH, sub(add(P, J), K), add(K, Q)));
  }

  @Test
  void indicesOfOnePartOrOfNoneOrWithAStartOutsideTheSumMayMeet() {
    assertTrue(ThreadPrivateParts.mayOverlap(SCRATCH, add(P, J), add(P, K)));
    assertTrue(ThreadPrivateParts.mayOverlap(SCRATCH, J, K));
    // a start multiplied, subtracted, chosen or two starts: nothing is known
    assertTrue(ThreadPrivateParts.mayOverlap(SCRATCH, add(mul(P, K), J), add(Q, J)));
    assertTrue(ThreadPrivateParts.mayOverlap(SCRATCH, sub(J, P), add(Q, J)));
    KernelExpr chosen = new KernelExpr.Select(new KernelExpr.Var("c_1", ScalarType.BOOL), P, Q);
    assertTrue(ThreadPrivateParts.mayOverlap(SCRATCH, add(chosen, J), J));
    assertTrue(ThreadPrivateParts.mayOverlap(SCRATCH, add(P, Q), J));
    // a program value named like a start of another buffer is no start of this one
    assertTrue(ThreadPrivateParts.mayOverlap(SCRATCH, add(i64("scratch_f64_4_part_7"), J), J));
    // a global buffer has no parts
    Buffer global = new Buffer("out_3", ScalarType.F64);
    assertTrue(ThreadPrivateParts.mayOverlap(global, add(P, J), add(Q, J)));
  }

  private static KernelExpr i64(String name) {
    return new KernelExpr.Var(name, ScalarType.I64);
  }

  private static KernelExpr add(KernelExpr a, KernelExpr b) {
    return new KernelExpr.Binary(BinaryOperator.ADD, ScalarType.I64, a, b);
  }

  private static KernelExpr sub(KernelExpr a, KernelExpr b) {
    return new KernelExpr.Binary(BinaryOperator.SUB, ScalarType.I64, a, b);
  }

  private static KernelExpr mul(KernelExpr a, KernelExpr b) {
    return new KernelExpr.Binary(BinaryOperator.MUL, ScalarType.I64, a, b);
  }

  /** The JVM backend's one kernel of {@code program}'s one map. */
  private static Kernel onlyKernel(Program program) {
    List<Kernel> kernels = LoweredPrograms.jvmKernelsOfOnlyPlanKernel(program);
    assertEquals(1, kernels.size());
    return kernels.get(0);
  }

  private static void assertSameAsInterpreter(String text, double[] xs, double[] ys) {
    Program program = L0Parser.parse(text, "parts.l0");
    List<Value> args = List.of(Value.Array.ofF64(xs), Value.Array.ofF64(ys));
    assertEquals(
        new Interpreter(program).call("main", args),
        HostRunner.compile(program, JVM).call("main", args));
  }

  /** {@code n} values of both signs and many magnitudes, some special. */
  private static double[] values(int n, long seed) {
    java.util.Random random = new java.util.Random(seed);
    double[] special = {Double.NaN, 0.0, -0.0, Double.POSITIVE_INFINITY, 1e-310, 700.0, -1.0};
    double[] values = new double[n];
    for (int k = 0; k < n; k++) {
      values[k] =
          k < special.length ? special[k] : (random.nextDouble() - 0.3) * Math.pow(10, k % 7 - 3);
    }
    return values;
  }
}
