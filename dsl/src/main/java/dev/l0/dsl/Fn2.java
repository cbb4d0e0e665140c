package dev.l0.dsl;

import java.util.List;

/** An L0 function of two (remaining) parameters; see {@link Fn}. */
public final class Fn2<A extends Val, B extends Val, R extends Val> extends Fn<R> {
  Fn2(Callee callee, List<Val> curried, ValType<R> resultType) {
    super(callee, curried, resultType);
  }

  public R call(A a, B b) {
    CallSite.nonNull("call(a, b)", a, b);
    return invoke(a, b);
  }

  /** This function with its first parameter supplied: {@code f(a)} as a SOAC argument. */
  public Fn1<B, R> curry(A a) {
    CallSite.nonNull("curry(a)", a);
    return new Fn1<>(callee(), curriedWith(a), resultType());
  }
}
