package dev.l0.kernels.vector;

import dev.l0.math.L0Math;
import java.util.Arrays;
import java.util.Locale;
import java.util.SplittableRandom;
import java.util.function.DoubleUnaryOperator;
import java.util.stream.LongStream;

/**
 * The functions of {@link VectorMath} with what their exactness checks need: the scalar reference
 * ({@link StrictMath} itself where it has the function, so that {@link L0Math}'s own Java ports of
 * fdlibm, which the fallbacks call, are checked against it too; {@link L0Math#erf} for erf), the
 * lane-wise and the fallback implementations, where the algorithm changes interval (as raw bit
 * patterns of the first input of each new interval) and how to draw inputs from its usual domain
 * (for exp, log, sin, cos and erf half of them random bit patterns of the range the lane-wise code
 * computes). The lane-wise calls are lambdas so that nothing loads {@link LaneMath} before one
 * runs.
 */
enum CheckedFunction {
  EXP(
      StrictMath::exp,
      (in, i, out, o, n) -> LaneMath.exp(in, i, out, o, n),
      ScalarLoops::exp,
      VectorMath::exp,
      withNegatives(
          0x40862E42_00000000L, // |x| >= 709.78: overflow, underflow, inf and NaN tests
          0x40862E42_FEFA39EFL, // o_threshold
          0x40874910_D52D3051L, // |u_threshold|
          0x4086_2000_0000_0000L, // 708: where the lane-wise code hands over to the scalar one
          0x3fd62e43_00000000L, // |x| > 0.5 ln2: argument reduction
          0x3FF0A2B2_00000000L, // |x| >= 1.5 ln2: k from invln2 * x
          0x3e300000_00000000L, // |x| >= 2^-28
          0x00100000_00000000L, // smallest normal
          0L),
      exponentSteps(),
      random ->
          random.nextBoolean()
              ? -745.2 + random.nextDouble() * (709.8 + 745.2)
              : randomBits(random, 0x408 << 20, true)),
  LOG(
      StrictMath::log,
      (in, i, out, o, n) -> LaneMath.log(in, i, out, o, n),
      ScalarLoops::log,
      VectorMath::log,
      concat(
          withNegatives(0L, 0x00100000_00000000L, 0x7ff00000_00000000L, 0x7fefffff_ffffffffL),
          fractionBoundaries(0x3ff),
          fractionBoundaries(0x3fe),
          fractionBoundaries(0x400),
          fractionBoundaries(0x001),
          fractionBoundaries(0x7fe)),
      LongStream.rangeClosed(0x001, 0x7fe)
          .flatMap(e -> Arrays.stream(fractionBoundaries(e)))
          .toArray(),
      random ->
          random.nextBoolean()
              ? random.nextDouble() * 4.0
              : randomBits(random, 0x7ff << 20, false)),
  SIN(
      StrictMath::sin,
      (in, i, out, o, n) -> LaneMath.sin(in, i, out, o, n),
      ScalarLoops::sin,
      VectorMath::sin,
      trigBoundaries(),
      quadrantSteps(),
      CheckedFunction::trigDomain),
  COS(
      StrictMath::cos,
      (in, i, out, o, n) -> LaneMath.cos(in, i, out, o, n),
      ScalarLoops::cos,
      VectorMath::cos,
      trigBoundaries(),
      quadrantSteps(),
      CheckedFunction::trigDomain),
  ERF(
      L0Math::erf,
      (in, i, out, o, n) -> LaneMath.erf(in, i, out, o, n),
      ScalarLoops::erf,
      VectorMath::erf,
      withNegatives(
          0x00800000_00000000L, // the lane-wise code's start (below, fdlibm's underflow-safe tiny
          // form)
          0x3e300000_00000000L, // |x| >= 2^-28
          0x3feb0000_00000000L, // |x| >= 0.84375
          0x3ff40000_00000000L, // |x| >= 1.25: erfc's exponentials
          0x4006DB6E_00000000L, // |x| >= 1/0.35: erfc's second rational function
          0x40180000_00000000L, // |x| >= 6
          0x7ff00000_00000000L,
          0L),
      new long[0],
      random ->
          random.nextBoolean() ? random.nextDouble(-7, 7) : randomBits(random, 0x40200000, true)),
  SQRT(
      StrictMath::sqrt,
      (in, i, out, o, n) -> LaneMath.sqrt(in, i, out, o, n),
      ScalarLoops::sqrt,
      VectorMath::sqrt,
      withNegatives(0L, 0x00100000_00000000L, 0x3ff00000_00000000L, 0x7ff00000_00000000L),
      new long[0],
      random -> random.nextDouble() * 1e6);

  private final DoubleUnaryOperator reference;
  private final ArrayFunction lanes;
  private final ArrayFunction fallback;
  private final ArrayFunction product;
  private final long[] boundaries;
  private final long[] sampledBoundaries;
  private final DomainSampler domain;

  CheckedFunction(
      DoubleUnaryOperator reference,
      ArrayFunction lanes,
      ArrayFunction fallback,
      ArrayFunction product,
      long[] boundaries,
      long[] sampledBoundaries,
      DomainSampler domain) {
    this.reference = reference;
    this.lanes = lanes;
    this.fallback = fallback;
    this.product = product;
    this.boundaries = boundaries;
    this.sampledBoundaries = sampledBoundaries;
    this.domain = domain;
  }

  /** The name used in L0 programs and in the check's output. */
  String functionName() {
    return name().toLowerCase(Locale.ROOT);
  }

  static CheckedFunction named(String name) {
    for (CheckedFunction f : values()) {
      if (f.functionName().equals(name)) {
        return f;
      }
    }
    throw new IllegalArgumentException(
        "unknown function '"
            + name
            + "'; known: "
            + Arrays.toString(values()).toLowerCase(Locale.ROOT));
  }

  double reference(double x) {
    return reference.applyAsDouble(x);
  }

  /** The Vector API implementation; only where the module is loaded. */
  ArrayFunction lanes() {
    return lanes;
  }

  /** The scalar loop {@link VectorMath} runs without the module. */
  ArrayFunction fallback() {
    return fallback;
  }

  /** {@link VectorMath}'s public call, whichever implementation it chose. */
  ArrayFunction product() {
    return product;
  }

  /**
   * First inputs of the algorithm's intervals, each checked with its 2000 neighbours on either
   * side.
   */
  long[] boundaries() {
    return boundaries.clone();
  }

  /**
   * Interval starts too many to check all neighbourhoods of (one per exponent); the check samples
   * them.
   */
  long[] sampledBoundaries() {
    return sampledBoundaries.clone();
  }

  double sampleDomain(SplittableRandom random) {
    return domain.sample(random);
  }

  @FunctionalInterface
  private interface DomainSampler {
    double sample(SplittableRandom random);
  }

  /**
   * A double of random bits whose high word (without the sign) is below {@code highBelow}, normal
   * where the exponent allows; of either sign or positive.
   */
  private static double randomBits(SplittableRandom random, int highBelow, boolean eitherSign) {
    long magnitude = random.nextLong(0x00100000_00000000L, (long) highBelow << 32);
    return Double.longBitsToDouble(
        eitherSign && random.nextBoolean() ? magnitude | Long.MIN_VALUE : magnitude);
  }

  /**
   * s_sin.c, s_cos.c, e_rem_pio2.c, k_sin.c and k_cos.c: no reduction up to pi/4, the n = +-1 case
   * to 3pi/4 with its three-part pi/2 at high word 0x3ff921fb, the medium case to about 2^19 pi/2
   * (the lane-wise code's end), the kernels' tiny case below 2^-27 and k_cos.c's 0.3 and 0.78125;
   * each of either sign.
   */
  private static long[] trigBoundaries() {
    return withNegatives(
        0x3fe921fc_00000000L,
        0x4002d97c_00000000L,
        0x3ff921fb_00000000L,
        0x3ff921fc_00000000L,
        0x413921fc_00000000L,
        0x3e400000_00000000L,
        0x3FD33333_00000000L,
        0x3fe90001_00000000L,
        0L);
  }

  /**
   * Where the quadrant n steps, (k + 1/2) pi/2, and where the reduction cancels most, k pi/2: for k
   * up to 4096, then every 256th up to 2^20.
   */
  private static long[] quadrantSteps() {
    return LongStream.concat(
            LongStream.rangeClosed(1, 4096), LongStream.rangeClosed(17, 4096).map(k -> k * 256))
        .flatMap(
            k ->
                LongStream.of(
                    Double.doubleToRawLongBits(k * (Math.PI / 2)),
                    Double.doubleToRawLongBits((k + 0.5) * (Math.PI / 2))))
        .toArray();
  }

  /**
   * A third each: x of [-10, 10], random bits up to about 2^19 pi/2, and x near k pi/2 (k up to
   * 2^19) at a relative distance of 2^-10 to 2^-50, where e_rem_pio2.c's later rounds matter.
   */
  private static double trigDomain(SplittableRandom random) {
    return switch (random.nextInt(3)) {
      case 0 -> random.nextDouble(-10, 10);
      case 1 -> randomBits(random, 0x413921fc, true);
      default ->
          random.nextInt(1, 1 << 19)
              * (Math.PI / 2)
              * (1 + Math.scalb(random.nextDouble(-1, 1), -random.nextInt(10, 51)));
    };
  }

  private static long[] withNegatives(long... positives) {
    return LongStream.of(positives).flatMap(b -> LongStream.of(b, b | Long.MIN_VALUE)).toArray();
  }

  private static long[] concat(long[]... parts) {
    return Arrays.stream(parts).flatMapToLong(LongStream::of).toArray();
  }

  /**
   * e_log.c's tests on the top 20 fraction bits for biased exponent {@code e}: |f| < 2^-20 for
   * fractions 0xffffe..0x00000, the x-or-x/2 normalisation at 0x6a09c, and R's two forms split at
   * 0x6147a and 0x6b851.
   */
  private static long[] fractionBoundaries(long e) {
    return LongStream.of(0x00001, 0x6147b, 0x6a09c, 0x6b851, 0xffffe)
        .map(fraction -> (e << 52) | (fraction << 32))
        .toArray();
  }

  /**
   * Where e_exp.c's k = (int) (invln2 * x +- 0.5) steps: x = (j - 0.5) ln2 for j in [-1075, 1025].
   */
  private static long[] exponentSteps() {
    return LongStream.rangeClosed(-1075, 1025)
        .map(j -> Double.doubleToRawLongBits((j - 0.5) * 0.6931471805599453))
        .toArray();
  }
}
