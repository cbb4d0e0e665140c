package dev.l0.kernels.exec;

import dev.l0.ir.Value;
import dev.l0.opt.eval.InternalEvaluator;
import dev.l0.opt.ir.Analysis;
import dev.l0.opt.ir.Body;
import dev.l0.opt.ir.Ident;
import dev.l0.opt.ir.InternalFunction;
import dev.l0.opt.ir.InternalProgram;
import dev.l0.opt.ir.Stm;
import dev.l0.opt.ir.SubExp;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

/**
 * A run of consecutive statements executed by the optimiser's {@link InternalEvaluator}, so the
 * host runner computes scalar code (and kernels it falls back on) with exactly the evaluator's
 * semantics: the statements become the body of a synthetic function whose parameters are their free
 * variables and whose results are every name they bind.
 */
final class EvaluatedStatements {
  private final InternalEvaluator evaluator;
  private final String function;
  private final List<Ident> params;
  private final List<Ident> bound;

  EvaluatedStatements(String function, List<Stm> stms, KernelScope scope) {
    this.function = function;
    Set<String> boundSoFar = new HashSet<>();
    Set<String> free = new LinkedHashSet<>();
    List<Ident> results = new ArrayList<>();
    for (Stm stm : stms) {
      Analysis.freeVariables(stm).stream()
          .sorted()
          .filter(name -> !boundSoFar.contains(name) && scope.types().containsKey(name))
          .forEach(free::add);
      stm.pattern().forEach(id -> boundSoFar.add(id.name()));
      results.addAll(stm.pattern());
    }
    this.params = free.stream().map(name -> new Ident(name, scope.typeOf(name))).toList();
    this.bound = List.copyOf(results);
    Body body = new Body(stms, results.stream().map(id -> (SubExp) id.var()).toList());
    InternalFunction synthetic =
        new InternalFunction(function, params, body, results.stream().map(Ident::type).toList());
    List<InternalFunction> functions = new ArrayList<>(scope.program().functions());
    functions.add(synthetic);
    this.evaluator = new InternalEvaluator(new InternalProgram(functions));
  }

  /** The names the statements bind, in order. */
  List<Ident> bound() {
    return bound;
  }

  /**
   * The statements' results, computed from their free variables' values in {@code environment}
   * (boxed where they are flat).
   */
  List<Value> run(HostEnvironment environment) {
    List<Value> args = params.stream().map(p -> environment.value(p.name())).toList();
    return evaluator.call(function, args);
  }

  /** Runs the statements and binds what they bind in {@code environment}. */
  void runInto(HostEnvironment environment) {
    List<Value> values = run(environment);
    for (int k = 0; k < bound.size(); k++) {
      environment.bind(bound.get(k).name(), HostValue.of(values.get(k)));
    }
  }
}
