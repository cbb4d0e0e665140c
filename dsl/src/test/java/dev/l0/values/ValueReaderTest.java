package dev.l0.values;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.l0.ir.L0CompileError;
import dev.l0.ir.ScalarType;
import dev.l0.ir.ScalarValue;
import dev.l0.ir.Shape;
import dev.l0.ir.SourcePos;
import dev.l0.ir.Type;
import dev.l0.ir.Value;
import dev.l0.syntax.L0Parser;
import dev.l0.testing.ReferenceData;
import java.util.List;
import org.junit.jupiter.api.Test;

class ValueReaderTest {
  private static final Type I32 = ScalarType.I32;
  private static final Type I64 = ScalarType.I64;
  private static final Type F32 = ScalarType.F32;
  private static final Type F64 = ScalarType.F64;
  private static final Type BOOL = ScalarType.BOOL;

  private static Type arrayOf(Type element, int rank) {
    return rank == 0 ? element : Type.array(arrayOf(element, rank - 1));
  }

  private static List<Value> read(String text, Type... types) {
    return ValueReader.read(text, List.of(types), "in.data");
  }

  private static Value readOne(String text, Type type) {
    return read(text, type).get(0);
  }

  private static ValueFormatError error(String text, Type... types) {
    return assertThrows(ValueFormatError.class, () -> read(text, types));
  }

  @Test
  void readsScalarsOfEveryType() {
    assertEquals(
        List.of(
            ScalarValue.i32(-7),
            ScalarValue.i64(1L << 40),
            ScalarValue.f64(2.5),
            ScalarValue.f32(0.1f),
            ScalarValue.bool(true),
            ScalarValue.bool(false)),
        read("-7 1099511627776 2.5 0.1 True false", I32, I64, F64, F32, BOOL, BOOL));
  }

  @Test
  void readsSuffixesThatAgreeWithTheType() {
    assertEquals(
        List.of(ScalarValue.i32(3), ScalarValue.i64(4), ScalarValue.f32(0.03f), ScalarValue.f64(5)),
        read("3i32 4i64 0.03f32 5f64", I32, I64, F32, F64));
  }

  @Test
  void aLoneCarriageReturnEndsACommentAndALine() {
    assertEquals(
        List.of(ScalarValue.i32(1), ScalarValue.i32(2)), read("1 // first\r2\r", I32, I32));
    ValueFormatError e =
        assertThrows(ValueFormatError.class, () -> read("1\r\n2\r x", I32, I32, I32));
    assertEquals(
        "in.data:3:2: expected an i32 for argument 3 (type i32), found 'x'", e.getMessage());
  }

  @Test
  void readsAnIntegerWhereAFloatIsExpected() {
    assertEquals(ScalarValue.f64(3.0), readOne("3", F64));
    assertEquals(ScalarValue.f32(16777217f), readOne("16777217", F32));
  }

  @Test
  void readsSinglePrecisionWithoutDoubleRounding() {
    // 1 + 2^-24 + 2^-60 rounds up to 1 + 2^-23 as a float, but via double first it would tie-round
    // down to 1.
    assertEquals(ScalarValue.f32(1.0000001f), readOne("1.000000059604644776262474310389", F32));
  }

  @Test
  void readsNonFiniteFloats() {
    assertEquals(
        List.of(
            ScalarValue.f64(Double.POSITIVE_INFINITY),
            ScalarValue.f64(Double.NEGATIVE_INFINITY),
            ScalarValue.f64(Double.NaN),
            ScalarValue.f32(Float.NEGATIVE_INFINITY)),
        read("inf -inf nan -inff32", F64, F64, F64, F32));
  }

  @Test
  void readsNestedArraysAndTuples() {
    Type pair = Type.tuple(I32, arrayOf(F64, 1));
    Value v = readOne("[{1, [1.5, 2]}, {2, [3, -0.5]}]", Type.array(pair));
    assertEquals(
        new Value.Array(
            pair,
            List.of(
                new Value.Tuple(
                    List.of(
                        ScalarValue.i32(1),
                        new Value.Array(F64, List.of(ScalarValue.f64(1.5), ScalarValue.f64(2.0))))),
                new Value.Tuple(
                    List.of(
                        ScalarValue.i32(2),
                        new Value.Array(
                            F64, List.of(ScalarValue.f64(3.0), ScalarValue.f64(-0.5))))))),
        v);
    assertEquals(new Value.Array(F64, List.of()), readOne("[ ]", arrayOf(F64, 1)));
  }

  @Test
  void readsFinParsEmptyInnerArray() {
    Value.Array v = (Value.Array) readOne("[[  ]]", arrayOf(F64, 2));
    assertEquals(1, v.length());
    assertEquals(new Value.Array(F64, List.of()), v.get(0));
  }

  @Test
  void skipsLineComments() {
    assertEquals(
        List.of(ScalarValue.i32(1), ScalarValue.i32(2), ScalarValue.i32(3)),
        read("1 // one\n2//two\n// three follows\n3 // the end", I32, I32, I32));
  }

  @Test
  void aSlashThatIsNotACommentIsAnErrorAtItsPosition() {
    ValueFormatError e = error("1/3", F64);
    assertEquals(new SourcePos("in.data", 1, 2), e.pos());
    assertEquals(
        "in.data:1:2: '/' is not part of a value (a comment starts with //)", e.getMessage());
    assertEquals(new SourcePos("in.data", 2, 3), error("1\n2 / 3", I32, I32).pos());
  }

  @Test
  void aDoubleMinusIsNotACommentButAnError() {
    ValueFormatError e = error("7 --8", I32);
    assertEquals(new SourcePos("in.data", 1, 3), e.pos());
    assertEquals(
        "in.data:1:3: '--' is not part of a value (a comment starts with //)", e.getMessage());
    assertEquals(new SourcePos("in.data", 1, 2), error("1--2", I32).pos());
    assertEquals(
        List.of(ScalarValue.f64(-1e-5), ScalarValue.f64(Double.NEGATIVE_INFINITY)),
        read("-1e-5 -inf", F64, F64));
  }

  @Test
  void aHugeBadTokenIsQuotedCut() {
    String token = "x".repeat(10_000_000);
    ValueFormatError e = error(token, I32);
    assertEquals(
        "in.data:1:1: expected an i32 for argument 1 (type i32), found '"
            + "x".repeat(60)
            + "... (10000000 characters)'",
        e.getMessage());
  }

  @Test
  void reportsARealWhereAnIntegerIsExpected() {
    ValueFormatError e = error("1 [2,\n 3.5]", I32, arrayOf(I32, 1));
    assertEquals(new SourcePos("in.data", 2, 2), e.pos());
    assertEquals(
        "in.data:2:2: expected an i32 for argument 2 (type [i32]), found '3.5'", e.getMessage());
  }

  @Test
  void aDecimalPointNeedsDigitsOnBothSidesAsInProgramText() {
    for (String bad : List.of("1.", ".5")) {
      assertThrows(L0CompileError.class, () -> L0Parser.parseExpression(bad, "p.l0"), bad);
    }
    assertEquals(
        "in.data:1:7: expected an f64 for argument 1 (type [f64]), found '1.': a decimal number"
            + " needs digits on both sides of '.' (write 1.0)",
        error("[0.5, 1.]", arrayOf(F64, 1)).getMessage());
    assertEquals(
        "in.data:2:1: expected an f64 for argument 2 (type f64), found '.5': a decimal number"
            + " needs digits on both sides of '.' (write 0.5)",
        error("1.0\n.5", F64, F64).getMessage());
    assertEquals("write -0.5f32", hint(error("-.5f32", F32).detail()));
    assertEquals("write 2.0e3", hint(error("2.e3", F64).detail()));
    assertEquals(
        List.of(ScalarValue.f64(1.0), ScalarValue.f64(0.5), ScalarValue.f64(-500.0)),
        read("1.0 0.5 -0.5e3", F64, F64, F64));
  }

  @Test
  void aNaNOrAnInfinitySpelledAsJavaOrPythonDoesSaysHowTheFormatSpellsIt() {
    assertEquals(
        "in.data:1:7: expected an f64 for argument 1 (type [f64]), found 'NaN': a NaN is written"
            + " nan and an infinity inf or -inf",
        error("[1.0, NaN]", arrayOf(F64, 1)).getMessage());
    for (String bad : List.of("Infinity", "-Infinity", "+inf", "-nan", "INF", "NaNf32")) {
      assertTrue(
          error(bad, F32)
              .getMessage()
              .endsWith(": a NaN is written nan and an infinity inf or -inf"),
          bad);
    }
    assertEquals(
        "in.data:1:1: expected an f64 for argument 1 (type f64), found 'nanx'",
        error("nanx", F64).getMessage());
  }

  /**
   * A NaN or an infinity spelled as the format spells it, with the other float type's suffix, is
   * refused for its suffix, as any number is, without advice on how to spell it.
   */
  @Test
  void aNaNOrAnInfinityWithTheOtherTypesSuffixGetsNoSpellingAdvice() {
    assertEquals(
        "in.data:1:1: expected an f32 for argument 1 (type f32), found 'inff64'",
        error("inff64", F32).getMessage());
    assertEquals(
        "in.data:1:1: expected an f64 for argument 1 (type f64), found 'nanf32'",
        error("nanf32", F64).getMessage());
  }

  /** The advice in parentheses at the end of an error's detail. */
  private static String hint(String detail) {
    return detail.substring(detail.lastIndexOf('(') + 1, detail.length() - 1);
  }

  @Test
  void reportsAWrongRank() {
    assertEquals(
        "in.data:1:2: expected an f64 for argument 1 (type [f64]), found '['",
        error("[[1.0]]", arrayOf(F64, 1)).getMessage());
    assertEquals(
        "in.data:1:1: expected an array [[f64]] for argument 1 (type [[f64]]), found '1.0'",
        error("1.0", arrayOf(F64, 2)).getMessage());
  }

  @Test
  void reportsAMissingElement() {
    assertEquals(
        "in.data:1:11: expected an f64 for argument 2 (type [f64]), found ']'",
        error("1.0 [1.0, ]", F64, arrayOf(F64, 1)).getMessage());
  }

  @Test
  void reportsTheEndOfInputWhenValuesRunOut() {
    assertEquals(
        "in.data:2:1: expected an i32 for argument 2 (type i32), found end of input",
        error("1\n", I32, I32).getMessage());
  }

  @Test
  void reportsSuffixesThatDisagreeWithTheType() {
    assertEquals(
        "in.data:1:1: expected an f64 for argument 1 (type f64), found '3i32'",
        error("3i32", F64).getMessage());
    assertEquals(
        "in.data:1:1: expected an i32 for argument 1 (type i32), found '3i64'",
        error("3i64", I32).getMessage());
    assertEquals(
        "in.data:1:1: expected an f32 for argument 1 (type f32), found '1.0f64'",
        error("1.0f64", F32).getMessage());
    assertEquals(
        "in.data:1:1: expected an i64 for argument 1 (type i64), found '1.0'",
        error("1.0", I64).getMessage());
    assertEquals(
        "in.data:1:1: expected a bool for argument 1 (type bool), found '1'",
        error("1", BOOL).getMessage());
  }

  @Test
  void reportsIntegersOutOfRange() {
    assertEquals(
        "in.data:1:1: expected an i32 (out of range) for argument 1 (type i32), found '2147483648'",
        error("2147483648", I32).getMessage());
    assertEquals(ScalarValue.i32(Integer.MIN_VALUE), readOne("-2147483648", I32));
    error("9223372036854775808", I64);
  }

  @Test
  void reportsRealsBeyondTheirTypesRangeWhereOnlyInfIsInfinite() {
    assertEquals(
        "in.data:1:1: expected an f64 (out of range) for argument 1 (type f64), found '1e400'",
        error("1e400", F64).getMessage());
    assertEquals(
        "in.data:1:1: expected an f32 (out of range) for argument 1 (type f32), found '-1e40'",
        error("-1e40", F32).getMessage());
    // the largest finite values and inf itself read as they are
    assertEquals(ScalarValue.f64(Double.MAX_VALUE), readOne("1.7976931348623157e308", F64));
    assertEquals(ScalarValue.f32(Float.MAX_VALUE), readOne("3.4028235e38", F32));
    assertEquals(ScalarValue.f64(Double.NEGATIVE_INFINITY), readOne("-inf", F64));
    // a number that is not zero but rounds to 0 is beyond the range downwards, as a program's
    // literal is (it read as 0.0); zeros in any form, and the smallest subnormals, still read
    assertEquals(
        "in.data:1:1: expected an f64 (out of range) for argument 1 (type f64), found '1e-400'",
        error("1e-400", F64).getMessage());
    assertEquals(
        "in.data:1:1: expected an f32 (out of range) for argument 1 (type f32), found '-7e-46'",
        error("-7e-46", F32).getMessage());
    assertEquals(ScalarValue.f64(0.0), readOne("0.000e-400", F64));
    assertEquals(ScalarValue.f64(-0.0), readOne("-0e5", F64));
    assertEquals(ScalarValue.f64(Double.MIN_VALUE), readOne("4.9e-324", F64));
    assertEquals(ScalarValue.f32(Float.MIN_VALUE), readOne("1.4e-45", F32));
  }

  @Test
  void reportsIrregularArrays() {
    assertEquals(
        "in.data:1:1: irregular array for argument 1: element 1 has shape [1] but element 0 has shape [2]",
        error("[[1, 2], [3]]", arrayOf(I32, 2)).getMessage());
    // regularity reaches through tuples (thesis §2.3.2)
    error("[{[1], 1.0}, {[2, 3], 2.0}]", Type.array(Type.tuple(arrayOf(I32, 1), F64)));
  }

  @Test
  void reportsTrailingText() {
    assertEquals(
        "in.data:1:3: expected the end of input after 1 value(s), found '2'",
        error("1 2 // x", I32).getMessage());
  }

  @Test
  void reportsBadBooleansAndPunctuation() {
    assertEquals(
        "in.data:1:1: expected a bool for argument 1 (type bool), found 'TRUE'",
        error("TRUE", BOOL).getMessage());
    assertEquals(
        "in.data:1:4: expected ',' or ']' for argument 1 (type [i32]), found '2'",
        error("[1 2]", arrayOf(I32, 1)).getMessage());
    assertEquals(
        "in.data:1:3: expected ',' for argument 1 (type {i32, i32}), found '}'",
        error("{1}", Type.tuple(I32, I32)).getMessage());
  }

  @Test
  void readsTheOptionPricingSmallDataset() {
    List<Type> types =
        List.of(
            I32,
            I32,
            I32,
            I32,
            I32,
            I32,
            arrayOf(I32, 2),
            arrayOf(F64, 3),
            arrayOf(F64, 3),
            arrayOf(F64, 3),
            arrayOf(F64, 2),
            arrayOf(F64, 2),
            arrayOf(F64, 2),
            arrayOf(I32, 2),
            arrayOf(F64, 2));
    List<Value> values =
        ValueReader.read(
            ReferenceData.read("finpar/OptionPricing/small/input.data"), types, "input.data");
    assertEquals(ScalarValue.i32(1), values.get(0));
    assertEquals(ScalarValue.i32(8388608), values.get(1));
    assertEquals(ScalarValue.i32(30), values.get(5));
    Value.Array directions = (Value.Array) values.get(6);
    assertEquals(Shape.of(directions).toString(), "[1][30]");
    assertEquals(ScalarValue.i32(536870912), ((Value.Array) directions.get(0)).get(0));
    assertEquals(ScalarValue.i32(1), ((Value.Array) directions.get(0)).get(29));
    assertEquals("[1][1][1]", Shape.of(values.get(7)).toString());
    assertEquals(
        ScalarValue.f64(3758.0500000000001819),
        ((Value.Array) ((Value.Array) values.get(10)).get(0)).get(0));
    assertEquals("[3][1]", Shape.of(values.get(13)).toString());
    assertEquals(
        ScalarValue.f64(0.9889803798765787),
        ((Value.Array) ((Value.Array) values.get(14)).get(0)).get(0));
  }

  @Test
  void readsTheOptionPricingMediumDatasetWithItsEmptyDetvals() {
    List<Type> types =
        List.of(
            I32,
            I32,
            I32,
            I32,
            I32,
            I32,
            arrayOf(I32, 2),
            arrayOf(F64, 3),
            arrayOf(F64, 3),
            arrayOf(F64, 3),
            arrayOf(F64, 2),
            arrayOf(F64, 2),
            arrayOf(F64, 2),
            arrayOf(I32, 2),
            arrayOf(F64, 2));
    List<Value> values =
        ValueReader.read(
            ReferenceData.read("finpar/OptionPricing/medium/input.data"), types, "input.data");
    assertEquals("[15][30]", Shape.of(values.get(6)).toString());
    assertEquals("[1][3][3]", Shape.of(values.get(7)).toString());
    assertEquals("[1][5][3]", Shape.of(values.get(8)).toString());
    assertEquals("[1][0]", Shape.of(values.get(11)).toString());
    assertEquals("[1][5]", Shape.of(values.get(12)).toString());
    assertEquals("[3][5]", Shape.of(values.get(14)).toString());
  }

  @Test
  void readsTheLocVolCalibSmallDataset() {
    List<Value> values =
        ValueReader.read(
            ReferenceData.read("finpar/LocVolCalib/small/input.data"),
            List.of(I32, I32, I32, I32, F64, F64, F64, F64, F64),
            "input.data");
    assertEquals(
        List.of(
            ScalarValue.i32(16),
            ScalarValue.i32(32),
            ScalarValue.i32(256),
            ScalarValue.i32(256),
            ScalarValue.f64(0.03),
            ScalarValue.f64(5.0),
            ScalarValue.f64(0.2),
            ScalarValue.f64(0.6),
            ScalarValue.f64(0.5)),
        values);
  }

  @Test
  void readsEmptyArraysWithTheirInnerSizes() {
    Value columns = readOne("empty([0][3]i32)", arrayOf(I32, 2));
    assertEquals("[0][3]", Shape.of(columns).toString());
    assertEquals("empty([0][3]i32)", ValueWriter.write(columns));
    assertEquals("[2][0][4]", Shape.of(readOne("empty([2][0][4]f64)", arrayOf(F64, 3))).toString());
    assertEquals("[[], []]", ValueWriter.write(readOne("empty([2][0]f64)", arrayOf(F64, 2))));
    Type rows = Type.array(Type.tuple(arrayOf(I32, 1), F64));
    assertEquals("[0]{[3], scalar}", Shape.of(readOne("empty([0]{[3]i32, f64})", rows)).toString());
    assertEquals("[0][0]", Shape.of(readOne("[]", arrayOf(I32, 2))).toString());
    assertEquals(
        "[2][0][3]",
        Shape.of(readOne("[empty([0][3]i32), empty([0][3]i32)]", arrayOf(I32, 3))).toString());
  }

  @Test
  void rejectsEmptyArraysOfTheWrongShape() {
    assertEquals(
        "in.data:1:10: expected '[' for argument 1 (type [[i32]]), found 'i32'",
        error("empty([0]i32)", arrayOf(I32, 2)).getMessage());
    assertEquals(
        "in.data:1:13: expected 'i32' for argument 1 (type [[i32]]), found 'f64'",
        error("empty([0][3]f64)", arrayOf(I32, 2)).getMessage());
    assertEquals(
        "in.data:1:1: empty([2][3]i32) for argument 1 describes an array with elements: one of its dimensions"
            + " outside tuples must be 0",
        error("empty([2][3]i32)", arrayOf(I32, 2)).getMessage());
    assertEquals(
        "in.data:1:1: irregular array for argument 1: element 1 has shape [0][0] but element 0 has shape [0][3]",
        error("[empty([0][3]i32), []]", arrayOf(I32, 3)).getMessage());
  }
}
