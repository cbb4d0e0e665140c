package dev.l0.kernels.sim;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.l0.interp.Interpreter;
import dev.l0.ir.L0RuntimeError;
import dev.l0.ir.Program;
import dev.l0.ir.Value;
import dev.l0.kernels.exec.KernelExecutor;
import dev.l0.kernels.lower.LaunchConfiguration;
import dev.l0.opt.Optimizer;
import dev.l0.syntax.L0Parser;
import dev.l0.types.TypeChecker;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * A run-time error whose message names values (the index, its dimension and size; a zip's sizes; a
 * split point; a negative size; an integer power's negative exponent; a map's, an array literal's
 * or a concat's rows of different shapes; an in-place update's value of another shape) gives the
 * interpreter's message word for word on the optimiser's evaluator, the simulator and the JVM
 * backend, also where a kernel thread raises it: the thread records the values with its error code
 * (README, "The language": the message names the sizes involved). Each case says where a backend
 * raises it, and the test asserts it: in a kernel's run, or on the host for a certificate the
 * optimiser checks before the kernel.
 */
class FailureDetailsOnEveryBackendTest {
  /** Thesis §2.1's "[iota(1), iota(2)] // A run-time error if reached.", reached where c holds. */
  private static final String THESIS_IRREGULAR_LITERAL =
      """
      fun [[i32]] main(bool c) =
        if c then [iota(1), iota(2)] else [[7]]
      """;

  static Stream<Arguments> failingPrograms() {
    return Stream.of(
        Arguments.of(
            "an index in a map (the first failing row's)",
            """
            fun [i32] main([i32] a, i32 k) =
              map(fn i32 (i32 i) => a[i + k], iota(size(a)))
            """,
            "[10, 20, 30, 40] 2",
            "test.l0:2:25: index: index 4 out of bounds for dimension 0 of size 4",
            RaisedBy.A_KERNEL),
        Arguments.of(
            "the inner index of two",
            """
            fun [i32] main([[i32]] m, [i32] is, [i32] js) =
              map(fn i32 (i32 i, i32 j) => m[i, j], zip(is, js))
            """,
            "[[1, 2], [3, 4]] [0, 1, 1] [1, 0, 2]",
            "test.l0:2:32: index: index 2 out of bounds for dimension 1 of size 2",
            RaisedBy.A_KERNEL),
        Arguments.of(
            "the outer index of two",
            """
            fun [i32] main([[i32]] m, [i32] is, [i32] js) =
              map(fn i32 (i32 i, i32 j) => m[i, j], zip(is, js))
            """,
            "[[1, 2], [3, 4]] [0, -5, 1] [1, 0, 7]",
            "test.l0:2:32: index: index -5 out of bounds for dimension 0 of size 2",
            RaisedBy.A_KERNEL),
        Arguments.of(
            "an index in a reduction's map",
            """
            fun i32 main([i32] a, [i32] t) =
              reduce(op +, 0, map(fn i32 (i32 x) => t[x] * 2, a))
            """,
            "[0, 1, 7, 2, 9] [5, 6, 7]",
            "test.l0:2:41: index: index 7 out of bounds for dimension 0 of size 3",
            RaisedBy.A_KERNEL),
        Arguments.of(
            "an index in a loop inside a thread",
            """
            fun [f64] main([[f64]] m, i32 k) =
              map(fn f64 ([f64] r) => loop (s = 0.0) = for i < k do s + exp(r[i]) in s, m)
            """,
            "[[1.0, 2.0], [3.0, 4.0]] 3",
            "test.l0:2:65: index: index 2 out of bounds for dimension 0 of size 2",
            RaisedBy.A_KERNEL),
        Arguments.of(
            "an in-place update",
            """
            fun [[i32]] main([[i32]] a, i32 i) =
              map(fn [i32] ([i32] r) => let r2 = copy(r) in let r2[i] = 0 in r2, a)
            """,
            "[[1, 2], [3, 4]] 2",
            "test.l0:2:49: update: index 2 out of bounds for dimension 0 of size 2",
            RaisedBy.A_KERNEL),
        Arguments.of(
            "a zip of two columns",
            """
            fun [i32] main([i32] a, [i32] b) =
              map(fn i32 (i32 x, i32 y) => x + y, zip(a, b))
            """,
            "[1, 2, 3] [1]",
            "test.l0:2:39: zip: argument 2 has outer size 1 but argument 1 has outer size 3",
            RaisedBy.THE_HOST),
        Arguments.of(
            "a zip of three, the third short",
            """
            fun [i32] main([i32] a, [i32] b, [i32] c) =
              map(fn i32 (i32 x, i32 y, i32 z) => x + y + z, zip(a, b, c))
            """,
            "[1, 2] [3, 4] [5]",
            "test.l0:2:50: zip: argument 3 has outer size 1 but argument 1 has outer size 2",
            RaisedBy.THE_HOST),
        Arguments.of(
            "a zip of rows (their sizes are the arrays' inner sizes, checked before the map)",
            """
            fun [[i32]] main([[i32]] a, [[i32]] b) =
              map(fn [i32] ([i32] x, [i32] y) => map(op +, zip(x, y)), zip(a, b))
            """,
            "[[1, 2, 3]] [[1, 2]]",
            "test.l0:2:48: zip: argument 2 has outer size 2 but argument 1 has outer size 3",
            RaisedBy.THE_HOST),
        Arguments.of(
            "a zip inside a thread (a row and its filtered elements)",
            """
            fun [[i32]] main([[i32]] a) =
              map(fn [i32] ([i32] x) =>
                    let y = filter(fn bool (i32 v) => v > 0, x) in map(op +, zip(x, y)),
                  a)
            """,
            "[[1, 2, 3], [1, -2, 3]]",
            "test.l0:3:66: zip: argument 2 has outer size 2 but argument 1 has outer size 3",
            RaisedBy.A_KERNEL),
        Arguments.of(
            "a split inside a thread",
            """
            fun [i32] main([[i32]] a, i32 n) =
              map(fn i32 ([i32] r) => let {x, y} = split(n, r) in reduce(op +, 0, x), a)
            """,
            "[[1, 2], [3, 4]] 3",
            "test.l0:2:40: split: split point 3 outside 0..2 (the outer size of the array)",
            RaisedBy.A_KERNEL),
        Arguments.of(
            "a reshape inside a thread",
            """
            fun [[[i32]]] main([[i32]] a, i32 x, i32 y) =
              map(fn [[i32]] ([i32] r) => reshape((x, y), r), a)
            """,
            "[[1, 2, 3, 4], [3, 4, 5, 6]] 3 2",
            "test.l0:2:31: reshape: cannot reshape an array of shape [4] (4 elements) into shape"
                + " (3, 2) (6 elements)",
            RaisedBy.A_KERNEL),
        Arguments.of(
            "an iota inside a thread",
            """
            fun [i32] main([[i32]] a) =
              map(fn i32 ([i32] r) => reduce(op +, 0, iota(r[0])), a)
            """,
            "[[1, 2], [-3, 4]]",
            "test.l0:2:43: iota: negative size -3",
            RaisedBy.A_KERNEL),
        Arguments.of(
            "an integer power's negative exponent inside a thread",
            """
            fun [i32] main([i32] a, [i32] e) =
              map(fn i32 (i32 x, i32 k) => x pow k, zip(a, e))
            """,
            "[2, 3, 4] [1, -2, 3]",
            "test.l0:2:34: pow: negative exponent -2 for an integer power",
            RaisedBy.A_KERNEL),
        Arguments.of(
            "an array literal of computed rows of different sizes (thesis §2.1)",
            THESIS_IRREGULAR_LITERAL,
            "true",
            "test.l0:2:13: array literal: irregular array: element 1 has shape [2] but element 0"
                + " has shape [1]",
            RaisedBy.THE_HOST),
        Arguments.of(
            "an array literal's rows of different sizes inside a thread",
            """
            fun [[[i32]]] main([i32] xs, i32 n, i32 m) =
              map(fn [[i32]] (i32 x) => [map(op +(x), iota(n)), iota(m)], xs)
            """,
            "[1, 2] 1 2",
            "test.l0:2:29: array literal: irregular array: element 1 has shape [2] but element 0"
                + " has shape [1]",
            RaisedBy.A_KERNEL),
        Arguments.of(
            "concat's rows of different sizes inside a thread",
            """
            fun [[[i32]]] main([i32] xs, i32 n, i32 m) =
              map(fn [[i32]] (i32 x) => concat([map(op +(x), iota(n))], [iota(m)]), xs)
            """,
            "[1, 2] 1 2",
            "test.l0:2:29: concat: the rows of the first array have shape [1] but those of the"
                + " second have shape [2]",
            RaisedBy.A_KERNEL),
        Arguments.of(
            "an in-place update with a row of another size inside a thread",
            """
            fun [[[i32]]] main([i32] xs, i32 n, i32 m) =
              map(fn [[i32]] (i32 x) => let a = replicate(2, iota(n)) in let a[0] = iota(m) in a, xs)
            """,
            "[1, 2] 2 3",
            "test.l0:2:62: update: the new value has shape [3] but the updated part has shape [2]",
            RaisedBy.A_KERNEL),
        Arguments.of(
            "a map's rows of different sizes (filtered rows)",
            """
            fun [[i32]] main([[i32]] m) =
              map(fn [i32] ([i32] r) => filter(fn bool (i32 x) => x > 0, r), m)
            """,
            "[[1, -2, 3], [1, 2, 3], [4, 5, -6]]",
            "test.l0:2:3: map: irregular array: element 1 has shape [3] but element 0 has shape"
                + " [2]",
            RaisedBy.A_KERNEL),
        Arguments.of(
            "an inner map's rows of different sizes inside a thread",
            """
            fun [[[i32]]] main([[i32]] m) =
              map(fn [[i32]] ([i32] r) => map(fn [i32] (i32 x) => if x > 0 then iota(2) else iota(3), r), m)
            """,
            "[[2, 3], [1, -1]]",
            "test.l0:2:31: map: irregular array: element 1 has shape [3] but element 0 has shape"
                + " [2]",
            RaisedBy.A_KERNEL),
        Arguments.of(
            "a later row's failure before an inner map's rows of different sizes (all rows run"
                + " first)",
            """
            fun [[[i32]]] main([[i32]] m, [i32] a) =
              map(fn [[i32]] ([i32] r) =>
                    map(fn [i32] (i32 x) =>
                          if x = 1 then iota(3) else map(fn i32 (i32 i) => a[x] + i, iota(2)),
                        r),
                  m)
            """,
            "[[0, 1, 5]] [2, 3]",
            "test.l0:4:64: index: index 5 out of bounds for dimension 0 of size 2",
            RaisedBy.A_KERNEL),
        Arguments.of(
            "a map's rows of different shapes (two dimensions, picked by an if)",
            """
            fun [[[i32]]] main([[i32]] m) =
              map(fn [[i32]] ([i32] r) =>
                    if r[0] > 0 then [r, r] else [concat(r, r), concat(r, r)],
                  m)
            """,
            "[[1, 2], [3, 4], [-1, 2]]",
            "test.l0:2:3: map: irregular array: element 2 has shape [2][4] but element 0 has shape"
                + " [2][2]",
            RaisedBy.A_KERNEL));
  }

  /** Where a backend raises a case's failure. */
  enum RaisedBy {
    A_KERNEL,
    /** The host, checking the optimiser's certificate before the kernel that needs it. */
    THE_HOST
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("failingPrograms")
  void everyBackendGivesTheInterpretersMessage(
      String what, String source, String input, String expected, RaisedBy raisedBy) {
    Program program = L0Parser.parse(source, "test.l0");
    List<Value> args = EveryBackend.mainArguments(program, input);
    L0RuntimeError interpreted =
        assertThrows(L0RuntimeError.class, () -> new Interpreter(program).call("main", args));
    assertEquals(expected, interpreted.getMessage());
    L0RuntimeError optimised =
        assertThrows(
            L0RuntimeError.class,
            () -> Optimizer.optimize(TypeChecker.check(program)).call("main", args));
    assertEquals(expected, optimised.getMessage(), "the optimiser's evaluator");
    for (KernelExecutor backend : EveryBackend.BACKENDS) {
      L0RuntimeError failure =
          EveryBackend.failure(program, args, backend, raisedBy == RaisedBy.A_KERNEL);
      assertEquals(expected, failure.getMessage(), backend.name());
    }
  }

  @Test
  void anIrregularArrayLiteralNotReachedIsNoError() {
    EveryBackend.assertRunsAs(List.of(), THESIS_IRREGULAR_LITERAL, "test.l0", "false");
  }

  /**
   * Where a grid has fewer threads than rows, each thread runs rows far apart (in a grid of one
   * block of 32, thread 0 runs rows 0, 32, 64, ...): row 32's error is raised before row 1's, but
   * the call reports row 1's, the interpreter's (the simulator reruns the failing launch a thread
   * per row, as the CUDA executor reruns it on the JVM backend).
   */
  @Test
  void theFirstFailingRowsErrorWhereAThreadRunsSeveralRows() {
    Program program =
        L0Parser.parse(
            "fun [i32] main([i32] xs, [i32] ks) = map(fn i32 (i32 k) => xs[k], ks)\n", "rows.l0");
    String[] ks = new String[100];
    java.util.Arrays.fill(ks, "0");
    ks[1] = "5";
    ks[32] = "999";
    List<Value> args =
        EveryBackend.mainArguments(program, "[1, 2, 3, 4, 5] [" + String.join(", ", ks) + "]");
    String expected = "rows.l0:1:60: index: index 5 out of bounds for dimension 0 of size 5";
    assertEquals(
        expected,
        assertThrows(L0RuntimeError.class, () -> new Interpreter(program).call("main", args))
            .getMessage());
    KernelExecutor oneBlock = new SimulatorExecutor(32, LaunchConfiguration.forDevice(1, 1));
    assertEquals(expected, EveryBackend.failure(program, args, oneBlock, true).getMessage());
  }
}
