package dev.l0.ir;

import java.util.ArrayDeque;
import java.util.Deque;
import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/** An L0 program: a sequence of function definitions. */
public record Program(List<FunDef> functions) {
  public Program {
    functions = List.copyOf(functions);
  }

  public Optional<FunDef> function(String name) {
    return functions.stream().filter(f -> f.name().equals(name)).findFirst();
  }

  /** The names of the functions, in their order (what an error for a missing entry lists). */
  public List<String> functionNames() {
    return functions.stream().map(FunDef::name).toList();
  }

  /**
   * This program cut down to the function {@code entry} and the functions it calls, directly or
   * through others (by name in a call, or as a SOAC's function), in their order: what running
   * {@code entry} needs, so that a runner prepares no other entry's kernels (OptionPricing's Spark
   * entry {@code payoffSums} cost {@code bin/l0 finpar} a second of compilation). The whole program
   * when it defines no {@code entry}.
   */
  public Program reachableFrom(String entry) {
    if (function(entry).isEmpty()) {
      return this;
    }
    Set<String> reached = new HashSet<>();
    Deque<String> pending = new ArrayDeque<>(List.of(entry));
    while (!pending.isEmpty()) {
      String name = pending.pop();
      Optional<FunDef> f = function(name);
      if (f.isPresent() && reached.add(name)) {
        pending.addAll(calledFunctions(f.get().body()));
      }
    }
    return new Program(functions.stream().filter(f -> reached.contains(f.name())).toList());
  }

  /**
   * The names of the functions {@code e} calls or passes to a SOAC as its function, built-ins
   * included, at any depth.
   */
  public static Set<String> calledFunctions(Expr e) {
    Set<String> names = new HashSet<>();
    addCalledFunctions(e, names);
    return names;
  }

  private static void addCalledFunctions(Expr e, Set<String> names) {
    if (e instanceof Expr.Call c) {
      names.add(c.function());
    }
    if (e.soacFunction().orElse(null) instanceof FunArg.FunctionRef ref) {
      names.add(ref.name());
    }
    for (Expr child : e.children()) {
      addCalledFunctions(child, names);
    }
  }

  /** Rewrites every function body bottom-up with {@code rule} (see {@link Expr#transformUp}). */
  public Program transformUp(java.util.function.UnaryOperator<Expr> rule) {
    return new Program(
        functions.stream().map(f -> f.withBody(f.body().transformUp(rule))).toList());
  }
}
