package dev.l0.kernels.vector;

import dev.l0.math.L0Math;
import java.util.Objects;

/**
 * L0's math built-ins applied to a range of an array, with results equal bit for bit to {@link
 * L0Math} (that is, to {@link StrictMath}) for every element. Each call reads {@code count}
 * elements from {@code in} at {@code inOffset} and writes {@code count} results to {@code out} at
 * {@code outOffset}; {@code in} and {@code out} may be the same range.
 *
 * <p>Where the {@code jdk.incubator.vector} module is in the boot layer (Spark 4.1 adds {@code
 * --add-modules=jdk.incubator.vector}), the work is done by {@link LaneMath}, several elements per
 * step; otherwise by the scalar functions, one element at a time. Which one runs is decided once,
 * when this class is initialised, and reported by {@link #lanewise()}.
 *
 * <p>Each function is a separate small method meant to be called over a staging buffer of about a
 * thousand elements: the Vector API is fast only in code that the JIT compiler inlines whole.
 */
public final class VectorMath {
  private static final boolean LANEWISE =
      ModuleLayer.boot().findModule("jdk.incubator.vector").isPresent()
          && LaneMath.usefulOnThisMachine();

  private VectorMath() {}

  /** True where the lane-wise code runs, false where the scalar fallback does. */
  public static boolean lanewise() {
    return LANEWISE;
  }

  /** How many doubles one vector step processes: the lane count, or 1 for the scalar fallback. */
  public static int lanes() {
    return LANEWISE ? LaneMath.lanes() : 1;
  }

  /** {@code out[outOffset + i] = L0Math.exp(in[inOffset + i])} for {@code i < count}. */
  public static void exp(double[] in, int inOffset, double[] out, int outOffset, int count) {
    checkRanges(in, inOffset, out, outOffset, count);
    if (LANEWISE) {
      LaneMath.exp(in, inOffset, out, outOffset, count);
    } else {
      ScalarLoops.exp(in, inOffset, out, outOffset, count);
    }
  }

  /** {@code out[outOffset + i] = L0Math.log(in[inOffset + i])} for {@code i < count}. */
  public static void log(double[] in, int inOffset, double[] out, int outOffset, int count) {
    checkRanges(in, inOffset, out, outOffset, count);
    if (LANEWISE) {
      LaneMath.log(in, inOffset, out, outOffset, count);
    } else {
      ScalarLoops.log(in, inOffset, out, outOffset, count);
    }
  }

  /** {@code out[outOffset + i] = L0Math.sin(in[inOffset + i])} for {@code i < count}. */
  public static void sin(double[] in, int inOffset, double[] out, int outOffset, int count) {
    checkRanges(in, inOffset, out, outOffset, count);
    if (LANEWISE) {
      LaneMath.sin(in, inOffset, out, outOffset, count);
    } else {
      ScalarLoops.sin(in, inOffset, out, outOffset, count);
    }
  }

  /** {@code out[outOffset + i] = L0Math.cos(in[inOffset + i])} for {@code i < count}. */
  public static void cos(double[] in, int inOffset, double[] out, int outOffset, int count) {
    checkRanges(in, inOffset, out, outOffset, count);
    if (LANEWISE) {
      LaneMath.cos(in, inOffset, out, outOffset, count);
    } else {
      ScalarLoops.cos(in, inOffset, out, outOffset, count);
    }
  }

  /**
   * {@code out[outOffset + i] = L0Math.erf(in[inOffset + i])} (fdlibm's s_erf.c) for {@code i <
   * count}.
   */
  public static void erf(double[] in, int inOffset, double[] out, int outOffset, int count) {
    checkRanges(in, inOffset, out, outOffset, count);
    if (LANEWISE) {
      LaneMath.erf(in, inOffset, out, outOffset, count);
    } else {
      ScalarLoops.erf(in, inOffset, out, outOffset, count);
    }
  }

  /** {@code out[outOffset + i] = L0Math.sqrt(in[inOffset + i])} for {@code i < count}. */
  public static void sqrt(double[] in, int inOffset, double[] out, int outOffset, int count) {
    checkRanges(in, inOffset, out, outOffset, count);
    if (LANEWISE) {
      LaneMath.sqrt(in, inOffset, out, outOffset, count);
    } else {
      ScalarLoops.sqrt(in, inOffset, out, outOffset, count);
    }
  }

  /**
   * {@code out[outOffset + i] = L0Math.pow(x[xOffset + i], y[yOffset + i])} for {@code i < count}.
   * {@code out} may be the same range as {@code x} or {@code y}.
   */
  public static void pow(
      double[] x, int xOffset, double[] y, int yOffset, double[] out, int outOffset, int count) {
    checkRanges(x, xOffset, out, outOffset, count);
    checkRange("exponent", y, yOffset, count);
    if (LANEWISE) {
      LaneMath.pow(x, xOffset, y, yOffset, out, outOffset, count);
    } else {
      ScalarLoops.pow(x, xOffset, y, yOffset, out, outOffset, count);
    }
  }

  private static void checkRanges(
      double[] in, int inOffset, double[] out, int outOffset, int count) {
    if (count < 0) {
      throw new IllegalArgumentException("count " + count + " is negative");
    }
    checkRange("input", in, inOffset, count);
    checkRange("output", out, outOffset, count);
  }

  private static void checkRange(String role, double[] array, int offset, int count) {
    Objects.requireNonNull(array, role + " array");
    if (offset < 0 || offset > array.length - count) {
      throw new IndexOutOfBoundsException(
          role
              + " range ["
              + offset
              + ", "
              + offset
              + " + "
              + count
              + ") is outside the "
              + role
              + " array of length "
              + array.length);
    }
  }
}
