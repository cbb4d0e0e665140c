package dev.l0.kernels.jvm;

import dev.l0.kernels.ir.KernelExpr;
import dev.l0.kernels.ir.KernelStmt;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * {@code for} loops that stop changing anything once a guard fails, so that {@link
 * JavaKernelIrPrinter} may leave them there: a loop whose body computes a condition from the loop's
 * state (not from its counter, with no store and no error before it) and then runs {@code if
 * (condition) step else keep}, where the {@code else} path, with the copies after the {@code if},
 * gives every variable the loop assigns its own value back. Once the condition is false, that
 * iteration and every later one leave the state, the memory and the error word as they are, so
 * leaving the loop gives the same result. (A search such as a root finder run for a fixed number of
 * iterations with a "converged" flag, the only loop form L0 has, becomes a loop that ends when it
 * converges.)
 */
final class FixedPointLoops {
  private FixedPointLoops() {}

  /** The {@code if} of {@code loop}'s body whose failing condition ends the loop, if it has one. */
  static Optional<KernelStmt.If> guard(KernelStmt.For loop) {
    List<KernelStmt> body = loop.body();
    String counter = loop.counter().name();
    Set<String> local = new HashSet<>();
    int position = 0;
    while (position < body.size() && !(body.get(position) instanceof KernelStmt.If)) {
      KernelStmt s = body.get(position);
      if (s instanceof KernelStmt.Declare d && !mentions(d.initial(), counter)) {
        local.add(d.variable().name());
      } else if (!(s instanceof KernelStmt.Assign a
          && local.contains(a.variable().name())
          && !mentions(a.value(), counter))) {
        return Optional.empty();
      }
      position++;
    }
    if (position == body.size()) {
      return Optional.empty();
    }
    KernelStmt.If guard = (KernelStmt.If) body.get(position);
    if (mentions(guard.condition(), counter)) {
      return Optional.empty();
    }
    // the else path and what follows the if, as copies: each variable's value as the variable it
    // copies
    Map<String, String> copyOf = new HashMap<>();
    if (!copies(guard.elseBody(), copyOf, local)
        || !copies(body.subList(position + 1, body.size()), copyOf, local)) {
      return Optional.empty();
    }
    Set<String> state = new HashSet<>();
    assignedOutside(body, new HashSet<>(), state);
    for (String v : state) {
      if (!v.equals(copyOf.getOrDefault(v, v))) {
        return Optional.empty();
      }
    }
    return Optional.of(guard);
  }

  /**
   * Runs {@code statements} symbolically if they only declare and assign copies of variables; false
   * otherwise.
   */
  private static boolean copies(
      List<KernelStmt> statements, Map<String, String> copyOf, Set<String> local) {
    for (KernelStmt s : statements) {
      KernelExpr value;
      String target;
      if (s instanceof KernelStmt.Declare d) {
        value = d.initial();
        target = d.variable().name();
        local.add(target);
      } else if (s instanceof KernelStmt.Assign a) {
        value = a.value();
        target = a.variable().name();
      } else {
        return false;
      }
      if (value instanceof KernelExpr.Var v) {
        copyOf.put(target, copyOf.getOrDefault(v.name(), v.name()));
      } else if (value instanceof KernelExpr.Constant c) {
        copyOf.put(target, "constant " + c.value());
      } else {
        return false;
      }
    }
    return true;
  }

  /** The variables that {@code body} assigns and does not declare. */
  private static void assignedOutside(
      List<KernelStmt> body, Set<String> declared, Set<String> out) {
    Set<String> inner = new HashSet<>(declared);
    for (KernelStmt s : body) {
      if (s instanceof KernelStmt.Declare d) {
        inner.add(d.variable().name());
      } else if (s instanceof KernelStmt.Assign a && !inner.contains(a.variable().name())) {
        out.add(a.variable().name());
      } else if (s instanceof KernelStmt.If i) {
        assignedOutside(i.thenBody(), inner, out);
        assignedOutside(i.elseBody(), inner, out);
      } else if (s instanceof KernelStmt.For f) {
        Set<String> withCounter = new HashSet<>(inner);
        withCounter.add(f.counter().name());
        assignedOutside(f.body(), withCounter, out);
      } else if (s instanceof KernelStmt.While w) {
        assignedOutside(w.body(), inner, out);
      }
    }
  }

  private static boolean mentions(KernelExpr e, String name) {
    if (e instanceof KernelExpr.Var v) {
      return v.name().equals(name);
    }
    if (e instanceof KernelExpr.Binary b) {
      return mentions(b.left(), name) || mentions(b.right(), name);
    }
    if (e instanceof KernelExpr.Unary u) {
      return mentions(u.operand(), name);
    }
    if (e instanceof KernelExpr.Call c) {
      return c.args().stream().anyMatch(a -> mentions(a, name));
    }
    if (e instanceof KernelExpr.Select s) {
      return mentions(s.condition(), name)
          || mentions(s.ifTrue(), name)
          || mentions(s.ifFalse(), name);
    }
    if (e instanceof KernelExpr.Load l) {
      return mentions(l.index(), name);
    }
    if (e instanceof KernelExpr.SharedLoad l) {
      return mentions(l.index(), name);
    }
    return false;
  }
}
