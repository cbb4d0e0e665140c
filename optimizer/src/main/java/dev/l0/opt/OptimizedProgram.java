package dev.l0.opt;

import static java.util.stream.Collectors.partitioningBy;

import dev.l0.ir.FunDef;
import dev.l0.ir.L0CompileError;
import dev.l0.ir.L0ResourceError;
import dev.l0.ir.L0RuntimeError;
import dev.l0.ir.Param;
import dev.l0.ir.Program;
import dev.l0.ir.Type;
import dev.l0.ir.Value;
import dev.l0.opt.eval.InternalEvaluator;
import dev.l0.opt.eval.ValueFlattening;
import dev.l0.opt.fusion.FailureOrder;
import dev.l0.opt.fusion.FusionHistory;
import dev.l0.opt.fusion.FusionRule;
import dev.l0.opt.ir.InternalFunction;
import dev.l0.opt.ir.InternalPrinter;
import dev.l0.opt.ir.InternalProgram;
import dev.l0.opt.ir.InternalTypes;
import dev.l0.opt.pass.RewriteRule;
import dev.l0.semantics.ArrayOperations;
import dev.l0.syntax.L0Printer;
import dev.l0.types.NestingLimit;
import dev.l0.values.ValueTypes;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.BiFunction;
import java.util.function.Supplier;
import java.util.stream.Collectors;

/**
 * An optimised program: the internal program, its {@link KernelPlan}, the {@code explain} text, and
 * an evaluator that runs it on external values (arguments and results keep their tuples). The entry
 * functions are those no other function of the source calls; helpers, inlined into them, stay
 * callable.
 */
public final class OptimizedProgram {
  private final Program source;
  private final InternalProgram internal;
  private final List<String> entries;
  private final KernelPlan plan;
  private final FusionHistory fusion;
  private final Supplier<OptimizedProgram> keptOrder;
  private volatile OptimizedProgram failureOrderPlan;

  /**
   * {@code keptOrder} compiles the same program with the order of failures kept ({@link
   * FailureOrder#KEPT}); it is called at most once, and only where {@code fusion} {@link
   * FusionHistory#reordersFailures}.
   */
  OptimizedProgram(
      Program source,
      InternalProgram internal,
      FusionHistory fusion,
      Supplier<OptimizedProgram> keptOrder) {
    this.source = source;
    this.internal = internal;
    this.fusion = fusion;
    this.keptOrder = keptOrder;
    this.entries = entryFunctions(source);
    this.plan = KernelPlan.of(internal, entries);
  }

  /**
   * Whether a fusion rule ran the work of a SOAC that may fail in one pass with, or after, another
   * that may fail ({@link FailureOrder#mayReorder}): a failing run may then report another error
   * than the interpreter, so a backend whose run of this plan fails reruns {@link
   * #failureOrderPlan} on the same inputs and reports its outcome. False for a program that has no
   * such fusion (and for the {@link FailureOrder#KEPT} plan itself).
   */
  public boolean reordersFailures() {
    return fusion.reordersFailures();
  }

  /**
   * This program with the order of failures kept ({@link FailureOrder#KEPT}): it fails exactly as
   * the interpreter does. This program itself where it {@link #reordersFailures} not; otherwise
   * compiled on the first call and kept (thread-safe).
   */
  public OptimizedProgram failureOrderPlan() {
    if (!reordersFailures()) {
      return this;
    }
    OptimizedProgram kept = failureOrderPlan;
    if (kept == null) {
      synchronized (this) {
        kept = failureOrderPlan;
        if (kept == null) {
          kept = keptOrder.get();
          failureOrderPlan = kept;
        }
      }
    }
    return kept;
  }

  public InternalProgram internal() {
    return internal;
  }

  public KernelPlan kernelPlan() {
    return plan;
  }

  /** The functions no other function calls, in program order. */
  public List<String> entries() {
    return entries;
  }

  /**
   * The rules that made {@code kernel} (fusion rules, and the simplification rules that shaped its
   * SOACs or the arrays they read), in the order they first applied; empty for a SOAC as written.
   */
  public List<RewriteRule> rules(KernelPlan.Kernel kernel) {
    return fusion.rulesOf(kernel.statement());
  }

  /**
   * The optimised entry functions, then one line per kernel (ending {@code ; fused by RULE, ...}
   * where fusion rules made it, then {@code ; shaped by RULE, ...} where simplification rules
   * shaped it), then a line {@code note: ...} for each thing the passes noted (a filter clustering
   * not proved minimal), a line {@code failure order: ...} where the plan {@link #reordersFailures}
   * (a failing run reruns with {@link #failureOrderPlan}'s kernels), then {@code kernels: N}.
   */
  public String explain() {
    StringBuilder out = new StringBuilder();
    for (InternalFunction f : plan.entries()) {
      out.append(InternalPrinter.print(f)).append("\n\n");
    }
    List<KernelPlan.Kernel> kernels = plan.kernels();
    for (int k = 0; k < kernels.size(); k++) {
      out.append("kernel ").append(k + 1).append(": ").append(kernels.get(k).describe());
      Map<Boolean, List<RewriteRule>> byFusion =
          rules(kernels.get(k)).stream().collect(partitioningBy(r -> r instanceof FusionRule));
      appendRules(out, "; fused by ", byFusion.get(true));
      appendRules(out, "; shaped by ", byFusion.get(false));
      out.append('\n');
    }
    fusion.notes().forEach(note -> out.append("note: ").append(note).append('\n'));
    if (reordersFailures()) {
      out.append("failure order: a failing run reruns with the failure-order plan, ")
          .append(failureOrderPlan().kernelPlan().kernels().size())
          .append(" kernels\n");
    }
    out.append("kernels: ").append(kernels.size()).append('\n');
    return out.toString();
  }

  private static void appendRules(StringBuilder out, String label, List<RewriteRule> rules) {
    if (!rules.isEmpty()) {
      out.append(label)
          .append(rules.stream().map(RewriteRule::ruleName).collect(Collectors.joining(", ")));
    }
  }

  /**
   * Runs {@code function} of the optimised program on external values, checked against its
   * parameter types as the interpreter checks them ({@code IllegalArgumentException}); fails only
   * with {@code L0RuntimeError} for the program's own failures, where the plan {@link
   * #reordersFailures} those of a rerun with {@link #failureOrderPlan} on the same values.
   */
  public Value call(String function, List<Value> args) {
    return rerunningFailures(
        () -> call(function, args, new InternalEvaluator(internal)::call),
        () -> failureOrderPlan().call(function, args));
  }

  /**
   * What {@code run} gives; where it fails with the program's own error ({@code L0RuntimeError})
   * and this plan {@link #reordersFailures}, what {@code rerun} gives, the same call run with
   * {@link #failureOrderPlan}'s kernels (whose outcome, its error or its results, is the
   * interpreter's).
   */
  public <T> T rerunningFailures(Supplier<T> run, Supplier<T> rerun) {
    try {
      return run.get();
    } catch (L0RuntimeError e) {
      if (!reordersFailures()) {
        throw e;
      }
      return rerun.get();
    }
  }

  /**
   * {@link #call(String, List)} through {@code components}, which runs the internal function on its
   * tupleless arguments (certificates included) and returns its tupleless results: the evaluator,
   * or a backend's host runner. It runs, as the CLI runs programs, on a thread with the large stack
   * of {@link NestingLimit#onLargeStack}, so that a program within the nesting limit runs whatever
   * the caller's stack.
   */
  public Value call(
      String function, List<Value> args, BiFunction<String, List<Value>, List<Value>> components) {
    return NestingLimit.onLargeStack(() -> callOnLargeStack(function, args, components));
  }

  private Value callOnLargeStack(
      String function, List<Value> args, BiFunction<String, List<Value>, List<Value>> components) {
    FunDef def =
        source
            .function(function)
            .orElseThrow(
                () ->
                    new IllegalArgumentException("the program has no function '" + function + "'"));
    if (def.params().size() != args.size()) {
      throw new IllegalArgumentException(
          function + " takes " + def.params().size() + " arguments, given " + args.size());
    }
    requireComponentsForEveryArray(def);
    List<Value> flattened = new ArrayList<>();
    for (int k = 0; k < args.size(); k++) {
      Param p = def.params().get(k);
      if (!ValueTypes.conforms(args.get(k), p.type())) {
        throw new IllegalArgumentException(
            "argument "
                + (k + 1)
                + " of "
                + function
                + " has type "
                + L0Printer.print(ValueTypes.typeOf(args.get(k)))
                + ", expected "
                + L0Printer.print(p.type()));
      }
      flattened.addAll(ValueFlattening.flatten(args.get(k), p.type()));
    }
    InternalFunction f = internal.function(function).orElseThrow();
    List<Value> results;
    try {
      results =
          components.apply(
              function, f.argumentsWithCertificates(flattened, InternalEvaluator.CHECKED));
    } catch (L0ResourceError e) {
      throw atSource(e, def);
    }
    List<Value> resultComponents = f.resultsWithoutCertificates(results);
    requireHeapToRebuild(resultComponents, def);
    return ValueFlattening.unflatten(resultComponents, def.returnType());
  }

  /**
   * Refuses to call {@code def} from outside where a parameter or the result holds an array of
   * empty tuples: tuple-of-arrays flattening gives such an array no component, so its length could
   * neither reach the optimised program nor come back from it (the reference interpreter has no
   * such limit).
   */
  private static void requireComponentsForEveryArray(FunDef def) {
    List<Type> external = new ArrayList<>(def.params().stream().map(Param::type).toList());
    external.add(def.returnType());
    for (Type t : external) {
      if (hasArrayOfEmptyTuples(t)) {
        throw new L0CompileError(
            def.pos(),
            "'"
                + def.name()
                + "' takes or returns an array of empty tuples ("
                + L0Printer.print(t)
                + "), which the optimised program cannot pass; run it with --no-opt");
      }
    }
  }

  private static boolean hasArrayOfEmptyTuples(Type t) {
    if (t instanceof Type.Array a) {
      return InternalTypes.components(a.element()).isEmpty() || hasArrayOfEmptyTuples(a.element());
    }
    return t instanceof Type.Tuple tuple
        && tuple.elements().stream().anyMatch(OptimizedProgram::hasArrayOfEmptyTuples);
  }

  /** What rebuilding the external result costs per element at least: a reference in a new list. */
  private static final long BYTES_PER_REBUILT_ELEMENT = 4;

  /**
   * Refuses, before rebuilding, a result whose external form (each row a list of its own, each row
   * of an array of tuples a tuple of its own) could not fit in the JVM's heap ({@link
   * ArrayOperations#requireHeapFor}): a replicate of a replicate shares one row internally, and
   * rebuilding 2^32 elements, or the tuples of two arrays that each fit, would otherwise run for
   * minutes before running out of memory.
   */
  private static void requireHeapToRebuild(List<Value> components, FunDef called) {
    double elements = components.stream().mapToDouble(ArrayOperations::scalarCount).sum();
    double bytes =
        elements * BYTES_PER_REBUILT_ELEMENT + tupleRowBytes(called.returnType(), components);
    ArrayOperations.heapShortfall(bytes)
        .ifPresent(
            shortfall -> {
              throw new L0ResourceError(
                  called.pos(),
                  String.format(
                      "the result of '%s' has %.0f elements; rebuilding it needs about %.0f MiB, %s",
                      called.name(), elements, bytes / (1 << 20), shortfall),
                  true);
            });
  }

  /**
   * What the tuples of the rebuilt arrays of tuples among {@code components} (a value of {@code
   * type}) cost at least besides the references to their components, which are among the elements
   * counted ({@link ArrayOperations#bytesPerTupleRow} of none); those nested in arrays are not
   * counted.
   */
  private static double tupleRowBytes(Type type, List<Value> components) {
    if (type instanceof Type.Tuple t) {
      double bytes = 0;
      int from = 0;
      for (Type element : t.elements()) {
        int width = InternalTypes.components(element).size();
        bytes += tupleRowBytes(element, components.subList(from, from + width));
        from += width;
      }
      return bytes;
    }
    if (type instanceof Type.Array a
        && a.element() instanceof Type.Tuple
        && !components.isEmpty()) {
      return (double) ((Value.Array) components.get(0)).length()
          * ArrayOperations.bytesPerTupleRow(0);
    }
    return 0;
  }

  /**
   * {@code e} with a source position: recursion too deep for the evaluator's stack is reported, as
   * the interpreter reports it, at the function called; other limits keep theirs.
   */
  private static L0ResourceError atSource(L0ResourceError e, FunDef called) {
    return e.isRecursionTooDeepWithoutPosition()
        ? new L0ResourceError(called.pos(), e.getMessage(), e.moreHeapHelps())
        : e;
  }

  /**
   * The functions of {@code program} no other function calls or passes to a SOAC, in program order.
   */
  private static List<String> entryFunctions(Program program) {
    Set<String> called = new HashSet<>();
    for (FunDef f : program.functions()) {
      Set<String> callees = Program.calledFunctions(f.body());
      callees.remove(f.name());
      called.addAll(callees);
    }
    return program.functions().stream().map(FunDef::name).filter(n -> !called.contains(n)).toList();
  }
}
