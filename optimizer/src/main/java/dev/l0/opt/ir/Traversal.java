package dev.l0.opt.ir;

import java.util.ArrayList;
import java.util.List;
import java.util.function.UnaryOperator;

/**
 * The generic walks over internal L0 that the passes share, in the manner of Catalyst's {@code
 * transformDown}: the bodies nested in an expression (if branches, a loop body, the bodies of a
 * SOAC's lambdas), every statement at any depth, and rewrites of the nested bodies that keep a node
 * itself (the same object) when the rewrite changes nothing, so an unchanged program costs no
 * copies and compares equal at once.
 */
public final class Traversal {
  private Traversal() {}

  /**
   * The bodies nested directly in {@code e}: its branches or loop body, then its lambdas' bodies.
   */
  public static List<Body> nestedBodies(Exp e) {
    List<Lambda> lambdas = e.lambdas();
    if (lambdas.isEmpty()) {
      return e.bodies();
    }
    List<Body> out = new ArrayList<>(e.bodies());
    lambdas.forEach(l -> out.add(l.body()));
    return out;
  }

  /**
   * Every statement of {@code body} and of the bodies nested in its statements, at any depth: each
   * statement before those nested in it, in program order.
   */
  public static List<Stm> statements(Body body) {
    List<Stm> out = new ArrayList<>();
    addStatements(body, out);
    return out;
  }

  private static void addStatements(Body body, List<Stm> out) {
    for (Stm stm : body.stms()) {
      out.add(stm);
      nestedBodies(stm.exp()).forEach(b -> addStatements(b, out));
    }
  }

  /**
   * {@code e} with {@code rewrite} applied to each body nested directly in it, lambdas' bodies
   * included.
   */
  public static Exp mapNestedBodies(Exp e, UnaryOperator<Body> rewrite) {
    return mapNested(e, rewrite, l -> withBody(l, rewrite.apply(l.body())));
  }

  /**
   * {@code e} with {@code onBody} applied to its branches or loop body and {@code onLambda} to its
   * lambdas; {@code e} itself where both return every argument unchanged.
   */
  public static Exp mapNested(Exp e, UnaryOperator<Body> onBody, UnaryOperator<Lambda> onLambda) {
    if (e.bodies().isEmpty() && e.lambdas().isEmpty()) {
      return e;
    }
    boolean[] changed = {false};
    Exp out =
        e.mapBodies(
                b -> {
                  Body r = onBody.apply(b);
                  changed[0] |= r != b;
                  return r;
                })
            .mapLambdas(
                l -> {
                  Lambda r = onLambda.apply(l);
                  changed[0] |= r != l;
                  return r;
                });
    return changed[0] ? out : e;
  }

  /** {@code stm} binding {@code e}; {@code stm} itself where {@code e} is its expression. */
  public static Stm withExp(Stm stm, Exp e) {
    return e == stm.exp() ? stm : stm.withExp(e);
  }

  /** {@code l} with body {@code body}; {@code l} itself where {@code body} is its body. */
  public static Lambda withBody(Lambda l, Body body) {
    return body == l.body() ? l : l.withBody(body);
  }
}
