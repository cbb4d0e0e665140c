package dev.l0.semantics;

import dev.l0.ir.L0CompileError;
import dev.l0.ir.ScalarValue;
import dev.l0.ir.SourcePos;
import dev.l0.ir.Value;
import dev.l0.syntax.L0Printer;
import dev.l0.values.ValueTypes;

/**
 * Views a run-time value as the kind of value an operation needs. Evaluators assume a type-checked
 * program; a value of the wrong kind means they were given an ill-typed one, which is reported as
 * an {@link L0CompileError} at the construct, never as a Java exception.
 */
public final class Operands {
  private Operands() {}

  public static Value.Array array(Value v, SourcePos pos) {
    return as(Value.Array.class, "an array", v, pos);
  }

  public static Value.Tuple tuple(Value v, SourcePos pos) {
    return as(Value.Tuple.class, "a tuple", v, pos);
  }

  public static boolean bool(Value v, SourcePos pos) {
    return as(ScalarValue.Bool.class, "a bool", v, pos).value();
  }

  public static ScalarValue.Int integer(Value v, SourcePos pos) {
    return as(ScalarValue.Int.class, "an integer", v, pos);
  }

  public static ScalarValue.Float real(Value v, SourcePos pos) {
    return as(ScalarValue.Float.class, "a float", v, pos);
  }

  private static <T extends Value> T as(Class<T> kind, String expected, Value v, SourcePos pos) {
    if (kind.isInstance(v)) {
      return kind.cast(v);
    }
    throw illTyped(pos, expected, v);
  }

  static L0CompileError illTyped(SourcePos pos, String expected, Value found) {
    return new L0CompileError(
        pos,
        "ill-typed program: expected "
            + expected
            + ", found a value of type "
            + L0Printer.print(ValueTypes.typeOf(found)));
  }
}
