package dev.l0.semantics;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.l0.ir.L0ResourceError;
import dev.l0.ir.L0RuntimeError;
import dev.l0.ir.ScalarType;
import dev.l0.ir.ScalarValue;
import dev.l0.ir.SourcePos;
import dev.l0.ir.Type;
import dev.l0.ir.Value;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The array operations called directly, as evaluators other than the interpreter call them (with
 * operands they computed themselves), on the edge cases the interpreter's program tests do not
 * reach.
 */
class ArrayOperationsTest {
  private static final SourcePos AT = new SourcePos("test.l0", 3, 5);

  private static Value.Array ints(int... elements) {
    List<Value> values = Arrays.stream(elements).<Value>mapToObj(ScalarValue::i32).toList();
    return new Value.Array(ScalarType.I32, values);
  }

  @Test
  void anIotaLargerThanTheHeapCouldHoldIsRefusedBeforeAllocating() {
    long heapMiB = Runtime.getRuntime().maxMemory() >> 20;
    L0ResourceError e =
        assertThrows(
            L0ResourceError.class, () -> ArrayOperations.iota(ScalarValue.i32(2147483000), AT));
    assertTrue(e.moreHeapHelps());
    assertEquals(
        "test.l0:3:5: iota: 2147483000 elements need about 57343 MiB, more than the JVM's maximum heap of "
            + heapMiB
            + " MiB",
        e.getMessage());
  }

  @Test
  void aDimensionLongerThanJavaArraysIsALimitNotARuntimeError() {
    for (Value.Array shaped : List.of(ints(), ints(1))) {
      L0ResourceError e =
          assertThrows(
              L0ResourceError.class,
              () -> ArrayOperations.replicate(ScalarValue.i64(1L << 40), shaped, AT));
      assertFalse(e.moreHeapHelps());
      assertEquals(
          "test.l0:3:5: replicate: size 1099511627776 exceeds the limit of 2147483639 elements in one dimension "
              + "of an array (Java's array limit)",
          e.getMessage());
    }
    assertThrows(L0ResourceError.class, () -> ArrayOperations.iota(ScalarValue.i64(1L << 31), AT));
  }

  @Test
  void reshapeFailsWhenTheNewShapeHasMoreElementsThanALongCounts() {
    // 2^30 * 2^30 * 16 = 2^64 wraps to 0 in a long, which would match the 0 elements of the array.
    List<Value> shape =
        List.of(ScalarValue.i32(1 << 30), ScalarValue.i32(1 << 30), ScalarValue.i32(16));
    L0RuntimeError e =
        assertThrows(L0RuntimeError.class, () -> ArrayOperations.reshape(shape, ints(), AT));
    assertEquals("reshape", e.operation());
    assertEquals(
        "test.l0:3:5: reshape: cannot reshape an array of shape [0] (0 elements) into shape "
            + "(1073741824, 1073741824, 16) (too many elements)",
        e.getMessage());
  }

  @Test
  void updateWithoutIndicesReplacesTheWholeValueWhenTheShapesAgree() {
    assertEquals(ints(7, 8), ArrayOperations.update(ints(1, 2), List.of(), ints(7, 8), AT));
    L0RuntimeError e =
        assertThrows(
            L0RuntimeError.class, () -> ArrayOperations.update(ints(1, 2), List.of(), ints(7), AT));
    assertEquals(
        "test.l0:3:5: update: the new value has shape [1] but the updated part has shape [2]",
        e.getMessage());
  }

  @Test
  void splitGivesThePrefixAndTheRest() {
    Value.Tuple parts = ArrayOperations.split(ScalarValue.i32(1), ints(4, 5, 6), AT);
    assertEquals(List.of(ints(4), ints(5, 6)), parts.elements());
    assertEquals(
        List.of(ints(), ints(4, 5, 6)),
        ArrayOperations.split(ScalarValue.i32(0), ints(4, 5, 6), AT).elements());
  }

  @Test
  void sizeUnderAnEmptyDimensionIsZero() {
    Type row = Type.array(ScalarType.I32);
    assertEquals(ScalarValue.i32(0), ArrayOperations.size(1, new Value.Array(row, List.of()), AT));
    assertEquals(
        ScalarValue.i32(3),
        ArrayOperations.size(1, new Value.Array(row, List.of(ints(1, 2, 3), ints(4, 5, 6))), AT));
  }
}
