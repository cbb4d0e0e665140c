package dev.l0.kernels.sim;

import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * A function the optimiser does not inline (one that calls itself) runs its kernels on the backend,
 * call by call, as {@code main}'s do: on the simulator (blocks of 1 and 32 threads) and the JVM
 * backend, with the interpreter's results, and never on the optimiser's evaluator.
 */
class CalledFunctionsOnEveryBackendTest {
  /** Halves every element {@code depth} times, one map per call, then sums them. */
  static final String HALVES =
      """
      fun real halves([real] xs, int depth) =
        if depth = 0 then reduce(op +, 0.0, xs)
        else halves(map(fn real (real x) => x * 0.5, xs), depth - 1)
      fun real main([real] xs, int depth) =
        let s = halves(xs, depth) in
        s + reduce(op +, 0.0, map(fn real (real x) => x * x, xs))
      """;

  @Test
  void aRecursiveFunctionsKernelsRunOnTheBackendOncePerCall() {
    // whole numbers and halves: every order of the parallel sums gives the left fold's bits
    String xs = "[1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0, 8.0, 9.0, 10.0, 11.0, 12.0]";
    EveryBackend.assertRunsAs(
        List.of("map", "map", "map", "reduce", "redomap"), HALVES, "halves.l0", xs + " 3");
    EveryBackend.assertRunsAs(List.of("reduce", "redomap"), HALVES, "halves.l0", xs + " 0");
  }

  /** A kernel of a called function that fails fails as the interpreter does, at its position. */
  @Test
  void aFailingKernelOfACalledFunctionFailsWhereTheInterpreterDoes() {
    String source =
        """
        fun int pick([int] xs, [int] is, int depth) =
          if depth = 0 then reduce(op +, 0, map(fn int (int i) => xs[i], is))
          else pick(xs, is, depth - 1)
        fun int main([int] xs, [int] is) = pick(xs, is, 2)
        """;
    EveryBackend.assertFailsAs(List.of("redomap"), source, "pick.l0", "[1, 2, 3] [0, 5, 1]");
  }
}
