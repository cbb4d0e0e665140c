package dev.l0.opt;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.l0.interp.Interpreter;
import dev.l0.ir.L0RuntimeError;
import dev.l0.ir.Value;
import dev.l0.opt.fusion.FusionRule;
import dev.l0.opt.ir.IrChecker;
import dev.l0.testing.ProgramCase;
import dev.l0.testing.RandomPrograms;
import dev.l0.types.TypeChecker;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.function.Supplier;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.IntRange;
import org.junit.jupiter.api.Test;

/**
 * Random programs with a producer, a transpose or reshape, and a consumer (the shapes ch. 8's rules
 * rewrite, and some they must leave), on random data: the optimised program gives the reference
 * interpreter's results bit for bit, or fails in the same operation at the same position. The IR
 * checker runs after every pass (the tests' {@code l0.opt.check}).
 */
class TransposeReshapePropertiesTest {
  private static final String SEED = "20261126";

  private static final int RANDOM_PROGRAMS = 400;

  /** Producers of a {@code [n][m]} array from {@code a}: a map nest, and a map that is none. */
  private static final List<String> MATRIX_PRODUCERS =
      List.of(
          "map(fn [real] ([real] r) => map(fn real (real x) => x * 1.5 + 0.25, r), a)",
          "map(fn [real] ([real] r) => let s = reduce(op +, 0.0, r) in"
              + " map(fn real (real x) => x - s, r), a)");

  /**
   * The index functions on {@code b}, each with the array of the same shape as its result that a
   * consumer may read beside it.
   */
  private static final List<String[]> INDEX_FUNCTIONS =
      List.of(
          new String[] {"transpose(b)", "c"},
          new String[] {"transpose(transpose(b))", "a"},
          new String[] {"transpose(0, 1, b)", "c"});

  /** Consumers of {@code t}, with {@code e} of the same shape. */
  private static final List<String> CONSUMERS =
      List.of(
          "map(fn [real] ([real] r) => map(fn real (real x) => x * 2.0, r), t)",
          "map(fn real ([real] r) => reduce(op +, 0.0, r), t)",
          "map(fn [real] ([real] r, [real] q) =>"
              + " map(fn real (real x, real y) => x * y - 1.0, zip(r, q)), zip(t, e))",
          "map(fn real ([real] r, [real] q) => reduce(op +, 0.0, map(op *, zip(r, q))), zip(t, e))",
          "map(fn [real] ([real] r) => scan(op +, 0.0, r), t)");

  @Property(tries = 120, seed = SEED)
  void transposedProgramsAgreeWithTheInterpreter(
      @ForAll @IntRange(min = 0, max = 1) int producer,
      @ForAll @IntRange(min = 0, max = 2) int indexFunction,
      @ForAll @IntRange(min = 0, max = 4) int consumer,
      @ForAll @IntRange(min = 0, max = 4) int n,
      @ForAll @IntRange(min = 1, max = 4) int m,
      @ForAll long data) {
    String[] index = INDEX_FUNCTIONS.get(indexFunction);
    String body =
        CONSUMERS
            .get(consumer)
            .replace(", t)", ", " + index[0] + ")")
            .replace("zip(t, e)", "zip(" + index[0] + ", " + index[1] + ")");
    String source =
        "fun "
            + resultType(consumer)
            + " main([[real]] a, [[real]] c) =\n  let b = "
            + MATRIX_PRODUCERS.get(producer)
            + " in\n  "
            + body;
    Random random = new Random(data);
    sameResult(source, matrix(n, m, random) + " " + matrix(m, n, random));
  }

  @Property(tries = 60, seed = SEED)
  void reshapedProgramsAgreeWithTheInterpreter(
      @ForAll @IntRange(min = 0, max = 4) int consumer,
      @ForAll @IntRange(min = 0, max = 3) int n,
      @ForAll @IntRange(min = 1, max = 3) int m,
      @ForAll @IntRange(min = -1, max = 1) int offBy,
      @ForAll long data) {
    String t = "reshape((n, m), b)";
    String body =
        CONSUMERS
            .get(consumer)
            .replace(", t)", ", " + t + ")")
            .replace("zip(t, e)", "zip(" + t + ", reshape((n, m), d))");
    String source =
        "fun "
            + resultType(consumer)
            + " main([real] a, [real] d, int n, int m) =\n"
            + "  let b = map(fn real (real x) => x * 0.5 - 3.0, a) in\n  "
            + body;
    Random random = new Random(data);
    int k = Math.max(0, n * m + offBy);
    sameResult(source, vector(k, random) + " " + vector(n * m, random) + " " + n + " " + m);
  }

  /**
   * The general random programs ({@link RandomPrograms#program}), whose transposes and reshapes of
   * matrices are made or read by map nests: each optimised program gives the interpreter's result
   * or fails in the same operation at the same position and is well formed, and the rules across
   * transpose and reshape apply to some of them.
   */
  @Test
  void randomProgramsFuseAcrossTransposesAndReshapesAndKeepTheirResults() {
    List<String> problems = new ArrayList<>();
    Map<FusionRule, Integer> applied = new EnumMap<>(FusionRule.class);
    for (int seed = 0; seed < RANDOM_PROGRAMS; seed++) {
      ProgramCase c = RandomPrograms.program(seed);
      OptimizedProgram optimized = Optimizer.optimize(TypeChecker.check(c.program()));
      String expected = outcome(() -> new Interpreter(c.program()).call(c.entry(), c.args()));
      String actual = outcome(() -> optimized.call(c.entry(), c.args()));
      if (!expected.equals(actual) || IrChecker.problem(optimized.internal()).isPresent()) {
        problems.add("seed " + seed + ": " + actual + ", expected " + expected + "\n" + c);
      }
      optimized.kernelPlan().kernels().stream()
          .flatMap(k -> optimized.rules(k).stream())
          .filter(FusionRule.class::isInstance)
          .distinct()
          .forEach(rule -> applied.merge((FusionRule) rule, 1, Integer::sum));
    }
    assertEquals(List.of(), problems);
    for (FusionRule rule :
        List.of(FusionRule.PUSH_TRANSPOSE, FusionRule.PULL_TRANSPOSE, FusionRule.PULL_RESHAPE)) {
      assertTrue(applied.getOrDefault(rule, 0) > 0, () -> rule + " never applied: " + applied);
    }
  }

  private static String outcome(Supplier<Value> run) {
    try {
      return "value " + run.get();
    } catch (L0RuntimeError e) {
      return "failure in " + e.operation();
    }
  }

  /** The consumers that reduce each row make one value a row; the others make rows. */
  private static String resultType(int consumer) {
    return consumer == 1 || consumer == 3 ? "[real]" : "[[real]]";
  }

  private static void sameResult(String source, String args) {
    Compiled c = Compiled.of(source);
    try {
      c.assertSameResult("main", args);
    } catch (L0RuntimeError sameFailure) {
      // assertSameResult has checked that the interpreter fails in the same operation at the same
      // position.
    }
  }

  private static String matrix(int rows, int cols, Random random) {
    List<String> out = new ArrayList<>();
    for (int i = 0; i < rows; i++) {
      out.add(vector(cols, random));
    }
    return "[" + String.join(", ", out) + "]";
  }

  private static String vector(int length, Random random) {
    List<String> out = new ArrayList<>();
    for (int i = 0; i < length; i++) {
      out.add(Double.toString(random.nextInt(2000) / 16.0 - 60.0));
    }
    return "[" + String.join(", ", out) + "]";
  }
}
