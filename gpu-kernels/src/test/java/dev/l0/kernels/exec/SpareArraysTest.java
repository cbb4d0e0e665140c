package dev.l0.kernels.exec;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.l0.ir.ScalarType;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Which arrays a holder of spare arrays reuses: only its own, given back, zero-filled again. */
class SpareArraysTest {
  @Test
  void anArrayGivenBackIsAllocatedAgainZeroFilled() {
    SpareArrays spares = new SpareArrays(4);
    double[] first = (double[]) spares.allocate(ScalarType.F64, 5);
    Arrays.fill(first, 2.5);
    spares.giveBack(List.of(first));
    assertEquals(1, spares.spareCount());
    double[] again = (double[]) spares.allocate(ScalarType.F64, 5);
    assertSame(first, again);
    assertArrayEquals(new double[5], again);
    assertEquals(0, spares.spareCount());
  }

  @Test
  void onlyArraysOfTheSameTypeAndLengthAreReused() {
    SpareArrays spares = new SpareArrays(4);
    long[] longs = (long[]) spares.allocate(ScalarType.I64, 8);
    boolean[] flags = (boolean[]) spares.allocate(ScalarType.BOOL, 8);
    Arrays.fill(flags, true);
    spares.giveBack(List.of(longs, flags));
    assertNotSame(longs, spares.allocate(ScalarType.I64, 9));
    assertNotSame(flags, spares.allocate(ScalarType.I32, 8));
    boolean[] reused = (boolean[]) spares.allocate(ScalarType.BOOL, 8);
    assertSame(flags, reused);
    assertArrayEquals(new boolean[8], reused);
  }

  @Test
  void arraysItDidNotAllocateAreNeverReused() {
    SpareArrays spares = new SpareArrays(4);
    double[] callers = {1.0, 2.0, 3.0};
    spares.allocate(ScalarType.F64, 3);
    spares.giveBack(List.of(callers, "not an array"));
    assertEquals(0, spares.spareCount());
    assertNotSame(callers, spares.allocate(ScalarType.F64, 3));
    assertArrayEquals(new double[] {1.0, 2.0, 3.0}, callers);
  }

  @Test
  void anArrayIsGivenBackOnceAndOnlyFromTheCallsSinceTheLastGiveBack() {
    SpareArrays spares = new SpareArrays(4);
    int[] ints = (int[]) spares.allocate(ScalarType.I32, 2);
    spares.giveBack(List.of(ints, ints));
    assertEquals(1, spares.spareCount());
    assertSame(ints, spares.allocate(ScalarType.I32, 2));
    int[] older = (int[]) spares.allocate(ScalarType.I32, 3);
    spares.giveBack(List.of());
    spares.giveBack(List.of(older));
    assertEquals(0, spares.spareCount());
  }

  @Test
  void atMostCapacityArraysAreKept() {
    SpareArrays spares = new SpareArrays(2);
    Object a = spares.allocate(ScalarType.F32, 1);
    Object b = spares.allocate(ScalarType.F32, 1);
    Object c = spares.allocate(ScalarType.F32, 1);
    spares.giveBack(List.of(a, b, c));
    assertEquals(2, spares.spareCount());
    assertSame(a, spares.allocate(ScalarType.F32, 1));
    assertSame(b, spares.allocate(ScalarType.F32, 1));
    assertNotSame(c, spares.allocate(ScalarType.F32, 1));
  }

  @Test
  void noneKeepsNothing() {
    Object array = SpareArrays.NONE.allocate(ScalarType.F64, 4);
    SpareArrays.NONE.giveBack(List.of(array));
    assertEquals(0, SpareArrays.NONE.spareCount());
    assertNotSame(array, SpareArrays.NONE.allocate(ScalarType.F64, 4));
  }

  @Test
  void aNegativeCapacityIsAnError() {
    IllegalArgumentException error =
        assertThrows(IllegalArgumentException.class, () -> new SpareArrays(-1));
    assertEquals("a capacity of spare arrays is not negative: -1", error.getMessage());
  }
}
