package dev.l0.kernels.vector;

import dev.l0.kernels.report.JsonLine;
import dev.l0.math.L0Math;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.util.Arrays;
import java.util.Random;
import java.util.SplittableRandom;
import java.util.function.DoubleBinaryOperator;
import java.util.function.DoubleUnaryOperator;
import java.util.stream.IntStream;
import jdk.incubator.vector.DoubleVector;
import jdk.incubator.vector.VectorMask;
import jdk.incubator.vector.VectorOperators;
import jdk.incubator.vector.VectorSpecies;

/**
 * A benchmark, not a test: {@link VectorMath} against {@link StrictMath} and {@link Math}.
 *
 * <ul>
 *   <li>Per function (exp, log, sqrt, sin, cos, erf, pow): nanoseconds per element over 2^20 inputs
 *       (exp, log and sqrt of their Black-Scholes ranges; sin and cos of [-10, 10); erf of [-5, 5);
 *       pow x of [0.05, 200) and y of [-3, 3)) for a StrictMath loop, a Math loop and VectorMath
 *       over 1024-element ranges (erf: L0Math.erf, and no Math loop); one JSON line each, with how
 *       many results of VectorMath and of Math differ from StrictMath's.
 *   <li>Black-Scholes over N options (default 10,000,000; the ranges and formula of {@code
 *       BlackScholesBenchmark}): (a) a StrictMath loop, (b) the same loop with Math, (c) the same
 *       formula split by function over staging buffers of 1024 rows, each costly function one
 *       VectorMath call, and (d) as (c) with the arithmetic between the calls written with the
 *       Vector API too ({@code lanewise_} fields; only where the module is loaded). Each on one
 *       thread and on all cores (blocks of 64 Ki rows in a parallel stream). One JSON line with the
 *       times, the ratios and how many prices of (b), (c) and (d) differ from (a) in their bits.
 *   <li>Where the module is loaded, the divider alone: one lane-wise division and one lane-wise
 *       square root per element of a 1024-element range held in the L1 cache, 2^20 elements ({@code
 *       vector_math_divider}), the least that each division and square root of the formulas above
 *       costs per element.
 * </ul>
 *
 * Times are the best of 5 runs after 3 warm-ups: wall-clock time, and for the one-thread runs also
 * the thread's CPU time ({@code _cpu} fields), which other processes on a shared machine disturb
 * less. Run with {@code --add-modules=jdk.incubator.vector} (without it VectorMath is the scalar
 * fallback, and {@code "lanewise": false} says so).
 */
public final class VectorMathBenchmark {
  private static final int WARMUP = 3;
  private static final int RUNS = 5;
  private static final int STAGE = 1024;
  private static final int BLOCK = 64 * 1024;
  private static final int FUNCTION_INPUTS = 1 << 20;
  private static final ThreadMXBean THREADS = ManagementFactory.getThreadMXBean();

  /** The best wall-clock and the best CPU time of the runs, in seconds. */
  private record Timing(double wall, double cpu) {}

  private VectorMathBenchmark() {}

  public static void main(String[] args) {
    int n = args.length > 0 ? Integer.parseInt(args[0]) : 10_000_000;
    SplittableRandom random = new SplittableRandom(20261125);
    unaryLine("exp", StrictMath::exp, Math::exp, VectorMath::exp, values(random, -20, 0));
    unaryLine("log", StrictMath::log, Math::log, VectorMath::log, values(random, 0.05, 20));
    unaryLine("sqrt", StrictMath::sqrt, Math::sqrt, VectorMath::sqrt, values(random, 0.05, 4.05));
    unaryLine("sin", StrictMath::sin, Math::sin, VectorMath::sin, values(random, -10, 10));
    unaryLine("cos", StrictMath::cos, Math::cos, VectorMath::cos, values(random, -10, 10));
    unaryLine("erf", L0Math::erf, null, VectorMath::erf, values(random, -5, 5));
    functionLine(
        "pow",
        StrictMath::pow,
        Math::pow,
        VectorMath::pow,
        values(random, 0.05, 200),
        values(random, -3, 3));
    blackScholesLine(n);
    if (VectorMath.lanewise()) {
      dividerLine(
          random.doubles(STAGE, 1, 200).toArray(), random.doubles(STAGE, 0.05, 200).toArray());
    }
  }

  private static double[] values(SplittableRandom random, double from, double to) {
    return random.doubles(FUNCTION_INPUTS, from, to).toArray();
  }

  private static void unaryLine(
      String name,
      DoubleUnaryOperator strict,
      DoubleUnaryOperator fast,
      ArrayFunction lanes,
      double[] in) {
    functionLine(
        name,
        (x, y) -> strict.applyAsDouble(x),
        fast == null ? null : (x, y) -> fast.applyAsDouble(x),
        (x, xOffset, y, yOffset, out, outOffset, count) ->
            lanes.apply(x, xOffset, out, outOffset, count),
        in,
        in);
  }

  /**
   * One function's line; {@code y} is the second argument's values, ignored by one-argument
   * functions; {@code fast} is null where Math has no such function (erf), and its fields are left
   * out.
   */
  private static void functionLine(
      String name,
      DoubleBinaryOperator strict,
      DoubleBinaryOperator fast,
      PairArrayFunction lanes,
      double[] in,
      double[] y) {
    double[] strictOut = new double[in.length];
    double[] fastOut = new double[in.length];
    double[] lanesOut = new double[in.length];
    Timing strictTime =
        best(
            () -> {
              for (int i = 0; i < in.length; i++) {
                strictOut[i] = strict.applyAsDouble(in[i], y[i]);
              }
            });
    Timing fastTime =
        fast == null
            ? null
            : best(
                () -> {
                  for (int i = 0; i < in.length; i++) {
                    fastOut[i] = fast.applyAsDouble(in[i], y[i]);
                  }
                });
    Timing lanesTime =
        best(
            () -> {
              for (int i = 0; i < in.length; i += STAGE) {
                lanes.apply(in, i, y, i, lanesOut, i, Math.min(STAGE, in.length - i));
              }
            });
    JsonLine line =
        new JsonLine()
            .add("benchmark", "vector_math_function")
            .add("function", name)
            .add("inputs", in.length)
            .add("lanewise", VectorMath.lanewise())
            .add("lanes", VectorMath.lanes())
            .add("java", System.getProperty("java.version"))
            .add("strictmath_ns", strictTime.wall() * 1e9 / in.length)
            .add("vector_math_ns", lanesTime.wall() * 1e9 / in.length)
            .add("speedup_vs_strictmath", strictTime.wall() / lanesTime.wall())
            .add("strictmath_cpu_ns", strictTime.cpu() * 1e9 / in.length)
            .add("vector_math_cpu_ns", lanesTime.cpu() * 1e9 / in.length)
            .add("speedup_vs_strictmath_cpu", strictTime.cpu() / lanesTime.cpu())
            .add("vector_math_mismatches", mismatches(strictOut, lanesOut));
    if (fastTime != null) {
      line.add("math_ns", fastTime.wall() * 1e9 / in.length)
          .add("speedup_vs_math", fastTime.wall() / lanesTime.wall())
          .add("math_cpu_ns", fastTime.cpu() * 1e9 / in.length)
          .add("speedup_vs_math_cpu", fastTime.cpu() / lanesTime.cpu())
          .add("math_mismatches", mismatches(strictOut, fastOut));
    }
    System.out.println(line.text());
  }

  private static void blackScholesLine(int n) {
    Options o = Options.random(n, new Random(20261122));
    double[] strict = new double[n];
    double[] fast = new double[n];
    double[] staged = new double[n];
    Timing strictTime = best(() -> o.strictPrices(0, n, strict));
    Timing fastTime = best(() -> o.mathPrices(0, n, fast));
    Timing stagedTime = best(() -> o.stagedPrices(0, n, staged, new Stage()));
    double[] lanes = new double[n];
    Timing lanesTime =
        VectorMath.lanewise() ? best(() -> LaneStages.prices(o, 0, n, lanes, new Stage())) : null;
    int blocks = (n + BLOCK - 1) / BLOCK;
    double[] strictParallel = new double[n];
    double[] fastParallel = new double[n];
    double[] stagedParallel = new double[n];
    double strictParallelSeconds =
        wallBest(
            () ->
                IntStream.range(0, blocks)
                    .parallel()
                    .forEach(
                        b ->
                            o.strictPrices(
                                b * BLOCK, Math.min(n, (b + 1) * BLOCK), strictParallel)));
    double fastParallelSeconds =
        wallBest(
            () ->
                IntStream.range(0, blocks)
                    .parallel()
                    .forEach(
                        b -> o.mathPrices(b * BLOCK, Math.min(n, (b + 1) * BLOCK), fastParallel)));
    double stagedParallelSeconds =
        wallBest(
            () ->
                IntStream.range(0, blocks)
                    .parallel()
                    .forEach(
                        b ->
                            o.stagedPrices(
                                b * BLOCK,
                                Math.min(n, (b + 1) * BLOCK),
                                stagedParallel,
                                new Stage())));
    double[] lanesParallel = new double[n];
    double lanesParallelSeconds =
        VectorMath.lanewise()
            ? wallBest(
                () ->
                    IntStream.range(0, blocks)
                        .parallel()
                        .forEach(
                            b ->
                                LaneStages.prices(
                                    o,
                                    b * BLOCK,
                                    Math.min(n, (b + 1) * BLOCK),
                                    lanesParallel,
                                    new Stage())))
            : 0;
    JsonLine line =
        new JsonLine()
            .add("benchmark", "vector_math_blackscholes")
            .add("options", n)
            .add("cores", Runtime.getRuntime().availableProcessors())
            .add("lanewise", VectorMath.lanewise())
            .add("lanes", VectorMath.lanes())
            .add("java", System.getProperty("java.version"))
            .add("strictmath_s", strictTime.wall())
            .add("math_s", fastTime.wall())
            .add("staged_vector_math_s", stagedTime.wall())
            .add("strictmath_ns_per_option", strictTime.wall() * 1e9 / n)
            .add("math_ns_per_option", fastTime.wall() * 1e9 / n)
            .add("staged_vector_math_ns_per_option", stagedTime.wall() * 1e9 / n)
            .add("speedup_vs_strictmath", strictTime.wall() / stagedTime.wall())
            .add("speedup_vs_math", fastTime.wall() / stagedTime.wall())
            .add("strictmath_cpu_ns_per_option", strictTime.cpu() * 1e9 / n)
            .add("math_cpu_ns_per_option", fastTime.cpu() * 1e9 / n)
            .add("staged_vector_math_cpu_ns_per_option", stagedTime.cpu() * 1e9 / n)
            .add("speedup_vs_strictmath_cpu", strictTime.cpu() / stagedTime.cpu())
            .add("speedup_vs_math_cpu", fastTime.cpu() / stagedTime.cpu())
            .add("parallel_strictmath_s", strictParallelSeconds)
            .add("parallel_math_s", fastParallelSeconds)
            .add("parallel_staged_vector_math_s", stagedParallelSeconds)
            .add("parallel_speedup_vs_strictmath", strictParallelSeconds / stagedParallelSeconds)
            .add("parallel_speedup_vs_math", fastParallelSeconds / stagedParallelSeconds)
            .add("math_mismatches", mismatches(strict, fast))
            .add("staged_vector_math_mismatches", mismatches(strict, staged))
            .add("parallel_staged_vector_math_mismatches", mismatches(strict, stagedParallel))
            .add("parallel_strictmath_mismatches", mismatches(strict, strictParallel));
    boolean identical =
        mismatches(strict, staged) == 0
            && mismatches(strict, stagedParallel) == 0
            && Arrays.equals(strict, strictParallel);
    if (lanesTime != null) {
      line.add("lanewise_staged_s", lanesTime.wall())
          .add("lanewise_staged_ns_per_option", lanesTime.wall() * 1e9 / n)
          .add("lanewise_staged_cpu_ns_per_option", lanesTime.cpu() * 1e9 / n)
          .add("lanewise_speedup_vs_strictmath_cpu", strictTime.cpu() / lanesTime.cpu())
          .add("lanewise_speedup_vs_math_cpu", fastTime.cpu() / lanesTime.cpu())
          .add("parallel_lanewise_staged_s", lanesParallelSeconds)
          .add("parallel_lanewise_speedup_vs_math", fastParallelSeconds / lanesParallelSeconds)
          .add("lanewise_staged_mismatches", mismatches(strict, lanes))
          .add("parallel_lanewise_staged_mismatches", mismatches(strict, lanesParallel));
      identical &= mismatches(strict, lanes) == 0 && mismatches(strict, lanesParallel) == 0;
    }
    System.out.println(line.add("bit_identical", identical).text());
  }

  /**
   * The divider's share: one lane-wise division {@code x / y}, and one lane-wise square root of
   * {@code y}, over the {@value #STAGE} elements of {@code x} and {@code y} (in the core's L1
   * cache), run over until {@value #FUNCTION_INPUTS} elements are done, in ns per element. fdlibm's
   * formulas keep their divisions (exp one, log one; P0 has four more and a square root), and a
   * division has no exact lane-wise substitute, so these bound from below what each of them costs
   * per element on this machine.
   */
  private static void dividerLine(double[] x, double[] y) {
    double[] out = new double[STAGE];
    Timing divide =
        best(
            () -> {
              for (int done = 0; done < FUNCTION_INPUTS; done += STAGE) {
                DividerRanges.divide(x, y, out, 0, STAGE);
              }
            });
    Timing root =
        best(
            () -> {
              for (int done = 0; done < FUNCTION_INPUTS; done += STAGE) {
                DividerRanges.sqrt(y, out, 0, STAGE);
              }
            });
    System.out.println(
        new JsonLine()
            .add("benchmark", "vector_math_divider")
            .add("elements", FUNCTION_INPUTS)
            .add("range", STAGE)
            .add("lanes", VectorMath.lanes())
            .add("java", System.getProperty("java.version"))
            .add("divide_ns", divide.wall() * 1e9 / FUNCTION_INPUTS)
            .add("divide_cpu_ns", divide.cpu() * 1e9 / FUNCTION_INPUTS)
            .add("sqrt_ns", root.wall() * 1e9 / FUNCTION_INPUTS)
            .add("sqrt_cpu_ns", root.cpu() * 1e9 / FUNCTION_INPUTS)
            .text());
  }

  /**
   * The lane-wise loops of {@link #dividerLine}, in their own class so that the benchmark's class
   * loads without the vector module.
   */
  private static final class DividerRanges {
    /**
     * {@code out[i] = x[i] / y[i]} for the {@code count} elements from {@code offset}, lane-wise.
     */
    static void divide(double[] x, double[] y, double[] out, int offset, int count) {
      VectorSpecies<Double> species = DoubleVector.SPECIES_PREFERRED;
      int i = offset;
      for (; i < offset + species.loopBound(count); i += species.length()) {
        DoubleVector.fromArray(species, x, i)
            .div(DoubleVector.fromArray(species, y, i))
            .intoArray(out, i);
      }
      for (; i < offset + count; i++) {
        out[i] = x[i] / y[i];
      }
    }

    /**
     * {@code out[i] = sqrt(x[i])} for the {@code count} elements from {@code offset}, lane-wise.
     */
    static void sqrt(double[] x, double[] out, int offset, int count) {
      VectorSpecies<Double> species = DoubleVector.SPECIES_PREFERRED;
      int i = offset;
      for (; i < offset + species.loopBound(count); i += species.length()) {
        DoubleVector.fromArray(species, x, i).lanewise(VectorOperators.SQRT).intoArray(out, i);
      }
      for (; i < offset + count; i++) {
        out[i] = Math.sqrt(x[i]);
      }
    }
  }

  private static long mismatches(double[] expected, double[] actual) {
    long count = 0;
    for (int i = 0; i < expected.length; i++) {
      if (Double.doubleToRawLongBits(expected[i]) != Double.doubleToRawLongBits(actual[i])) {
        count++;
      }
    }
    return count;
  }

  /** The best wall-clock time of {@link #best}, for runs on several threads. */
  private static double wallBest(Runnable run) {
    return best(run).wall();
  }

  /**
   * The fastest of {@link #RUNS} timed runs after {@link #WARMUP} untimed ones: wall-clock time,
   * and this thread's CPU time (meaningful where {@code run} stays on this thread).
   */
  private static Timing best(Runnable run) {
    for (int i = 0; i < WARMUP; i++) {
      run.run();
    }
    long bestWall = Long.MAX_VALUE;
    long bestCpu = Long.MAX_VALUE;
    for (int i = 0; i < RUNS; i++) {
      long startCpu = THREADS.getCurrentThreadCpuTime();
      long start = System.nanoTime();
      run.run();
      bestWall = Math.min(bestWall, System.nanoTime() - start);
      bestCpu = Math.min(bestCpu, THREADS.getCurrentThreadCpuTime() - startCpu);
    }
    return new Timing(bestWall / 1e9, bestCpu / 1e9);
  }

  /** One thread's staging buffers for {@link Options#stagedPrices}. */
  private static final class Stage {
    final double[] sqrtT = new double[STAGE];
    final double[] ratio = new double[STAGE];
    final double[] logRatio = new double[STAGE];
    final double[] negRt = new double[STAGE];
    final double[] expNegRt = new double[STAGE];
    final double[] d1 = new double[STAGE];
    final double[] d2 = new double[STAGE];
    final double[] gauss1 = new double[STAGE];
    final double[] gauss2 = new double[STAGE];
  }

  /** The option columns of {@code BlackScholesBenchmark}, and its formula as (a), (b) and (c). */
  private static final class Options {
    final boolean[] call;
    final double[] price;
    final double[] strike;
    final double[] years;
    final double[] rate;
    final double[] volatility;

    private Options(int n) {
      call = new boolean[n];
      price = new double[n];
      strike = new double[n];
      years = new double[n];
      rate = new double[n];
      volatility = new double[n];
    }

    static Options random(int n, Random random) {
      Options o = new Options(n);
      for (int i = 0; i < n; i++) {
        o.call[i] = random.nextBoolean();
        o.price[i] = 10 + random.nextDouble() * 190;
        o.strike[i] = 10 + random.nextDouble() * 190;
        o.years[i] = 0.05 + random.nextDouble() * 4;
        o.rate[i] = 0.01 + random.nextDouble() * 0.09;
        o.volatility[i] = 0.05 + random.nextDouble() * 0.6;
      }
      return o;
    }

    void strictPrices(int from, int to, double[] out) {
      for (int i = from; i < to; i++) {
        double v = volatility[i];
        double t = years[i];
        double vSqrtT = v * StrictMath.sqrt(t);
        double d1 = (StrictMath.log(price[i] / strike[i]) + (rate[i] + 0.5 * v * v) * t) / vSqrtT;
        double d2 = d1 - vSqrtT;
        double cndD1 = cnd(d1, StrictMath.exp(-0.5 * d1 * d1));
        double cndD2 = cnd(d2, StrictMath.exp(-0.5 * d2 * d2));
        double xExpRT = strike[i] * StrictMath.exp(-rate[i] * t);
        out[i] = price(call[i], price[i], xExpRT, cndD1, cndD2);
      }
    }

    void mathPrices(int from, int to, double[] out) {
      for (int i = from; i < to; i++) {
        double v = volatility[i];
        double t = years[i];
        double vSqrtT = v * Math.sqrt(t);
        double d1 = (Math.log(price[i] / strike[i]) + (rate[i] + 0.5 * v * v) * t) / vSqrtT;
        double d2 = d1 - vSqrtT;
        double cndD1 = cnd(d1, Math.exp(-0.5 * d1 * d1));
        double cndD2 = cnd(d2, Math.exp(-0.5 * d2 * d2));
        double xExpRT = strike[i] * Math.exp(-rate[i] * t);
        out[i] = price(call[i], price[i], xExpRT, cndD1, cndD2);
      }
    }

    /** The same operations, each costly function once over up to {@link #STAGE} rows. */
    void stagedPrices(int from, int to, double[] out, Stage s) {
      for (int start = from; start < to; start += STAGE) {
        int m = Math.min(STAGE, to - start);
        for (int j = 0; j < m; j++) {
          int i = start + j;
          s.ratio[j] = price[i] / strike[i];
          s.negRt[j] = -rate[i] * years[i];
        }
        VectorMath.sqrt(years, start, s.sqrtT, 0, m);
        VectorMath.log(s.ratio, 0, s.logRatio, 0, m);
        VectorMath.exp(s.negRt, 0, s.expNegRt, 0, m);
        for (int j = 0; j < m; j++) {
          int i = start + j;
          double v = volatility[i];
          double vSqrtT = v * s.sqrtT[j];
          double d1 = (s.logRatio[j] + (rate[i] + 0.5 * v * v) * years[i]) / vSqrtT;
          double d2 = d1 - vSqrtT;
          s.d1[j] = d1;
          s.d2[j] = d2;
          s.gauss1[j] = -0.5 * d1 * d1;
          s.gauss2[j] = -0.5 * d2 * d2;
        }
        VectorMath.exp(s.gauss1, 0, s.gauss1, 0, m);
        VectorMath.exp(s.gauss2, 0, s.gauss2, 0, m);
        for (int j = 0; j < m; j++) {
          int i = start + j;
          double cndD1 = cnd(s.d1[j], s.gauss1[j]);
          double cndD2 = cnd(s.d2[j], s.gauss2[j]);
          out[i] = price(call[i], price[i], strike[i] * s.expNegRt[j], cndD1, cndD2);
        }
      }
    }

    private static double price(
        boolean call, double spot, double xExpRT, double cndD1, double cndD2) {
      return call ? spot * cndD1 - xExpRT * cndD2 : xExpRT * (1.0 - cndD2) - spot * (1.0 - cndD1);
    }

    /** The Abramowitz-Stegun normal CDF of {@code d}, given {@code exp(-0.5 * d * d)}. */
    private static double cnd(double d, double gauss) {
      double k = 1.0 / (1.0 + 0.2316419 * (d < 0.0 ? -d : d));
      double p =
          k
              * (0.31938153
                  + k * (-0.356563782 + k * (1.781477937 + k * (-1.821255978 + k * 1.330274429))));
      double c = 0.39894228040143267793994605993438 * gauss * p;
      return 0.0 < d ? 1.0 - c : c;
    }
  }

  /**
   * Variant (d): (c) with the arithmetic between the function calls also written with the Vector
   * API (the same operations in the same order, branches as blends), as generated lane-wise kernels
   * would do it. Rows past the last whole vector of a range go through (c). Loaded only where the
   * module is.
   */
  private static final class LaneStages {
    private static final VectorSpecies<Double> DOUBLES = DoubleVector.SPECIES_PREFERRED;

    private LaneStages() {}

    static void prices(Options o, int from, int to, double[] out, Stage s) {
      int lanes = DOUBLES.length();
      int vectorTo = from + (to - from) / lanes * lanes;
      for (int start = from; start < vectorTo; start += STAGE) {
        int m = Math.min(STAGE, vectorTo - start);
        arguments(o, start, m, s);
        VectorMath.sqrt(o.years, start, s.sqrtT, 0, m);
        VectorMath.log(s.ratio, 0, s.logRatio, 0, m);
        VectorMath.exp(s.negRt, 0, s.expNegRt, 0, m);
        distances(o, start, m, s);
        VectorMath.exp(s.gauss1, 0, s.gauss1, 0, m);
        VectorMath.exp(s.gauss2, 0, s.gauss2, 0, m);
        finish(o, start, m, s, out);
      }
      o.stagedPrices(vectorTo, to, out, s);
    }

    private static void arguments(Options o, int start, int m, Stage s) {
      for (int j = 0; j < m; j += DOUBLES.length()) {
        DoubleVector price = DoubleVector.fromArray(DOUBLES, o.price, start + j);
        price.div(DoubleVector.fromArray(DOUBLES, o.strike, start + j)).intoArray(s.ratio, j);
        DoubleVector.fromArray(DOUBLES, o.rate, start + j)
            .neg()
            .mul(DoubleVector.fromArray(DOUBLES, o.years, start + j))
            .intoArray(s.negRt, j);
      }
    }

    private static void distances(Options o, int start, int m, Stage s) {
      for (int j = 0; j < m; j += DOUBLES.length()) {
        DoubleVector v = DoubleVector.fromArray(DOUBLES, o.volatility, start + j);
        DoubleVector vSqrtT = v.mul(DoubleVector.fromArray(DOUBLES, s.sqrtT, j));
        DoubleVector drift =
            v.mul(0.5)
                .mul(v)
                .add(DoubleVector.fromArray(DOUBLES, o.rate, start + j))
                .mul(DoubleVector.fromArray(DOUBLES, o.years, start + j));
        DoubleVector d1 = DoubleVector.fromArray(DOUBLES, s.logRatio, j).add(drift).div(vSqrtT);
        DoubleVector d2 = d1.sub(vSqrtT);
        d1.intoArray(s.d1, j);
        d2.intoArray(s.d2, j);
        d1.mul(-0.5).mul(d1).intoArray(s.gauss1, j);
        d2.mul(-0.5).mul(d2).intoArray(s.gauss2, j);
      }
    }

    private static void finish(Options o, int start, int m, Stage s, double[] out) {
      for (int j = 0; j < m; j += DOUBLES.length()) {
        DoubleVector cndD1 =
            cnd(
                DoubleVector.fromArray(DOUBLES, s.d1, j),
                DoubleVector.fromArray(DOUBLES, s.gauss1, j));
        DoubleVector cndD2 =
            cnd(
                DoubleVector.fromArray(DOUBLES, s.d2, j),
                DoubleVector.fromArray(DOUBLES, s.gauss2, j));
        DoubleVector spot = DoubleVector.fromArray(DOUBLES, o.price, start + j);
        DoubleVector xExpRT =
            DoubleVector.fromArray(DOUBLES, o.strike, start + j)
                .mul(DoubleVector.fromArray(DOUBLES, s.expNegRt, j));
        DoubleVector callPrice = spot.mul(cndD1).sub(xExpRT.mul(cndD2));
        DoubleVector one = DoubleVector.broadcast(DOUBLES, 1.0);
        DoubleVector putPrice = xExpRT.mul(one.sub(cndD2)).sub(spot.mul(one.sub(cndD1)));
        putPrice
            .blend(callPrice, VectorMask.fromArray(DOUBLES, o.call, start + j))
            .intoArray(out, start + j);
      }
    }

    private static DoubleVector cnd(DoubleVector d, DoubleVector gauss) {
      DoubleVector magnitude = d.blend(d.neg(), d.compare(VectorOperators.LT, 0.0));
      DoubleVector k = DoubleVector.broadcast(DOUBLES, 1.0).div(magnitude.mul(0.2316419).add(1.0));
      DoubleVector p =
          k.mul(
              k.mul(
                      k.mul(k.mul(k.mul(1.330274429).add(-1.821255978)).add(1.781477937))
                          .add(-0.356563782))
                  .add(0.31938153));
      DoubleVector c = gauss.mul(0.39894228040143267793994605993438).mul(p);
      return c.blend(
          DoubleVector.broadcast(DOUBLES, 1.0).sub(c), d.compare(VectorOperators.GT, 0.0));
    }
  }
}
