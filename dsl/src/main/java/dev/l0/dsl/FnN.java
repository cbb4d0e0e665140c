package dev.l0.dsl;

import java.util.List;

/**
 * An L0 function of any number of parameters, defined with {@link ProgramBuilder#fun(String, List,
 * java.util.function.Function)}; see {@link Fn}.
 */
public final class FnN<R extends Val> extends Fn<R> {
  FnN(Callee callee, List<Val> curried, ValType<R> resultType) {
    super(callee, curried, resultType);
  }

  /** Stages {@code f(args...)}; the L0 type checker checks the arguments' count and types. */
  public R call(Val... args) {
    CallSite.nonNull("call(args)", (Object) args);
    return invoke(args);
  }
}
