package dev.l0.kernels.jvm;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.l0.ir.L0CompileError;
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

  /**
   * 130 columns whose staged code fits one chunk method (134 parameter slots), but whose second
   * stage would read 128 columns and 128 locals of the first: 258 slots in one method, which Janino
   * refused ("Method has too many parameters"). The stage ends before an op that would pass 255.
   */
  @Test
  void aStageThatWouldReadMoreThan255ArraysIsSplitAndRunsStaged() {
    int width = 130;
    int pairs = 128;
    StringBuilder body = new StringBuilder();
    for (int k = 0; k < pairs; k++) {
      body.append("let t")
          .append(k)
          .append(" = a")
          .append(k)
          .append(" * a")
          .append(k)
          .append(" in\n");
    }
    for (int k = 0; k < pairs; k++) {
      body.append("let s").append(k).append(" = t").append(k).append(" * a").append(k + 1);
      body.append(" in\n");
    }
    body.append(tuple(pairs, "s#").replace(", ", " + "));
    String program =
        "fun [f64] main([{"
            + tuple(width, "f64")
            + "}] xs) = map(fn f64 ("
            + tuple(width, "f64 a#")
            + ") =>\n"
            + body
            + ", xs)";
    List<Object> inputs = columns(width);
    try (CompiledProgram compiled = L0Runtime.compile(program, "wide.l0", "main", DeviceKind.JVM)) {
      assertEquals("jvm", compiled.executorName());
      double[] sums = (double[]) compiled.run((Object) inputs.toArray());
      for (int i = 0; i < ROWS; i++) {
        double want = 0.0;
        for (int k = 0; k < pairs; k++) {
          double a = ((double[]) inputs.get(k))[i];
          double s = a * a * ((double[]) inputs.get(k + 1))[i];
          want = k == 0 ? s : want + s;
        }
        assertEquals(
            Double.doubleToRawLongBits(want), Double.doubleToRawLongBits(sums[i]), "row " + i);
      }
    }
  }

  /**
   * 7,500 distinct float constants in one kernel: its class initialiser, which sets a field per
   * constant, passes the JVM's 64 KiB of bytecode per method, which Janino reports with an {@code
   * InternalCompilerException}. It is the program's compile error at the map, with Janino's reason
   * at the end of its first line, not Janino's exception.
   */
  @Test
  void aKernelPastTheJvmsLimitsIsACompileErrorAtItsMap() {
    int functions = 3;
    int constants = 2500;
    StringBuilder program = new StringBuilder();
    for (int f = 0; f < functions; f++) {
      program.append("fun f64 f").append(f).append("(f64 c0) =\n");
      for (int k = 0; k < constants; k++) {
        program.append("let c").append(k + 1).append(" = c").append(k).append(" * ");
        program.append(1.0 + (f * constants + k) / 1e8).append(" in\n");
      }
      program.append("c").append(constants).append('\n');
    }
    program.append("fun [f64] main([f64] xs) = map(fn f64 (f64 x) => f2(f1(f0(x))), xs)\n");
    L0CompileError error =
        assertThrows(
            L0CompileError.class,
            () -> L0Runtime.compile(program.toString(), "wide.l0", "main", DeviceKind.JVM));
    int line = functions * (constants + 2) + 1;
    String at = line + ":28";
    assertTrue(
        error
            .getMessage()
            .startsWith(
                "wide.l0:"
                    + at
                    + ": cannot lower the map at "
                    + at
                    + " in main to kernels for the jvm backend: "
                    + JaninoKernels.GENERATED_CODE_BUG),
        () -> error.getMessage().substring(0, 400));
    String firstLine = error.getMessage().lines().findFirst().orElseThrow();
    assertTrue(firstLine.contains("Compiling \"<clinit>()\""), firstLine);
    assertTrue(firstLine.endsWith(": Code grows beyond 64 KB"), firstLine);
    // the kernel's Java (tens of thousands of lines) is not in the message, only its first lines
    List<String> lines = error.getMessage().lines().toList();
    assertTrue(lines.size() <= 22, () -> lines.size() + " lines: " + lines.get(lines.size() - 1));
    assertTrue(
        lines
            .get(lines.size() - 1)
            .matches("\\(lines 1-20 of \\d+ of the generated Java; .*--java.*"),
        lines.get(lines.size() - 1));
  }
}
