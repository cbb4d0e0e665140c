package dev.l0.ir;

import java.util.List;
import java.util.Optional;

/** An L0 program: a sequence of function definitions. */
public record Program(List<FunDef> functions) {
  public Program {
    functions = List.copyOf(functions);
  }

  public Optional<FunDef> function(String name) {
    return functions.stream().filter(f -> f.name().equals(name)).findFirst();
  }

  /** Rewrites every function body bottom-up with {@code rule} (see {@link Expr#transformUp}). */
  public Program transformUp(java.util.function.UnaryOperator<Expr> rule) {
    return new Program(
        functions.stream().map(f -> f.withBody(f.body().transformUp(rule))).toList());
  }
}
