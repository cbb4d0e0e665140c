package dev.l0.dsl.usage;

import static dev.l0.dsl.L0.f64;
import static dev.l0.dsl.L0.i32;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.l0.dsl.Arr;
import dev.l0.dsl.F64;
import dev.l0.dsl.Fn1;
import dev.l0.dsl.L0;
import dev.l0.dsl.Tup2;
import dev.l0.dsl.ValType;
import dev.l0.ir.L0CompileError;
import dev.l0.ir.Program;
import dev.l0.ir.SourcePos;
import dev.l0.types.TypeChecker;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;

/**
 * A value the Java DSL staged without a name the user gave is named in type errors by the operation
 * that made it and its Java line, not by the name the DSL generated for it ({@code 't_3'}); a value
 * the user named with {@code L0.let(name, value)} keeps that name.
 */
class LocalValueNamingTest {
  private static final ValType<Arr<F64>> UNIQUE_ARRAY = Arr.of(F64.TYPE).unique();

  @Test
  void anUnnamedResultUsedAfterItWasConsumedIsNamedByItsOperationAndLine() {
    AtomicReference<SourcePos> madeAt = new AtomicReference<>();
    AtomicReference<SourcePos> consumedAt = new AtomicReference<>();
    AtomicReference<SourcePos> usedAt = new AtomicReference<>();
    Program program =
        L0.program(
            prog ->
                prog.fun(
                    "bad",
                    Arr.of(F64.TYPE),
                    xs -> {
                      madeAt.set(JavaLine.next());
                      Arr<F64> doubled = L0.map(xs, x -> x.mul(f64(2.0)));
                      consumedAt.set(JavaLine.next());
                      Arr<F64> updated = doubled.with(i32(0), f64(1.0));
                      usedAt.set(JavaLine.next());
                      return doubled.get(1).add(updated.get(0));
                    }));

    L0CompileError error = assertThrows(L0CompileError.class, () -> TypeChecker.check(program));

    assertEquals(usedAt.get(), error.pos());
    assertEquals(
        "the result of the map at "
            + madeAt.get()
            + " used at "
            + usedAt.get().line()
            + " after it was consumed at "
            + consumedAt.get().line(),
        error.detail());
  }

  @Test
  void aComponentOfALoopsAccumulatorIsNamedByTheComponentAndTheLoop() {
    AtomicReference<SourcePos> loopAt = new AtomicReference<>();
    AtomicReference<SourcePos> consumedAt = new AtomicReference<>();
    AtomicReference<SourcePos> usedAt = new AtomicReference<>();
    Program program =
        L0.program(
            prog -> {
              Fn1<Arr<F64>, F64> reset =
                  prog.fun("reset", UNIQUE_ARRAY, ys -> ys.with(i32(0), f64(0.0)).get(0));
              prog.fun(
                  "bad",
                  Arr.of(F64.TYPE),
                  xs -> {
                    Tup2<Arr<F64>, Arr<F64>> start = L0.tuple(L0.copy(xs), L0.copy(xs));
                    loopAt.set(JavaLine.next());
                    Tup2<Arr<F64>, Arr<F64>> pair = L0.loop(start, i32(2), (acc, i) -> acc);
                    consumedAt.set(JavaLine.next());
                    F64 first = reset.call(pair._2());
                    usedAt.set(JavaLine.next());
                    return pair._2().get(1).add(first);
                  });
            });

    L0CompileError error = assertThrows(L0CompileError.class, () -> TypeChecker.check(program));

    assertEquals(usedAt.get(), error.pos());
    assertEquals(
        "component 2 of the accumulator of the loop at "
            + loopAt.get()
            + " used at "
            + usedAt.get().line()
            + " after it was consumed at "
            + consumedAt.get().line(),
        error.detail());
  }

  @Test
  void aValueTheUserNamedKeepsItsName() {
    AtomicReference<SourcePos> consumedAt = new AtomicReference<>();
    AtomicReference<SourcePos> usedAt = new AtomicReference<>();
    Program program =
        L0.program(
            prog ->
                prog.fun(
                    "bad",
                    Arr.of(F64.TYPE),
                    xs -> {
                      Arr<F64> prices = L0.let("prices", L0.map(xs, x -> x.mul(f64(2.0))));
                      consumedAt.set(JavaLine.next());
                      Arr<F64> updated = prices.with(i32(0), f64(1.0));
                      usedAt.set(JavaLine.next());
                      return prices.get(1).add(updated.get(0));
                    }));

    L0CompileError error = assertThrows(L0CompileError.class, () -> TypeChecker.check(program));

    assertEquals(usedAt.get(), error.pos());
    assertTrue(
        error
            .detail()
            .matches(
                "variable 'prices_[0-9]+' used at "
                    + usedAt.get().line()
                    + " after it was consumed at "
                    + consumedAt.get().line()),
        error.detail());
  }
}
