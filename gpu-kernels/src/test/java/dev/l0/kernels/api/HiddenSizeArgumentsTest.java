package dev.l0.kernels.api;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.l0.ir.ScalarType;
import dev.l0.kernels.jvm.FlatArray;
import dev.l0.kernels.runtime.DeviceKind;
import org.junit.jupiter.api.Test;

/**
 * Nested Java arguments with an empty dimension ({@code new double[0][3]} keeps no 3): refused,
 * naming the parameter and the place, where the entry could see the sizes below that dimension;
 * bound as before where it cannot; a {@link FlatArray} keeps every size and is always bound.
 */
class HiddenSizeArgumentsTest {

  @Test
  void anEntryThatReadsASizeBelowTheEmptyDimensionRefusesNestedArrays() {
    CompiledProgram inner = compile("fun i32 main([[f64]] x) =\n  size(1, x)\n");
    IllegalArgumentException error =
        assertThrows(IllegalArgumentException.class, () -> inner.run((Object) new double[0][3]));
    String message = error.getMessage();
    assertTrue(message.startsWith("parameter x: "), message);
    assertTrue(message.contains("shape [0][?]"), message);
    assertTrue(message.contains("'main' can see it at t.l0:2:3"), message);
    assertTrue(
        message.contains("new FlatArray(ScalarType.F64, new double[0], new int[] {0, 3})"),
        message);
    assertEquals(3, inner.run(new FlatArray(ScalarType.F64, new double[0], new int[] {0, 3})));
  }

  @Test
  void sizesLostDeeperDownAndInColumnsOfTuplesAreRefusedToo() {
    CompiledProgram deep = compile("fun i32 main([[[f64]]] x) = size(1, x) + size(2, x)\n");
    String message =
        assertThrows(IllegalArgumentException.class, () -> deep.run((Object) new double[2][0][3]))
            .getMessage();
    assertTrue(message.contains("shape [2][0][?]"), message);
    assertTrue(message.contains("t.l0:1:42"), message);
    CompiledProgram columns = compile("fun i32 main([[{f64, i32}]] ps) = size(1, ps)\n");
    Object pairs = new Object[] {new double[0][4], new int[0][4]};
    assertTrue(
        assertThrows(IllegalArgumentException.class, () -> columns.run(pairs))
            .getMessage()
            .startsWith("parameter ps: "));
  }

  @Test
  void usesThatCannotSeeTheLostSizesBindNestedArraysAsBefore() {
    assertEquals(
        0, compile("fun i32 main([[f64]] x) = size(0, x)\n").run((Object) new double[0][3]));
    assertArrayEquals(
        new double[0],
        (double[])
            compile("fun [f64] main([[f64]] x) = map(fn f64 ([f64] r) => r[0], x)\n")
                .run((Object) new double[0][3]));
    assertEquals(
        2,
        compile("fun i32 main([[[f64]]] x) = size(0, x) + size(1, x)\n")
            .run((Object) new double[2][0][3]));
    // a row below the empty dimension keeps nothing only where no row exists: here rows have 3
    assertEquals(
        3, compile("fun i32 main([[f64]] x) = size(1, x)\n").run((Object) new double[2][3]));
  }

  private static CompiledProgram compile(String text) {
    return L0Runtime.compile(text, "t.l0", "main", DeviceKind.JVM);
  }
}
