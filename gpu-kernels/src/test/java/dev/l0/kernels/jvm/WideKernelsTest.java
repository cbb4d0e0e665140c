package dev.l0.kernels.jvm;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.l0.kernels.api.CompiledProgram;
import dev.l0.kernels.api.L0Runtime;
import dev.l0.kernels.runtime.DeviceKind;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Kernels with more arrays than one Java method's 255 parameter slots hold (a map over a DataFrame
 * of a few hundred columns): the JVM backend compiles and runs them, the rows the per-row code's.
 */
class WideKernelsTest {
  private static final int ROWS = 3 * StagedMapPrinter.CHUNK + 77;

  /** {@code width} columns of {@code ROWS} rows: column k, row i is {@code (i + k) / 7.0}. */
  private static List<Object> columns(int width) {
    List<Object> columns = new ArrayList<>();
    for (int k = 0; k < width; k++) {
      double[] column = new double[ROWS];
      for (int i = 0; i < ROWS; i++) {
        column[i] = (i + k) / 7.0;
      }
      columns.add(column);
    }
    return columns;
  }

  private static String tuple(int width, String each) {
    List<String> parts = new ArrayList<>();
    for (int k = 0; k < width; k++) {
      parts.add(each.replace("#", Integer.toString(k)));
    }
    return String.join(", ", parts);
  }

  /** A weighted sum over 300 columns: one kernel reading 300 arrays. */
  @Test
  void aMapReadingThreeHundredArraysRunsOnTheJvmBackend() {
    int width = 300;
    String program =
        "fun [f64] main(["
            + "{"
            + tuple(width, "f64")
            + "}"
            + "] xs) = map(fn f64 ("
            + tuple(width, "f64 a#")
            + ") => "
            + tuple(width, "a# * #.0").replace(", ", " + ")
            + ", xs)";
    List<Object> inputs = columns(width);
    try (CompiledProgram compiled = L0Runtime.compile(program, "wide.l0", "main", DeviceKind.JVM)) {
      assertEquals("jvm", compiled.executorName());
      double[] sums = (double[]) compiled.run((Object) inputs.toArray());
      for (int i = 0; i < ROWS; i++) {
        double want = 0.0;
        for (int k = 0; k < width; k++) {
          want += ((double[]) inputs.get(k))[i] * k;
        }
        assertEquals(
            Double.doubleToRawLongBits(want), Double.doubleToRawLongBits(sums[i]), "row " + i);
      }
    }
  }

  /**
   * 130 columns in and 130 out, each out column its in column plus one: 260 arrays, more than the
   * staged code's chunk method takes, so the rows run per row.
   */
  @Test
  void aMapOfAHundredAndThirtyColumnsInAndOutRunsOnTheJvmBackend() {
    assertColumnsPlusOne(130);
  }

  private static void assertColumnsPlusOne(int width) {
    String types = "{" + tuple(width, "f64") + "}";
    String program =
        "fun ["
            + types
            + "] main(["
            + types
            + "] xs) = map(fn "
            + types
            + " ("
            + tuple(width, "f64 a#")
            + ") => {"
            + tuple(width, "a# + 1.0")
            + "}, xs)";
    List<Object> inputs = columns(width);
    try (CompiledProgram compiled = L0Runtime.compile(program, "wide.l0", "main", DeviceKind.JVM)) {
      assertEquals("jvm", compiled.executorName());
      Object[] outputs = (Object[]) compiled.run((Object) inputs.toArray());
      assertEquals(width, outputs.length);
      for (int k = 0; k < width; k++) {
        double[] in = (double[]) inputs.get(k);
        double[] out = (double[]) outputs[k];
        for (int i = 0; i < ROWS; i++) {
          assertEquals(in[i] + 1.0, out[i], "column " + k + ", row " + i);
        }
      }
    }
  }
}
