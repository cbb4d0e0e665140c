package dev.l0.kernels.exec;

import dev.l0.ir.Program;
import dev.l0.ir.ScalarValue;
import dev.l0.ir.Type;
import dev.l0.ir.Value;
import dev.l0.kernels.lower.UnsupportedKernelException;
import dev.l0.opt.KernelPlan;
import dev.l0.opt.OptimizedProgram;
import dev.l0.opt.Optimizer;
import dev.l0.opt.eval.InternalEvaluator;
import dev.l0.opt.ir.Body;
import dev.l0.opt.ir.Exp;
import dev.l0.opt.ir.Ident;
import dev.l0.opt.ir.InternalFunction;
import dev.l0.opt.ir.InternalProgram;
import dev.l0.opt.ir.Stm;
import dev.l0.opt.ir.SubExp;
import dev.l0.types.TypeChecker;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;

/**
 * Runs the functions of an optimised program on the host: each function's statements in order,
 * every kernel of the {@link KernelPlan} (thesis ch. 7's fused SOACs) by a {@link KernelExecutor},
 * the scalar code between kernels, and any kernel the executor rejects, by the optimiser's
 * {@link InternalEvaluator} (the rejection is recorded as a {@link Fallback}). Loops and branches
 * that hold kernels are run here, so a kernel inside a sequential loop runs once per iteration.
 * Kernels are prepared once, when the runner is built.
 */
public final class HostRunner {
  /** A kernel the executor could not run, and why; it runs on the evaluator instead. */
  public record Fallback(KernelPlan.Kernel kernel, String reason) {
    @Override
    public String toString() {
      return kernel.describe() + ": " + reason;
    }
  }

  private final OptimizedProgram optimized;
  private final KernelExecutor executor;
  private final Map<String, CompiledFunction> functions = new HashMap<>();
  private final List<Fallback> fallbacks = new ArrayList<>();
  private int segments;

  public HostRunner(OptimizedProgram optimized, KernelExecutor executor) {
    this.optimized = optimized;
    this.executor = executor;
    InternalProgram internal = optimized.internal();
    Map<Stm, KernelPlan.Kernel> kernels = new IdentityHashMap<>();
    optimized.kernelPlan().kernels().forEach(k -> kernels.put(k.statement(), k));
    for (InternalFunction f : internal.functions()) {
      Map<String, Type> scope = new HashMap<>();
      f.params().forEach(p -> scope.put(p.name(), p.type()));
      functions.put(f.name(), new CompiledFunction(f, compile(f.body(), scope, kernels, internal)));
    }
  }

  /** Type-checks and optimises {@code program}, then prepares its kernels for {@code executor}. */
  public static HostRunner compile(Program program, KernelExecutor executor) {
    return new HostRunner(Optimizer.optimize(TypeChecker.check(program)), executor);
  }

  public String executorName() {
    return executor.name();
  }

  /** The kernels that run on the evaluator because the executor rejected them. */
  public List<Fallback> fallbacks() {
    return List.copyOf(fallbacks);
  }

  /**
   * Runs {@code function} on external values, checked against its parameter types as the
   * interpreter checks them ({@code IllegalArgumentException}); fails only with
   * {@code L0RuntimeError} for the program's own failures.
   */
  public Value call(String function, List<Value> args) {
    return optimized.call(function, args, this::callComponents);
  }

  /** Runs internal function {@code function} on tupleless arguments (certificates included), as {@link InternalEvaluator#call} does. */
  public List<Value> callComponents(String function, List<Value> args) {
    CompiledFunction f = functions.get(function);
    if (f == null) {
      throw new IllegalArgumentException("no function " + function);
    }
    Map<String, Value> environment = new HashMap<>();
    bind(f.definition.params(), args, environment);
    return run(f.steps, f.definition.body().result(), environment);
  }

  // ---- compilation: a function body to steps ----

  private record CompiledFunction(InternalFunction definition, List<Step> steps) {}

  /** One piece of a body: statements for the evaluator, a kernel, or a loop or branch holding kernels. */
  private sealed interface Step {}

  private record Evaluated(EvaluatedStatements statements) implements Step {}

  private record KernelRun(Stm statement, PreparedKernel kernel) implements Step {}

  private record LoopRun(Stm statement, Exp.Loop loop, List<Step> body) implements Step {}

  private record IfRun(Stm statement, Exp.If branch, List<Step> thenSteps, List<Step> elseSteps) implements Step {}

  private List<Step> compile(Body body, Map<String, Type> scope, Map<Stm, KernelPlan.Kernel> kernels, InternalProgram program) {
    List<Step> steps = new ArrayList<>();
    List<Stm> pending = new ArrayList<>();
    for (Stm stm : body.stms()) {
      KernelPlan.Kernel kernel = kernels.get(stm);
      boolean holdsKernel = kernel == null && holdsKernel(stm.exp(), kernels);
      if (kernel != null || holdsKernel) {
        flush(pending, scope, program, steps);
      }
      if (kernel != null) {
        steps.add(new KernelRun(stm, prepare(kernel, new KernelScope(program, scope))));
      } else if (holdsKernel && stm.exp() instanceof Exp.Loop loop) {
        loop.mergeParams().forEach(p -> scope.put(p.name(), p.type()));
        scope.put(loop.counter().name(), loop.counter().type());
        steps.add(new LoopRun(stm, loop, compile(loop.body(), scope, kernels, program)));
      } else if (holdsKernel) {
        Exp.If branch = (Exp.If) stm.exp();
        steps.add(new IfRun(stm, branch, compile(branch.thenBody(), scope, kernels, program),
            compile(branch.elseBody(), scope, kernels, program)));
      } else {
        pending.add(stm);
      }
      stm.pattern().forEach(p -> scope.put(p.name(), p.type()));
    }
    flush(pending, scope, program, steps);
    return steps;
  }

  private void flush(List<Stm> pending, Map<String, Type> scope, InternalProgram program, List<Step> steps) {
    if (!pending.isEmpty()) {
      String name = "host$segment" + segments++;
      steps.add(new Evaluated(new EvaluatedStatements(name, List.copyOf(pending), new KernelScope(program, scope))));
      pending.clear();
    }
  }

  private PreparedKernel prepare(KernelPlan.Kernel kernel, KernelScope scope) {
    try {
      return executor.prepare(kernel, scope);
    } catch (UnsupportedKernelException rejected) {
      fallbacks.add(new Fallback(kernel, rejected.getMessage()));
      return new EvaluatorExecutor().prepare(kernel, scope);
    }
  }

  /** Whether a loop or branch holds a kernel statement of the plan in its bodies. */
  private static boolean holdsKernel(Exp e, Map<Stm, KernelPlan.Kernel> kernels) {
    for (Body b : e.bodies()) {
      for (Stm s : b.stms()) {
        if (kernels.containsKey(s) || holdsKernel(s.exp(), kernels)) {
          return true;
        }
      }
    }
    return false;
  }

  // ---- running ----

  private static List<Value> run(List<Step> steps, List<SubExp> result, Map<String, Value> environment) {
    for (Step step : steps) {
      if (step instanceof Evaluated e) {
        e.statements().runInto(environment);
      } else if (step instanceof KernelRun k) {
        bind(k.statement().pattern(), k.kernel().run(environment), environment);
      } else if (step instanceof LoopRun l) {
        bind(l.statement().pattern(), loop(l, environment), environment);
      } else {
        IfRun i = (IfRun) step;
        boolean condition = ((ScalarValue.Bool) value(i.branch().condition(), environment)).value();
        Body taken = condition ? i.branch().thenBody() : i.branch().elseBody();
        List<Value> values = run(condition ? i.thenSteps() : i.elseSteps(), taken.result(), environment);
        bind(i.statement().pattern(), values, environment);
      }
    }
    return result.stream().map(s -> value(s, environment)).toList();
  }

  /** A sequential loop (thesis §2.1.1) whose body holds kernels. */
  private static List<Value> loop(LoopRun l, Map<String, Value> environment) {
    Exp.Loop loop = l.loop();
    List<Value> merge = loop.init().stream().map(s -> value(s, environment)).toList();
    ScalarValue.Int bound = (ScalarValue.Int) value(loop.bound(), environment);
    for (long i = 0; i < bound.value(); i++) {
      bind(loop.mergeParams(), merge, environment);
      environment.put(loop.counter().name(), new ScalarValue.Int(bound.type(), i));
      merge = run(l.body(), loop.body().result(), environment);
    }
    return merge;
  }

  private static Value value(SubExp s, Map<String, Value> environment) {
    return s instanceof SubExp.Const c ? c.value() : environment.get(((SubExp.Var) s).name());
  }

  private static void bind(List<Ident> names, List<Value> values, Map<String, Value> environment) {
    for (int k = 0; k < names.size(); k++) {
      environment.put(names.get(k).name(), values.get(k));
    }
  }
}
