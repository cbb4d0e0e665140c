package dev.l0.programs.finpar;

import dev.l0.ir.ScalarValue;
import dev.l0.ir.Value;
import java.util.List;

/** Results of the FinPar programs compared exactly. */
final class FinparResults {
  private FinparResults() {}

  /** The bit patterns of an array of reals (so that -0.0 and NaN compare exactly), each with its value for the failure message. */
  static List<String> bits(Value reals) {
    return ((Value.Array) reals).elements().stream().map(p -> ((ScalarValue.Float) p).value())
        .map(p -> p + " (" + Long.toHexString(Double.doubleToRawLongBits(p)) + ")").toList();
  }
}
