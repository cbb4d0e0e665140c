package dev.l0.dsl;

import java.util.List;

/** An L0 function of three (remaining) parameters; see {@link Fn}. */
public final class Fn3<A extends Val, B extends Val, C extends Val, R extends Val> extends Fn<R> {
  Fn3(Callee callee, List<Val> curried, ValType<R> resultType) {
    super(callee, curried, resultType);
  }

  public R call(A a, B b, C c) {
    CallSite.nonNull("call(a, b, c)", a, b, c);
    return invoke(a, b, c);
  }

  /** This function with its first parameter supplied. */
  public Fn2<B, C, R> curry(A a) {
    CallSite.nonNull("curry(a)", a);
    return new Fn2<>(callee(), curriedWith(a), resultType());
  }
}
