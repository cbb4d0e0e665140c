package dev.l0.values;

import dev.l0.ir.ScalarType;
import dev.l0.ir.ScalarValue;
import dev.l0.ir.Shape;
import dev.l0.ir.Type;
import dev.l0.ir.Value;
import java.util.List;
import java.util.stream.Collectors;

/**
 * Prints values in the format {@link ValueReader} reads: {@code i32} and {@code f64} bare, {@code
 * i64} and {@code f32} with their suffix ({@code 7i64}, {@code 1.5f32}), bools as {@code
 * true}/{@code false}, tuples <code>{a, b}</code>, arrays {@code [a, b]}. Floats are printed in the
 * shortest form that reads back to the same bits ({@code Double.toString} / {@code Float.toString}
 * with a lower-case exponent, e.g. {@code 1.0e-5}); infinities and NaN print as {@code inf}, {@code
 * -inf}, {@code nan} without a suffix. An empty array whose inner sizes are all 0 prints as {@code
 * []} (reading it back needs its type); one with inner sizes prints with its shape, {@code
 * empty([0][3]i32)}.
 */
public final class ValueWriter {
  private ValueWriter() {}

  public static String write(Value v) {
    if (v instanceof Value.Array a) {
      if (a.length() == 0 && !a.elementShape().equals(Shape.zeroSizes(a.elementType()))) {
        return "empty(" + shapedType(Shape.of(a), ValueTypes.typeOf(a)) + ")";
      }
      return a.elements().stream()
          .map(ValueWriter::write)
          .collect(Collectors.joining(", ", "[", "]"));
    }
    if (v instanceof Value.Tuple t) {
      return t.elements().stream()
          .map(ValueWriter::write)
          .collect(Collectors.joining(", ", "{", "}"));
    }
    if (v instanceof ScalarValue.Bool b) {
      return Boolean.toString(b.value());
    }
    if (v instanceof ScalarValue.Int i) {
      return i.type() == ScalarType.I64 ? i.value() + "i64" : Long.toString(i.value());
    }
    ScalarValue.Float f = (ScalarValue.Float) v;
    if (Double.isNaN(f.value())) {
      return "nan";
    }
    if (Double.isInfinite(f.value())) {
      return f.value() > 0 ? "inf" : "-inf";
    }
    String digits =
        f.type() == ScalarType.F32
            ? Float.toString((float) f.value()) + "f32"
            : Double.toString(f.value());
    return digits.replace('E', 'e');
  }

  /**
   * {@code type} with the sizes of {@code shape}, as {@code empty(...)} writes it: {@code
   * [0][3]i32}.
   */
  static String shapedType(Shape shape, Type type) {
    if (shape instanceof Shape.Array a) {
      return "[" + a.length() + "]" + shapedType(a.element(), ((Type.Array) type).element());
    }
    if (shape instanceof Shape.Tuple t) {
      List<Type> types = ((Type.Tuple) type).elements();
      StringBuilder text = new StringBuilder("{");
      for (int i = 0; i < types.size(); i++) {
        text.append(i > 0 ? ", " : "").append(shapedType(t.elements().get(i), types.get(i)));
      }
      return text.append('}').toString();
    }
    return ((ScalarType) type).keyword();
  }
}
