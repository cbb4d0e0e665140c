package dev.l0.opt;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.l0.ir.ScalarValue;
import dev.l0.ir.Value;
import dev.l0.syntax.L0Parser;
import dev.l0.types.NestingLimit;
import dev.l0.types.TypeChecker;
import dev.l0.types.TypedProgram;
import java.lang.management.ManagementFactory;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Optimising grows about linearly with the program. The work is measured as the bytes the compiling
 * thread allocates (the same on every run up to the JIT's escape analysis), not as time: four times
 * the code must cost well under eight times the allocation, where the quadratic steps that made a
 * 2,990-branch else-if chain take 188 s and 6.2 GB cost sixteen times as much.
 */
class CompileCostTest {
  private static final com.sun.management.ThreadMXBean THREADS =
      (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();

  /** An else-if chain of {@code n} branches: main(x) = 2x for 0 <= x < n, else -1. */
  private static String elseIfChain(int n) {
    StringBuilder text = new StringBuilder("fun i32 main(i32 x) =\n");
    for (int i = 0; i < n; i++) {
      text.append("  if x = ").append(i).append(" then ").append(2 * i).append(" else\n");
    }
    return text.append("  -1\n").toString();
  }

  /**
   * A chain of {@code n} lets, each adding one of five constants to the last: main(x) = x + the sum
   * of those constants. The bindings have five shapes, so CSE's table sees many of each.
   */
  private static String letChain(int n) {
    StringBuilder text = new StringBuilder("fun i32 main(i32 x) =\n  let a0 = x in\n");
    for (int i = 1; i <= n; i++) {
      text.append("  let a").append(i).append(" = a").append(i - 1).append(" + ");
      text.append(i % 5 + 1).append(" in\n");
    }
    return text.append("  a").append(n).append('\n').toString();
  }

  private static long letChainSum(int n) {
    long sum = 0;
    for (int i = 1; i <= n; i++) {
      sum += i % 5 + 1;
    }
    return sum;
  }

  /**
   * A chain of {@code n} maps, each adding 1 to the rows of the last, summed at the end: main(x) =
   * the sum of {@code iota(x)} + n x. Fusion makes it one redomap, fusing one map at a time.
   */
  private static String mapChain(int n) {
    StringBuilder text = new StringBuilder("fun i32 main(i32 x) =\n  let a0 = iota(x) in\n");
    for (int i = 1; i <= n; i++) {
      text.append("  let a").append(i).append(" = map(fn i32 (i32 v) => v + 1, a");
      text.append(i - 1).append(") in\n");
    }
    return text.append("  reduce(op +, 0, a").append(n).append(")\n").toString();
  }

  /** {@code n} one-line functions, none calling another, and a main calling two of them. */
  private static String oneLineFunctions(int n) {
    StringBuilder text = new StringBuilder();
    for (int i = 0; i < n; i++) {
      text.append("fun i32 g").append(i).append("(i32 x) = x + ").append(i).append('\n');
    }
    return text.append("fun i32 main(i32 x) = g1(x) + g").append(n - 1).append("(x)\n").toString();
  }

  /**
   * The bytes allocated while parsing, checking and optimising {@code source}, after checking the
   * program's main on 7.
   */
  private static long allocatedToOptimise(String source, long expectedMainOfSeven) {
    return NestingLimit.onLargeStack(
        () -> {
          long before = THREADS.getCurrentThreadAllocatedBytes();
          OptimizedProgram optimized =
              Optimizer.optimize(TypeChecker.check(L0Parser.parse(source, "cost.l0")));
          long allocated = THREADS.getCurrentThreadAllocatedBytes() - before;
          Value result = optimized.call("main", List.of(ScalarValue.i32(7)));
          assertEquals(ScalarValue.i32((int) expectedMainOfSeven), result);
          return allocated;
        });
  }

  /**
   * The bytes allocated while optimising {@code source} (parsed and checked before), after checking
   * the program's main on 7.
   */
  private static long allocatedByOptimiser(String source, long expectedMainOfSeven) {
    return NestingLimit.onLargeStack(
        () -> {
          TypedProgram typed = TypeChecker.check(L0Parser.parse(source, "cost.l0"));
          long before = THREADS.getCurrentThreadAllocatedBytes();
          OptimizedProgram optimized = Optimizer.optimize(typed);
          long allocated = THREADS.getCurrentThreadAllocatedBytes() - before;
          Value result = optimized.call("main", List.of(ScalarValue.i32(7)));
          assertEquals(ScalarValue.i32((int) expectedMainOfSeven), result);
          return allocated;
        });
  }

  /** {@code times} times the code must cost well under twice that many times the allocation. */
  private static void assertAboutLinear(long small, long large, int times, String what) {
    assertGrowthBelow(small, large, 2 * times, what + ": " + times + " times the code");
  }

  /** The larger code's allocation is below {@code bound} times the smaller's. */
  private static void assertGrowthBelow(long small, long large, double bound, String what) {
    double ratio = (double) large / small;
    assertTrue(
        ratio < bound,
        what + " allocated " + ratio + " times as much (" + small + " then " + large + " bytes)");
  }

  @Test
  void deepElseIfChainsCompileInAboutLinearWork() {
    allocatedToOptimise(elseIfChain(200), 14);
    long small = allocatedToOptimise(elseIfChain(700), 14);
    long large = allocatedToOptimise(elseIfChain(2_800), 14);
    assertAboutLinear(small, large, 4, "else-if chain of 700 and 2,800 branches");
  }

  @Test
  void manyFunctionsCompileInAboutLinearWork() {
    allocatedToOptimise(oneLineFunctions(1_000), 2 * 7 + 1 + 999);
    long small = allocatedToOptimise(oneLineFunctions(5_000), 2 * 7 + 1 + 4_999);
    long large = allocatedToOptimise(oneLineFunctions(20_000), 2 * 7 + 1 + 19_999);
    assertAboutLinear(small, large, 4, "5,000 and 20,000 one-line functions");
  }

  @Test
  void longLetChainsCompileInAboutLinearWork() {
    allocatedByOptimiser(letChain(200), 7 + letChainSum(200));
    long small = allocatedByOptimiser(letChain(350), 7 + letChainSum(350));
    long large = allocatedByOptimiser(letChain(2_800), 7 + letChainSum(2_800));
    assertAboutLinear(small, large, 8, "chain of 350 and 2,800 lets");
  }

  /**
   * Fusing a chain of maps one at a time copies the function fused so far at each step (the IR is
   * immutable), so twice the maps cost about four times as much; where every fusion step also
   * walked every later statement of the body for every producer, they cost eight times as much.
   */
  @Test
  void longMapChainsFuseInAtMostQuadraticWork() {
    allocatedToOptimise(mapChain(50), 21 + 7 * 50);
    long small = allocatedToOptimise(mapChain(150), 21 + 7 * 150);
    long large = allocatedToOptimise(mapChain(300), 21 + 7 * 300);
    assertGrowthBelow(small, large, 6, "chain of 150 and 300 maps: twice the maps");
  }
}
