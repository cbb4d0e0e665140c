package dev.l0.kernels.api;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.l0.ir.ScalarValue;
import dev.l0.kernels.exec.HostRunner;
import dev.l0.kernels.jvm.JvmKernelExecutor;
import dev.l0.kernels.runtime.DeviceKind;
import dev.l0.opt.OptimizedProgram;
import dev.l0.opt.Optimizer;
import dev.l0.syntax.L0Parser;
import dev.l0.types.NestingLimit;
import dev.l0.types.TypeChecker;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Supplier;
import org.junit.jupiter.api.Test;

/**
 * A program nested deeply within {@link NestingLimit#MAX_DEPTH} (an else-if chain of 1,000
 * branches) runs through the Java API as it runs from the CLI, also when called from a thread with
 * a small stack: the API runs the program on a thread with the compiler's large stack, so the
 * verdict does not depend on the caller's. A program nested no deeper than {@link
 * NestingLimit#CALLER_STACK_DEPTH} bodies (P0) runs on the caller's thread.
 */
class DeepProgramsTest {
  /** The caller's stack: 256 KiB, smaller than a JVM's default thread stack. */
  private static final long SMALL_STACK_BYTES = 256 * 1024;

  /** An else-if chain of {@code n} branches: main(x) = 2x for 0 <= x < n, else -1. */
  private static String elseIfChain(int n) {
    StringBuilder text = new StringBuilder("fun i32 main(i32 x) =\n");
    for (int i = 0; i < n; i++) {
      text.append("  if x = ").append(i).append(" then ").append(2 * i).append(" else\n");
    }
    return text.append("  -1\n").toString();
  }

  private static final String DEEP = elseIfChain(1000);

  /** What {@code work} returns or throws, run on a thread of its own with a small stack. */
  private static String onSmallStack(Supplier<Object> work) throws InterruptedException {
    AtomicReference<String> outcome = new AtomicReference<>();
    Thread caller =
        new Thread(
            null,
            () -> {
              try {
                outcome.set("value " + work.get());
              } catch (RuntimeException | StackOverflowError e) {
                outcome.set("failure " + e);
              }
            },
            "small-stack caller",
            SMALL_STACK_BYTES);
    caller.start();
    caller.join();
    return outcome.get();
  }

  @Test
  void compiledProgramRunsADeepProgramFromASmallStack() throws InterruptedException {
    try (CompiledProgram program = L0Runtime.compile(DEEP, "deep.l0", "main", DeviceKind.JVM)) {
      assertEquals("value 1998", onSmallStack(() -> program.run(999)));
      assertEquals("value -1", onSmallStack(() -> program.run(1000)));
    }
  }

  @Test
  void optimizedProgramCallsADeepProgramFromASmallStack() throws InterruptedException {
    OptimizedProgram program =
        Optimizer.optimize(TypeChecker.check(L0Parser.parse(DEEP, "deep.l0")));
    assertEquals(
        "value " + ScalarValue.i32(1998),
        onSmallStack(() -> program.call("main", List.of(ScalarValue.i32(999)))));
    assertEquals(
        "value " + ScalarValue.i32(-1),
        onSmallStack(() -> program.call("main", List.of(ScalarValue.i32(1000)))));
  }

  @Test
  void onlyAProgramNestedBeyondTheCallersDepthLeavesTheCallersThread() throws Exception {
    String p0;
    try (var in = DeepProgramsTest.class.getResourceAsStream("/programs/p0_blackscholes.l0")) {
      p0 = new String(in.readAllBytes(), java.nio.charset.StandardCharsets.UTF_8);
    }
    int shallow =
        HostRunner.compile(L0Parser.parse(p0, "p0.l0"), new JvmKernelExecutor(1)).nestingDepth();
    int deep =
        HostRunner.compile(L0Parser.parse(DEEP, "deep.l0"), new JvmKernelExecutor(1))
            .nestingDepth();
    assertTrue(shallow >= 1 && shallow <= NestingLimit.CALLER_STACK_DEPTH, "P0 nests " + shallow);
    assertTrue(deep >= 1000, "the else-if chain nests " + deep);

    Thread caller = Thread.currentThread();
    assertSame(caller, NestingLimit.onLargeStackBeyond(shallow, Thread::currentThread));
    Thread other = NestingLimit.onLargeStackBeyond(deep, Thread::currentThread);
    assertNotSame(caller, other);
    assertEquals("l0-compiler", other.getName());

    // P0 through the API from a small stack, on the caller's thread: the same prices as StrictMath
    try (CompiledProgram program = L0Runtime.compile(p0, "p0.l0", "blackscholes", DeviceKind.JVM)) {
      Object[] options = {
        new boolean[] {true, false},
        new double[] {100, 90},
        new double[] {95, 100},
        new double[] {1, 0.5},
        new double[] {0.05, 0.02},
        new double[] {0.2, 0.3}
      };
      String onSmall =
          onSmallStack(() -> Arrays.toString((double[]) program.run((Object) options)));
      assertEquals("value " + Arrays.toString((double[]) program.run((Object) options)), onSmall);
    }
  }
}
