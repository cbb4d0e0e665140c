package dev.l0.kernels.jvm;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.l0.interp.Interpreter;
import dev.l0.ir.L0ConfigurationError;
import dev.l0.ir.Param;
import dev.l0.ir.Program;
import dev.l0.ir.Value;
import dev.l0.kernels.exec.HostRunner;
import dev.l0.kernels.ir.Kernel;
import dev.l0.kernels.lower.KernelLowering;
import dev.l0.kernels.lower.LaunchConfiguration;
import dev.l0.opt.KernelPlan;
import dev.l0.opt.OptimizedProgram;
import dev.l0.opt.Optimizer;
import dev.l0.syntax.L0Parser;
import dev.l0.types.TypeChecker;
import dev.l0.values.ValueReader;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * How the JVM backend shapes a kernel's Java for HotSpot: no method over HotSpot's limit for
 * compiling it (large statements move into methods of their own, {@link OutlinedStatements}), and
 * loops that reach a fixed point left there ({@link FixedPointLoops}); the results stay the
 * interpreter's.
 */
class KernelMethodsTest {
  private static Program finpar(String name) throws IOException {
    String resource = "/programs/finpar/" + name + ".l0";
    try (InputStream in = KernelMethodsTest.class.getResourceAsStream(resource)) {
      return L0Parser.parse(new String(in.readAllBytes(), StandardCharsets.UTF_8), resource);
    }
  }

  /** The JVM backend's kernels of every kernel of {@code program}'s plan. */
  private static List<Kernel> jvmKernels(Program program) {
    OptimizedProgram optimized = Optimizer.optimize(TypeChecker.check(program));
    KernelPlan plan = optimized.kernelPlan();
    List<Kernel> kernels = new ArrayList<>();
    for (KernelPlan.Kernel k : plan.kernels()) {
      kernels.addAll(KernelLowering.lower(plan, k, LaunchConfiguration.THREAD_PER_ROW).kernels());
    }
    return kernels;
  }

  @ParameterizedTest
  @ValueSource(strings = {"OptionPricing", "LocVolCalib", "InterestCalib"})
  void noMethodOfTheFinParKernelsIsTooLargeForHotSpotToCompile(String name) throws IOException {
    for (Kernel kernel : jvmKernels(finpar(name))) {
      JaninoKernels.Compiled compiled = JaninoKernels.compiled(kernel);
      assertTrue(
          compiled.largestMethodBytes() <= JaninoKernels.HUGE_METHOD_BYTES,
          kernel.name() + ": a method of " + compiled.largestMethodBytes() + " bytes");
    }
  }

  @ParameterizedTest
  @ValueSource(strings = {"OptionPricing", "LocVolCalib", "InterestCalib"})
  void noMethodOfTheFinParKernelsTakesMoreParametersThanHotSpotsOptimisingCompilerTakes(String name)
      throws IOException {
    for (Kernel kernel : jvmKernels(finpar(name))) {
      for (java.lang.reflect.Method method :
          JaninoKernels.compiled(kernel).code().getClass().getDeclaredMethods()) {
        assertTrue(
            method.getParameterCount() <= OutlinedStatements.MAX_PARAMETERS,
            kernel.name() + ": " + method.getName() + " takes " + method.getParameterCount());
      }
    }
  }

  @Test
  void optionPricingsPathKernelIsSplitAndWouldBeTooLargeInOneMethod() throws IOException {
    Kernel paths = jvmKernels(finpar("OptionPricing")).get(0);
    JaninoKernels.Compiled split = JaninoKernels.compiled(paths);
    JaninoKernels.Compiled whole =
        JaninoKernels.compiled(JavaKernelIrPrinter.print(paths, false, Integer.MAX_VALUE));

    assertTrue(split.source().contains("private static int moved$"), split.source());
    assertFalse(whole.source().contains("moved$"));
    assertTrue(
        whole.largestMethodBytes() > JaninoKernels.HUGE_METHOD_BYTES,
        "one method of " + whole.largestMethodBytes() + " bytes");
  }

  @Test
  void aLargerMethodBudgetMovesFewerStatementsOutAndStaysCompilable() throws IOException {
    Kernel paths = jvmKernels(finpar("OptionPricing")).get(0);
    JaninoKernels.Compiled standard =
        JaninoKernels.compiled(
            JavaKernelIrPrinter.print(paths, false, JavaKernelIrPrinter.DEFAULT_METHOD_BUDGET));
    JaninoKernels.Compiled larger =
        JaninoKernels.compiled(JavaKernelIrPrinter.print(paths, false, 12000));

    int standardMoved = standard.source().split("private static int moved\\$").length - 1;
    int largerMoved = larger.source().split("private static int moved\\$").length - 1;
    assertTrue(largerMoved < standardMoved, largerMoved + " moved methods, " + standardMoved);
    assertTrue(
        larger.largestMethodBytes() <= JaninoKernels.HUGE_METHOD_BYTES,
        "a method of " + larger.largestMethodBytes() + " bytes");
  }

  @Test
  void theMethodBudgetPropertyTakesAnIntegerOfAtLeastTheMinimum() {
    assertEquals(JavaKernelIrPrinter.DEFAULT_METHOD_BUDGET, JavaKernelIrPrinter.methodBudget(null));
    assertEquals(12000, JavaKernelIrPrinter.methodBudget("12000"));
    assertEquals(
        JavaKernelIrPrinter.MIN_METHOD_BUDGET,
        JavaKernelIrPrinter.methodBudget(" " + JavaKernelIrPrinter.MIN_METHOD_BUDGET + " "));
    for (String bad : List.of("99", "-5", "", "3k", "1e4")) {
      L0ConfigurationError e =
          assertThrows(L0ConfigurationError.class, () -> JavaKernelIrPrinter.methodBudget(bad));
      assertEquals(
          "the system property l0.jvm.methodBudget must be an integer of at least 100 (estimated"
              + " bytes of bytecode per method of a JVM kernel), not '"
              + bad
              + "'",
          e.getMessage());
    }
  }

  private static final String HALVING =
      """
      fun [f64] main([f64] xs) =
        map(fn f64 (f64 x) =>
              loop (r = x) = for i < 100000000 do
                if r > 1.0 then r / 2.0 else r
              in r,
            xs)
      """;

  private static void assertSameAsInterpreter(Program program, String args) {
    List<Value> values =
        ValueReader.read(
            args,
            program.function("main").orElseThrow().params().stream().map(Param::type).toList(),
            "args");
    assertEquals(
        new Interpreter(program).call("main", values),
        HostRunner.compile(program, new JvmKernelExecutor()).call("main", values));
  }

  @Test
  void aLoopWhoseElsePathKeepsItsStateLeavesAtItsFixedPoint() {
    Program program = L0Parser.parse(HALVING, "halving.l0");
    String source = JvmGroupRunner.javaSource(jvmKernels(program).get(0));
    assertTrue(source.contains("break; // the loop has reached its fixed point"), source);
    assertSameAsInterpreter(
        L0Parser.parse(HALVING.replace("100000000", "7"), "halving.l0"),
        "[1.5, 1000.0, 0.25, 3e300, -2.0]");
  }

  @Test
  void aLoopWhoseGuardReadsTheCounterOrWhoseElseChangesTheStateRunsToItsBound() {
    for (String changed :
        List.of(
            HALVING.replace("r > 1.0", "r > f64(i)"), HALVING.replace("else r", "else r + 1.0"))) {
      Program program = L0Parser.parse(changed.replace("100000000", "7"), "changed.l0");
      String source = JvmGroupRunner.javaSource(jvmKernels(program).get(0));
      assertFalse(source.contains("break;"), source);
      assertSameAsInterpreter(program, "[1.5, 1000.0, 0.25, -2.0]");
    }
  }

  private static final String ROW_SUMS =
      """
      fun [f64] main([[f64]] rows, i32 n) =
        map(fn f64 ([f64] row) =>
              loop (s = 0.0) = for i < n do s + row[i % 3] * f64(i) in s,
            rows)
      """;

  @Test
  void aLoopBelowAnI32RunsAnIntCounterAndTheThreadsLoopALongOne() {
    Program program = L0Parser.parse(ROW_SUMS, "rowSums.l0");
    String source = JvmGroupRunner.javaSource(jvmKernels(program).get(0));
    assertTrue(
        java.util.regex.Pattern.compile(
                "for \\(int (\\w+) = \\(int\\) 0x0L; \\1 < bound\\$\\d+; \\1\\+\\+\\)")
            .matcher(source)
            .find(),
        source);
    // the grid's loop over rows is bounded by an i64 dimension: its counter stays long
    assertTrue(source.contains("for (long "), source);
    for (String n : List.of("0", "7", "-3")) {
      assertSameAsInterpreter(program, "[[1.5, -2.0, 0.25], [3e300, 1.0, -0.5]] " + n);
    }
  }
}
