package dev.l0.interp;

import dev.l0.ir.L0CompileError;
import dev.l0.ir.ScalarValue;
import dev.l0.ir.SourcePos;
import dev.l0.ir.Value;
import dev.l0.syntax.L0Printer;
import dev.l0.values.ValueTypes;

/**
 * Views a run-time value as the kind of value an operation needs. The interpreter assumes a
 * type-checked program; a value of the wrong kind means it was given an ill-typed one, which is
 * reported as an {@link L0CompileError} at the construct, never as a Java exception.
 */
final class Operands {
  private Operands() {}

  static Value.Array array(Value v, SourcePos pos) {
    if (v instanceof Value.Array a) {
      return a;
    }
    throw illTyped(pos, "an array", v);
  }

  static Value.Tuple tuple(Value v, SourcePos pos) {
    if (v instanceof Value.Tuple t) {
      return t;
    }
    throw illTyped(pos, "a tuple", v);
  }

  static boolean bool(Value v, SourcePos pos) {
    if (v instanceof ScalarValue.Bool b) {
      return b.value();
    }
    throw illTyped(pos, "a bool", v);
  }

  static ScalarValue.Int integer(Value v, SourcePos pos) {
    if (v instanceof ScalarValue.Int i) {
      return i;
    }
    throw illTyped(pos, "an integer", v);
  }

  static ScalarValue.Float real(Value v, SourcePos pos) {
    if (v instanceof ScalarValue.Float f) {
      return f;
    }
    throw illTyped(pos, "a float", v);
  }

  static L0CompileError illTyped(SourcePos pos, String expected, Value found) {
    return new L0CompileError(pos, "ill-typed program: expected " + expected + ", found a value of type "
        + L0Printer.print(ValueTypes.typeOf(found)));
  }
}
