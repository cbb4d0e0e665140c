package dev.l0.spark.pipeline;

import dev.l0.ir.Expr;
import dev.l0.ir.FunArg;
import dev.l0.ir.Param;
import dev.l0.ir.Pattern;
import java.util.LinkedHashSet;
import java.util.Set;

/**
 * The variables an L0 expression or SOAC function argument reads but does not bind, in first-use
 * order.
 */
final class FreeVariables {
  private FreeVariables() {}

  static Set<String> of(Expr e) {
    Set<String> out = new LinkedHashSet<>();
    collect(e, out);
    return out;
  }

  static Set<String> of(FunArg f) {
    Set<String> out = new LinkedHashSet<>();
    collect(f, out);
    return out;
  }

  private static void collect(FunArg f, Set<String> out) {
    if (f instanceof FunArg.Lambda lambda) {
      Set<String> body = of(lambda.body());
      lambda.params().stream().map(Param::name).forEach(body::remove);
      out.addAll(body);
    } else {
      f.children().forEach(child -> collect(child, out));
    }
  }

  private static void collect(Expr e, Set<String> out) {
    if (e instanceof Expr.Var var) {
      out.add(var.name());
    } else if (e instanceof Expr.Let let) {
      collect(let.value(), out);
      out.addAll(without(of(let.body()), let.pattern()));
    } else if (e instanceof Expr.LetWith with) {
      out.add(with.source());
      with.indices().forEach(i -> collect(i, out));
      collect(with.value(), out);
      Set<String> body = of(with.body());
      body.remove(with.dest());
      out.addAll(body);
    } else if (e instanceof Expr.Loop loop) {
      collect(loop.init(), out);
      collect(loop.bound(), out);
      Set<String> step = without(of(loop.loopBody()), loop.pattern());
      step.remove(loop.counter());
      out.addAll(step);
      out.addAll(without(of(loop.body()), loop.pattern()));
    } else if (e instanceof Expr.Map map) {
      collect(map.function(), out);
      collect(map.array(), out);
    } else if (e instanceof Expr.Filter filter) {
      collect(filter.function(), out);
      collect(filter.array(), out);
    } else if (e instanceof Expr.Reduce reduce) {
      collect(reduce.function(), out);
      collect(reduce.neutral(), out);
      collect(reduce.array(), out);
    } else if (e instanceof Expr.Scan scan) {
      collect(scan.function(), out);
      collect(scan.neutral(), out);
      collect(scan.array(), out);
    } else {
      e.children().forEach(child -> collect(child, out));
    }
  }

  private static Set<String> without(Set<String> names, Pattern pattern) {
    pattern.names().forEach(n -> names.remove(n.name()));
    return names;
  }
}
