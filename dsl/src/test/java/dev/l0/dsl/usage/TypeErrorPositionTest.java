package dev.l0.dsl.usage;

import static dev.l0.dsl.L0.f64;
import static dev.l0.dsl.L0.i32;
import static dev.l0.dsl.L0.map;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.l0.dsl.Arr;
import dev.l0.dsl.Bool;
import dev.l0.dsl.F64;
import dev.l0.dsl.Fn1;
import dev.l0.dsl.FnN;
import dev.l0.dsl.I64;
import dev.l0.dsl.L0;
import dev.l0.dsl.Tup2;
import dev.l0.dsl.Val;
import dev.l0.dsl.ValType;
import dev.l0.interp.Interpreter;
import dev.l0.ir.L0CompileError;
import dev.l0.ir.Program;
import dev.l0.ir.ScalarType;
import dev.l0.ir.ScalarValue;
import dev.l0.ir.SourcePos;
import dev.l0.ir.Value;
import dev.l0.types.TypeChecker;
import java.util.Arrays;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;

/**
 * Type errors that Java cannot see (calls by name, which declare their result type unchecked;
 * uniqueness) are found by the L0 type checker and reported at the Java line that staged them,
 * naming a parameter as the user wrote it (its position and type, and for a lambda its Java line),
 * not by the name the DSL generated for it.
 */
class TypeErrorPositionTest {
  /** The error names the callee's parameter by its position and type, not by its generated name. */
  @Test
  void aFunctionCalledWithTheWrongTypeIsReportedAtTheCallsJavaLine() {
    AtomicReference<SourcePos> callLine = new AtomicReference<>();
    Program program =
        L0.program(
            prog -> {
              prog.fun("twice", F64.TYPE, x -> x.mul(2.0));
              prog.fun(
                  "bad",
                  Bool.TYPE,
                  b -> {
                    callLine.set(JavaLine.next());
                    return prog.call("twice", F64.TYPE, b);
                  });
            });

    L0CompileError error = assertThrows(L0CompileError.class, () -> TypeChecker.check(program));

    assertEquals(callLine.get(), error.pos());
    assertEquals(error.pos() + ": " + error.detail(), error.getMessage());
    assertEquals(
        "argument 1 of function 'twice' must have type f64 (the 1st parameter (f64) of 'twice'),"
            + " got bool",
        error.detail());
  }

  @Test
  void aCallOfAnUndefinedFunctionIsReportedAtItsJavaLine() {
    AtomicReference<SourcePos> callLine = new AtomicReference<>();
    Program program =
        L0.program(
            prog ->
                prog.fun(
                    "bad",
                    F64.TYPE,
                    d -> {
                      callLine.set(JavaLine.next());
                      return prog.call("undefined", F64.TYPE, d);
                    }));

    L0CompileError error = assertThrows(L0CompileError.class, () -> TypeChecker.check(program));

    assertEquals(callLine.get(), error.pos());
  }

  @Test
  void aLambdasParameterIsNamedByPositionTypeAndTheLambdasJavaLine() {
    AtomicReference<SourcePos> mapLine = new AtomicReference<>();
    Program program =
        L0.program(
            prog ->
                prog.fun(
                    "bad",
                    Arr.of(Arr.of(F64.TYPE)),
                    rows -> {
                      mapLine.set(JavaLine.next());
                      return map(rows, row -> row.with(i32(0), f64(1.0)));
                    }));

    L0CompileError error = assertThrows(L0CompileError.class, () -> TypeChecker.check(program));

    String lambda = "the 1st parameter ([f64]) of the lambda at " + mapLine.get();
    assertEquals(mapLine.get(), error.pos());
    assertEquals(
        lambda
            + " is consumed at "
            + mapLine.get().line()
            + " but "
            + lambda
            + " (declared at "
            + mapLine.get().line()
            + ") is not unique; declare it *[...] or copy it",
        error.detail());
  }

  @Test
  void aFunctionsParameterUsedAfterItWasConsumedIsNamedByPositionAndType() {
    AtomicReference<SourcePos> useLine = new AtomicReference<>();
    AtomicReference<SourcePos> updateLine = new AtomicReference<>();
    Program program =
        L0.program(
            prog ->
                prog.fun(
                    "bad",
                    I64.TYPE,
                    Arr.of(F64.TYPE).unique(),
                    (n, xs) -> {
                      updateLine.set(JavaLine.next());
                      Arr<F64> updated = xs.with(i32(0), f64(1.0));
                      useLine.set(JavaLine.next());
                      return xs.get(1).add(updated.get(0));
                    }));

    L0CompileError error = assertThrows(L0CompileError.class, () -> TypeChecker.check(program));

    assertEquals(useLine.get(), error.pos());
    assertEquals(
        "the 2nd parameter (*[f64]) of 'bad' used at "
            + useLine.get().line()
            + " after it was consumed at "
            + updateLine.get().line(),
        error.detail());
  }

  /** A pair of unique arrays, and a function that consumes one: {@code take({*[f64], *[f64]})}. */
  private static final ValType<Tup2<Arr<F64>, Arr<F64>>> PAIR =
      Tup2.of(Arr.of(F64.TYPE).unique(), Arr.of(F64.TYPE).unique());

  /**
   * A tuple component read before the tuple is consumed and used after it stays before the
   * consumption: the staged program was rejected with the read's line as a use 'after' the
   * consumption on the next line (the read had been moved into the sum, behind the call).
   */
  @Test
  void aTupleComponentReadBeforeTheTupleIsConsumedStaysBeforeIt() {
    Program program =
        L0.program(
            prog -> {
              Fn1<Tup2<Arr<F64>, Arr<F64>>, F64> take = prog.fun("take", PAIR, p -> p._1().get(0));
              prog.fun(
                  "main",
                  PAIR,
                  t -> {
                    F64 read = t._2().get(0);
                    F64 taken = take.call(t);
                    return taken.add(read);
                  });
            });

    TypeChecker.check(program);
    Value pair = new Value.Tuple(List.of(doubles(1.0, 2.0), doubles(30.0, 40.0)));
    assertEquals(ScalarValue.f64(31.0), new Interpreter(program).call("main", List.of(pair)));
  }

  /**
   * A tuple component read after the tuple was consumed is reported at the read, as a use after the
   * consumption, even where the sum that uses both names the read first.
   */
  @Test
  void aTupleComponentReadAfterTheTupleWasConsumedIsReportedAtTheRead() {
    AtomicReference<SourcePos> consumeLine = new AtomicReference<>();
    AtomicReference<SourcePos> readLine = new AtomicReference<>();
    Program program =
        L0.program(
            prog -> {
              Fn1<Tup2<Arr<F64>, Arr<F64>>, F64> take = prog.fun("take", PAIR, p -> p._1().get(0));
              prog.fun(
                  "main",
                  PAIR,
                  t -> {
                    consumeLine.set(JavaLine.next());
                    F64 taken = take.call(t);
                    readLine.set(JavaLine.next());
                    F64 read = t._2().get(0);
                    return read.add(taken);
                  });
            });

    L0CompileError error = assertThrows(L0CompileError.class, () -> TypeChecker.check(program));

    assertEquals(readLine.get(), error.pos());
    assertEquals(
        "the 1st parameter ({*[f64], *[f64]}) of 'main' used at "
            + readLine.get().line()
            + " after it was consumed at "
            + consumeLine.get().line(),
        error.detail());
  }

  private static Value doubles(double... values) {
    return new Value.Array(
        ScalarType.F64,
        Arrays.stream(values).mapToObj(ScalarValue::f64).map(Value.class::cast).toList());
  }

  @Test
  void aParameterIsNamedByItsEnglishOrdinal() {
    Map<Integer, String> ordinals =
        Map.of(3, "3rd", 4, "4th", 11, "11th", 12, "12th", 13, "13th", 21, "21st", 22, "22nd");
    ordinals.forEach(
        (count, ordinal) -> {
          List<ValType<?>> types = Collections.nCopies(count, F64.TYPE);
          Program program =
              L0.program(
                  prog -> {
                    FnN<F64> last = prog.fun("last", types, params -> params.get(0, F64.TYPE));
                    prog.fun(
                        "bad",
                        I64.TYPE,
                        n -> {
                          Val[] args = new Val[count];
                          for (int i = 0; i < count - 1; i++) {
                            args[i] = f64(i);
                          }
                          args[count - 1] = n;
                          return last.call(args);
                        });
                  });

          L0CompileError error =
              assertThrows(L0CompileError.class, () -> TypeChecker.check(program));

          assertEquals(
              "argument "
                  + count
                  + " of function 'last' must have type f64 (the "
                  + ordinal
                  + " parameter (f64) of 'last'), got i64",
              error.detail());
        });
  }
}
