package dev.l0.dsl.usage;

import static dev.l0.dsl.L0.f64;
import static dev.l0.dsl.L0.i32;
import static dev.l0.dsl.L0.let;
import static dev.l0.dsl.L0.map;
import static dev.l0.dsl.L0.op;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.l0.dsl.Arr;
import dev.l0.dsl.F64;
import dev.l0.dsl.I32;
import dev.l0.dsl.L0;
import dev.l0.interp.Interpreter;
import dev.l0.ir.BinaryOperator;
import dev.l0.ir.L0CompileError;
import dev.l0.ir.L0RuntimeError;
import dev.l0.ir.Program;
import dev.l0.ir.ScalarValue;
import dev.l0.ir.SourcePos;
import dev.l0.ir.Value;
import dev.l0.types.TypeChecker;
import java.util.List;
import java.util.concurrent.atomic.AtomicReference;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.function.Executable;

/** Mistakes the DSL sees while staging are L0 compile errors at the Java line that made them. */
class DslErrorsTest {
  @Test
  void aValueUsedAfterItsLambdaEnded() {
    AtomicReference<F64> leaked = new AtomicReference<>();
    AtomicReference<SourcePos> line = new AtomicReference<>();
    assertCompileErrorAt(
        line,
        () ->
            L0.program(
                prog ->
                    prog.fun(
                        "f",
                        Arr.of(F64.TYPE),
                        xs -> {
                          Arr<F64> ys =
                              map(
                                  xs,
                                  x -> {
                                    leaked.set(x.mul(2.0));
                                    return x;
                                  });
                          line.set(JavaLine.next());
                          return map(ys, y -> y.add(leaked.get()));
                        })));
  }

  @Test
  void aParameterOfAnotherFunction() {
    AtomicReference<F64> other = new AtomicReference<>();
    AtomicReference<SourcePos> line = new AtomicReference<>();
    assertCompileErrorAt(
        line,
        () ->
            L0.program(
                prog -> {
                  prog.fun(
                      "f",
                      F64.TYPE,
                      x -> {
                        other.set(x);
                        return x;
                      });
                  prog.fun(
                      "g",
                      F64.TYPE,
                      x -> {
                        line.set(JavaLine.next());
                        return x.add(other.get());
                      });
                }));
  }

  @Test
  void aReshapeToTheWrongRankOrElementType() {
    AtomicReference<SourcePos> line = new AtomicReference<>();
    assertCompileErrorAt(
        line,
        () ->
            L0.program(
                prog ->
                    prog.fun(
                        "f",
                        Arr.of(F64.TYPE),
                        xs -> {
                          line.set(JavaLine.next());
                          return xs.reshape(Arr.of(Arr.of(F64.TYPE)), xs.size());
                        })));
    assertCompileErrorAt(
        line,
        () ->
            L0.program(
                prog ->
                    prog.fun(
                        "f",
                        Arr.of(F64.TYPE),
                        xs -> {
                          line.set(JavaLine.next());
                          return xs.reshape(Arr.of(I32.TYPE), xs.size());
                        })));
  }

  @Test
  void aSizeBeyondTheRank() {
    AtomicReference<SourcePos> line = new AtomicReference<>();
    assertCompileErrorAt(
        line,
        () ->
            L0.program(
                prog ->
                    prog.fun(
                        "f",
                        Arr.of(F64.TYPE),
                        xs -> {
                          line.set(JavaLine.next());
                          return xs.size(1);
                        })));
  }

  @Test
  void stagingOutsideAFunctionBody() {
    AtomicReference<SourcePos> line = new AtomicReference<>();
    assertCompileErrorAt(
        line,
        () -> {
          line.set(JavaLine.next());
          f64(1.0).add(2.0);
        });
    assertCompileErrorAt(
        line,
        () ->
            L0.program(
                prog -> {
                  line.set(JavaLine.next());
                  f64(1.0).add(2.0);
                }));
  }

  @Test
  void aProgramStagedInsideAnother() {
    AtomicReference<SourcePos> line = new AtomicReference<>();
    assertCompileErrorAt(
        line,
        () ->
            L0.program(
                prog ->
                    prog.fun(
                        "f",
                        F64.TYPE,
                        x -> {
                          line.set(JavaLine.next());
                          L0.program(inner -> inner.fun("g", F64.TYPE, y -> y));
                          return x;
                        })));
  }

  @Test
  void badNamesAndDuplicateFunctions() {
    AtomicReference<SourcePos> line = new AtomicReference<>();
    assertCompileErrorAt(
        line,
        () ->
            L0.program(
                prog -> {
                  line.set(JavaLine.next());
                  prog.fun("2f", F64.TYPE, x -> x);
                }));
    assertCompileErrorAt(
        line,
        () ->
            L0.program(
                prog -> {
                  line.set(JavaLine.next());
                  prog.fun("map", F64.TYPE, x -> x);
                }));
    assertCompileErrorAt(
        line,
        () ->
            L0.program(
                prog -> {
                  prog.fun("f", F64.TYPE, x -> x);
                  line.set(JavaLine.next());
                  prog.fun("f", F64.TYPE, x -> x);
                }));
    assertCompileErrorAt(
        line,
        () ->
            L0.program(
                prog ->
                    prog.fun(
                        "f",
                        F64.TYPE,
                        x -> {
                          line.set(JavaLine.next());
                          return let("not a name", x);
                        })));
  }

  @Test
  void aBodyThatReturnsNull() {
    AtomicReference<SourcePos> line = new AtomicReference<>();
    assertCompileErrorAt(
        line,
        () ->
            L0.program(
                prog -> {
                  line.set(JavaLine.next());
                  prog.fun("f", F64.TYPE, x -> (F64) null);
                }));
  }

  @Test
  void misusedTypesAndOperators() {
    AtomicReference<SourcePos> line = new AtomicReference<>();
    assertCompileErrorAt(
        line,
        () -> {
          line.set(JavaLine.next());
          F64.TYPE.unique();
        });
    assertCompileErrorAt(
        line,
        () -> {
          line.set(JavaLine.next());
          op(BinaryOperator.LT, F64.TYPE);
        });
  }

  /**
   * A DSL method passed to the JDK's own code (a stream's reduce) is placed at the user's line
   * around that call, not at a line of the JDK's stream classes.
   */
  @Test
  void aDslMethodThatTheJdkCallsIsPlacedAtTheUsersLine() {
    AtomicReference<SourcePos> line = new AtomicReference<>();
    Program program =
        L0.program(
            prog ->
                prog.fun(
                    "main",
                    I32.TYPE,
                    x -> {
                      line.set(JavaLine.next());
                      return Stream.of(L0.i32(10), x).reduce(I32::div).orElseThrow();
                    }));
    assertRunTimeErrorAt(line, program, ScalarValue.i32(0));
  }

  /**
   * A staged operation whose value is never used is still evaluated, as in the same text program:
   * an index out of bounds fails at the user's line instead of vanishing.
   */
  @Test
  void anUnusedIndexOutOfBoundsFailsAtItsLine() {
    AtomicReference<SourcePos> line = new AtomicReference<>();
    Program program =
        L0.program(
            prog ->
                prog.fun(
                    "main",
                    Arr.of(F64.TYPE),
                    xs -> {
                      line.set(JavaLine.next());
                      xs.get(i32(10));
                      return xs.get(i32(0));
                    }));
    assertRunTimeErrorAt(line, program, Value.Array.ofF64(1.5, 2.5));
  }

  /** A call by name that declares a result type other than the function's is an error there. */
  @Test
  void aCallByNameDeclaringTheWrongResultType() {
    AtomicReference<SourcePos> line = new AtomicReference<>();
    L0CompileError error =
        assertThrows(
            L0CompileError.class,
            () ->
                L0.program(
                    prog -> {
                      prog.fun("g", F64.TYPE, x -> x.mul(f64(1.5)));
                      prog.fun(
                          "main",
                          F64.TYPE,
                          x -> {
                            line.set(JavaLine.next());
                            return prog.call("g", I32.TYPE, x).toF64();
                          });
                    }));
    assertEquals(line.get(), error.pos(), error::getMessage);
    assertEquals(
        line.get() + ": the call of 'g' declares its result i32, but 'g' returns f64",
        error.getMessage());
  }

  /** Running {@code program}'s {@code main} on {@code argument} fails at {@code line}. */
  private static void assertRunTimeErrorAt(
      AtomicReference<SourcePos> line, Program program, Value argument) {
    L0RuntimeError error =
        assertThrows(
            L0RuntimeError.class,
            () ->
                new Interpreter(TypeChecker.check(program).program())
                    .call("main", List.of(argument)));
    assertEquals(line.get(), error.pos(), error::getMessage);
  }

  private static void assertCompileErrorAt(AtomicReference<SourcePos> line, Executable staging) {
    L0CompileError error = assertThrows(L0CompileError.class, staging);
    assertEquals(line.get(), error.pos(), error::getMessage);
  }
}
