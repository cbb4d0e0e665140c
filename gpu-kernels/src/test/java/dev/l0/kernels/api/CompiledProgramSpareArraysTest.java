package dev.l0.kernels.api;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertSame;

import dev.l0.kernels.exec.SpareArrays;
import dev.l0.kernels.runtime.DeviceKind;
import dev.l0.syntax.L0Parser;
import dev.l0.testing.TestPrograms;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * Calls on the JVM backend that allocate from spare arrays, as a Spark task runs a pipeline batch
 * after batch: a result given back is the next call's result array, and every result is the one a
 * call with new arrays gives, bit for bit; an input passed through is never reused.
 */
class CompiledProgramSpareArraysTest {

  @Test
  void resultsGivenBackAreReusedWithTheSameBits() {
    CompiledProgram p0 =
        L0Runtime.compile(
            TestPrograms.load(TestPrograms.P0_BLACKSCHOLES), "blackscholes", DeviceKind.JVM);
    assertEquals(DeviceKind.JVM, p0.device().chosen());
    SpareArrays spares = new SpareArrays(4);
    Random random = new Random(17);
    int[] rows = {4096, 4096, 100, 4096, 0, 4096};
    double[][] results = new double[rows.length][];
    for (int call = 0; call < rows.length; call++) {
      Object[] columns = CompiledProgramThreadsTest.options(random, rows[call]);
      if (call > 0) {
        spares.giveBack(List.of(results[call - 1]));
      }
      results[call] = (double[]) p0.runMeasuredWithSpares(spares, (Object) columns).result();
      double[] fresh = (double[]) p0.runMeasured((Object) columns).result();
      assertArrayEquals(fresh, results[call], "call " + call);
    }
    // the first call's array serves every 4096-row call; it stays spare through the shorter ones
    for (int call : new int[] {1, 3, 5}) {
      assertSame(results[0], results[call], "call " + call);
    }
    assertNotSame(results[0], results[2]);
  }

  @Test
  void anInputPassedThroughIsNeverReused() {
    CompiledProgram program =
        L0Runtime.compile(
            L0Parser.parse(
                "fun {[f64], [f64]} main([f64] xs) = {xs, map(fn f64 (f64 x) => x + 1.0, xs)}\n",
                "through.l0"),
            "main",
            DeviceKind.JVM);
    assertEquals(DeviceKind.JVM, program.device().chosen());
    SpareArrays spares = new SpareArrays(4);
    double[] xs = {1.0, 2.0, 3.0};
    Object[] first = (Object[]) program.runMeasuredWithSpares(spares, (Object) xs).result();
    assertSame(xs, first[0]);
    spares.giveBack(List.of(first));
    assertEquals(1, spares.spareCount());
    double[] ys = {10.0, 20.0, 30.0};
    Object[] second = (Object[]) program.runMeasuredWithSpares(spares, (Object) ys).result();
    assertArrayEquals(new double[] {1.0, 2.0, 3.0}, xs);
    assertSame(ys, second[0]);
    assertSame(first[1], second[1]);
    assertNotSame(xs, second[1]);
    assertArrayEquals(new double[] {11.0, 21.0, 31.0}, (double[]) second[1]);
  }
}
