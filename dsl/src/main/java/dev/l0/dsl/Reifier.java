package dev.l0.dsl;

import dev.l0.ir.Expr;
import dev.l0.ir.FunArg;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.UnaryOperator;

/**
 * Turns the statements of an ended {@link Block} and its result into one L0 expression: the sharing
 * rule of the DSL (LMS's {@code reifyBlock} followed by inlining of single uses).
 *
 * <p>A {@link Statement.Definition}, the value of one staged operation, is
 *
 * <ul>
 *   <li>bound with {@code let} where it was staged when nothing uses it: an operation that may fail
 *       (an index out of bounds, a division by zero, a call) fails as the same text program does,
 *       and the optimiser removes the binding where it cannot fail;
 *   <li>written in place of its use when it is used exactly once, that use is evaluated once (not
 *       inside a lambda or a loop body) and no in-place update, loop, call or SOAC that may consume
 *       an array stands between the definition and the use, and, where the definition itself may
 *       consume one, nothing does: so every read stays on the side of a consumption where the Java
 *       code staged it, and a use after a consumption is reported as one, at the use;
 *   <li>otherwise bound with {@code let} where it was staged: so a Java variable holding a handle
 *       used twice never duplicates the computation, and a value computed outside a lambda is not
 *       recomputed per element inside it.
 * </ul>
 *
 * Every other statement ({@code L0.let}, tuple destructuring, loops, in-place updates) is kept as
 * the L0 binding it stands for, in staging order.
 */
final class Reifier {
  /** Where a variable is used: the index of the statement (the block's size for the result). */
  private record Use(int site, boolean repeated) {}

  private Reifier() {}

  static Expr reify(List<Statement> statements, Expr result) {
    Map<String, List<Use>> uses = collectUses(statements, result);
    Map<String, Expr> inlined = new HashMap<>();
    UnaryOperator<Expr> substitute =
        e ->
            inlined.isEmpty()
                ? e
                : e.transformUp(
                    node ->
                        node instanceof Expr.Var v && inlined.containsKey(v.name())
                            ? inlined.get(v.name())
                            : node);
    List<Statement> kept = new ArrayList<>();
    for (int i = 0; i < statements.size(); i++) {
      Statement statement = statements.get(i).mapExprs(substitute);
      if (statement instanceof Statement.Definition definition) {
        List<Use> defUses = uses.getOrDefault(definition.name(), List.of());
        if (defUses.size() == 1 && canMoveToUse(statements, i, defUses.get(0))) {
          inlined.put(definition.name(), definition.value());
          continue;
        }
      }
      kept.add(statement);
    }
    Expr body = substitute.apply(result);
    for (int i = kept.size() - 1; i >= 0; i--) {
      body = kept.get(i).wrap(body);
    }
    return body;
  }

  private static boolean canMoveToUse(List<Statement> statements, int definedAt, Use use) {
    if (use.repeated() || statements.get(definedAt).mayConsume() && use.site() > definedAt + 1) {
      return false;
    }
    for (int between = definedAt + 1; between < use.site(); between++) {
      if (statements.get(between).mayConsume()) {
        return false;
      }
    }
    return true;
  }

  private static Map<String, List<Use>> collectUses(List<Statement> statements, Expr result) {
    Map<String, List<Use>> uses = new HashMap<>();
    for (int site = 0; site < statements.size(); site++) {
      Statement statement = statements.get(site);
      for (Expr e : statement.evaluatedOnce()) {
        collect(e, site, false, uses);
      }
      for (Expr e : statement.evaluatedRepeatedly()) {
        collect(e, site, true, uses);
      }
      for (String name : statement.namedVariables()) {
        record(uses, name, new Use(site, true));
      }
    }
    collect(result, statements.size(), false, uses);
    return uses;
  }

  /** Records the variables {@code e} uses; those inside lambdas and loop bodies as repeated. */
  private static void collect(Expr e, int site, boolean repeated, Map<String, List<Use>> uses) {
    if (e instanceof Expr.Var v) {
      record(uses, v.name(), new Use(site, repeated));
    } else if (e instanceof Expr.LetWith update) {
      // The source of an update is a name that cannot be replaced by an expression.
      record(uses, update.source(), new Use(site, true));
      e.children().forEach(child -> collect(child, site, repeated, uses));
    } else if (e instanceof Expr.Loop loop) {
      collect(loop.init(), site, repeated, uses);
      collect(loop.bound(), site, repeated, uses);
      collect(loop.loopBody(), site, true, uses);
      collect(loop.body(), site, repeated, uses);
    } else {
      List<Expr> children = e.children();
      FunArg function = e.soacFunction().orElse(null);
      int functionChildren = function == null ? 0 : function.children().size();
      boolean perElement = function instanceof FunArg.Lambda;
      for (int i = 0; i < children.size(); i++) {
        collect(children.get(i), site, repeated || (i < functionChildren && perElement), uses);
      }
    }
  }

  private static void record(Map<String, List<Use>> uses, String name, Use use) {
    uses.computeIfAbsent(name, n -> new ArrayList<>()).add(use);
  }
}
