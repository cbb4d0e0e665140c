package dev.l0.kernels.jvm;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.l0.interp.Interpreter;
import dev.l0.ir.L0RuntimeError;
import dev.l0.ir.Program;
import dev.l0.ir.ScalarType;
import dev.l0.ir.ScalarValue;
import dev.l0.ir.Type;
import dev.l0.ir.Value;
import dev.l0.kernels.exec.HostRunner;
import dev.l0.kernels.ir.Kernel;
import dev.l0.kernels.ir.KernelGroup;
import dev.l0.kernels.lower.KernelLowering;
import dev.l0.kernels.lower.LaunchConfiguration;
import dev.l0.kernels.vector.VectorMath;
import dev.l0.opt.KernelPlan;
import dev.l0.opt.OptimizedProgram;
import dev.l0.opt.Optimizer;
import dev.l0.syntax.L0Parser;
import dev.l0.testing.TestPrograms;
import dev.l0.types.TypeChecker;
import dev.l0.values.ValueReader;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/**
 * Loops inside kernel threads run lane-wise ({@link InnerLoopStages}): which loops are staged
 * (explain says so, and the Java calls {@code VectorMath}), and that the results are the
 * interpreter's (StrictMath's) bit for bit, NaNs up to their payload as in {@link StagedMapTest},
 * on inner maps and inner sums using exp, log, erf, pow, sin, cos and sqrt, with special values:
 * NaN, infinities, zeros, subnormals, and arguments whose exp overflows or underflows.
 */
class InnerLoopStagesTest {
  private static final JvmKernelExecutor JVM = new JvmKernelExecutor();

  /**
   * An inner map whose calls need one another's results (three levels: log, then exp and pow, then
   * erf), an {@code if} that picks which call runs, and sqrt and sin/cos besides.
   */
  private static final String LEVELS =
      """
      fun [[f64]] main ([f64] xs, [f64] ys) =
        map(fn [f64] (f64 x) =>
              map(fn f64 (f64 y) =>
                    let a = log(x * y) in
                    let b = exp(a * 0.5 - y) + (y pow x) in
                    let c = if y < x then erf(b - x) else cos(b) * sin(y) in
                    c + sqrt(y),
                  ys),
            xs)
      """;

  /** An inner sum of independent terms: the terms lane-wise, added in the original order. */
  private static final String SUM =
      """
      fun [f64] main ([f64] xs, [f64] ys) =
        map(fn f64 (f64 x) => reduce(op +, 0.0, map(fn f64 (f64 y) => exp(x - y) * log(y), ys)), xs)
      """;

  /**
   * A call whose argument an {@code if} gives (the lowering declares the if's result, then each
   * branch assigns it): the argument's slice holds the declaration too.
   */
  private static final String IF_ARGUMENT =
      """
      fun [[f64]] main ([f64] xs, [f64] ys) =
        map(fn [f64] (f64 x) =>
              map(fn f64 (f64 y) => let d = if y < x then y - x else x * y in exp(d) + log(d), ys),
            xs)
      """;

  /**
   * A normal quantile in the form of AS241 (a branchy region: a central rational function, and
   * tails after a log and a sqrt), its polynomials shortened.
   */
  private static final String QUANTILE =
      """
      fun f64 ratio(f64 r) =
        ((((r * 0.5 + 1.5) * r + 2.5) * r + 3.5) * r + 4.5)
        / ((((r * 0.25 + 1.25) * r + 2.25) * r + 3.25) * r + 1.0)
      fun f64 quantile(f64 u) =
        let q = u - 0.5 in
        if abs(q) <= 0.425 then q * ratio(0.180625 - q * q)
        else
          let r = sqrt(-log(if q < 0.0 then 0.5 + q else 0.5 - q)) in
          let x = if r <= 5.0 then ratio(r - 1.6) else ratio(r - 5.0) * 2.0 in
          if q < 0.0 then -x else x
      """;

  /**
   * A region whose two branches each take a {@code log} (neither cheap, so it does not split): it
   * is staged whole, both branches lane-wise and picked by masks.
   */
  private static final String WHOLE_REGION =
      QUANTILE
          + """
          fun [[f64]] main ([f64] xs, [f64] ys) =
            map(fn [f64] (f64 x) =>
                  map(fn f64 (f64 y) =>
                        let q = y - 0.5 in
                        (if q < 0.0 then ratio(log(0.5 + q)) else ratio(log(0.5 - q) * 2.0)) * x,
                      ys),
                xs)
          """;

  /**
   * The quantile with its {@code if} the other way round (the tails first, the central branch
   * last), in an inner map: a region whose cheap branch is its {@code else}.
   */
  private static final String FLIPPED_REGION =
      QUANTILE
          + """
          fun f64 flipped(f64 u) =
            let q = u - 0.5 in
            if not (abs(q) <= 0.425) then
              let r = sqrt(-log(if q < 0.0 then 0.5 + q else 0.5 - q)) in
              let x = if r <= 5.0 then ratio(r - 1.6) else ratio(r - 5.0) * 2.0 in
              if q < 0.0 then -x else x
            else q * ratio(0.180625 - q * q)
          fun [[f64]] main ([f64] xs, [f64] ys) =
            map(fn [f64] (f64 x) => map(fn f64 (f64 y) => flipped(y) * x, ys), xs)
          """;

  /** The quantile in an inner map: the loop's body is one region. */
  private static final String REGION =
      QUANTILE
          + """
          fun [[f64]] main ([f64] xs, [f64] ys) =
            map(fn [f64] (f64 x) => map(fn f64 (f64 y) => quantile(y) * x, ys), xs)
          """;

  /**
   * The quantile in a loop nest inside a thread: the loop over the rows of {@code yss} is staged,
   * its inner loop over a row's elements (few) with it.
   */
  private static final String NESTED_REGION =
      QUANTILE
          + """
          fun [[[f64]]] main ([f64] xs, [[f64]] yss) =
            map(fn [[f64]] (f64 x) =>
                  map(fn [f64] ([f64] ys) => map(fn f64 (f64 y) => quantile(y) * x, ys), yss),
                xs)
          """;

  /**
   * The quantile of an element scaled by the thread's {@code s} (as OptionPricing's draws scale
   * Sobol numbers by {@code sobolFactor}): the region (from the product on) reads {@code s}, which
   * the staged loop over {@code ks} does not change.
   */
  private static final String INVARIANT_REGION =
      QUANTILE
          + """
          fun [[f64]] main ([f64] xs, [i32] ks) =
            map(fn [f64] (f64 x) =>
                  let s = x * 0.001 in map(fn f64 (i32 k) => quantile(f64(k) * s), ks),
                xs)
          """;

  /** A loop whose call reads what the previous iteration computed: stays as it is. */
  private static final String CARRIED =
      """
      fun [f64] main ([f64] xs) =
        map(fn f64 (f64 x) => loop (acc = x) = for i < 300 do exp(acc * 0.5) - 1.0 in acc, xs)
      """;

  private static final double[] SPECIAL = {
    Double.NaN,
    Double.POSITIVE_INFINITY,
    Double.NEGATIVE_INFINITY,
    0.0,
    -0.0,
    Double.MIN_VALUE,
    -Double.MIN_VALUE,
    Double.MIN_NORMAL,
    0x1p-1060,
    1e300,
    -1e300,
    Double.MAX_VALUE,
    1.0,
    -1.0,
    709.9,
    -746.0,
    1e-20,
    0.5,
    2.0,
    3.0
  };

  @Test
  void anInnerMapWithDependentCallsRunsLaneWiseWithTheInterpretersBits() {
    Kernel kernel = onlyKernel(LEVELS);
    String form = JvmKernelForm.describe(kernel);
    assertTrue(
        form.contains(
            "inner loops lane-wise: 1 (VectorMath per iteration: log, pow, sin, exp, erf, cos; runs of"
                + " 32 iterations or more)"),
        form);
    String source = JvmGroupRunner.javaSource(kernel);
    for (String call : List.of("log(", "exp(", "pow(", "erf(", "cos(", "sin(")) {
      assertTrue(source.contains("VectorMath." + call), call + " in\n" + source);
    }
    // sqrt is one instruction: it stays in the loop
    assertFalse(source.contains("VectorMath.sqrt("), source);
    // more iterations than a chunk, and not a multiple of the vector length
    assertSameAsInterpreter(
        LEVELS, values(SPECIAL.length, 1), values(InnerLoopStages.CHUNK + 45, 2));
    // runs just long enough to be staged, and just too short
    assertSameAsInterpreter(LEVELS, values(40, 3), values(InnerLoopStages.MIN_ITERATIONS, 4));
    assertSameAsInterpreter(LEVELS, values(40, 5), values(InnerLoopStages.MIN_ITERATIONS - 1, 6));
  }

  @Test
  void aCallWhoseArgumentAnIfGivesRunsLaneWiseWithTheInterpretersBits() {
    assertTrue(
        JvmKernelForm.describe(onlyKernel(IF_ARGUMENT)).contains("inner loops lane-wise: 1"));
    assertSameAsInterpreter(
        IF_ARGUMENT, values(SPECIAL.length, 7), values(InnerLoopStages.CHUNK + 45, 8));
  }

  @Test
  void anInnerSumAddsItsLaneWiseTermsInTheOriginalOrder() {
    assertTrue(JvmKernelForm.describe(onlyKernel(SUM)).contains("inner loops lane-wise: 1"));
    assertSameAsInterpreter(SUM, values(60, 5), values(2 * InnerLoopStages.CHUNK + 3, 6));
  }

  @Test
  void aRegionWithACostlyBranchInEachRunsWholeLaneWiseWithTheInterpretersBits() {
    Kernel kernel = onlyKernel(WHOLE_REGION);
    String form = JvmKernelForm.describe(kernel);
    assertTrue(form.contains("inner loops lane-wise: 1 (VectorMath per iteration: region;"), form);
    String source = JvmGroupRunner.javaSource(kernel);
    assertTrue(source.contains("REGION$0.run("), source);
    assertFalse(source.contains("REGION$1"), source);
    // the region's own code: lane-wise masks and blends, and its logs lane-wise
    assertTrue(source.contains(".blend("), source);
    assertTrue(source.contains("VectorMath.log("), source);
    assertFalse(JavaKernelIrPrinter.printPerRow(kernel).source().contains("REGION$"));
    // staged (a run of at least REGION_MIN_EVALUATIONS), and as it is (shorter runs)
    assertSameAsInterpreter(
        WHOLE_REGION, values(3, 9), quantiles(InnerLoopStages.REGION_MIN_EVALUATIONS + 45, 10));
    assertSameAsInterpreter(
        WHOLE_REGION, values(3, 13), quantiles(InnerLoopStages.REGION_MIN_EVALUATIONS - 1, 14));
  }

  /**
   * AS241's quantile splits at its {@code if}: the central rational function (arithmetic only) for
   * every evaluation, in a plain loop without branches, then the tails (a {@code log}, a further
   * {@code if}) per evaluation only where they are taken, over the central results. No lane-wise
   * code, so short runs are staged too.
   */
  @Test
  void aRegionWithACheapBranchSplitsAndRunsEachBranchWhereTakenWithTheInterpretersBits() {
    Kernel kernel = onlyKernel(REGION);
    String form = JvmKernelForm.describe(kernel);
    assertTrue(
        form.contains(
            "inner loops lane-wise: 1 (VectorMath per iteration: split region; runs of 32"
                + " iterations or more)"),
        form);
    InnerLoopStages.Split split =
        InnerLoopStages.inside(kernel.body(), JavaKernelIrPrinter.methodBudget())
            .get(0)
            .units()
            .get(0)
            .region()
            .orElseThrow()
            .split()
            .orElseThrow();
    String cheap = JavaKernelIrPrinter.printPerRow(split.cheap()).source();
    String costly = JavaKernelIrPrinter.printPerRow(split.costly()).source();
    // the cheap kernel: the central branch in place of the if, no branch, no call
    assertFalse(cheap.contains("if ("), cheap);
    assertFalse(cheap.contains("L0Math.log("), cheap);
    // the costly kernel: the tails under the if, the outputs stored only there
    assertTrue(costly.contains("L0Math.log("), costly);
    assertTrue(costly.indexOf("out$0[") > costly.indexOf("if ("), costly);
    String source = JvmGroupRunner.javaSource(kernel);
    int cheapRun = source.indexOf("REGION$0.run(");
    assertTrue(cheapRun >= 0 && source.indexOf("REGION$1.run(") > cheapRun, source);
    assertFalse(source.contains(".blend("), source);
    assertFalse(source.contains("VectorMath.log("), source);
    // staged from MIN_ITERATIONS on, and as it is below
    assertSameAsInterpreter(
        REGION, values(3, 9), quantiles(InnerLoopStages.REGION_MIN_EVALUATIONS + 45, 10));
    assertSameAsInterpreter(REGION, values(5, 11), quantiles(InnerLoopStages.MIN_ITERATIONS, 12));
    assertSameAsInterpreter(
        REGION, values(5, 15), quantiles(InnerLoopStages.MIN_ITERATIONS - 1, 16));
    assertSameAsInterpreter(REGION, values(4, 17), quantiles(InnerLoopStages.CHUNK + 45, 18));
    // the cheap branch as the else: the same results
    assertTrue(
        JvmKernelForm.describe(onlyKernel(FLIPPED_REGION))
            .contains("(VectorMath per iteration: split region;"));
    assertSameAsInterpreter(
        FLIPPED_REGION, values(4, 19), quantiles(InnerLoopStages.CHUNK + 45, 20));
    assertSameAsInterpreter(
        FLIPPED_REGION, values(3, 21), quantiles(InnerLoopStages.MIN_ITERATIONS, 22));
  }

  @Test
  void onlyLoopsWithAWholeRegionNeedLongRunsToBeStaged() {
    // the last argument of JvmSupport.runsPlain: whether the loop has a region staged whole
    String regionGuard = ", true)) {";
    Kernel region = onlyKernel(WHOLE_REGION);
    assertTrue(JvmGroupRunner.javaSource(region).contains(".runsPlain("));
    assertTrue(JvmGroupRunner.javaSource(region).contains(regionGuard));
    assertTrue(
        JvmKernelForm.describe(region)
            .contains(
                "with a region "
                    + InnerLoopStages.REGION_MIN_EVALUATIONS
                    + " evaluations or more)"));
    for (String text : List.of(LEVELS, REGION)) {
      Kernel kernel = onlyKernel(text);
      String source = JvmGroupRunner.javaSource(kernel);
      assertTrue(source.contains(", false)) {"), source);
      assertFalse(source.contains(regionGuard), source);
      assertFalse(JvmKernelForm.describe(kernel).contains("with a region"));
    }
  }

  /**
   * A loop that runs staged when long runs as it is when short, and there, over an {@code i32}
   * count, with an {@code int} counter (a counted loop to HotSpot, as every other such loop is);
   * the results stay the interpreter's on both sides of the length that decides.
   */
  @Test
  void aStagedLoopBoundedByAnI32CountsWithAnIntInShortAndLongRuns() {
    String text =
        """
        fun [f64] main ([f64] xs, i32 n) =
          map(fn f64 (f64 x) =>
                reduce(op +, 0.0, map(fn f64 (i32 i) => exp(x * f64(i) * 0.001), iota(n))),
              xs)
        """;
    String source = JvmGroupRunner.javaSource(onlyKernel(text));
    int plain = source.indexOf(".runsPlain(");
    assertTrue(plain >= 0, source);
    Matcher loop = Pattern.compile("for \\((\\w+) ").matcher(source);
    assertTrue(loop.find(plain), source);
    assertEquals("int", loop.group(1), source.substring(plain));
    // a long run's passes over each chunk of iterations count with an int too
    Matcher chunkLoop =
        Pattern.compile("for \\((\\w+) [\\w$]+ = (?:\\(int\\) )?from\\$").matcher(source);
    int chunkLoops = 0;
    while (chunkLoop.find()) {
      chunkLoops++;
      assertEquals("int", chunkLoop.group(1), source.substring(chunkLoop.start()));
    }
    assertEquals(2, chunkLoops, source);
    Program program = L0Parser.parse(text, "inner.l0");
    for (int n :
        new int[] {
          InnerLoopStages.MIN_ITERATIONS - 1,
          InnerLoopStages.MIN_ITERATIONS,
          InnerLoopStages.CHUNK * 2 + 45
        }) {
      List<Value> args = List.of(Value.Array.ofF64(values(4, 21)), ScalarValue.i32(n));
      assertEquals(
          new Interpreter(program).call("main", args),
          HostRunner.compile(program, JVM).call("main", args));
    }
  }

  @Test
  void aRegionInALoopNestRunsLaneWiseWithTheInterpretersBits() {
    Kernel kernel = onlyKernel(NESTED_REGION);
    String form = JvmKernelForm.describe(kernel);
    assertTrue(
        form.contains("inner loops lane-wise: 1 (VectorMath per iteration: split region;"), form);
    assertTrue(JvmGroupRunner.javaSource(kernel).contains("REGION$0.run("));
    // the staged loop is the one over the rows: the region is in its inner loop
    List<InnerLoopStages> staged =
        InnerLoopStages.inside(kernel.body(), JavaKernelIrPrinter.methodBudget());
    assertEquals(1, staged.size());
    assertEquals(1, staged.get(0).units().size());
    assertEquals(1, staged.get(0).units().get(0).loops().size());
    Program program = L0Parser.parse(NESTED_REGION, "nested.l0");
    // rows of 3 (a chunk holds 85 rows) and of 1, staged; rows of 3 in a run with too few
    // evaluations for a region (as it is); rows of more than a chunk (one row a chunk), staged;
    // rows of more than a staged run takes (as it is)
    for (int[] shape :
        new int[][] {
          {1400, 3},
          {InnerLoopStages.REGION_MIN_EVALUATIONS + 7, 1},
          {200, 3},
          {64, InnerLoopStages.CHUNK + 9},
          {64, InnerLoopStages.MAX_EVALUATIONS_PER_ITERATION + 1}
        }) {
      double[] flat = quantiles(shape[0] * shape[1], shape[0] + shape[1]);
      Value[] rows = new Value[shape[0]];
      for (int r = 0; r < shape[0]; r++) {
        rows[r] =
            Value.Array.ofF64(java.util.Arrays.copyOfRange(flat, r * shape[1], (r + 1) * shape[1]));
      }
      List<Value> args =
          List.of(
              Value.Array.ofF64(values(4, shape[1])),
              new Value.Array(Type.array(ScalarType.F64), List.of(rows)));
      assertEquals(
          new Interpreter(program).call("main", args),
          HostRunner.compile(program, JVM).call("main", args),
          () -> "rows of " + shape[1]);
    }
  }

  /**
   * A region's operand that the staged loop neither declares nor assigns is passed to the region
   * once per run, as a scalar broadcast once per stage: the staging loop stores only the operand
   * that varies into a lane array per evaluation.
   */
  @Test
  void aRegionsLoopInvariantOperandIsPassedOnceNotStoredPerEvaluation() {
    Kernel kernel = onlyKernel(INVARIANT_REGION);
    List<InnerLoopStages> staged =
        InnerLoopStages.inside(kernel.body(), JavaKernelIrPrinter.methodBudget());
    assertEquals(1, staged.size());
    InnerLoopStages.MathCall unit = staged.get(0).units().get(0);
    InnerLoopStages.Region region = unit.region().orElseThrow();
    assertEquals(1, region.inputs().size(), region::toString);
    assertEquals(1, region.invariants().size(), region::toString);
    assertTrue(region.invariants().get(0).name().startsWith("s_"), region::toString);
    assertEquals(1, unit.arguments().size());
    String source = JvmGroupRunner.javaSource(kernel);
    // the stores at a cursor (in every printed copy of the staging loop) go to one lane array
    java.util.regex.Matcher stores =
        java.util.regex.Pattern.compile(
                "(lane\\$\\d+)(\\$\\d+)?\\[\\(\\(int\\) cursor\\$[0-9$]+\\)\\] = ")
            .matcher(source);
    java.util.Set<String> stored = new java.util.TreeSet<>();
    while (stores.find()) {
      stored.add(stores.group(1));
    }
    assertEquals(java.util.Set.of(unit.arguments().get(0).name()), stored, source);
    // the region's code gets s as its second scalar
    assertTrue(
        Pattern.compile(
                "double "
                    + Pattern.quote(region.invariants().get(0).name())
                    + "\\w* = \\(\\(Double\\) scalars\\$\\[1\\]\\)")
            .matcher(source)
            .find(),
        source);
    // staged (at least REGION_MIN_EVALUATIONS per run), x special and ordinary; and as it is
    Program program = L0Parser.parse(INVARIANT_REGION, "invariant.l0");
    for (int[] shape :
        new int[][] {
          {SPECIAL.length + 2, InnerLoopStages.REGION_MIN_EVALUATIONS + 45},
          {3, InnerLoopStages.MIN_ITERATIONS}
        }) {
      int[] ks = new int[shape[1]];
      for (int k = 0; k < ks.length; k++) {
        // f64(k) * s in (0, 1), the quantile's central region and tails, and outside it
        ks[k] = k % 2 == 0 ? k % 1000 : -(k % 300);
      }
      List<Value> args =
          List.of(
              Value.Array.ofF64(values(shape[0], 23)),
              ValueReader.read(Arrays.toString(ks), List.of(Type.array(ScalarType.I32)), "ks")
                  .get(0));
      assertEquals(
          new Interpreter(program).call("main", args),
          HostRunner.compile(program, JVM).call("main", args),
          () -> shape[0] + " rows of " + shape[1]);
    }
  }

  @Test
  void optionPricingsNormalDrawsRunAsARegion() {
    OptimizedProgram optimized =
        Optimizer.optimize(TypeChecker.check(TestPrograms.load("finpar/OptionPricing")));
    KernelPlan plan = optimized.kernelPlan();
    List<String> regions = new java.util.ArrayList<>();
    for (KernelPlan.Kernel k : plan.kernels()) {
      for (Kernel kernel :
          KernelLowering.lower(plan, k, LaunchConfiguration.THREAD_PER_ROW).kernels()) {
        String form = JvmKernelForm.describe(kernel);
        if (form.contains("inner loops lane-wise: 1 (VectorMath per iteration: split region;")) {
          regions.add(kernel.name());
          // the draws' sobolFactor is the same in every draw: passed once, not stored per draw
          for (InnerLoopStages stages :
              InnerLoopStages.inside(kernel.body(), JavaKernelIrPrinter.methodBudget())) {
            for (InnerLoopStages.MathCall unit : stages.units()) {
              List<dev.l0.kernels.ir.KernelExpr.Var> invariants =
                  unit.region().orElseThrow().invariants();
              assertEquals(1, invariants.size(), invariants::toString);
              assertTrue(invariants.get(0).name().contains("sobolFactor"), invariants::toString);
            }
          }
        }
      }
    }
    // the path kernels of main and of payoffSums (the entry for Spark): the draws of a chunk's
    // paths (the loop over the paths, its inner loops over dates and underlyings), AS241's
    // inverse normal as the region, split at its central branch
    assertEquals(2, regions.size(), regions::toString);
  }

  @Test
  void aLoopWhoseCallReadsTheCarriedStateIsNotStaged() {
    Kernel kernel = onlyKernel(CARRIED);
    assertFalse(JvmKernelForm.describe(kernel).contains("inner loops"));
    assertFalse(JvmGroupRunner.javaSource(kernel).contains("VectorMath.exp("));
    Program program = L0Parser.parse(CARRIED, "carried.l0");
    List<Value> args = List.of(Value.Array.ofF64(values(30, 7)));
    assertEquals(
        new Interpreter(program).call("main", args),
        HostRunner.compile(program, JVM).call("main", args));
  }

  @Test
  void thePerRowReferenceFormStaysScalar() {
    Kernel kernel = onlyKernel(LEVELS);
    assertFalse(JavaKernelIrPrinter.printPerRow(kernel).source().contains("VectorMath."));
    assertTrue(VectorMath.lanewise(), "surefire adds --add-modules=jdk.incubator.vector");
  }

  /**
   * A staged loop computes its calls' inputs for a whole chunk of iterations before the body runs
   * them, but fails as the iterations run in order: the staging loops keep the checks' guards and
   * drop the errors, so the body's division by zero in iteration 40 is the error, not the index out
   * of bounds of {@code exp}'s input in iteration 50, which the staging loop reaches first.
   */
  @Test
  void aStagedLoopFailsAtItsFirstFailingIteration() {
    String text =
        """
        fun [[f64]] main ([f64] xs, [f64] ys, [i32] is) =
          map(fn [f64] (f64 x) =>
                map(fn f64 (f64 y, i32 i) => exp(x - ys[i]) * y + f64(10 / i), zip(ys, is)),
              xs)
        """;
    assertTrue(JvmKernelForm.describe(onlyKernel(text)).contains("inner loops lane-wise: 1"));
    Program program = L0Parser.parse(text, "inner.l0");
    int[] is = new int[64];
    for (int k = 0; k < is.length; k++) {
      is[k] = k == 40 ? 0 : k == 50 ? 1000 : k + 1;
    }
    double[] ys = new double[is.length];
    for (int k = 0; k < ys.length; k++) {
      ys[k] = k + 0.5;
    }
    List<Value> args =
        List.of(
            Value.Array.ofF64(0.25, 1.5, 3.0),
            Value.Array.ofF64(ys),
            ValueReader.read(Arrays.toString(is), List.of(Type.array(ScalarType.I32)), "is")
                .get(0));
    L0RuntimeError interpreted =
        assertThrows(L0RuntimeError.class, () -> new Interpreter(program).call("main", args));
    L0RuntimeError staged =
        assertThrows(
            L0RuntimeError.class, () -> HostRunner.compile(program, JVM).call("main", args));
    assertEquals("/", interpreted.operation());
    assertEquals(
        interpreted.operation() + " at " + interpreted.pos(),
        staged.operation() + " at " + staged.pos());
  }

  /** The only kernel of {@code text}'s one map, lowered for the JVM. */
  private static Kernel onlyKernel(String text) {
    OptimizedProgram optimized =
        Optimizer.optimize(TypeChecker.check(L0Parser.parse(text, "inner.l0")));
    List<KernelPlan.Kernel> kernels = optimized.kernelPlan().kernels();
    assertEquals(1, kernels.size(), kernels::toString);
    KernelGroup group =
        KernelLowering.lower(
            optimized.kernelPlan(), kernels.get(0), LaunchConfiguration.THREAD_PER_ROW);
    assertEquals(1, group.kernels().size());
    return group.kernels().get(0);
  }

  private static void assertSameAsInterpreter(String text, double[] xs, double[] ys) {
    Program program = L0Parser.parse(text, "inner.l0");
    List<Value> args = List.of(Value.Array.ofF64(xs), Value.Array.ofF64(ys));
    Value expected = new Interpreter(program).call("main", args);
    Value actual = HostRunner.compile(program, JVM).call("main", args);
    // Value equality compares floats by Double.compare: NaNs are equal whatever their payload
    assertEquals(expected, actual);
  }

  /**
   * {@code n} arguments of a quantile: the special values first, then values in (0, 1), in every
   * region of the quantile (the central one, the tails, and the far tails below 1e-11).
   */
  private static double[] quantiles(int n, long seed) {
    Random random = new Random(seed);
    double[] values = values(n, seed);
    for (int k = SPECIAL.length; k < n; k++) {
      double u = random.nextDouble();
      values[k] =
          switch (k % 4) {
            case 0 -> u;
            case 1 -> u * 0.075;
            case 2 -> 1.0 - u * 1e-12;
            default -> Math.pow(10, -20 * u) * 0.07;
          };
    }
    return values;
  }

  /** {@code n} values: the special ones first, then random ones of every magnitude and sign. */
  private static double[] values(int n, long seed) {
    Random random = new Random(seed);
    double[] values = new double[n];
    for (int k = 0; k < n; k++) {
      values[k] =
          k < SPECIAL.length
              ? SPECIAL[(int) ((k + seed) % SPECIAL.length)]
              : switch (k % 3) {
                case 0 -> random.nextDouble() * 4 - 1;
                case 1 -> (random.nextDouble() - 0.3) * 1500;
                default -> Double.longBitsToDouble(random.nextLong());
              };
    }
    return values;
  }
}
