package dev.l0.opt.ir;

import dev.l0.ir.Dim;
import dev.l0.ir.ScalarType;
import dev.l0.ir.Type;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Deque;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.function.Supplier;

/**
 * The invariants of internal L0 that every pass keeps (thesis ch. 4): each name is bound once in
 * the whole program; each operand and certificate names a variable in scope; each statement binds
 * as many names as its expression has results; a SOAC's functions take one parameter per
 * accumulator and per input with the input's row type and return what the SOAC binds; branches,
 * loops and calls agree with their patterns in number and type (types compared up to sizes); each
 * size variable that the type of a statement's pattern, a SOAC function's parameter or result, or a
 * loop's parameter names is in scope there (a pattern's or a parameter list's may name each other;
 * a function's parameters name the sizes its body binds first from their shapes), and a SOAC's
 * inputs agree in outer size where their types give it: the same constant, or size variables known
 * equal in scope ({@link SizeEquality}: the same name, one bound to the other or to a {@code size}
 * of an array of that size, or both compared by an assertion in scope). In a function that takes
 * certificates, which stand for checks made by its caller, differently named sizes are not
 * compared. {@link dev.l0.opt.pass.PassManager} runs it after every pass when {@link #enabled()}.
 */
public final class IrChecker {
  /** The system property that turns the check after every pass on: {@code -Dl0.opt.check=true}. */
  public static final String PROPERTY = "l0.opt.check";

  private IrChecker() {}

  /**
   * Whether the passes are checked: the system property {@value #PROPERTY} is {@code true}.
   *
   * @throws dev.l0.ir.L0ConfigurationError where it is neither {@code true} nor {@code false}
   */
  public static boolean enabled() {
    return dev.l0.ir.L0ConfigurationError.booleanProperty(
        PROPERTY, false, "whether the optimiser checks the program after every pass");
  }

  /** The first broken invariant of {@code program}, saying where; empty where it is well formed. */
  public static Optional<String> problem(InternalProgram program) {
    try {
      new Walk(program).program();
      return Optional.empty();
    } catch (Broken broken) {
      return Optional.of(broken.getMessage());
    }
  }

  /** A broken invariant, with the function and the statement where it is. */
  private static final class Broken extends RuntimeException {
    Broken(String message) {
      super(message, null, false, false);
    }
  }

  private static final class Walk {
    private final Map<String, InternalFunction> functions = new LinkedHashMap<>();
    private final Set<String> bound = new HashSet<>();

    /** The variables in scope with their types; a body removes what it bound when it ends. */
    private final Map<String, Type> scope = new HashMap<>();

    /** Where the walk is, outermost first: the function, then each enclosing statement. */
    private final Deque<String> where = new ArrayDeque<>();

    /** The definitions of the single names bound in scope, which show sizes equal. */
    private final Map<String, Exp> definitions = new HashMap<>();

    /** Whether the function being walked takes a certificate (a check of its caller's). */
    private boolean takesCertificates;

    Walk(InternalProgram program) {
      program.functions().forEach(f -> functions.put(f.name(), f));
    }

    void program() {
      for (InternalFunction f : functions.values()) {
        where.clear();
        where.addLast("function " + f.name());
        List<Ident> params = f.params();
        params.forEach(this::bind);
        takesCertificates = params.stream().anyMatch(p -> p.type().equals(InternalTypes.CERT));
        List<Type> results = body(f.body());
        expect(
            results.size() == f.returnTypes().size(),
            () ->
                "the body returns "
                    + results.size()
                    + " values for "
                    + f.returnTypes().size()
                    + " result types");
        for (int k = 0; k < results.size(); k++) {
          expectSameType(f.returnTypes().get(k), results.get(k), "result " + k);
        }
        params.forEach(p -> scope.remove(p.name()));
      }
    }

    /** The types of {@code body}'s results; its bindings leave scope after it. */
    private List<Type> body(Body body) {
      List<Ident> local = new ArrayList<>();
      for (Stm stm : body.stms()) {
        where.addLast("statement " + stm.pattern().stream().map(Ident::name).toList());
        stm.certificates().forEach(c -> typeOf(SubExp.var(c)));
        List<Type> results = exp(stm.exp());
        expect(
            results.size() == stm.pattern().size(),
            () ->
                "the pattern binds "
                    + stm.pattern().size()
                    + " names for "
                    + results.size()
                    + " results of "
                    + keyword(stm.exp()));
        for (int k = 0; k < results.size(); k++) {
          expectSameType(
              stm.pattern().get(k).type(),
              results.get(k),
              "pattern name " + stm.pattern().get(k).name());
        }
        stm.pattern().forEach(this::bind);
        if (stm.pattern().size() == 1) {
          definitions.put(stm.pattern().get(0).name(), stm.exp());
        }
        sizesInScope(stm.pattern());
        local.addAll(stm.pattern());
        where.removeLast();
      }
      where.addLast("body result");
      List<Type> out = body.result().stream().map(this::typeOf).toList();
      local.forEach(
          id -> {
            scope.remove(id.name());
            definitions.remove(id.name());
          });
      where.removeLast();
      return out;
    }

    /**
     * The result types of {@code e}, up to sizes, where they follow from its operands; a {@code
     * null} entry where only the pattern says (an index, a literal, an array operation).
     */
    private List<Type> exp(Exp e) {
      e.operands().forEach(this::typeOf);
      if (e instanceof Exp.If branch) {
        expectSameType(ScalarType.BOOL, typeOf(branch.condition()), "the condition");
        List<Type> then = body(branch.thenBody());
        List<Type> otherwise = body(branch.elseBody());
        expect(
            then.size() == otherwise.size(),
            () -> "the branches return " + then.size() + " and " + otherwise.size() + " values");
        for (int k = 0; k < then.size(); k++) {
          expectSameType(then.get(k), otherwise.get(k), "branch result " + k);
        }
        return then;
      }
      if (e instanceof Exp.Loop loop) {
        return loop(loop);
      }
      if (e instanceof Exp.Apply call) {
        InternalFunction callee = functions.get(call.function());
        expect(
            callee != null,
            () -> "a call of " + call.function() + ", which the program does not define");
        expect(
            callee.params().size() == call.args().size(),
            () ->
                "a call of "
                    + call.function()
                    + " with "
                    + call.args().size()
                    + " arguments for "
                    + callee.params().size()
                    + " parameters");
        for (int k = 0; k < call.args().size(); k++) {
          expectSameType(
              callee.params().get(k).type(),
              typeOf(call.args().get(k)),
              "argument " + k + " of " + call.function());
        }
        return callee.returnTypes();
      }
      if (e instanceof Exp.Soac soac) {
        return soac(soac);
      }
      if (e instanceof Exp.Split) {
        return unknown(2);
      }
      if (e instanceof Exp.Atom atom) {
        return Collections.singletonList(typeOf(atom.value()));
      }
      return unknown(1);
    }

    private List<Type> loop(Exp.Loop loop) {
      expect(
          loop.mergeParams().size() == loop.init().size(),
          () ->
              "a loop with "
                  + loop.mergeParams().size()
                  + " merge parameters and "
                  + loop.init().size()
                  + " initial values");
      for (int k = 0; k < loop.init().size(); k++) {
        expectSameType(
            loop.mergeParams().get(k).type(), typeOf(loop.init().get(k)), "the initial value " + k);
      }
      List<Ident> params = new ArrayList<>(loop.mergeParams());
      params.add(loop.counter());
      params.forEach(this::bind);
      sizesInScope(params);
      List<Type> results = body(loop.body());
      expect(
          results.size() == loop.mergeParams().size(),
          () ->
              "a loop body returning "
                  + results.size()
                  + " values for "
                  + loop.mergeParams().size()
                  + " merge parameters");
      for (int k = 0; k < results.size(); k++) {
        expectSameType(
            loop.mergeParams().get(k).type(), results.get(k), "the loop body's result " + k);
      }
      params.forEach(p -> scope.remove(p.name()));
      return loop.mergeParams().stream().map(Ident::type).toList();
    }

    private List<Type> soac(Exp.Soac soac) {
      List<Type> rows = new ArrayList<>();
      SubExp constantSized = null;
      SubExp namedSized = null;
      SizeEquality equality = null;
      for (SubExp input : soac.inputs()) {
        Type t = typeOf(input);
        expect(
            t == null || t instanceof Type.Array,
            () -> "the input " + input + " of a " + soac.keyword() + " is no array");
        rows.add(t == null ? null : InternalTypes.row(t));
        if (t instanceof Type.Array array && array.size() instanceof Dim.Const size) {
          SubExp first = constantSized == null ? input : constantSized;
          expectSameOuterSize(soac, first, input, outerSize(first).equals(size), "");
          constantSized = first;
        }
        if (t instanceof Type.Array array && array.size() instanceof Dim.Named size) {
          SubExp first = namedSized == null ? input : namedSized;
          String firstSize = ((Dim.Named) outerSize(first)).variable();
          if (!firstSize.equals(size.variable()) && !takesCertificates) {
            equality = equality == null ? new SizeEquality(definitions, scope) : equality;
            expectSameOuterSize(
                soac,
                first,
                input,
                equality.known(firstSize, size.variable()),
                ", which no binding or assertion in scope shows equal");
          }
          namedSized = first;
        }
      }
      if (soac instanceof Exp.Screma map && map.isMap()) {
        return arraysOf(lambda(map.function(), rows));
      }
      if (soac instanceof Exp.FilterMap filter && filter.isFilter()) {
        List<Type> kept = lambda(filter.predicate(), rows);
        expect(
            kept.size() == 1 && ScalarType.BOOL.equals(kept.get(0)),
            () -> "a filter predicate that does not return one bool");
        return soac.inputs().stream().map(this::typeOf).toList();
      }
      if (soac instanceof Exp.FilterMap filterMap) {
        List<Type> accumulators = filterMap.neutral().stream().map(this::typeOf).toList();
        List<Type> params = new ArrayList<>(accumulators);
        params.addAll(rows);
        List<Type> flagged = lambda(filterMap.function(), params);
        sameTypes(
            accumulators,
            flagged.subList(0, accumulators.size()),
            "the filtermap's folded accumulators");
        if (!accumulators.isEmpty()) {
          List<Type> combineParams = new ArrayList<>(accumulators);
          combineParams.addAll(accumulators);
          sameTypes(
              accumulators,
              lambda(filterMap.combine(), combineParams),
              "the combining operator's result");
        }
        List<Type> values = new ArrayList<>(accumulators);
        for (int k = 0; k < filterMap.filters().size(); k++) {
          int flag = filterMap.flagPosition(k);
          expect(
              flagged.get(flag) == null || ScalarType.BOOL.equals(flagged.get(flag)),
              () -> "a filtermap function that does not return a bool flag for each filter");
          values.addAll(flagged.subList(flag + 1, flag + 1 + filterMap.filters().get(k)));
        }
        expect(
            values.stream().allMatch(t -> t == null || t.rank() == 0),
            () -> "a filtermap function that does not return scalar values");
        List<Type> out = new ArrayList<>(accumulators);
        out.addAll(arraysOf(values.subList(accumulators.size(), values.size())));
        return out;
      }
      Exp.Screma screma = (Exp.Screma) soac;
      List<Type> accumulators = screma.neutral().stream().map(this::typeOf).toList();
      List<Type> foldParams = new ArrayList<>(accumulators);
      foldParams.addAll(rows);
      List<Type> folded = lambda(soac.rowFunction(), foldParams);
      if (screma.fused()) {
        List<Type> combineParams = new ArrayList<>(accumulators);
        combineParams.addAll(accumulators);
        sameTypes(
            accumulators,
            lambda(screma.combine(), combineParams),
            "the combining operator's result");
      }
      if (screma.reducesAndMaps()) {
        expect(
            screma.fused(),
            () -> "a reduce whose operator returns more values than its accumulators");
        sameTypes(accumulators, folded.subList(0, accumulators.size()), "the fold's accumulators");
        List<Type> out = new ArrayList<>(accumulators);
        out.addAll(arraysOf(folded.subList(accumulators.size(), folded.size())));
        return out;
      }
      sameTypes(accumulators, folded, "the fold's result");
      return screma.scans() ? arraysOf(accumulators) : accumulators;
    }

    private Dim outerSize(SubExp array) {
      return ((Type.Array) typeOf(array)).size();
    }

    private void expectSameOuterSize(
        Exp.Soac soac, SubExp first, SubExp input, boolean same, String why) {
      expect(
          same,
          () ->
              "the inputs "
                  + first
                  + " and "
                  + input
                  + " of a "
                  + soac.keyword()
                  + " have the outer sizes "
                  + outerSize(first)
                  + " and "
                  + outerSize(input)
                  + why);
    }

    /** The result types of {@code l} applied to parameters of types {@code args}. */
    private List<Type> lambda(Lambda l, List<Type> args) {
      expect(
          l.params().size() == args.size(),
          () ->
              "a function of "
                  + l.params().size()
                  + " parameters applied to "
                  + args.size()
                  + " values");
      for (int k = 0; k < args.size(); k++) {
        expectSameType(
            l.params().get(k).type(), args.get(k), "parameter " + l.params().get(k).name());
      }
      l.params().forEach(this::bind);
      sizesInScope(l.params());
      l.returnTypes().forEach(t -> sizesInScope(t, "the function's result type"));
      List<Type> results = body(l.body());
      sameTypes(l.returnTypes(), results, "the function's body result");
      l.params().forEach(p -> scope.remove(p.name()));
      return l.returnTypes();
    }

    private void sameTypes(List<Type> expected, List<Type> actual, String what) {
      expect(
          expected.size() == actual.size(),
          () -> what + " has " + actual.size() + " values for " + expected.size());
      for (int k = 0; k < expected.size(); k++) {
        expectSameType(expected.get(k), actual.get(k), what + " " + k);
      }
    }

    private static List<Type> arraysOf(List<Type> rows) {
      return rows.stream().map(t -> t == null ? null : (Type) Type.array(t)).toList();
    }

    private static List<Type> unknown(int results) {
      List<Type> out = new ArrayList<>();
      for (int k = 0; k < results; k++) {
        out.add(null);
      }
      return out;
    }

    /** Each size variable the types of {@code ids} name is in scope. */
    private void sizesInScope(List<Ident> ids) {
      ids.forEach(id -> sizesInScope(id.type(), "the type of " + id.name()));
    }

    private void sizesInScope(Type type, String what) {
      if (type instanceof Type.Array array) {
        if (array.size() instanceof Dim.Named named) {
          expect(
              scope.get(named.variable()) instanceof ScalarType,
              () ->
                  what
                      + ", "
                      + InternalPrinter.type(type)
                      + ", names the size "
                      + named.variable()
                      + ", which is no scalar in scope");
        }
        sizesInScope(array.element(), what);
      } else if (type instanceof Type.Tuple tuple) {
        tuple.elements().forEach(t -> sizesInScope(t, what));
      }
    }

    private void bind(Ident id) {
      expect(bound.add(id.name()), () -> id.name() + " is bound twice");
      scope.put(id.name(), id.type());
    }

    /**
     * The type of {@code s}: a constant's scalar type, a variable's declared type; fails when it is
     * not in scope. {@code null} (any type) for {@link Substitution#CHECKED}, the constant {@code
     * true} that also stands for a certificate known to hold.
     */
    private Type typeOf(SubExp s) {
      if (s instanceof SubExp.Const c) {
        return s.equals(Substitution.CHECKED) ? null : c.value().type();
      }
      String name = ((SubExp.Var) s).name();
      Type t = scope.get(name);
      expect(t != null, () -> name + " is used where it is not in scope");
      return t;
    }

    private void expectSameType(Type expected, Type actual, String what) {
      expect(
          expected == null || actual == null || expected.sameShapeAs(actual),
          () ->
              what
                  + " has type "
                  + InternalPrinter.type(actual)
                  + " where "
                  + InternalPrinter.type(expected)
                  + " is expected");
    }

    private void expect(boolean holds, Supplier<String> problem) {
      if (!holds) {
        throw new Broken(String.join(", ", where) + ": " + problem.get());
      }
    }

    private static String keyword(Exp e) {
      return e instanceof Exp.Soac soac
          ? soac.keyword()
          : e.getClass().getSimpleName().toLowerCase();
    }
  }
}
