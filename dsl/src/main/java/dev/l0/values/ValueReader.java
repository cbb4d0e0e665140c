package dev.l0.values;

import dev.l0.ir.ScalarType;
import dev.l0.ir.ScalarValue;
import dev.l0.ir.Shape;
import dev.l0.ir.Type;
import dev.l0.ir.Value;
import dev.l0.syntax.Article;
import dev.l0.syntax.L0Printer;
import dev.l0.syntax.NumberDigits;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Reads values in the data format of shared/data/README.md, section 1, one per expected type:
 * numbers (optionally with a type suffix {@code i32 i64 f32 f64}, which must agree with the type; a
 * decimal point has digits on both sides, as in program text: {@code 1.0}, {@code 0.5}), {@code
 * true}/{@code false} (also {@code True}/{@code False}), {@code inf}, {@code -inf}, {@code nan},
 * tuples <code>{a, b}</code> and arrays {@code [a, b]} (regular, of the type's rank; {@code []} is
 * an empty array of whatever the type says, with every inner size 0). An empty array with inner
 * sizes is written with its shape, as Futhark's value format does: {@code empty([0][3]i32)} has no
 * rows of 3 columns, {@code empty([2][0]f64)} two empty rows, and tuples give the shapes of their
 * components: <code>empty([0]{[3]i32, f64})</code>. The shape must describe an array without
 * elements (a 0 in a dimension outside every tuple). An integer is read where a float is expected;
 * a real where an integer is expected is an error. After the last value only blanks and comments
 * may follow. Errors are {@link ValueFormatError}s naming the position, the argument and what was
 * found.
 */
public final class ValueReader {
  private static final Pattern INTEGER = Pattern.compile("(-?[0-9]+)(i32|i64|f32|f64)?");
  private static final Pattern REAL =
      Pattern.compile("(-?[0-9]+(?:\\.[0-9]+)?(?:[eE][-+]?[0-9]+)?|-?inf|nan)(f32|f64)?");

  /**
   * A number with a decimal point, split into its sign, integer digits, fraction digits, and
   * exponent and suffix: to tell one whose point lacks digits on one side ({@code 1.}, {@code .5},
   * which L0 program text rejects as well) and say how to write it.
   */
  private static final Pattern BARE_POINT =
      Pattern.compile("(-?)([0-9]*)\\.([0-9]*)((?:[eE][-+]?[0-9]+)?(?:f32|f64)?)");

  /**
   * A NaN or an infinity spelled another way than this format's {@code nan}, {@code inf} and {@code
   * -inf}: as Java prints them ({@code NaN}, {@code Infinity}), in another case, or signed.
   */
  private static final Pattern OTHER_SPECIAL =
      Pattern.compile("[-+]?(?:nan|inf(?:inity)?)(?:f32|f64)?", Pattern.CASE_INSENSITIVE);

  private static final String EMPTY = "empty";

  private final List<ValueLexer.Token> tokens;
  private int next;
  private int argument;
  private Type argumentType;

  private ValueReader(List<ValueLexer.Token> tokens) {
    this.tokens = tokens;
  }

  /** Reads {@code types.size()} values from {@code text}, the i-th of type {@code types.get(i)}. */
  public static List<Value> read(String text, List<Type> types, String sourceName) {
    ValueReader reader = new ValueReader(ValueLexer.tokenize(text, sourceName));
    List<Value> values = new ArrayList<>();
    for (int i = 0; i < types.size(); i++) {
      reader.argument = i + 1;
      reader.argumentType = types.get(i);
      values.add(reader.value(types.get(i)));
    }
    ValueLexer.Token rest = reader.peek();
    if (!rest.isEnd()) {
      throw new ValueFormatError(
          rest.pos(),
          "expected the end of input after "
              + types.size()
              + " value(s), found "
              + rest.describe());
    }
    return values;
  }

  private ValueLexer.Token peek() {
    return tokens.get(next);
  }

  private ValueLexer.Token take() {
    ValueLexer.Token t = tokens.get(next);
    if (!t.isEnd()) {
      next++;
    }
    return t;
  }

  private ValueFormatError expected(String what, ValueLexer.Token found) {
    return expected(what, found, "");
  }

  /** {@link #expected(String, ValueLexer.Token)} followed by {@code advice}. */
  private ValueFormatError expected(String what, ValueLexer.Token found, String advice) {
    return new ValueFormatError(
        found.pos(),
        "expected "
            + what
            + " for argument "
            + argument
            + " (type "
            + L0Printer.print(argumentType)
            + "), found "
            + found.describe()
            + advice);
  }

  private void expect(String punctuation) {
    ValueLexer.Token t = take();
    if (!t.is(punctuation)) {
      throw expected("'" + punctuation + "'", t);
    }
  }

  private Value value(Type type) {
    if (type instanceof Type.Array a) {
      return array(a);
    }
    if (type instanceof Type.Tuple t) {
      return tuple(t);
    }
    return scalar((ScalarType) type);
  }

  private Value array(Type.Array type) {
    ValueLexer.Token open = peek();
    if (open.is(EMPTY)) {
      return empty(type);
    }
    if (!open.is("[")) {
      throw expected("an array " + L0Printer.print(type), open);
    }
    take();
    List<Value> elements = new ArrayList<>();
    if (peek().is("]")) {
      take();
      return new Value.Array(type.element(), elements);
    }
    elements.add(value(type.element()));
    while (peek().is(",")) {
      take();
      elements.add(value(type.element()));
    }
    ValueLexer.Token close = take();
    if (!close.is("]")) {
      throw expected("',' or ']'", close);
    }
    int irregular = Shape.firstIrregular(elements);
    if (irregular >= 0) {
      throw new ValueFormatError(
          open.pos(),
          "irregular array for argument "
              + argument
              + ": element "
              + irregular
              + " has shape "
              + Shape.of(elements.get(irregular))
              + " but element 0 has shape "
              + Shape.of(elements.get(0)));
    }
    return new Value.Array(type.element(), elements);
  }

  /** {@code empty(SHAPE)}: an array without elements, of the shape written in the type's syntax. */
  private Value empty(Type.Array type) {
    ValueLexer.Token start = take();
    expect("(");
    Shape shape = shape(type);
    expect(")");
    Value v = emptyValue(shape, type);
    if (v == null) {
      throw new ValueFormatError(
          start.pos(),
          "empty("
              + ValueWriter.shapedType(shape, type)
              + ") for argument "
              + argument
              + " describes an array with elements: one of its dimensions outside tuples must be 0");
    }
    return v;
  }

  /**
   * The shape of a value of {@code type} written as in {@code empty(...)}: sizes in brackets, then
   * the element type.
   */
  private Shape shape(Type type) {
    if (type instanceof Type.Array a) {
      expect("[");
      ValueLexer.Token size = take();
      if (size.isEnd()
          || !size.text().matches("[0-9]{1,10}")
          || Long.parseLong(size.text()) > Integer.MAX_VALUE) {
        throw expected("an array size", size);
      }
      expect("]");
      return new Shape.Array(Integer.parseInt(size.text()), shape(a.element()));
    }
    if (type instanceof Type.Tuple t) {
      expect("{");
      List<Shape> elements = new ArrayList<>();
      for (int i = 0; i < t.elements().size(); i++) {
        if (i > 0) {
          expect(",");
        }
        elements.add(shape(t.elements().get(i)));
      }
      expect("}");
      return new Shape.Tuple(elements);
    }
    String keyword = ((ScalarType) type).keyword();
    ValueLexer.Token found = take();
    if (!found.is(keyword)) {
      throw expected("'" + keyword + "'", found);
    }
    return Shape.SCALAR;
  }

  /** The array of {@code shape} without elements, or null if the shape has elements. */
  private static Value emptyValue(Shape shape, Type type) {
    if (!(shape instanceof Shape.Array a)) {
      return null;
    }
    Type element = ((Type.Array) type).element();
    if (a.length() == 0) {
      return Value.Array.empty(element, a.element());
    }
    Value row = emptyValue(a.element(), element);
    return row == null ? null : new Value.Array(element, Collections.nCopies(a.length(), row));
  }

  private Value tuple(Type.Tuple type) {
    expect("{");
    List<Value> elements = new ArrayList<>();
    for (int i = 0; i < type.elements().size(); i++) {
      if (i > 0) {
        expect(",");
      }
      elements.add(value(type.elements().get(i)));
    }
    expect("}");
    return new Value.Tuple(elements);
  }

  private Value scalar(ScalarType type) {
    ValueLexer.Token t = take();
    String what = Article.before(type.keyword());
    String text = t.isEnd() ? "" : t.text();
    switch (type) {
      case BOOL:
        if (text.equals("true") || text.equals("True")) {
          return ScalarValue.bool(true);
        }
        if (text.equals("false") || text.equals("False")) {
          return ScalarValue.bool(false);
        }
        throw expected(what, t);
      case I32:
      case I64:
        return integer(type, text, what, t);
      default:
        return real(type, text, what, t);
    }
  }

  private Value integer(ScalarType type, String text, String what, ValueLexer.Token t) {
    Matcher m = INTEGER.matcher(text);
    if (!m.matches() || !suffixFits(m.group(2), type)) {
      throw expected(what, t);
    }
    long v;
    try {
      v = Long.parseLong(m.group(1));
    } catch (NumberFormatException tooLarge) {
      throw expected(what + " (out of range)", t);
    }
    if (type == ScalarType.I32 && (int) v != v) {
      throw expected(what + " (out of range)", t);
    }
    return new ScalarValue.Int(type, v);
  }

  private Value real(ScalarType type, String text, String what, ValueLexer.Token t) {
    Matcher m = REAL.matcher(text);
    if (!m.matches() || !suffixFits(m.group(2), type)) {
      throw expected(what, t, m.matches() ? "" : advice(text));
    }
    String number = m.group(1).replace("inf", "Infinity").replace("nan", "NaN");
    // An f32 is parsed as a float directly: rounding through double first could round twice.
    ScalarValue value =
        type == ScalarType.F32
            ? ScalarValue.f32(Float.parseFloat(number))
            : ScalarValue.f64(Double.parseDouble(number));
    double read = ((ScalarValue.Float) value).value();
    if (!number.contains("Infinity") && Double.isInfinite(read)
        || read == 0 && NumberDigits.nonZero(number)) {
      // a number beyond the type's range, either way, as a literal of the program is refused:
      // only inf is inf, and only a zero is 0
      throw expected(what + " (out of range)", t);
    }
    return value;
  }

  /**
   * For a number with a bare decimal point ({@link #BARE_POINT}), how to write it: {@code ": a
   * decimal number needs digits on both sides of '.' (write 1.0)"}; for a NaN or an infinity
   * spelled another way ({@link #OTHER_SPECIAL}), how this format spells them; else empty.
   */
  private static String advice(String text) {
    if (OTHER_SPECIAL.matcher(text).matches()) {
      return ": a NaN is written nan and an infinity inf or -inf";
    }
    Matcher m = BARE_POINT.matcher(text);
    boolean digitsOnOneSideOnly = m.matches() && m.group(2).isEmpty() != m.group(3).isEmpty();
    if (!digitsOnOneSideOnly) {
      return "";
    }
    String written =
        m.group(1)
            + (m.group(2).isEmpty() ? "0" : m.group(2))
            + "."
            + (m.group(3).isEmpty() ? "0" : m.group(3))
            + m.group(4);
    return ": a decimal number needs digits on both sides of '.' (write " + written + ")";
  }

  private static boolean suffixFits(String suffix, ScalarType type) {
    return suffix == null || suffix.equals(type.keyword());
  }
}
