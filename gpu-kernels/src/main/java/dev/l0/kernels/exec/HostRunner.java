package dev.l0.kernels.exec;

import dev.l0.ir.Program;
import dev.l0.ir.ScalarType;
import dev.l0.ir.ScalarValue;
import dev.l0.ir.SourcePos;
import dev.l0.ir.Type;
import dev.l0.ir.Value;
import dev.l0.kernels.jvm.FlatArray;
import dev.l0.kernels.lower.KernelLowering;
import dev.l0.kernels.lower.UnsupportedKernelException;
import dev.l0.opt.KernelPlan;
import dev.l0.opt.OptimizedProgram;
import dev.l0.opt.Optimizer;
import dev.l0.opt.eval.InternalEvaluator;
import dev.l0.opt.ir.Analysis;
import dev.l0.opt.ir.Body;
import dev.l0.opt.ir.Exp;
import dev.l0.opt.ir.Ident;
import dev.l0.opt.ir.InternalFunction;
import dev.l0.opt.ir.InternalProgram;
import dev.l0.opt.ir.Stm;
import dev.l0.opt.ir.SubExp;
import dev.l0.opt.ir.Traversal;
import dev.l0.semantics.ArrayOperations;
import dev.l0.types.TypeChecker;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.HashSet;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Runs the functions of an optimised program on the host: each function's statements in order,
 * every kernel of the {@link KernelPlan} (thesis ch. 7's fused SOACs) by a {@link KernelExecutor},
 * and the scalar code between kernels by the optimiser's {@link InternalEvaluator}; a kernel the
 * executor cannot lower is a compile error of the program, never run on the evaluator. Loops and
 * branches that hold kernels are run here, so a kernel inside a sequential loop runs once per
 * iteration. Kernels are prepared once, when the runner is built; nothing changes afterwards, so
 * calls may run on several threads at once, each with its own {@link HostEnvironment} (arrays of
 * scalars flat, see {@link HostValue}) and {@link RunMeter}.
 *
 * <p>Failures: where the plan's fusions may run one SOAC's failure before another's that the
 * interpreter reports first ({@link OptimizedProgram#reordersFailures}), a call that fails with the
 * program's own error ({@code L0RuntimeError}) runs again on the same inputs with the plan that
 * keeps the order of failures ({@link OptimizedProgram#failureOrderPlan}, its kernels prepared for
 * the same executor on the first such failure and kept), whose outcome, its error or its results,
 * the call returns. The inputs are intact for that run: kernels write only into arrays they
 * allocated (an in-place update of an input writes into a copy), and the host code between kernels
 * computes new values.
 */
public final class HostRunner {
  /**
   * The value of every certificate parameter when the caller passes external values (thesis §4.2.1:
   * checked by construction).
   */
  private static final HostValue CHECKED = HostValue.of(InternalEvaluator.CHECKED);

  private final OptimizedProgram optimized;
  private final KernelExecutor executor;
  private final Map<String, CompiledFunction> functions = new HashMap<>();

  /**
   * The functions whose bodies hold a kernel of the plan, or a call of such a function: a call of
   * one runs here, step by step ({@link CallRun}), so that its kernels run on the executor, never
   * on the evaluator (a recursive function, which the optimiser does not inline, included).
   */
  private final Set<String> kernelFunctions;

  /**
   * Every statement of the program by the name it binds (names are unique), for {@link
   * KernelArrayLimits} to name what made a kernel's input.
   */
  private final Map<String, Stm> definitions = new HashMap<>();

  private final int nestingDepth;
  private int segments;
  private volatile HostRunner failureOrderRunner;

  public HostRunner(OptimizedProgram optimized, KernelExecutor executor) {
    this.optimized = optimized;
    this.executor = executor;
    InternalProgram internal = optimized.internal();
    Map<Stm, KernelPlan.Kernel> kernels = new IdentityHashMap<>();
    optimized.kernelPlan().kernels().forEach(k -> kernels.put(k.statement(), k));
    this.kernelFunctions = functionsRunningKernels(internal, kernels);
    for (InternalFunction f : internal.functions()) {
      for (Stm stm : Traversal.statements(f.body())) {
        stm.pattern().forEach(p -> definitions.put(p.name(), stm));
      }
    }
    for (InternalFunction f : internal.functions()) {
      Map<String, Type> scope = new HashMap<>();
      f.params().forEach(p -> scope.put(p.name(), p.type()));
      functions.put(f.name(), new CompiledFunction(f, compile(f.body(), scope, kernels, internal)));
    }
    this.nestingDepth =
        internal.functions().stream().mapToInt(f -> 1 + Analysis.nesting(f.body())).sum();
  }

  /**
   * How deeply a call of this program's functions can recurse, in nested bodies: each function's
   * body nesting (if branches, loop and lambda bodies) plus one, added over all functions, since a
   * call may run a chain of them (the optimiser leaves calls where inlining would nest too deep);
   * the evaluator, the kernels' host code and the generated kernel methods recurse no deeper.
   */
  public int nestingDepth() {
    return nestingDepth;
  }

  /** Type-checks and optimises {@code program}, then prepares its kernels for {@code executor}. */
  public static HostRunner compile(Program program, KernelExecutor executor) {
    return new HostRunner(Optimizer.optimize(TypeChecker.check(program)), executor);
  }

  public String executorName() {
    return executor.name();
  }

  /**
   * Runs {@code function} on external values, checked against its parameter types as the
   * interpreter checks them ({@code IllegalArgumentException}); fails only with {@code
   * L0RuntimeError} for the program's own failures. Arguments and results are boxed; the runtime
   * API passes arrays flat through {@link #callFlattened}.
   */
  public Value call(String function, List<Value> args) {
    return call(function, args, new RunMeter());
  }

  /** {@link #call(String, List)}, what its kernels spend going to {@code meter}. */
  public Value call(String function, List<Value> args, RunMeter meter) {
    return optimized.rerunningFailures(
        () -> callPlan(function, args, meter),
        () -> failureOrderRunner().callPlan(function, args, meter));
  }

  private Value callPlan(String function, List<Value> args, RunMeter meter) {
    return optimized.call(
        function,
        args,
        (name, components) ->
            run(
                    compiled(name),
                    components.stream().map(HostValue::of).toList(),
                    meter,
                    SpareArrays.NONE)
                .stream()
                .map(HostValue::boxed)
                .toList());
  }

  /**
   * Runs {@code function} on the components of its external arguments, in order (those {@code
   * dev.l0.opt.eval.ValueFlattening#flatten} gives: tuples and arrays of tuples taken apart, arrays
   * of scalars preferably {@link HostValue.Flat}), and returns the components of its external
   * result, arrays of scalars flat where a kernel computed them; what its kernels spend goes to
   * {@code meter}. The caller has checked the components against the parameter types. Safe to call
   * from several threads at once: a call's state is its own {@link HostEnvironment}.
   */
  public List<HostValue> callFlattened(
      String function, List<HostValue> components, RunMeter meter) {
    return callFlattened(function, components, meter, SpareArrays.NONE);
  }

  /**
   * {@link #callFlattened(String, List, RunMeter)}, its JVM kernels allocating their buffers from
   * {@code spares}.
   */
  public List<HostValue> callFlattened(
      String function, List<HostValue> components, RunMeter meter, SpareArrays spares) {
    return optimized.rerunningFailures(
        () -> callPlanFlattened(function, components, meter, spares),
        () -> failureOrderRunner().callPlanFlattened(function, components, meter, spares));
  }

  /**
   * The runner of the plan that keeps the order of failures, whose kernels the same executor runs;
   * prepared on the first call and kept.
   */
  private HostRunner failureOrderRunner() {
    HostRunner runner = failureOrderRunner;
    if (runner == null) {
      synchronized (this) {
        runner = failureOrderRunner;
        if (runner == null) {
          runner = new HostRunner(optimized.failureOrderPlan(), executor);
          failureOrderRunner = runner;
        }
      }
    }
    return runner;
  }

  private List<HostValue> callPlanFlattened(
      String function, List<HostValue> components, RunMeter meter, SpareArrays spares) {
    CompiledFunction f = compiled(function);
    List<HostValue> results =
        run(f, f.definition().argumentsWithCertificates(components, CHECKED), meter, spares);
    return f.definition().resultsWithoutCertificates(results);
  }

  private CompiledFunction compiled(String function) {
    CompiledFunction f = functions.get(function);
    if (f == null) {
      throw new IllegalArgumentException("no function " + function);
    }
    return f;
  }

  private static List<HostValue> run(
      CompiledFunction f, List<HostValue> args, RunMeter meter, SpareArrays spares) {
    HostEnvironment environment = new HostEnvironment(meter, spares);
    bind(f.definition().params(), args, environment);
    return run(f.steps(), f.definition().body().result(), environment);
  }

  // ---- compilation: a function body to steps ----

  private record CompiledFunction(InternalFunction definition, List<Step> steps) {}

  /**
   * One piece of a body: statements for the evaluator, the size of an array or a variable's alias
   * (run here so as not to box a flat array), a kernel, or a loop or branch holding kernels.
   */
  private sealed interface Step {}

  private record Evaluated(EvaluatedStatements statements) implements Step {}

  /** {@code size(d, a)} from the array's shape, so that a flat array is not boxed for its size. */
  private record SizeOf(Ident bound, int dimension, String array) implements Step {}

  /** {@code let x = y}: binds {@code y}'s value as it is, flat or boxed. */
  private record Alias(Ident bound, String variable) implements Step {}

  /**
   * {@code iota(n)} or {@code replicate(n, v)} of a scalar {@code v}, made flat (a kernel input of
   * millions of rows is never boxed).
   */
  private record FlatFill(Ident bound, Exp fill) implements Step {}

  /**
   * {@code reshape(shape, a)} of a flat array: the same elements under the new shape, checked as
   * the interpreter checks it (an index function, no copy).
   */
  private record Reshaped(Ident bound, Exp.Reshape reshape) implements Step {}

  /**
   * A transpose that only kernels read, each as a view of its operand: computed only if a kernel
   * that runs on the evaluator (an executor's fallback) reads it.
   */
  private record ViewOnly(Ident bound, Exp.Transpose transpose) implements Step {}

  /** A kernel, and the limits its arrays are checked against before it runs. */
  private record KernelRun(Stm statement, PreparedKernel kernel, KernelArrayLimits limits)
      implements Step {}

  /**
   * A call of a function that runs kernels ({@link #kernelFunctions}): its body's steps, looked up
   * in {@code functions} when the call runs (a function may call itself).
   */
  private record CallRun(Stm statement, Exp.Apply call, Map<String, CompiledFunction> functions)
      implements Step {}

  private record LoopRun(Stm statement, Exp.Loop loop, List<Step> body) implements Step {}

  private record IfRun(Stm statement, Exp.If branch, List<Step> thenSteps, List<Step> elseSteps)
      implements Step {}

  private List<Step> compile(
      Body body,
      Map<String, Type> scope,
      Map<Stm, KernelPlan.Kernel> kernels,
      InternalProgram program) {
    List<Step> steps = new ArrayList<>();
    List<Stm> pending = new ArrayList<>();
    for (int i = 0; i < body.stms().size(); i++) {
      Stm stm = body.stms().get(i);
      KernelPlan.Kernel kernel = kernels.get(stm);
      boolean callsKernels = runsKernels(stm.exp());
      boolean holdsKernel = kernel == null && !callsKernels && holdsKernel(stm.exp(), kernels);
      Step onHost =
          readOnlyByKernels(stm, body, i, kernels)
              ? new ViewOnly(stm.pattern().get(0), (Exp.Transpose) stm.exp())
              : kernel == null && !holdsKernel && !callsKernels ? withoutBoxing(stm) : null;
      if (kernel != null || holdsKernel || callsKernels || onHost != null) {
        flush(pending, scope, program, steps);
      }
      if (onHost != null) {
        steps.add(onHost);
      } else if (callsKernels) {
        steps.add(new CallRun(stm, (Exp.Apply) stm.exp(), functions));
      } else if (kernel != null) {
        steps.add(
            new KernelRun(
                stm,
                prepare(kernel, new KernelScope(program, scope)),
                KernelArrayLimits.of(kernel, definitions)));
      } else if (holdsKernel && stm.exp() instanceof Exp.Loop loop) {
        loop.mergeParams().forEach(p -> scope.put(p.name(), p.type()));
        scope.put(loop.counter().name(), loop.counter().type());
        steps.add(new LoopRun(stm, loop, compile(loop.body(), scope, kernels, program)));
      } else if (holdsKernel) {
        Exp.If branch = (Exp.If) stm.exp();
        steps.add(
            new IfRun(
                stm,
                branch,
                compile(branch.thenBody(), scope, kernels, program),
                compile(branch.elseBody(), scope, kernels, program)));
      } else {
        pending.add(stm);
      }
      stm.pattern().forEach(p -> scope.put(p.name(), p.type()));
    }
    flush(pending, scope, program, steps);
    return steps;
  }

  private void flush(
      List<Stm> pending, Map<String, Type> scope, InternalProgram program, List<Step> steps) {
    if (!pending.isEmpty()) {
      String name = "host$segment" + segments++;
      steps.add(
          new Evaluated(
              new EvaluatedStatements(
                  name, List.copyOf(pending), new KernelScope(program, scope))));
      pending.clear();
    }
  }

  /**
   * Whether {@code stm} (statement {@code index} of {@code body}) is a transpose whose result only
   * kernels of the plan read (thesis ch. 8: they read it as a view of its operand, {@code
   * dev.l0.kernels.lower.GroupContext}), not the body's result nor any other statement.
   */
  private static boolean readOnlyByKernels(
      Stm stm, Body body, int index, Map<Stm, KernelPlan.Kernel> kernels) {
    if (!(stm.exp() instanceof Exp.Transpose)) {
      return false;
    }
    String name = stm.pattern().get(0).name();
    return body.result().stream().noneMatch(r -> name.equals(r.varName()))
        && body.stms().subList(index + 1, body.stms().size()).stream()
            .noneMatch(s -> !kernels.containsKey(s) && Analysis.freeVariables(s).contains(name));
  }

  /**
   * {@code kernel} prepared by the executor; one the executor cannot lower is the program's compile
   * error, naming the construct and its source position (no kernel runs on the evaluator instead).
   */
  private PreparedKernel prepare(KernelPlan.Kernel kernel, KernelScope scope) {
    try {
      return executor.prepare(kernel, scope);
    } catch (UnsupportedKernelException rejected) {
      throw KernelLowering.notLowered(kernel, executor.name(), rejected);
    }
  }

  /**
   * The step that runs {@code stm} without boxing its arrays (an array's size or an alias), or
   * {@code null} where the evaluator must run it.
   */
  private static Step withoutBoxing(Stm stm) {
    Exp e = stm.exp();
    if (e instanceof Exp.Size size && size.array() instanceof SubExp.Var array) {
      return new SizeOf(stm.pattern().get(0), size.dimension(), array.name());
    }
    if (e instanceof Exp.Atom atom && atom.value() instanceof SubExp.Var variable) {
      return new Alias(stm.pattern().get(0), variable.name());
    }
    if (e instanceof Exp.Reshape reshape && reshape.array() instanceof SubExp.Var) {
      return new Reshaped(stm.pattern().get(0), reshape);
    }
    if (e instanceof Exp.Iota
        || e instanceof Exp.Replicate
            && stm.pattern().get(0).type() instanceof Type.Array a
            && a.element() instanceof ScalarType) {
      return new FlatFill(stm.pattern().get(0), e);
    }
    return null;
  }

  /**
   * Whether a loop or branch holds a kernel statement of the plan, or a call of a function that
   * runs kernels, in its bodies.
   */
  private boolean holdsKernel(Exp e, Map<Stm, KernelPlan.Kernel> kernels) {
    for (Body b : e.bodies()) {
      for (Stm s : b.stms()) {
        if (kernels.containsKey(s) || runsKernels(s.exp()) || holdsKernel(s.exp(), kernels)) {
          return true;
        }
      }
    }
    return false;
  }

  /** Whether {@code e} is a call of a function that runs kernels. */
  private boolean runsKernels(Exp e) {
    return e instanceof Exp.Apply call && kernelFunctions.contains(call.function());
  }

  /**
   * The functions of {@code program} whose bodies hold a statement of {@code kernels} or, to a
   * fixpoint, a call of such a function.
   */
  private static Set<String> functionsRunningKernels(
      InternalProgram program, Map<Stm, KernelPlan.Kernel> kernels) {
    Set<String> found = new HashSet<>();
    boolean grew = true;
    while (grew) {
      grew = false;
      for (InternalFunction f : program.functions()) {
        if (!found.contains(f.name())
            && Traversal.statements(f.body()).stream()
                .anyMatch(
                    s ->
                        kernels.containsKey(s)
                            || s.exp() instanceof Exp.Apply call
                                && found.contains(call.function()))) {
          found.add(f.name());
          grew = true;
        }
      }
    }
    return found;
  }

  // ---- running ----

  private static List<HostValue> run(
      List<Step> steps, List<SubExp> result, HostEnvironment environment) {
    for (Step step : steps) {
      if (step instanceof Evaluated e) {
        e.statements().runInto(environment);
      } else if (step instanceof SizeOf s) {
        environment.bind(
            s.bound().name(),
            HostValue.of(ScalarValue.i32(environment.size(s.array(), s.dimension()))));
      } else if (step instanceof Alias a) {
        environment.bind(a.bound().name(), environment.get(a.variable()));
      } else if (step instanceof FlatFill f) {
        environment.bind(f.bound().name(), filled(f.fill(), environment));
      } else if (step instanceof ViewOnly v) {
        Exp.Transpose t = v.transpose();
        environment.bindOnRead(
            v.bound().name(),
            env ->
                HostValue.of(
                    ArrayOperations.transpose(
                        t.k(), t.n(), env.value(t.array().varName()), SourcePos.NONE)));
      } else if (step instanceof Reshaped r) {
        environment.bind(r.bound().name(), reshaped(r.reshape(), environment));
      } else if (step instanceof KernelRun k) {
        k.limits().require(environment);
        bind(
            k.statement().pattern(),
            environment.meter().timeKernel(() -> k.kernel().run(environment)),
            environment);
      } else if (step instanceof LoopRun l) {
        bind(l.statement().pattern(), loop(l, environment), environment);
      } else if (step instanceof CallRun c) {
        List<HostValue> args = c.call().args().stream().map(a -> value(a, environment)).toList();
        CompiledFunction callee = c.functions().get(c.call().function());
        bind(
            c.statement().pattern(),
            run(callee, args, environment.meter(), environment.spares()),
            environment);
      } else {
        IfRun i = (IfRun) step;
        boolean condition =
            ((ScalarValue.Bool) scalar(i.branch().condition(), environment)).value();
        Body taken = condition ? i.branch().thenBody() : i.branch().elseBody();
        List<HostValue> values =
            run(condition ? i.thenSteps() : i.elseSteps(), taken.result(), environment);
        bind(i.statement().pattern(), values, environment);
      }
    }
    return result.stream().map(s -> value(s, environment)).toList();
  }

  /** A sequential loop (thesis §2.1.1) whose body holds kernels. */
  private static List<HostValue> loop(LoopRun l, HostEnvironment environment) {
    Exp.Loop loop = l.loop();
    List<HostValue> merge = loop.init().stream().map(s -> value(s, environment)).toList();
    ScalarValue.Int bound = (ScalarValue.Int) scalar(loop.bound(), environment);
    for (long i = 0; i < bound.value(); i++) {
      bind(loop.mergeParams(), merge, environment);
      environment.bind(loop.counter().name(), HostValue.of(new ScalarValue.Int(bound.type(), i)));
      merge = run(l.body(), loop.body().result(), environment);
    }
    return merge;
  }

  /**
   * {@code reshape(shape, a)}: a flat {@code a}'s elements under the new shape where the sizes are
   * not negative and their product is its element count; otherwise, or for a boxed {@code a}, the
   * interpreter's reshape (and its error).
   */
  private static HostValue reshaped(Exp.Reshape reshape, HostEnvironment environment) {
    String array = reshape.array().varName();
    int[] shape = new int[reshape.shape().size()];
    long elements = 1;
    boolean fits = environment.get(array) instanceof HostValue.Flat;
    for (int d = 0; d < shape.length && fits; d++) {
      long size = ((ScalarValue.Int) scalar(reshape.shape().get(d), environment)).value();
      fits = size >= 0 && size <= Integer.MAX_VALUE;
      shape[d] = (int) size;
      elements *= Math.max(size, 0);
      fits = fits && elements <= Integer.MAX_VALUE;
    }
    if (fits) {
      FlatArray flat = environment.flat(array);
      if (elements == java.lang.reflect.Array.getLength(flat.data())) {
        return HostValue.of(new FlatArray(flat.elementType(), flat.data(), shape));
      }
    }
    List<Value> sizes = reshape.shape().stream().map(s -> (Value) scalar(s, environment)).toList();
    return HostValue.of(ArrayOperations.reshape(sizes, environment.value(array), reshape.pos()));
  }

  /** The most bytes of one scalar of a flat array. */
  private static final long MOST_BYTES_PER_SCALAR = 8;

  /**
   * {@code iota(n)} or {@code replicate(n, v)} as a flat array; a count the evaluator refuses
   * (negative, or past the array limit) is the evaluator's error. An {@code iota} that would not
   * fit in the heap flat is refused with the size of its flat array (the evaluator's would name its
   * boxed size, seven times as large); such a {@code replicate} is the evaluator's, which holds one
   * value n times.
   */
  private static HostValue filled(Exp fill, HostEnvironment environment) {
    boolean iota = fill instanceof Exp.Iota;
    SubExp countExp = iota ? ((Exp.Iota) fill).count() : ((Exp.Replicate) fill).count();
    ScalarValue.Int count = (ScalarValue.Int) scalar(countExp, environment);
    boolean countable = count.value() >= 0 && count.value() <= ArrayOperations.MAX_LENGTH;
    if (iota) {
      SourcePos pos = ((Exp.Iota) fill).pos();
      if (!countable) {
        return HostValue.of(ArrayOperations.iota(count, pos));
      }
      ArrayOperations.requireFlatArrayRoomFor(
          "iota", count.value(), count.type() == ScalarType.I32 ? Integer.BYTES : Long.BYTES, pos);
    } else if (!countable
        || count.value() * MOST_BYTES_PER_SCALAR > Runtime.getRuntime().maxMemory()) {
      Exp.Replicate r = (Exp.Replicate) fill;
      return HostValue.of(
          ArrayOperations.replicate(count, scalar(r.value(), environment), r.pos()));
    }
    return HostValue.of(flatFill(iota, count, fill, environment));
  }

  private static FlatArray flatFill(
      boolean iota, ScalarValue.Int count, Exp fill, HostEnvironment environment) {
    int n = (int) count.value();
    if (iota) {
      if (count.type() == ScalarType.I32) {
        int[] data = new int[n];
        Arrays.setAll(data, i -> i);
        return new FlatArray(ScalarType.I32, data, new int[] {n});
      }
      long[] data = new long[n];
      Arrays.setAll(data, i -> i);
      return new FlatArray(count.type(), data, new int[] {n});
    }
    ScalarValue v = scalar(((Exp.Replicate) fill).value(), environment);
    Object data = FlatArray.allocate(v.type(), n);
    switch (v.type()) {
      case BOOL -> Arrays.fill((boolean[]) data, ((ScalarValue.Bool) v).value());
      case I32 -> Arrays.fill((int[]) data, (int) ((ScalarValue.Int) v).value());
      case I64 -> Arrays.fill((long[]) data, ((ScalarValue.Int) v).value());
      case F32 -> Arrays.fill((float[]) data, (float) ((ScalarValue.Float) v).value());
      case F64 -> Arrays.fill((double[]) data, ((ScalarValue.Float) v).value());
    }
    return new FlatArray(v.type(), data, new int[] {n});
  }

  private static HostValue value(SubExp s, HostEnvironment environment) {
    return s instanceof SubExp.Const c
        ? HostValue.of(c.value())
        : environment.get(((SubExp.Var) s).name());
  }

  private static ScalarValue scalar(SubExp s, HostEnvironment environment) {
    return s instanceof SubExp.Const c
        ? (ScalarValue) c.value()
        : environment.scalar(((SubExp.Var) s).name());
  }

  private static void bind(List<Ident> names, List<HostValue> values, HostEnvironment environment) {
    for (int k = 0; k < names.size(); k++) {
      environment.bind(names.get(k).name(), values.get(k));
    }
  }
}
