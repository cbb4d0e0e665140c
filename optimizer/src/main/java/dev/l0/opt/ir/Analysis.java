package dev.l0.opt.ir;

import dev.l0.ir.Dim;
import dev.l0.ir.Type;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.HashMap;
import java.util.HashSet;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Whole-tree facts about internal code: which names a piece of code uses and binds, how often each
 * is used, and whether an expression may fail (so it must not be removed or duplicated). Names are
 * globally unique, so "free" is simply "used and not bound inside".
 */
public final class Analysis {
  private Analysis() {}

  /**
   * How many times each name is used (operands, results, certificates and sizes in types) in {@code
   * body}.
   */
  public static Map<String, Integer> useCounts(Body body) {
    Map<String, Integer> counts = new HashMap<>();
    countBody(body, counts);
    return counts;
  }

  public static Map<String, Integer> useCounts(Exp exp) {
    Map<String, Integer> counts = new HashMap<>();
    countExp(exp, counts);
    return counts;
  }

  private static void use(String name, Map<String, Integer> counts) {
    counts.merge(name, 1, Integer::sum);
  }

  private static void countSubExp(SubExp s, Map<String, Integer> counts) {
    if (s instanceof SubExp.Var v) {
      use(v.name(), counts);
    }
  }

  private static void countType(Type t, Map<String, Integer> counts) {
    if (t instanceof Type.Array a) {
      if (a.size() instanceof Dim.Named n) {
        use(n.variable(), counts);
      }
      countType(a.element(), counts);
    }
  }

  private static void countBody(Body body, Map<String, Integer> counts) {
    for (Stm stm : body.stms()) {
      stm.certificates().forEach(c -> use(c, counts));
      stm.pattern().forEach(id -> countType(id.type(), counts));
      countExp(stm.exp(), counts);
    }
    body.result().forEach(s -> countSubExp(s, counts));
  }

  private static void countExp(Exp e, Map<String, Integer> counts) {
    e.operands().forEach(s -> countSubExp(s, counts));
    e.bodies().forEach(b -> countBody(b, counts));
    for (Lambda l : e.lambdas()) {
      l.params().forEach(p -> countType(p.type(), counts));
      countBody(l.body(), counts);
    }
    if (e instanceof Exp.Loop l) {
      l.mergeParams().forEach(p -> countType(p.type(), counts));
    }
  }

  /**
   * How deeply bodies nest in {@code body}: 0 for straight-line code, one more for each if branch,
   * loop body or lambda body around a statement. Walks without recursion, so it answers for any
   * depth.
   */
  public static int nesting(Body body) {
    record Visit(Body body, int depth) {}
    Deque<Visit> pending = new ArrayDeque<>();
    pending.push(new Visit(body, 0));
    int deepest = 0;
    while (!pending.isEmpty()) {
      Visit visit = pending.pop();
      deepest = Math.max(deepest, visit.depth());
      for (Stm stm : visit.body().stms()) {
        Traversal.nestedBodies(stm.exp())
            .forEach(b -> pending.push(new Visit(b, visit.depth() + 1)));
      }
    }
    return deepest;
  }

  /**
   * Whether {@code body} runs a loop, a SOAC or a call anywhere in it, lambdas included: work
   * repeated by trip counts or sizes, or hidden in another function.
   */
  public static boolean runsLoops(Body body) {
    return Traversal.statements(body).stream()
        .map(Stm::exp)
        .anyMatch(e -> e instanceof Exp.Loop || e instanceof Exp.Soac || e instanceof Exp.Apply);
  }

  /** The variables the sizes in the types of {@code ids} name. */
  public static Set<String> sizesIn(List<Ident> ids) {
    return sizesNamedBy(ids.stream().map(Ident::type).toList());
  }

  /** The variables the sizes in {@code types} name. */
  public static Set<String> sizesNamedBy(List<Type> types) {
    Map<String, Integer> counts = new HashMap<>();
    types.forEach(t -> countType(t, counts));
    return counts.keySet();
  }

  /** The names bound anywhere inside {@code e} (patterns, lambda parameters, loop variables). */
  public static Set<String> boundInside(Exp e) {
    Set<String> out = new HashSet<>();
    addBound(e, out);
    return out;
  }

  private static void addBound(Exp e, Set<String> out) {
    if (e instanceof Exp.Loop l) {
      l.mergeParams().forEach(p -> out.add(p.name()));
      out.add(l.counter().name());
    }
    for (Lambda l : e.lambdas()) {
      l.params().forEach(p -> out.add(p.name()));
      addBoundBody(l.body(), out);
    }
    e.bodies().forEach(b -> addBoundBody(b, out));
  }

  /**
   * The type of every name {@code f} binds: its parameters, statements' patterns, lambdas'
   * parameters, loops' merge parameters and counters.
   */
  public static Map<String, Type> typesBound(InternalFunction f) {
    Map<String, Type> out = new HashMap<>();
    f.params().forEach(p -> out.put(p.name(), p.type()));
    for (Stm stm : Traversal.statements(f.body())) {
      stm.pattern().forEach(p -> out.put(p.name(), p.type()));
      stm.exp().lambdas().forEach(l -> l.params().forEach(p -> out.put(p.name(), p.type())));
      if (stm.exp() instanceof Exp.Loop l) {
        l.mergeParams().forEach(p -> out.put(p.name(), p.type()));
        out.put(l.counter().name(), l.counter().type());
      }
    }
    return out;
  }

  /** The names bound anywhere in {@code body}. */
  public static Set<String> boundIn(Body body) {
    Set<String> out = new HashSet<>();
    addBoundBody(body, out);
    return out;
  }

  private static void addBoundBody(Body b, Set<String> out) {
    for (Stm stm : b.stms()) {
      stm.pattern().forEach(p -> out.add(p.name()));
      addBound(stm.exp(), out);
    }
  }

  /** The names {@code stm} uses that are bound outside it. */
  public static Set<String> freeVariables(Stm stm) {
    Map<String, Integer> counts = useCounts(stm.exp());
    stm.certificates().forEach(c -> use(c, counts));
    stm.pattern().forEach(id -> countType(id.type(), counts));
    Set<String> free = new HashSet<>(counts.keySet());
    free.removeAll(boundInside(stm.exp()));
    return free;
  }

  /**
   * Free variables and failure of statements, remembered per expression and body instance and built
   * from those of the nested bodies: asking for every statement at every nesting level (as
   * dead-code removal does) takes time linear in the code, where {@link #freeVariables(Stm)} and
   * {@link #mayFail(Exp)} walk the whole statement each time. Its sets are not to be modified.
   */
  public static final class CachedFacts {
    private final Map<Object, Set<String>> known = new IdentityHashMap<>();
    private final Map<Object, Boolean> failing = new IdentityHashMap<>();

    /** As {@link Analysis#mayFail(Exp)}. */
    public boolean mayFail(Exp e) {
      Boolean fails = failing.get(e);
      if (fails == null) {
        if (e instanceof Exp.If) {
          fails = e.bodies().stream().anyMatch(this::mayFail);
        } else {
          fails = Analysis.mayFail(e);
        }
        failing.put(e, fails);
      }
      return fails;
    }

    private boolean mayFail(Body b) {
      Boolean fails = failing.get(b);
      if (fails == null) {
        fails = b.stms().stream().anyMatch(s -> mayFail(s.exp()));
        failing.put(b, fails);
      }
      return fails;
    }

    /**
     * The names {@code stm} uses that are bound outside it, as {@link Analysis#freeVariables(Stm)}.
     */
    public Set<String> freeVariables(Stm stm) {
      Set<String> free = new HashSet<>(of(stm.exp()));
      free.addAll(stm.certificates());
      stm.pattern().forEach(id -> free.addAll(sizesIn(List.of(id))));
      return free;
    }

    private Set<String> of(Exp e) {
      Set<String> free = known.get(e);
      if (free == null) {
        free = new HashSet<>();
        for (SubExp s : e.operands()) {
          if (s instanceof SubExp.Var v) {
            free.add(v.name());
          }
        }
        for (Body b : e.bodies()) {
          free.addAll(of(b));
        }
        for (Lambda l : e.lambdas()) {
          Set<String> inLambda = new HashSet<>(of(l.body()));
          inLambda.addAll(sizesIn(l.params()));
          l.params().forEach(p -> inLambda.remove(p.name()));
          free.addAll(inLambda);
        }
        if (e instanceof Exp.Loop l) {
          free.addAll(sizesIn(l.mergeParams()));
          for (Ident p : l.mergeParams()) {
            free.remove(p.name());
          }
          free.remove(l.counter().name());
        }
        known.put(e, free);
      }
      return free;
    }

    private Set<String> of(Body b) {
      Set<String> free = known.get(b);
      if (free == null) {
        free = new HashSet<>();
        for (Stm stm : b.stms()) {
          free.addAll(freeVariables(stm));
        }
        for (SubExp s : b.result()) {
          if (s instanceof SubExp.Var v) {
            free.add(v.name());
          }
        }
        for (Stm stm : b.stms()) {
          for (Ident p : stm.pattern()) {
            free.remove(p.name());
          }
        }
        known.put(b, free);
      }
      return free;
    }
  }

  /**
   * Whether evaluating {@code e} may raise a run-time error or consume an array: such an expression
   * is never removed as dead, merged, or moved to where it might run more often.
   */
  public static boolean mayFail(Exp e) {
    if (e instanceof Exp.Screma s && (s.isMap() || s.scans())) {
      List<Lambda> lambdas = e.lambdas();
      boolean arrayResults = lambdas.get(0).returnTypes().stream().anyMatch(t -> t.rank() > 0);
      return arrayResults || lambdas.stream().anyMatch(l -> mayFail(l.body()));
    }
    if (e instanceof Exp.Soac) {
      return e.lambdas().stream().anyMatch(l -> mayFail(l.body()));
    }
    if (e instanceof Exp.If) {
      return e.bodies().stream().anyMatch(Analysis::mayFail);
    }
    return e.mayFailItself();
  }

  public static boolean mayFail(Body b) {
    return b.stms().stream().anyMatch(s -> mayFail(s.exp()));
  }

  /**
   * Names whose arrays {@code body} may consume: updated in place, passed to a call, or a loop's
   * initial value.
   */
  public static Set<String> consumedNames(Body body) {
    Set<String> out = new HashSet<>();
    for (Stm stm : Traversal.statements(body)) {
      Exp e = stm.exp();
      List<SubExp> consumed =
          e instanceof Exp.Update u
              ? List.of(u.array())
              : e instanceof Exp.Apply a
                  ? a.args()
                  : e instanceof Exp.Loop l ? l.init() : List.of();
      consumed.stream().map(SubExp::varName).filter(n -> n != null).forEach(out::add);
    }
    return out;
  }
}
