package dev.l0.kernels.jvm;

import dev.l0.ir.BinaryOperator;
import dev.l0.ir.L0RuntimeError;
import dev.l0.ir.ScalarValue;
import dev.l0.ir.SourcePos;
import dev.l0.semantics.ArrayOperations;
import dev.l0.semantics.ScalarOperations;

/**
 * The operations generated kernels call where a Java operator alone would not mean what
 * {@link ScalarOperations} means: integer {@code /} and {@code %} fail on a zero divisor, integer
 * {@code pow} (rare, so it goes through {@link ScalarOperations} itself), and bounds-checked indexing
 * with the reference interpreter's error.
 */
public final class JvmSupport {
  private JvmSupport() {}

  public static int divide(int a, int b, SourcePos pos) {
    return a / nonZero(BinaryOperator.DIV, b, pos);
  }

  public static long divide(long a, long b, SourcePos pos) {
    return a / nonZero(BinaryOperator.DIV, b, pos);
  }

  public static int remainder(int a, int b, SourcePos pos) {
    return a % nonZero(BinaryOperator.MOD, b, pos);
  }

  public static long remainder(long a, long b, SourcePos pos) {
    return a % nonZero(BinaryOperator.MOD, b, pos);
  }

  private static int nonZero(BinaryOperator op, int divisor, SourcePos pos) {
    return (int) nonZero(op, (long) divisor, pos);
  }

  private static long nonZero(BinaryOperator op, long divisor, SourcePos pos) {
    if (divisor == 0) {
      ScalarOperations.binary(op, ScalarValue.i64(1), ScalarValue.i64(0), pos); // throws the reference error
    }
    return divisor;
  }

  public static int power(int base, int exponent, SourcePos pos) {
    return (int) ((ScalarValue.Int) ScalarOperations.binary(BinaryOperator.POW, ScalarValue.i32(base), ScalarValue.i32(exponent), pos)).value();
  }

  public static long power(long base, long exponent, SourcePos pos) {
    return ((ScalarValue.Int) ScalarOperations.binary(BinaryOperator.POW, ScalarValue.i64(base), ScalarValue.i64(exponent), pos)).value();
  }

  /** The size of {@code iota(count)}, failing as {@code ArrayOperations.iota} does for a negative or too large one. */
  public static int iotaSize(long count, SourcePos pos) {
    if (!validSize(count)) {
      ArrayOperations.iota(ScalarValue.i64(count), pos); // throws the reference error
    }
    return (int) count;
  }

  /** The size of {@code replicate(count, v)}, failing as {@code ArrayOperations.replicate} does for a negative or too large one. */
  public static int replicateSize(long count, SourcePos pos) {
    if (!validSize(count)) {
      ArrayOperations.replicate(ScalarValue.i64(count), ScalarValue.bool(false), pos); // throws the reference error
    }
    return (int) count;
  }

  private static boolean validSize(long count) {
    return count >= 0 && count <= Integer.MAX_VALUE - 8;
  }

  /**
   * {@code index} checked against dimension {@code dimension} of {@code size} elements, failing as
   * {@code dev.l0.semantics.ArrayOperations.index} does.
   */
  public static int index(long index, int dimension, int size, SourcePos pos) {
    if (index < 0 || index >= size) {
      throw new L0RuntimeError("index", pos, "index " + index + " out of bounds for dimension " + dimension
          + " of size " + size);
    }
    return (int) index;
  }
}
