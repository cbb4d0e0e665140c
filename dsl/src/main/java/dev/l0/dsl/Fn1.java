package dev.l0.dsl;

import java.util.List;

/** An L0 function of one (remaining) parameter; see {@link Fn}. */
public final class Fn1<A extends Val, R extends Val> extends Fn<R> {
  Fn1(Callee callee, List<Val> curried, ValType<R> resultType) {
    super(callee, curried, resultType);
  }

  public R call(A a) {
    CallSite.nonNull("call(a)", a);
    return invoke(a);
  }
}
