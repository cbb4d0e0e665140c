package dev.l0.syntax;

import dev.l0.ir.L0CompileError;
import dev.l0.ir.ScalarType;
import dev.l0.ir.ScalarValue;
import dev.l0.ir.SourcePos;
import java.math.BigInteger;
import java.util.Locale;

/**
 * How scalar constants are written (thesis Fig. 1, k): {@code 123} (i32), {@code 123i64}, {@code
 * 1.5}, {@code 1e-3} (f64), {@code 1.5f32}, {@code true}, and, since the thesis (§2.1) writes
 * numbers as Haskell does, the integers {@code 0x1F} (hexadecimal) and {@code 0o17} (octal), which
 * may end in i32 or i64. The parser and the printer share this class so that every printed constant
 * reads back as the same value.
 */
final class LiteralSyntax {
  private static final BigInteger I32_MIN = BigInteger.valueOf(Integer.MIN_VALUE);
  private static final BigInteger I32_MAX = BigInteger.valueOf(Integer.MAX_VALUE);
  private static final BigInteger I64_MIN = BigInteger.valueOf(Long.MIN_VALUE);
  private static final BigInteger I64_MAX = BigInteger.valueOf(Long.MAX_VALUE);

  /** More digits than any i64 has: such a literal is out of range without converting it. */
  private static final int MAX_INTEGER_DIGITS = 40;

  private LiteralSyntax() {}

  /**
   * The value of a numeric token ({@link Token.Kind#NUMBER}), negated when a prefix minus was
   * applied to it; an error at {@code pos} if the suffix is unknown or the value out of range.
   */
  static ScalarValue number(String text, boolean negative, SourcePos pos) {
    int radix = radix(text, 0);
    if (radix != 10) {
      return radixInteger(text, radix, negative, pos);
    }
    int suffixStart = mantissaEnd(text, 0);
    String digits = text.substring(0, suffixStart);
    String suffix = text.substring(suffixStart);
    boolean fractional =
        digits.indexOf('.') >= 0 || digits.indexOf('e') >= 0 || digits.indexOf('E') >= 0;
    ScalarType type =
        suffix.isEmpty()
            ? (fractional ? ScalarType.F64 : ScalarType.I32)
            : suffixType(suffix, text, pos);
    if (type.isInteger()) {
      if (fractional) {
        throw new L0CompileError(
            pos,
            "the literal "
                + Excerpt.of(digits)
                + " has a fraction or exponent and cannot have the integer suffix "
                + suffix);
      }
      if (significantDigits(digits) > MAX_INTEGER_DIGITS) {
        throw new L0CompileError(
            pos,
            "the integer literal "
                + (negative ? "-" : "")
                + Excerpt.of(digits)
                + " is out of range for "
                + type);
      }
      return integer(new BigInteger(digits), negative, type, pos);
    }
    double magnitude =
        type == ScalarType.F32 ? Float.parseFloat(digits) : Double.parseDouble(digits);
    String shown = (negative ? "-" : "") + Excerpt.of(digits);
    if (Double.isInfinite(magnitude)) {
      throw outOfRange(
          pos, shown, type, "it is larger than the largest " + type + ", " + print(largest(type)));
    }
    if (magnitude == 0 && NumberDigits.nonZero(digits)) {
      throw outOfRange(
          pos,
          shown,
          type,
          "it is not zero but rounds to 0 (the smallest positive "
              + type
              + " is "
              + print(smallest(type))
              + ")");
    }
    return new ScalarValue.Float(type, negative ? -magnitude : magnitude);
  }

  /** The error of a float literal {@code shown} that {@code type} cannot hold, and {@code why}. */
  private static L0CompileError outOfRange(
      SourcePos pos, String shown, ScalarType type, String why) {
    return new L0CompileError(
        pos, "the literal " + shown + " is out of range for " + type + ": " + why);
  }

  /**
   * A hexadecimal or octal integer: its digits after the {@code 0x} or {@code 0o}, then an optional
   * i32 or i64 suffix; its value must fit its type as a decimal literal's must.
   */
  private static ScalarValue radixInteger(String text, int radix, boolean negative, SourcePos pos) {
    int suffixStart = mantissaEnd(text, 0);
    String digits = text.substring(2, suffixStart);
    String suffix = text.substring(suffixStart);
    String name = radix == 16 ? "hexadecimal" : "octal";
    if (digits.isEmpty()) {
      throw badRadixLiteral(
          text, "a " + name + " literal needs digits after '" + text.substring(0, 2) + "'", pos);
    }
    if (radix == 8 && !suffix.isEmpty() && isDigit(suffix.charAt(0))) {
      throw badRadixLiteral(text, "an octal literal has digits 0 to 7 only", pos);
    }
    ScalarType type =
        switch (suffix) {
          case "", "i32" -> ScalarType.I32;
          case "i64" -> ScalarType.I64;
          default ->
              throw badRadixLiteral(
                  text, "a hexadecimal or octal literal may end in i32 or i64 only", pos);
        };
    if (significantDigits(digits) > MAX_INTEGER_DIGITS) {
      throw new L0CompileError(
          pos, "the integer literal " + Excerpt.of(text) + " is out of range for " + type);
    }
    return integer(new BigInteger(digits, radix), negative, type, pos);
  }

  private static L0CompileError badRadixLiteral(String text, String why, SourcePos pos) {
    return new L0CompileError(pos, "bad numeric literal '" + Excerpt.of(text) + "': " + why);
  }

  /**
   * 16 where the number at {@code start} begins {@code 0x} or {@code 0X}, 8 where it begins {@code
   * 0o} or {@code 0O}, else 10.
   */
  private static int radix(CharSequence text, int start) {
    if (start + 1 >= text.length() || text.charAt(start) != '0') {
      return 10;
    }
    return switch (text.charAt(start + 1)) {
      case 'x', 'X' -> 16;
      case 'o', 'O' -> 8;
      default -> 10;
    };
  }

  /** Boolean keywords: the thesis's {@code True}/{@code False} and {@code true}/{@code false}. */
  static boolean isBoolean(String word) {
    return word.equals("true")
        || word.equals("false")
        || word.equals("True")
        || word.equals("False");
  }

  /**
   * The L0 text of a constant. Negative numbers begin with {@code -}; non-finite floats, which have
   * no literal, print as the division that yields them.
   */
  static String print(ScalarValue value) {
    if (value instanceof ScalarValue.Bool b) {
      return b.value() ? "true" : "false";
    }
    if (value instanceof ScalarValue.Int i) {
      return i.type() == ScalarType.I32 ? Long.toString(i.value()) : i.value() + "i64";
    }
    ScalarValue.Float f = (ScalarValue.Float) value;
    String suffix = f.type() == ScalarType.F32 ? "f32" : "";
    if (Double.isNaN(f.value())) {
      return "(0.0" + suffix + " / 0.0" + suffix + ")";
    }
    if (Double.isInfinite(f.value())) {
      return "(" + (f.value() < 0 ? "-" : "") + "1.0" + suffix + " / 0.0" + suffix + ")";
    }
    String digits =
        f.type() == ScalarType.F32 ? Float.toString((float) f.value()) : Double.toString(f.value());
    return digits.toLowerCase(Locale.ROOT) + suffix;
  }

  private static ScalarValue largest(ScalarType type) {
    return new ScalarValue.Float(type, type == ScalarType.F32 ? Float.MAX_VALUE : Double.MAX_VALUE);
  }

  private static ScalarValue smallest(ScalarType type) {
    return new ScalarValue.Float(type, type == ScalarType.F32 ? Float.MIN_VALUE : Double.MIN_VALUE);
  }

  private static int significantDigits(String digits) {
    int leadingZeros = 0;
    while (leadingZeros < digits.length() - 1 && digits.charAt(leadingZeros) == '0') {
      leadingZeros++;
    }
    return digits.length() - leadingZeros;
  }

  private static ScalarValue integer(
      BigInteger magnitude, boolean negative, ScalarType type, SourcePos pos) {
    BigInteger value = negative ? magnitude.negate() : magnitude;
    boolean i32 = type == ScalarType.I32;
    if (value.compareTo(i32 ? I32_MIN : I64_MIN) < 0
        || value.compareTo(i32 ? I32_MAX : I64_MAX) > 0) {
      String shown = Excerpt.of(value.toString());
      String hint =
          i32 && value.bitLength() < 64 ? " (write " + shown + "i64 for a 64-bit integer)" : "";
      throw new L0CompileError(
          pos, "the integer literal " + shown + " is out of range for " + type + hint);
    }
    return new ScalarValue.Int(type, value.longValue());
  }

  /**
   * Where the digits, fraction ({@code .5}) and exponent ({@code e-3}) of a number that begins at
   * {@code start} end (for a hexadecimal or octal number: its prefix and digits); a suffix may
   * follow. The lexer and {@link #number} both split numbers here.
   */
  static int mantissaEnd(CharSequence text, int start) {
    int radix = radix(text, start);
    if (radix != 10) {
      int end = start + 2;
      while (end < text.length() && isDigit(text.charAt(end), radix)) {
        end++;
      }
      return end;
    }
    int end = digitsEnd(text, start);
    if (end + 1 < text.length() && text.charAt(end) == '.' && isDigit(text.charAt(end + 1))) {
      end = digitsEnd(text, end + 1);
    }
    if (end < text.length() && (text.charAt(end) == 'e' || text.charAt(end) == 'E')) {
      int exponent = end + 1;
      if (exponent < text.length()
          && (text.charAt(exponent) == '+' || text.charAt(exponent) == '-')) {
        exponent++;
      }
      if (exponent < text.length() && isDigit(text.charAt(exponent))) {
        end = digitsEnd(text, exponent);
      }
    }
    return end;
  }

  static boolean isDigit(char c) {
    return c >= '0' && c <= '9';
  }

  /** An ASCII digit of the radix (16: also {@code a-f}, {@code A-F}). */
  private static boolean isDigit(char c, int radix) {
    return c < 128 && Character.digit(c, radix) >= 0;
  }

  private static int digitsEnd(CharSequence text, int start) {
    int end = start;
    while (end < text.length() && isDigit(text.charAt(end))) {
      end++;
    }
    return end;
  }

  private static ScalarType suffixType(String suffix, String text, SourcePos pos) {
    return switch (suffix) {
      case "i32" -> ScalarType.I32;
      case "i64" -> ScalarType.I64;
      case "f32" -> ScalarType.F32;
      case "f64" -> ScalarType.F64;
      case "e", "E" ->
          throw new L0CompileError(
              pos,
              "bad numeric literal '"
                  + Excerpt.of(text)
                  + "': an exponent needs digits after '"
                  + suffix
                  + "', as in 1e3 or 1e-3");
      default ->
          throw new L0CompileError(
              pos,
              "bad numeric literal '"
                  + Excerpt.of(text)
                  + "': a number may end in i32, i64, f32 or f64 only (put a space between a number and a name)");
    };
  }
}
