package dev.l0.dsl.usage;

import static dev.l0.dsl.L0.concat;
import static dev.l0.dsl.L0.f64;
import static dev.l0.dsl.L0.i32;
import static dev.l0.dsl.L0.ifThenElse;
import static dev.l0.dsl.L0.iota;
import static dev.l0.dsl.L0.map;
import static dev.l0.dsl.L0.reduce;
import static dev.l0.dsl.L0.replicate;
import static dev.l0.dsl.L0.tuple;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.l0.dsl.Arr;
import dev.l0.dsl.F64;
import dev.l0.dsl.Fn1;
import dev.l0.dsl.I32;
import dev.l0.dsl.L0;
import dev.l0.dsl.ProgramBuilder;
import dev.l0.dsl.Tup2;
import dev.l0.dsl.ValType;
import dev.l0.interp.Interpreter;
import dev.l0.ir.L0CompileError;
import dev.l0.ir.Program;
import dev.l0.ir.ScalarType;
import dev.l0.ir.ScalarValue;
import dev.l0.ir.SourcePos;
import dev.l0.ir.Type;
import dev.l0.ir.Value;
import dev.l0.syntax.L0Parser;
import dev.l0.syntax.L0Printer;
import dev.l0.types.TypeChecker;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Function;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.function.Executable;

/**
 * What a new user gets wrong that Java's compiler lets through: nulls, a builder, function or value
 * of another program, a value of another function. Each is an {@link L0CompileError} at the user's
 * Java line that says what is wrong, never a {@code NullPointerException} or a silent other
 * program.
 */
class DslMisuseTest {
  private final AtomicReference<SourcePos> line = new AtomicReference<>();

  /**
   * The program staged by {@code definitions}, its first function's result at line {@link #line}.
   */
  private void assertErrorHere(String message, Executable staging) {
    L0CompileError error = assertThrows(L0CompileError.class, staging);
    assertEquals(line.get() + ": " + message, error.getMessage());
  }

  @Test
  void nullValuesAndFunctionsAreErrorsAtTheirLine() {
    assertErrorHere(
        "add(other): other is null",
        () ->
            L0.program(
                prog ->
                    prog.fun(
                        "main",
                        F64.TYPE,
                        x -> {
                          line.set(JavaLine.next());
                          return x.add((F64) null);
                        })));
    assertErrorHere(
        "map(xs, f): xs is null",
        () ->
            L0.program(
                prog ->
                    prog.fun(
                        "main",
                        F64.TYPE,
                        x -> {
                          line.set(JavaLine.next());
                          return map((Arr<F64>) null, y -> y);
                        })));
    assertErrorHere(
        "map(xs, f): f is null",
        () ->
            L0.program(
                prog ->
                    prog.fun(
                        "main",
                        Arr.of(F64.TYPE),
                        xs -> {
                          line.set(JavaLine.next());
                          return map(xs, (Function<F64, F64>) null);
                        })));
    assertErrorHere(
        "tuple(a, b): b is null",
        () ->
            L0.program(
                prog ->
                    prog.fun(
                        "main",
                        F64.TYPE,
                        x -> {
                          line.set(JavaLine.next());
                          return tuple(x, (F64) null);
                        })));
    assertErrorHere(
        "ifThenElse(condition, then, otherwise): otherwise is null",
        () ->
            L0.program(
                prog ->
                    prog.fun(
                        "main",
                        F64.TYPE,
                        x -> {
                          line.set(JavaLine.next());
                          return ifThenElse(x.lt(0.0), () -> x, null);
                        })));
    assertErrorHere(
        "get(i): i is null",
        () ->
            L0.program(
                prog ->
                    prog.fun(
                        "main",
                        Arr.of(F64.TYPE),
                        xs -> {
                          line.set(JavaLine.next());
                          return xs.get((I32) null);
                        })));
  }

  @Test
  void nullTypesAndDefinitionsAreErrorsAtTheirLine() {
    assertErrorHere(
        "program(definitions): definitions is null",
        () -> {
          line.set(JavaLine.next());
          L0.program(null);
        });
    assertErrorHere(
        "fun(name, a, body): a is null",
        () ->
            L0.program(
                prog -> {
                  line.set(JavaLine.next());
                  prog.fun("main", (ValType<F64>) null, x -> x);
                }));
    assertErrorHere(
        "Arr.of(element): element is null",
        () ->
            L0.program(
                prog -> {
                  line.set(JavaLine.next());
                  prog.fun("main", Arr.of((ValType<F64>) null), x -> x);
                }));
    assertErrorHere(
        "fun(name, paramTypes, body): paramTypes has a null at 1",
        () ->
            L0.program(
                prog -> {
                  line.set(JavaLine.next());
                  prog.fun(
                      "main", java.util.Arrays.asList(F64.TYPE, null), p -> p.get(0, F64.TYPE));
                }));
  }

  /**
   * A function handle of one program called in another that defines a function of the same name
   * used to call that other function, silently: a wrong answer.
   */
  @Test
  void aFunctionOfAnotherProgramIsAnErrorNotASilentOtherFunction() {
    AtomicReference<Fn1<F64, F64>> square = new AtomicReference<>();
    AtomicReference<SourcePos> definedAt = new AtomicReference<>();
    L0.program(
        prog -> {
          definedAt.set(JavaLine.next());
          square.set(prog.fun("sq", F64.TYPE, x -> x.mul(x)));
          prog.fun("main", F64.TYPE, x -> square.get().call(x));
        });
    assertErrorHere(
        "the function 'sq' was defined by another L0.program (at "
            + definedAt.get()
            + "); define it in this one with fun(...)",
        () ->
            L0.program(
                prog -> {
                  prog.fun("sq", F64.TYPE, x -> x.add(x));
                  prog.fun(
                      "main",
                      Arr.of(F64.TYPE),
                      xs -> {
                        line.set(JavaLine.next());
                        return map(xs, square.get());
                      });
                }));
    assertErrorHere(
        "the function 'sq' was defined by another L0.program (at "
            + definedAt.get()
            + "); define it in this one with fun(...)",
        () ->
            L0.program(
                prog ->
                    prog.fun(
                        "main",
                        F64.TYPE,
                        x -> {
                          line.set(JavaLine.next());
                          return square.get().call(x);
                        })));
  }

  @Test
  void aBuilderUsedAfterItsProgramOrInAnotherIsAnError() {
    AtomicReference<ProgramBuilder> first = new AtomicReference<>();
    AtomicReference<SourcePos> firstAt = new AtomicReference<>();
    firstAt.set(JavaLine.next());
    L0.program(
        prog -> {
          first.set(prog);
          prog.fun("main", F64.TYPE, x -> x);
        });
    assertErrorHere(
        "this ProgramBuilder is the one of the L0.program at "
            + firstAt.get()
            + ", which has been built; define functions inside its definitions",
        () -> {
          line.set(JavaLine.next());
          first.get().fun("late", F64.TYPE, x -> f64(1.0));
        });
    assertErrorHere(
        "this ProgramBuilder is the one of the L0.program at "
            + firstAt.get()
            + ", not of the one being staged; define functions with that one's builder",
        () ->
            L0.program(
                prog -> {
                  line.set(JavaLine.next());
                  first.get().fun("g", F64.TYPE, x -> f64(1.0));
                  prog.fun("main", F64.TYPE, x -> x);
                }));
  }

  @Test
  void aValueOfAnotherFunctionOrProgramSaysSo() {
    assertErrorHere(
        "a value of the function 'main' is used in the function 'g'; pass it as a parameter",
        () ->
            L0.program(
                prog ->
                    prog.fun(
                        "main",
                        F64.TYPE,
                        x -> {
                          Fn1<F64, F64> g =
                              prog.fun(
                                  "g",
                                  F64.TYPE,
                                  y -> {
                                    line.set(JavaLine.next());
                                    return y.add(x);
                                  });
                          return g.call(x);
                        })));
    AtomicReference<F64> leaked = new AtomicReference<>();
    AtomicReference<SourcePos> leakedAt = new AtomicReference<>();
    leakedAt.set(JavaLine.next());
    L0.program(
        prog ->
            prog.fun(
                "main",
                F64.TYPE,
                x -> {
                  leaked.set(x);
                  return x;
                }));
    assertErrorHere(
        "a value of the L0.program at " + leakedAt.get() + " is used in another program",
        () ->
            L0.program(
                prog ->
                    prog.fun(
                        "main",
                        F64.TYPE,
                        x -> {
                          line.set(JavaLine.next());
                          return x.add(leaked.get());
                        })));
  }

  /**
   * Staging on another thread (a parallel stream, an executor) is outside the program being staged,
   * which belongs to the thread that called {@code L0.program}; the error says so.
   */
  @Test
  void stagingOnAnotherThreadSaysWhichThread() {
    assertErrorHere(
        "L0 operations can only be staged inside L0.program(...), on the thread that called it",
        () ->
            L0.program(
                prog ->
                    prog.fun(
                        "main",
                        F64.TYPE,
                        x -> {
                          try {
                            return CompletableFuture.supplyAsync(
                                    () -> {
                                      line.set(JavaLine.next());
                                      return x.add(1.0);
                                    })
                                .join();
                          } catch (CompletionException e) {
                            throw (RuntimeException) e.getCause();
                          }
                        })));
  }

  /** A function name that is an L0 keyword is refused with the rule, not only the name. */
  @Test
  void aKeywordAsAFunctionNameSaysTheRule() {
    assertErrorHere(
        "not a function name: size (letters, digits and underscores, starting with a letter, and"
            + " not an L0 keyword)",
        () ->
            L0.program(
                prog -> {
                  line.set(JavaLine.next());
                  prog.fun("size", F64.TYPE, x -> x);
                }));
  }

  /**
   * Uniqueness applies to the outermost array only, as in L0 text: declaring a unique element is an
   * error at its line, and an array made of unique values (a map returning a unique parameter, a
   * replicate of it) has plain elements, so its printed program reads back. It used to print as
   * {@code [*[f64]]}, a type the parser refuses.
   */
  @Test
  void aUniqueArrayIsNeverAnElement() {
    assertErrorHere(
        "uniqueness applies to the outermost array only: write Arr.of(Arr.of(t)).unique(), not"
            + " Arr.of(Arr.of(t).unique())",
        () -> {
          line.set(JavaLine.next());
          Arr.of(Arr.of(F64.TYPE).unique());
        });
    Program staged =
        L0.program(
            prog ->
                prog.fun(
                    "main",
                    Arr.of(F64.TYPE).unique(),
                    xs -> concat(map(iota(i32(2)), i -> xs), replicate(i32(1), xs))));
    Program reparsed = L0Parser.parse(L0Printer.print(staged), "printed.l0");
    List<Value> args = List.of(Value.Array.ofF64(1.0, 2.0));
    Value expected =
        new Value.Array(
            Type.array(ScalarType.F64),
            List.of(
                Value.Array.ofF64(1.0, 2.0),
                Value.Array.ofF64(1.0, 2.0),
                Value.Array.ofF64(1.0, 2.0)));
    assertEquals(expected, new Interpreter(TypeChecker.check(staged).program()).call("main", args));
    assertEquals(
        expected, new Interpreter(TypeChecker.check(reparsed).program()).call("main", args));
  }

  /** Types in the DSL's messages are written as in L0 text, not as Java records. */
  @Test
  void typesInMessagesAreWrittenAsL0() {
    assertErrorHere(
        "parameter 0 of main is declared *[f64], read as [f64]",
        () ->
            L0.program(
                prog ->
                    prog.fun(
                        "main",
                        List.of(Arr.of(F64.TYPE).unique()),
                        p -> {
                          line.set(JavaLine.next());
                          return p.get(0, Arr.of(F64.TYPE));
                        })));
    assertErrorHere(
        "only array types can be unique, not {f64, i32}",
        () -> {
          line.set(JavaLine.next());
          Tup2.of(F64.TYPE, I32.TYPE).unique();
        });
  }

  /** The fixed programs above still run as written when nothing is misused. */
  @Test
  void theCorrectProgramRuns() {
    Program program =
        L0.program(
            prog -> {
              Fn1<F64, F64> square = prog.fun("sq", F64.TYPE, x -> x.mul(x));
              prog.fun(
                  "main",
                  Arr.of(F64.TYPE),
                  xs -> reduce(map(xs, square), f64(0.0), (a, b) -> a.add(b)));
            });
    assertEquals(
        ScalarValue.f64(13.0),
        new Interpreter(TypeChecker.check(program).program())
            .call("main", List.of(dev.l0.ir.Value.Array.ofF64(2.0, 3.0))));
  }
}
