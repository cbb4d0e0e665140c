package dev.l0.opt;

import dev.l0.opt.cluster.ClusterSolver;
import dev.l0.opt.flatten.TupleFlattener;
import dev.l0.opt.fusion.FailureOrder;
import dev.l0.opt.fusion.Fusion;
import dev.l0.opt.fusion.FusionHistory;
import dev.l0.opt.fusion.IndexInlining;
import dev.l0.opt.ir.InternalProgram;
import dev.l0.opt.ir.NameSource;
import dev.l0.opt.pass.CommonSubexpressions;
import dev.l0.opt.pass.Fixpoint;
import dev.l0.opt.pass.Hoister;
import dev.l0.opt.pass.Inliner;
import dev.l0.opt.pass.LoopInvariantRowCalls;
import dev.l0.opt.pass.Pass;
import dev.l0.opt.pass.PassManager;
import dev.l0.opt.pass.Simplifier;
import dev.l0.opt.pass.SizeHindrances;
import dev.l0.opt.pass.TransposeMaterialisation;
import dev.l0.types.NestingLimit;
import dev.l0.types.TypedProgram;
import java.util.List;

/**
 * The optimisation pipeline (ARCHITECTURE.md, "One path through the system"): tuple-of-arrays
 * flattening into internal L0 (thesis ch. 4), inlining (§5.1), then hindrance removal (ch. 9),
 * simplification, CSE, hoisting (ch. 5–6) and T2 fusion (ch. 7–8) repeated to a fixpoint, since
 * each exposes work for the others; then costly calls on the rows of loop-invariant arrays moved
 * out of sequential loops; then a copy kernel for each transpose read other than by a kernel.
 */
public final class Optimizer {
  private static final int MAX_ROUNDS = 25;

  private Optimizer() {}

  /**
   * The passes, in order, with {@code fusion} as the fusion pass; each is one class citing the
   * thesis section it implements. The passes of the rules that shape a SOAC record them in {@code
   * fusion}'s history, which {@code explain} shows per kernel.
   */
  public static List<Pass> pipeline(Fusion fusion) {
    return List.of(
        new Inliner(),
        new Fixpoint(
            "simplify",
            List.of(
                new SizeHindrances(fusion.history()),
                new IndexInlining(fusion.history()),
                new Simplifier(),
                new CommonSubexpressions(),
                new Hoister()),
            MAX_ROUNDS),
        new Fixpoint(
            "fuse",
            List.of(fusion, new Simplifier(), new CommonSubexpressions(), new Hoister()),
            MAX_ROUNDS),
        new LoopInvariantRowCalls(fusion.history()),
        new Simplifier(),
        new TransposeMaterialisation(fusion.history()));
  }

  /**
   * The optimised program, compiled on the stack {@link NestingLimit} sizes: the checker bounds the
   * source's nesting and the {@link Inliner} keeps nesting within the same bound, so every program
   * the checker accepts optimises, whatever the JIT did. Its fusion rules make the {@link
   * FailureOrder#FUSED} plan; where that plan {@link OptimizedProgram#reordersFailures}, {@link
   * OptimizedProgram#failureOrderPlan} is the {@link FailureOrder#KEPT} plan of the same program.
   */
  public static OptimizedProgram optimize(TypedProgram typed) {
    return optimize(typed, FailureOrder.FUSED);
  }

  /** {@link #optimize(TypedProgram)}, its fusion rules making the {@code failureOrder} plan. */
  public static OptimizedProgram optimize(TypedProgram typed, FailureOrder failureOrder) {
    // The fusion reads them only where it clusters; read here too, so that a bad value fails every
    // optimisation naming it (README, "Configuration"), not only those of programs that cluster.
    ClusterSolver.Settings.fromSystemProperties();
    return NestingLimit.onLargeStack(
        () -> {
          NameSource names = new NameSource();
          InternalProgram internal = TupleFlattener.flatten(typed, names);
          PassManager.checkAfter("tuple-of-arrays flattening", internal);
          Fusion fusion = new Fusion(failureOrder);
          InternalProgram optimized = PassManager.runAll(pipeline(fusion), internal, names);
          return new OptimizedProgram(
              typed.program(),
              optimized,
              fusion.history(),
              () -> optimize(typed, FailureOrder.KEPT));
        });
  }

  /**
   * The program only flattened into internal L0, with no optimisation: the baseline the passes are
   * tested against.
   */
  public static OptimizedProgram flattenOnly(TypedProgram typed) {
    return NestingLimit.onLargeStack(
        () ->
            new OptimizedProgram(
                typed.program(),
                TupleFlattener.flatten(typed, new NameSource()),
                new FusionHistory(FailureOrder.KEPT),
                () -> {
                  throw new IllegalStateException("a program only flattened fuses nothing");
                }));
  }
}
