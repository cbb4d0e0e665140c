package dev.l0.values;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.l0.ir.ScalarType;
import dev.l0.ir.ScalarValue;
import dev.l0.ir.Type;
import dev.l0.ir.Value;
import java.util.List;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import org.junit.jupiter.api.Test;

class ValueWriterTest {
  private static Value readBack(Value v) {
    return ValueReader.read(ValueWriter.write(v), List.of(ValueTypes.typeOf(v)), "written").get(0);
  }

  @Test
  void writesScalarsWithTheSuffixesTheirTypeNeeds() {
    assertEquals("-7", ValueWriter.write(ScalarValue.i32(-7)));
    assertEquals("7i64", ValueWriter.write(ScalarValue.i64(7)));
    assertEquals("1.0", ValueWriter.write(ScalarValue.f64(1.0)));
    assertEquals("-0.0", ValueWriter.write(ScalarValue.f64(-0.0)));
    assertEquals("1.0e-5", ValueWriter.write(ScalarValue.f64(1.0e-5)));
    assertEquals("1.5f32", ValueWriter.write(ScalarValue.f32(1.5f)));
    assertEquals("true", ValueWriter.write(ScalarValue.bool(true)));
  }

  @Test
  void writesNonFiniteFloats() {
    assertEquals("inf", ValueWriter.write(ScalarValue.f64(Double.POSITIVE_INFINITY)));
    assertEquals("-inf", ValueWriter.write(ScalarValue.f32(Float.NEGATIVE_INFINITY)));
    assertEquals("nan", ValueWriter.write(ScalarValue.f64(Double.NaN)));
  }

  @Test
  void writesTuplesAndArrays() {
    Value v =
        new Value.Array(
            Type.tuple(ScalarType.I32, Type.array(ScalarType.BOOL)),
            List.of(
                new Value.Tuple(
                    List.of(
                        ScalarValue.i32(1),
                        new Value.Array(ScalarType.BOOL, List.of(ScalarValue.bool(false))))),
                new Value.Tuple(
                    List.of(
                        ScalarValue.i32(2),
                        new Value.Array(ScalarType.BOOL, List.of(ScalarValue.bool(true)))))));
    assertEquals("[{1, [false]}, {2, [true]}]", ValueWriter.write(v));
    assertEquals(v, readBack(v));
    Value empty = new Value.Array(Type.array(ScalarType.F64), List.of());
    assertEquals("[]", ValueWriter.write(empty));
    assertEquals(empty, readBack(empty));
  }

  @Property
  void doublesReadBackBitIdentically(@ForAll double d) {
    Value v = ScalarValue.f64(d);
    assertEquals(v, readBack(v));
  }

  @Property
  void floatsReadBackBitIdentically(@ForAll float f) {
    Value v = ScalarValue.f32(f);
    assertEquals(v, readBack(v));
  }

  @Property
  void arbitraryBitPatternsReadBackBitIdentically(@ForAll long bits) {
    Value d = ScalarValue.f64(Double.longBitsToDouble(bits));
    Value f = ScalarValue.f32(Float.intBitsToFloat((int) bits));
    assertEquals(d, readBack(d));
    assertEquals(f, readBack(f));
  }

  @Property
  void integersReadBack(@ForAll long n) {
    assertEquals(ScalarValue.i64(n), readBack(ScalarValue.i64(n)));
    assertEquals(ScalarValue.i32((int) n), readBack(ScalarValue.i32((int) n)));
  }
}
