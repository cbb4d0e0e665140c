package dev.l0.testing;

import dev.l0.ir.ScalarType;
import dev.l0.ir.ScalarValue;
import dev.l0.ir.Shape;
import dev.l0.ir.Type;
import dev.l0.ir.Value;
import java.util.ArrayList;
import java.util.List;

/**
 * Random L0 values of a given constant-sized type (regular arrays of exactly the sizes in the type,
 * also under an empty dimension: an empty {@code [0][3]} array keeps its 3 columns): mostly small
 * numbers, sometimes the extremes of a type, and for floats numbers with long decimal expansions,
 * negative zero, the smallest subnormal, infinities and NaN (which the data format writes as {@code
 * inf} and {@code nan}).
 */
final class ValueGenerator {
  private final Choices choices;
  private final boolean edges;

  ValueGenerator(Choices choices) {
    this(choices, false);
  }

  /** With {@code edges}, half the scalars are {@link #edge} values. */
  ValueGenerator(Choices choices, boolean edges) {
    this.choices = choices;
    this.edges = edges;
  }

  Value value(Type type) {
    if (type instanceof ScalarType s) {
      return scalar(s);
    }
    if (type instanceof Type.Tuple t) {
      return new Value.Tuple(t.elements().stream().map(this::value).toList());
    }
    Type.Array array = (Type.Array) type;
    long length = SizedTypes.constant(array.size());
    List<Value> elements = new ArrayList<>();
    for (long i = 0; i < length; i++) {
      elements.add(value(array.element()));
    }
    return new Value.Array(
        array.element(), elements, Shape.of(array.element(), SizedTypes::constant));
  }

  ScalarValue scalar(ScalarType type) {
    if (edges && choices.percent(50)) {
      return edge(type);
    }
    return switch (type) {
      case BOOL -> ScalarValue.bool(choices.percent(50));
      case I32, I64 -> new ScalarValue.Int(type, integer(type));
      case F32, F64 -> new ScalarValue.Float(type, real());
    };
  }

  /**
   * A value at an edge of the scalar semantics of {@code type}: its extremes and their neighbours,
   * -1, 0, 1, shift counts about the type's width; for floats signed zeros, infinities, NaN, the
   * smallest subnormals, the largest {@code f32}, halves (rounding), and numbers just beyond the
   * integer types' ranges.
   */
  ScalarValue edge(ScalarType type) {
    return switch (type) {
      case BOOL -> ScalarValue.bool(choices.percent(50));
      case I32 ->
          ScalarValue.i32(
              choices.pick(
                  List.of(
                      Integer.MIN_VALUE,
                      Integer.MAX_VALUE,
                      Integer.MIN_VALUE + 1,
                      -1,
                      0,
                      1,
                      31,
                      32,
                      33,
                      -31,
                      -33,
                      65535)));
      case I64 ->
          ScalarValue.i64(
              choices.pick(
                  List.of(
                      Long.MIN_VALUE,
                      Long.MAX_VALUE,
                      Long.MIN_VALUE + 1,
                      -1L,
                      0L,
                      1L,
                      63L,
                      64L,
                      65L,
                      -63L,
                      (long) Integer.MIN_VALUE,
                      (long) Integer.MAX_VALUE + 1,
                      1L << 53)));
      case F32, F64 ->
          new ScalarValue.Float(
              type,
              choices.pick(
                  List.of(
                      -0.0,
                      0.0,
                      Double.NaN,
                      Double.POSITIVE_INFINITY,
                      Double.NEGATIVE_INFINITY,
                      Double.MIN_VALUE,
                      (double) Float.MIN_VALUE,
                      (double) Float.MAX_VALUE,
                      -2.5,
                      0.5,
                      -0.5,
                      2147483648.0,
                      -9.3e18,
                      1e-7)));
    };
  }

  private long integer(ScalarType type) {
    boolean wide = type == ScalarType.I64;
    return switch (choices.weighted(10, 3, 1)) {
      case 0 -> choices.between(-10, 10);
      case 1 -> choices.between(-100000, 100000) * (wide ? 1_000_003L : 1L);
      default ->
          choices.pick(
              wide
                  ? List.of(Long.MIN_VALUE, Long.MAX_VALUE, -1L, 1L << 40)
                  : List.of((long) Integer.MIN_VALUE, (long) Integer.MAX_VALUE, -1L, 65536L));
    };
  }

  private double real() {
    return switch (choices.weighted(10, 4, 1)) {
      case 0 -> choices.between(-40, 40) / 4.0;
      case 1 -> choices.between(-1_000_000, 1_000_000) / 7919.0;
      default ->
          choices.pick(
              List.of(
                  -0.0,
                  1e300,
                  -1e-300,
                  Double.MIN_VALUE,
                  0.1,
                  123456789.125,
                  Double.POSITIVE_INFINITY,
                  Double.NEGATIVE_INFINITY,
                  Double.NaN));
    };
  }
}
