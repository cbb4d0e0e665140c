package dev.l0.kernels.cuda;

import java.util.ArrayList;
import java.util.List;

/**
 * One callable routine of {@code l0_math.cuh}: a {@link CudaMathFunction} in f64 or f32. The checks
 * exchange arguments and results as IEEE double bit patterns; f32 values travel as the doubles they
 * widen to exactly.
 */
public record CudaMathRoutine(CudaMathFunction function, boolean singlePrecision) {
  /** Every routine, f64 first; a routine's index here is its {@link #id()} in the check program. */
  public static final List<CudaMathRoutine> ALL = enumerate();

  private static List<CudaMathRoutine> enumerate() {
    List<CudaMathRoutine> routines = new ArrayList<>();
    for (boolean single : new boolean[] {false, true}) {
      for (CudaMathFunction function : CudaMathFunction.values()) {
        routines.add(new CudaMathRoutine(function, single));
      }
    }
    return List.copyOf(routines);
  }

  public String cName() {
    return function.cName(singlePrecision);
  }

  @Override
  public String toString() {
    return cName();
  }

  public int id() {
    return ALL.indexOf(this);
  }

  /** The JVM's result bits for these argument bits. */
  public long expectedBits(long firstBits, long secondBits) {
    return Double.doubleToRawLongBits(
        function.reference(
            Double.longBitsToDouble(firstBits),
            Double.longBitsToDouble(secondBits),
            singlePrecision));
  }

  /**
   * Whether a device or host result equals the JVM's: the same bits, except that any NaN equals any
   * NaN. NaN payloads are not part of L0's values (the JVM does not preserve them either), and GPUs
   * produce a canonical NaN where x86 propagates an operand's.
   */
  public static boolean sameResult(long actualBits, long expectedBits) {
    return Double.doubleToLongBits(Double.longBitsToDouble(actualBits))
        == Double.doubleToLongBits(Double.longBitsToDouble(expectedBits));
  }
}
