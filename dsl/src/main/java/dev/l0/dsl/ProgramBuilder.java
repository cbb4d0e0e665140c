package dev.l0.dsl;

import dev.l0.ir.Expr;
import dev.l0.ir.L0CompileError;
import dev.l0.ir.SourcePos;
import dev.l0.ir.Type;
import dev.l0.syntax.L0Printer;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.function.BiFunction;
import java.util.function.Function;

/**
 * Defines the top-level functions of a program staged by {@link L0#program}. Each {@code fun(...)}
 * stages its Java lambda once on parameter handles and records an L0 {@code FunDef}; the returned
 * {@link Fn} stages calls to it, so a DSL program keeps the function structure of a text program.
 */
public final class ProgramBuilder {
  private final Stager stager;

  /** The calls staged by name ({@link #call}), each with the result type its caller declared. */
  private final List<DeclaredCall> declaredCalls = new ArrayList<>();

  private record DeclaredCall(String name, ValType<?> resultType, SourcePos pos) {}

  ProgramBuilder(Stager stager) {
    this.stager = stager;
  }

  /** {@code fun R name(A p) = body(p)}. */
  public <A extends Val, R extends Val> Fn1<A, R> fun(
      String name, ValType<A> a, Function<A, R> body) {
    CallSite.nonNull("fun(name, a, body)", name, a, body);
    ValType<R> result = define(name, List.of(a), params -> body.apply(Val.narrow(params.get(0))));
    return new Fn1<>(named(name), List.of(), result);
  }

  /** {@code fun R name(A p1, B p2) = body(p1, p2)}. */
  public <A extends Val, B extends Val, R extends Val> Fn2<A, B, R> fun(
      String name, ValType<A> a, ValType<B> b, BiFunction<A, B, R> body) {
    CallSite.nonNull("fun(name, a, b, body)", name, a, b, body);
    ValType<R> result =
        define(
            name,
            List.of(a, b),
            params -> body.apply(Val.narrow(params.get(0)), Val.narrow(params.get(1))));
    return new Fn2<>(named(name), List.of(), result);
  }

  /** {@code fun R name(A p1, B p2, C p3) = body(p1, p2, p3)}. */
  public <A extends Val, B extends Val, C extends Val, R extends Val> Fn3<A, B, C, R> fun(
      String name, ValType<A> a, ValType<B> b, ValType<C> c, Function3<A, B, C, R> body) {
    CallSite.nonNull("fun(name, a, b, c, body)", name, a, b, c, body);
    ValType<R> result =
        define(
            name,
            List.of(a, b, c),
            params ->
                body.apply(
                    Val.narrow(params.get(0)),
                    Val.narrow(params.get(1)),
                    Val.narrow(params.get(2))));
    return new Fn3<>(named(name), List.of(), result);
  }

  /**
   * {@code fun R name(T1 p1, ..., Tn pn) = body(params)}, for any number of parameters (an entry
   * taking a dataset's values in file order, say): {@code body} reads parameter {@code i} as {@code
   * params.get(i, type)}, which checks that type against the declared one. Java checks neither the
   * count nor the types of the arguments of {@link FnN#call}; the L0 type checker does.
   */
  public <R extends Val> FnN<R> fun(
      String name, List<ValType<?>> paramTypes, Function<Params, R> body) {
    CallSite.nonNull("fun(name, paramTypes, body)", name, paramTypes, body);
    ValType<R> result =
        define(name, paramTypes, params -> body.apply(new Params(name, paramTypes, params)));
    return new FnN<>(named(name), List.of(), result);
  }

  /**
   * Stages a call of the function {@code name} by name, declaring its result type: for a function
   * defined later, a recursive call, or one defined outside the DSL. The L0 type checker checks the
   * arguments; once the program is staged, a declared result type that is not the type of the
   * function of that name the program defines is an error at this call ({@link
   * #checkDeclaredCalls}).
   */
  public <R extends Val> R call(String name, ValType<R> resultType, Val... args) {
    CallSite.nonNull("call(name, resultType, args)", name, resultType, args);
    SourcePos pos = CallSite.current();
    stager.requireStaging(pos);
    declaredCalls.add(new DeclaredCall(name, resultType, pos));
    List<Expr> exprs = Arrays.stream(args).map(arg -> arg.use(pos)).toList();
    return Val.stage(resultType, new Expr.Call(name, exprs, pos));
  }

  /** The callee of the function {@code name} just defined in this program. */
  private Fn.Callee named(String name) {
    return new Fn.Callee.Named(name, stager, stager.definitionOf(name));
  }

  private <R extends Val> ValType<R> define(
      String name, List<ValType<?>> params, Function<List<Val>, R> body) {
    SourcePos pos = CallSite.current();
    stager.requireStaging(pos);
    if (!Names.isFunctionName(name)) {
      throw new L0CompileError(
          pos,
          "not a function name: "
              + name
              + " (letters, digits and underscores, starting with a letter, and not an L0"
              + " keyword)");
    }
    return stager.defineFunction(name, pos, params, body);
  }

  /**
   * Throws, at the call, where a call staged by name declared a result type other than the one the
   * function of that name, defined in this program, returns (Java would otherwise treat the result
   * as the declared type while L0 computes the function's).
   */
  void checkDeclaredCalls() {
    for (DeclaredCall call : declaredCalls) {
      Type declared = call.resultType().l0Type();
      Type defined = stager.resultTypeOf(call.name()).orElse(declared);
      if (!defined.sameShapeAs(declared)) {
        throw new L0CompileError(
            call.pos(),
            "the call of '"
                + call.name()
                + "' declares its result "
                + L0Printer.print(declared)
                + ", but '"
                + call.name()
                + "' returns "
                + L0Printer.print(defined));
      }
    }
  }
}
