package dev.l0.kernels.api;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.l0.ir.ScalarValue;
import dev.l0.kernels.runtime.DeviceKind;
import dev.l0.opt.OptimizedProgram;
import dev.l0.opt.Optimizer;
import dev.l0.syntax.L0Parser;
import dev.l0.types.NestingLimit;
import dev.l0.types.TypeChecker;
import java.util.List;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Supplier;
import org.junit.jupiter.api.Test;

/**
 * A program nested deeply within {@link NestingLimit#MAX_DEPTH} (an else-if chain of 1,000
 * branches) runs through the Java API as it runs from the CLI, also when called from a thread with
 * a small stack: the API runs the program on a thread with the compiler's large stack, so the
 * verdict does not depend on the caller's.
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
}
