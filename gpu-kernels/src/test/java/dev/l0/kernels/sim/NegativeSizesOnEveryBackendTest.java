package dev.l0.kernels.sim;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.l0.interp.Interpreter;
import dev.l0.ir.L0RuntimeError;
import dev.l0.ir.Program;
import dev.l0.ir.Value;
import dev.l0.kernels.exec.HostRunner;
import dev.l0.kernels.exec.KernelExecutor;
import dev.l0.syntax.L0Parser;
import dev.l0.values.ValueWriter;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * A size that the program's values make negative inside a kernel's rows (a reshape's or an iota's,
 * whose host-computed allocation and output shape it enters) is the interpreter's error where there
 * are rows, and the interpreter's empty result under a map over no rows (README, "Shapes of empty
 * arrays"), on the simulator and the JVM backend: never an internal error about a negative
 * allocation or an array of negative shape.
 */
class NegativeSizesOnEveryBackendTest {
  private static final String RESHAPED =
      """
      fun [[[i32]]] main([[i32]] a, i32 x, i32 y) =
        map(fn [[i32]] ([i32] r) => reshape((x, y), r), a)
      """;

  private static final String REPLICATED =
      """
      fun [[i32]] main([i32] a, i32 k) =
        map(fn [i32] (i32 x) => replicate(k, x), a)
      """;

  @Test
  void aNegativeSizeOfAReshapeInsideAMapIsTheReshapesError() {
    Program program = L0Parser.parse(RESHAPED, "test.l0");
    List<Value> args = EveryBackend.mainArguments(program, "[[1, 2, 3, 4], [3, 4, 5, 6]] 2 -2");
    L0RuntimeError interpreted =
        assertThrows(L0RuntimeError.class, () -> new Interpreter(program).call("main", args));
    assertEquals(
        "test.l0:2:31: reshape: negative size -2 in the new shape", interpreted.getMessage());
    for (KernelExecutor backend : EveryBackend.BACKENDS) {
      L0RuntimeError failure = EveryBackend.failure(program, args, backend, true);
      assertEquals(interpreted.getMessage(), failure.getMessage(), backend.name());
    }
  }

  /**
   * A split point from the host outside {@code 0..n} inside a map, whose second part a map reads
   * before a concat: the split's error on every backend, where the parts' negative or too large
   * sizes made the thread write outside its scratch (the JVM backend's internal error {@code
   * ArrayIndexOutOfBoundsException: Index -1 out of bounds for length 2}, the simulator's kernel
   * defect).
   */
  @Test
  void aSplitPointOutsideTheRowsInsideAMapIsTheSplitsError() {
    String rotated =
        """
        fun [[i32]] main(i32 n, [[i32]] xs) =
          map(fn [i32] ([i32] r) => let {a, b} = split(n, r) in concat(map(op *(2), b), a), xs)
        """;
    Program program = L0Parser.parse(rotated, "test.l0");
    for (String input : List.of("4 [[1, 5, 3], [0, 7, 8]]", "-1 [[1, 5, 3], [0, 7, 8]]")) {
      List<Value> args = EveryBackend.mainArguments(program, input);
      L0RuntimeError interpreted =
          assertThrows(L0RuntimeError.class, () -> new Interpreter(program).call("main", args));
      assertEquals(
          "test.l0:2:42: split: split point "
              + input.split(" ")[0]
              + " outside 0..3 (the outer size of the array)",
          interpreted.getMessage());
      for (KernelExecutor backend : EveryBackend.BACKENDS) {
        L0RuntimeError failure = EveryBackend.failure(program, args, backend, true);
        assertEquals(interpreted.getMessage(), failure.getMessage(), backend.name());
      }
    }
  }

  /**
   * A negative count from the host of an {@code iota}, {@code replicate} or {@code reshape} inside
   * a map, whose array a map reads before a concat: the count's error on every backend, where the
   * negative size made the thread write outside its scratch (the JVM backend's {@code
   * ArrayIndexOutOfBoundsException: Index -8 out of bounds for length 0}, the simulator's kernel
   * defect).
   */
  @Test
  void aNegativeCountInsideAMapIsTheCountsError() {
    for (String operation : List.of("iota(n)", "replicate(n, 1)", "reshape((n), r)")) {
      String source =
          "fun [i32] main(i32 n, [[i32]] xs) =\n"
              + "  map(fn i32 ([i32] r) => reduce(op +, 0, concat(map(op *(2), "
              + operation
              + "), r)), xs)\n";
      Program program = L0Parser.parse(source, "test.l0");
      List<Value> args = EveryBackend.mainArguments(program, "-4 [[1, 5, 3], [0, 7, 8]]");
      L0RuntimeError interpreted =
          assertThrows(L0RuntimeError.class, () -> new Interpreter(program).call("main", args));
      assertEquals(operation.substring(0, operation.indexOf('(')), interpreted.operation());
      for (KernelExecutor backend : EveryBackend.BACKENDS) {
        L0RuntimeError failure = EveryBackend.failure(program, args, backend, true);
        assertEquals(interpreted.getMessage(), failure.getMessage(), backend.name());
      }
    }
  }

  @Test
  void aMapOverNoRowsWhoseRowsWouldHaveANegativeSizeGivesTheInterpretersEmptyArray() {
    assertEmptyAsTheInterpreter(RESHAPED, "empty([0][4]i32) 2 -2", "empty([0][2][0]i32)");
    assertEmptyAsTheInterpreter(REPLICATED, "[] -4", "[]");
  }

  /**
   * A map over no rows whose function fails on the zero row after a failing {@code split}: the
   * zero-row kernel reads nothing the failed split left unwritten (the simulator reported an
   * uninitialised read of the thread's scratch as an internal error).
   */
  @Test
  void aMapOverNoRowsWhoseFunctionFailsOnTheZeroRowReadsNothingUnwritten() {
    String rotated =
        """
        fun [[i32]] main([[i32]] m, i32 k) =
          map(fn [i32] ([i32] r) =>
                let {a, b} = split(k, r) in
                concat(b, a),
              m)
        """;
    assertEmptyAsTheInterpreter(rotated, "empty([0][3]i32) 4", "[]");
    assertEmptyAsTheInterpreter(rotated, "empty([0][3]i32) -1", "[]");
    assertEmptyAsTheInterpreter(rotated, "empty([0][3]i32) 1", "empty([0][3]i32)");
    String summed =
        """
        fun [[i32]] main([[i32]] m, i32 k) =
          map(fn [i32] ([i32] r) =>
                let {a, b} = split(k, r) in
                let c = concat(b, a) in
                let s = reduce(op +, 0, c) in
                map(op +(s), c),
              m)
        """;
    assertEmptyAsTheInterpreter(summed, "empty([0][3]i32) 4", "[]");
  }

  /** The same inside a kernel's rows: an inner map over no rows sizes its rows on the zero row. */
  @Test
  void anInnerMapOverNoRowsWhoseFunctionFailsOnTheZeroRowReadsNothingUnwritten() {
    String nested =
        """
        fun [[[i32]]] main([[[i32]]] m, i32 k) =
          map(fn [[i32]] ([[i32]] blk) =>
                map(fn [i32] ([i32] r) =>
                      let {a, b} = split(k, r) in
                      let c = concat(b, a) in
                      let s = reduce(op +, 0, c) in
                      map(op +(s), c),
                    blk),
              m)
        """;
    Program program = L0Parser.parse(nested, "test.l0");
    for (String input : List.of("empty([2][0][3]i32) 4", "empty([2][0][3]i32) 1")) {
      List<Value> args = EveryBackend.mainArguments(program, input);
      String expected = ValueWriter.write(new Interpreter(program).call("main", args));
      for (KernelExecutor backend : EveryBackend.BACKENDS) {
        List<String> runs = new ArrayList<>();
        HostRunner runner =
            HostRunner.compile(program, EveryBackend.watching(backend, runs::add, error -> {}));
        assertEquals(expected, ValueWriter.write(runner.call("main", args)), backend.name());
        assertEquals(List.of("map"), runs, backend.name() + " ran the map as a kernel");
      }
    }
  }

  private static void assertEmptyAsTheInterpreter(String source, String input, String expected) {
    Program program = L0Parser.parse(source, "test.l0");
    List<Value> args = EveryBackend.mainArguments(program, input);
    assertEquals(expected, ValueWriter.write(new Interpreter(program).call("main", args)));
    for (KernelExecutor backend : EveryBackend.BACKENDS) {
      List<String> runs = new ArrayList<>();
      HostRunner runner =
          HostRunner.compile(program, EveryBackend.watching(backend, runs::add, error -> {}));
      assertEquals(expected, ValueWriter.write(runner.call("main", args)), backend.name());
      assertEquals(List.of("map"), runs, backend.name() + " ran the map as a kernel");
    }
  }
}
