package dev.l0.opt;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.l0.ir.ScalarValue;
import dev.l0.ir.Value;
import dev.l0.syntax.L0Parser;
import dev.l0.types.NestingLimit;
import dev.l0.types.TypeChecker;
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

  private static void assertAboutLinear(long small, long large, String what) {
    double ratio = (double) large / small;
    assertTrue(
        ratio < 8,
        what
            + ": four times the code allocated "
            + ratio
            + " times as much ("
            + small
            + " then "
            + large
            + " bytes)");
  }

  @Test
  void deepElseIfChainsCompileInAboutLinearWork() {
    allocatedToOptimise(elseIfChain(200), 14);
    long small = allocatedToOptimise(elseIfChain(700), 14);
    long large = allocatedToOptimise(elseIfChain(2_800), 14);
    assertAboutLinear(small, large, "else-if chain of 700 and 2,800 branches");
  }

  @Test
  void manyFunctionsCompileInAboutLinearWork() {
    allocatedToOptimise(oneLineFunctions(1_000), 2 * 7 + 1 + 999);
    long small = allocatedToOptimise(oneLineFunctions(5_000), 2 * 7 + 1 + 4_999);
    long large = allocatedToOptimise(oneLineFunctions(20_000), 2 * 7 + 1 + 19_999);
    assertAboutLinear(small, large, "5,000 and 20,000 one-line functions");
  }
}
