package dev.l0.kernels.cuda;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.l0.ir.BinaryOperator;
import dev.l0.ir.Builtin;
import dev.l0.ir.L0RuntimeError;
import dev.l0.ir.PrefixOperator;
import dev.l0.ir.ScalarType;
import dev.l0.ir.ScalarValue;
import dev.l0.ir.SourcePos;
import dev.l0.kernels.ir.KernelExpr;
import dev.l0.semantics.ScalarOperations;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The C text {@link CudaPrinter} writes for scalar operations computes what {@code
 * ScalarOperations} computes: every binary operator, negation, abs/min/max and every conversion,
 * over edge values of each type (wrap-around, {@code MIN / -1}, shift counts past the width, NaN,
 * infinities, signed zeros, saturating float-to-integer conversion). The expressions are compiled
 * by nvcc as host code (the helpers are {@code __host__ __device__}, the same text a kernel runs)
 * with operands read from volatile variables so nothing is folded at compile time. Skipped where
 * nvcc is absent.
 */
class CudaScalarSemanticsTest {
  private static final Map<ScalarType, List<ScalarValue>> VALUES =
      Map.of(
          ScalarType.BOOL, List.of(ScalarValue.bool(false), ScalarValue.bool(true)),
          ScalarType.I32, ints(0, 1, -1, 7, -7, 31, 33, Integer.MIN_VALUE, Integer.MAX_VALUE),
          ScalarType.I64,
              longs(
                  0, 1, -1, 7, -7, 63, 65, Long.MIN_VALUE, Long.MAX_VALUE, Integer.MIN_VALUE - 1L),
          ScalarType.F64,
              doubles(
                  0.0,
                  -0.0,
                  1.5,
                  -2.5,
                  1e300,
                  2147483648.0,
                  -9.3e18,
                  Double.NaN,
                  Double.POSITIVE_INFINITY,
                  Double.NEGATIVE_INFINITY),
          ScalarType.F32,
              floats(
                  0f, -0f, 1.5f, -2.5f, 3e38f, 1e-40f, 2.1e9f, Float.NaN, Float.NEGATIVE_INFINITY));

  @TempDir Path folder;

  /** One expression over operands {@code a} (and {@code b}) with the value the JVM computes. */
  private record Case(ScalarValue a, ScalarValue b, KernelExpr expr, ScalarValue expected) {}

  @Test
  void printedScalarOperationsComputeWhatTheJvmComputes() throws Exception {
    Optional<NvccCompiler> nvcc = NvccCompiler.onThisMachine();
    assumeTrue(
        nvcc.isPresent(), "nvcc is not on the PATH: the printed scalar operations are not run");
    List<Case> cases = cases();
    List<String> printed = run(nvcc.get(), program(cases));
    assertEquals(cases.size(), printed.size(), "the program printed one line per case");
    int mismatches = 0;
    String first = "";
    for (int i = 0; i < cases.size(); i++) {
      Case c = cases.get(i);
      String expected = key(c.expected());
      String actual = key(c.expected().type(), Long.parseLong(printed.get(i)));
      if (!expected.equals(actual)) {
        mismatches++;
        first =
            first.isEmpty()
                ? CudaPrinter.expression(c.expr())
                    + " with a = "
                    + c.a()
                    + ", b = "
                    + c.b()
                    + ": expected "
                    + expected
                    + ", C gives "
                    + actual
                : first;
      }
    }
    assertEquals(0, mismatches, mismatches + " of " + cases.size() + " differ; first: " + first);
    assertTrue(cases.size() > 1500, "too few cases: " + cases.size());
  }

  private static List<Case> cases() {
    List<Case> cases = new ArrayList<>();
    for (ScalarType t : ScalarType.values()) {
      KernelExpr a = new KernelExpr.Var("a", t);
      KernelExpr b = new KernelExpr.Var("b", t);
      for (ScalarValue x : VALUES.get(t)) {
        for (ScalarValue y : VALUES.get(t)) {
          for (BinaryOperator op : BinaryOperator.values()) {
            if (applies(op, t)) {
              add(
                  cases,
                  x,
                  y,
                  new KernelExpr.Binary(op, t, a, b),
                  () -> ScalarOperations.binary(op, x, y, SourcePos.NONE));
            }
          }
          if (t.isNumeric()) {
            for (Builtin f : List.of(Builtin.MIN, Builtin.MAX)) {
              add(
                  cases,
                  x,
                  y,
                  new KernelExpr.Call(f, List.of(a, b)),
                  () -> ScalarOperations.builtin(f, List.of(x, y), SourcePos.NONE));
            }
          }
        }
        PrefixOperator unary = t == ScalarType.BOOL ? PrefixOperator.NOT : PrefixOperator.NEG;
        add(
            cases,
            x,
            x,
            new KernelExpr.Unary(unary, a),
            () -> ScalarOperations.unary(unary, x, SourcePos.NONE));
        if (t.isNumeric()) {
          for (Builtin f :
              List.of(
                  Builtin.ABS, Builtin.TO_I32, Builtin.TO_I64, Builtin.TO_F32, Builtin.TO_F64)) {
            add(
                cases,
                x,
                x,
                new KernelExpr.Call(f, List.of(a)),
                () -> ScalarOperations.builtin(f, List.of(x), SourcePos.NONE));
          }
        }
      }
    }
    return cases;
  }

  private static boolean applies(BinaryOperator op, ScalarType t) {
    return switch (op.kind()) {
      case LOGICAL -> t == ScalarType.BOOL;
      case COMPARISON -> true;
      case BITWISE -> t.isInteger();
      case ARITHMETIC -> t.isNumeric();
    };
  }

  /**
   * A case, unless the JVM fails there (division by zero, negative integer exponent): kernels guard
   * those.
   */
  private static void add(
      List<Case> cases, ScalarValue a, ScalarValue b, KernelExpr expr, Supplier<ScalarValue> jvm) {
    try {
      cases.add(new Case(a, b, expr, jvm.get()));
    } catch (L0RuntimeError guardedInKernels) {
      // not a case: the lowering never evaluates it
    }
  }

  private static String program(List<Case> cases) {
    StringBuilder text =
        new StringBuilder(CudaMathLibrary.header())
            .append('\n')
            .append(CudaPrinter.PRELUDE)
            .append('\n');
    text.append("#include <stdio.h>\n");
    text.append("static long long l0_f32_bits(float x) { int b; memcpy(&b, &x, 4); return b; }\n");
    text.append("int main(void) {\n");
    for (Case c : cases) {
      String type = CudaPrinter.cType(c.a().type());
      text.append("  { volatile ")
          .append(type)
          .append(" va = ")
          .append(CudaPrinter.constant(c.a()))
          .append("; volatile ")
          .append(type)
          .append(" vb = ")
          .append(CudaPrinter.constant(c.b()))
          .append("; ")
          .append(type)
          .append(" a = va; ")
          .append(type)
          .append(" b = vb; (void)a; (void)b; ");
      String value = CudaPrinter.expression(c.expr());
      String bits =
          switch (c.expected().type()) {
            case F64 -> "l0_double_bits(" + value + ")";
            case F32 -> "l0_f32_bits(" + value + ")";
            default -> "(long long)(" + value + ")";
          };
      text.append("printf(\"%lld\\n\", ").append(bits).append("); }\n");
    }
    return text.append("  return 0;\n}\n").toString();
  }

  private List<String> run(NvccCompiler nvcc, String source)
      throws IOException, InterruptedException {
    Path file = folder.resolve("scalars.cu");
    Path program = folder.resolve("scalars");
    Files.writeString(file, source, StandardCharsets.UTF_8);
    List<String> command = new ArrayList<>(List.of(nvcc.executable().toString()));
    command.addAll(NvccCompiler.ARITHMETIC_OPTIONS);
    command.addAll(
        List.of("-Xcompiler", "-ffp-contract=off", "-o", program.toString(), file.toString()));
    String compilerOutput = execute(command);
    assertTrue(Files.isExecutable(program), "nvcc built no host program:\n" + compilerOutput);
    return execute(List.of(program.toString())).lines().toList();
  }

  private String execute(List<String> command) throws IOException, InterruptedException {
    Process process =
        new ProcessBuilder(command).directory(folder.toFile()).redirectErrorStream(true).start();
    String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    assertTrue(process.waitFor(5, TimeUnit.MINUTES), "timed out: " + command);
    assertEquals(0, process.exitValue(), String.join(" ", command) + " failed:\n" + output);
    return output;
  }

  /** Values compare bit for bit, except that every NaN is the same. */
  private static String key(ScalarValue v) {
    if (v instanceof ScalarValue.Bool b) {
      return b.value() ? "1" : "0";
    }
    if (v instanceof ScalarValue.Int i) {
      return Long.toString(i.value());
    }
    double d = ((ScalarValue.Float) v).value();
    if (Double.isNaN(d)) {
      return "NaN";
    }
    return v.type() == ScalarType.F32
        ? Integer.toString(Float.floatToIntBits((float) d))
        : Long.toString(Double.doubleToLongBits(d));
  }

  private static String key(ScalarType type, long printed) {
    return switch (type) {
      case F64 -> Double.isNaN(Double.longBitsToDouble(printed)) ? "NaN" : Long.toString(printed);
      case F32 ->
          Float.isNaN(Float.intBitsToFloat((int) printed))
              ? "NaN"
              : Integer.toString((int) printed);
      default -> Long.toString(printed);
    };
  }

  private static List<ScalarValue> ints(int... xs) {
    return java.util.Arrays.stream(xs).mapToObj(x -> (ScalarValue) ScalarValue.i32(x)).toList();
  }

  private static List<ScalarValue> longs(long... xs) {
    return java.util.Arrays.stream(xs).mapToObj(x -> (ScalarValue) ScalarValue.i64(x)).toList();
  }

  private static List<ScalarValue> doubles(double... xs) {
    return java.util.Arrays.stream(xs).mapToObj(x -> (ScalarValue) ScalarValue.f64(x)).toList();
  }

  private static List<ScalarValue> floats(float... xs) {
    List<ScalarValue> out = new ArrayList<>();
    for (float x : xs) {
      out.add(ScalarValue.f32(x));
    }
    return out;
  }
}
