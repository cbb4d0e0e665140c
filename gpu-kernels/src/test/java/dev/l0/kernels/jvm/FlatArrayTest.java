package dev.l0.kernels.jvm;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.l0.ir.ScalarType;
import dev.l0.ir.Shape;
import dev.l0.values.ValueWriter;
import java.util.Arrays;
import org.junit.jupiter.api.Test;

/**
 * A {@link FlatArray}'s shape: checked against its data, and kept whole when it has no elements.
 */
class FlatArrayTest {
  @Test
  void aShapeWhoseElementCountOverflowsIsRefusedNamingShapeAndData() {
    IllegalArgumentException overflow =
        assertThrows(
            IllegalArgumentException.class,
            () -> new FlatArray(ScalarType.I32, new int[0], new int[] {1 << 21, 1 << 21, 1 << 22}));
    assertEquals(
        "a FlatArray of shape [2097152, 2097152, 4194304] would have more than 2147483647 elements;"
            + " its data has 0",
        overflow.getMessage());
  }

  /** An empty dimension after sizes whose product passes an int's range: an empty array. */
  @Test
  void anEmptyArrayKeepsSizesWhoseProductPassesAnIntsRange() {
    FlatArray empty = new FlatArray(ScalarType.I32, new int[0], new int[] {1 << 16, 1 << 16, 0});
    assertEquals(1 << 16, empty.size(1));
    assertEquals(0, empty.size(2));
  }

  /**
   * Printed, an array shows its shape and type and at most its first elements, in row-major order.
   */
  @Test
  void printedItShowsItsShapeAndItsFirstElements() {
    assertEquals(
        "FlatArray [2][3]f64: 1.0, 2.0, 3.0, 4.0, 5.0, 6.5",
        new FlatArray(ScalarType.F64, new double[] {1, 2, 3, 4, 5, 6.5}, new int[] {2, 3})
            .toString());
    assertEquals(
        "FlatArray [0][3]i32: no elements",
        new FlatArray(ScalarType.I32, new int[0], new int[] {0, 3}).toString());
    long[] many = new long[1000];
    Arrays.setAll(many, i -> i * 10L);
    assertEquals(
        "FlatArray [1000]i64: 0i64, 10i64, 20i64, 30i64, 40i64, 50i64, 60i64, 70i64, 80i64, 90i64,"
            + " ... (1000 elements)",
        new FlatArray(ScalarType.I64, many, new int[] {1000}).toString());
  }

  @Test
  void aShapeThatDoesNotMatchTheDataIsRefused() {
    IllegalArgumentException mismatch =
        assertThrows(
            IllegalArgumentException.class,
            () -> new FlatArray(ScalarType.F64, new double[5], new int[] {2, 3}));
    assertEquals(
        "a FlatArray of shape [2, 3] (6 elements) does not fit its data of 5 elements",
        mismatch.getMessage());
    assertThrows(
        IllegalArgumentException.class,
        () -> new FlatArray(ScalarType.F64, new double[0], new int[] {-1, 0}));
    assertThrows(
        IllegalArgumentException.class, () -> new FlatArray(ScalarType.F64, null, new int[] {0}));
  }

  @Test
  void anEmptyArrayKeepsItsInnerSizesThroughValues() {
    FlatArray columns = new FlatArray(ScalarType.I32, new int[0], new int[] {0, 3});
    assertEquals("empty([0][3]i32)", ValueWriter.write(columns.toValue()));
    assertArrayEquals(new int[] {0, 3}, FlatArray.of(columns.toValue(), ScalarType.I32, 2).shape());
    FlatArray rows = new FlatArray(ScalarType.F32, new float[0], new int[] {2, 0, 4});
    assertEquals(
        new Shape.Array(2, new Shape.Array(0, new Shape.Array(4, Shape.SCALAR))),
        Shape.of(rows.toValue()));
  }
}
