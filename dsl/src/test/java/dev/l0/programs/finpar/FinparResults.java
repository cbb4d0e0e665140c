package dev.l0.programs.finpar;

import dev.l0.ir.ScalarValue;
import dev.l0.ir.Value;
import java.util.ArrayList;
import java.util.List;

/** Results of the FinPar programs compared exactly. */
final class FinparResults {
  private FinparResults() {}

  /**
   * The bit patterns of the reals in a value (a real, or arrays and tuples of them, in order), so
   * that -0.0 and NaN compare exactly, each with its value for the failure message.
   */
  static List<String> bits(Value reals) {
    List<String> out = new ArrayList<>();
    addBits(reals, out);
    return out;
  }

  private static void addBits(Value value, List<String> out) {
    if (value instanceof Value.Array array) {
      array.elements().forEach(e -> addBits(e, out));
    } else if (value instanceof Value.Tuple tuple) {
      tuple.elements().forEach(e -> addBits(e, out));
    } else {
      double p = ((ScalarValue.Float) value).value();
      out.add(p + " (" + Long.toHexString(Double.doubleToRawLongBits(p)) + ")");
    }
  }
}
