package dev.l0.ir;

import java.util.Map;
import java.util.Optional;

/**
 * Built-in functions, called like top-level functions ({@code exp(x)}, {@code f64(n)}). A program's
 * own function of the same name hides the built-in (the thesis's P0 defines its own {@code abs}).
 * Math functions take and return one float type; they are computed as {@code StrictMath} does
 * (ARCHITECTURE.md, "Kernels"). Conversions take any numeric type.
 */
public enum Builtin {
  EXP("exp", 1, Kind.FLOAT_MATH),
  LOG("log", 1, Kind.FLOAT_MATH),
  SQRT("sqrt", 1, Kind.FLOAT_MATH),
  SIN("sin", 1, Kind.FLOAT_MATH),
  COS("cos", 1, Kind.FLOAT_MATH),
  ERF("erf", 1, Kind.FLOAT_MATH),
  FLOOR("floor", 1, Kind.FLOAT_MATH),
  ABS("abs", 1, Kind.NUMERIC),
  MIN("min", 2, Kind.NUMERIC),
  MAX("max", 2, Kind.NUMERIC),
  TO_I32("i32", 1, Kind.CONVERSION),
  TO_I64("i64", 1, Kind.CONVERSION),
  TO_F32("f32", 1, Kind.CONVERSION),
  TO_F64("f64", 1, Kind.CONVERSION);

  /** How a built-in is typed. */
  public enum Kind {
    /** {@code f32 -> f32} or {@code f64 -> f64} */
    FLOAT_MATH,
    /** arguments and result of one numeric type */
    NUMERIC,
    /** any numeric type to the target type; floats to integers truncate toward zero */
    CONVERSION
  }

  /**
   * Other names a program may use: the thesis's {@code toReal}/{@code trunc} and the type names
   * {@code int}/{@code real}.
   */
  private static final Map<String, Builtin> ALIASES =
      Map.of("toReal", TO_F64, "real", TO_F64, "trunc", TO_I32, "int", TO_I32);

  private final String name;
  private final int arity;
  private final Kind kind;

  Builtin(String name, int arity, Kind kind) {
    this.name = name;
    this.arity = arity;
    this.kind = kind;
  }

  public String functionName() {
    return name;
  }

  public int arity() {
    return arity;
  }

  public Kind kind() {
    return kind;
  }

  /** The type a conversion produces. */
  public ScalarType conversionTarget() {
    return switch (this) {
      case TO_I32 -> ScalarType.I32;
      case TO_I64 -> ScalarType.I64;
      case TO_F32 -> ScalarType.F32;
      case TO_F64 -> ScalarType.F64;
      default -> throw new IllegalStateException(this + " is not a conversion");
    };
  }

  public static Optional<Builtin> byName(String name) {
    for (Builtin b : values()) {
      if (b.name.equals(name)) {
        return Optional.of(b);
      }
    }
    return Optional.ofNullable(ALIASES.get(name));
  }
}
