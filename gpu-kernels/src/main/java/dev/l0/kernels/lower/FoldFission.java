package dev.l0.kernels.lower;

import dev.l0.ir.ScalarType;
import dev.l0.ir.Type;
import dev.l0.kernels.ir.GroupOutput;
import dev.l0.kernels.ir.HostStep;
import dev.l0.kernels.ir.Kernel;
import dev.l0.kernels.ir.KernelGroup;
import dev.l0.opt.ir.Analysis;
import dev.l0.opt.ir.Body;
import dev.l0.opt.ir.Exp;
import dev.l0.opt.ir.Ident;
import dev.l0.opt.ir.Lambda;
import dev.l0.opt.ir.Stm;
import dev.l0.opt.ir.SubExp;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * Rule FISSION-REDOMAP, thesis §7.1's FUSE-MAP-REDOMAP read backwards for the device: a fused
 * redomap whose fold runs a loop, a nested SOAC or a call on each row, before and apart from its
 * accumulators, lowers as a map of that work (a thread per row) and then the redomap of what
 * remains (a thread per chunk of the reduction order). The reduction order gives a chunk to each
 * sixteen rows (at most 65,536 chunks), so the fused form runs the rows' work sixteen to a thread:
 * OptionPricing large's 4,096 rows ran on 256 GPU threads. Split, every row gets a thread.
 *
 * <p>The fold's statements are parted by dependence: those that use no accumulator, directly or
 * through another such statement, are the map part (in their order); the rest fold each row's map
 * results (and the row's own values where they use them) into the accumulators. Each row's
 * arithmetic is the same operations in the same order, and the chunks and the tree are the
 * contract's, so the results are bit-identical to the fused form's on every backend.
 *
 * <p>Only on a configuration that asks for it ({@link LaunchConfiguration#splitHeavyFolds}: a
 * GPU's, whose threads outnumber the chunks; a CPU's cores do not), and only where each row's map
 * results are arrays of scalars whose sizes the host knows before the launch and that the rest of
 * the fold does not update in place; a fold that is cheap arithmetic stays fused (writing and
 * reading its values would cost more than it gains).
 */
final class FoldFission {
  /** What the name of a split group's map kernel ends with, before the map's own suffix. */
  private static final String ROWS_KERNEL = "_fold";

  /**
   * The fold parted: its map part's statements and results, the statements that remain, and the
   * names those and the fold's results use from outside them.
   */
  private record Parts(
      List<Stm> mapPart, List<Ident> mapResults, List<Stm> rest, Set<String> usedByRest) {}

  private FoldFission() {}

  /** The group of {@code reduction}, split where the rule applies; else empty. */
  static Optional<KernelGroup> lower(
      GroupContext group,
      String name,
      List<Ident> pattern,
      Exp.Screma reduction,
      LaunchConfiguration configuration) {
    if (!configuration.splitHeavyFolds()
        || !reduction.fused()
        || reduction.scans()
        || reduction.reducesAndMaps()
        || !(reduction.inputs().get(0) instanceof SubExp.Var firstInput)
        || !(group.typeOf(firstInput.name()) instanceof Type.Array rows)) {
      return Optional.empty();
    }
    Lambda fold = reduction.fold();
    int accumulators = reduction.neutral().size();
    List<Ident> rowParams = fold.params().subList(accumulators, fold.params().size());
    Optional<Parts> parted = part(fold, accumulators);
    if (parted.isEmpty()) {
      return Optional.empty();
    }
    Parts parts = parted.get();
    List<Ident> mapped = new ArrayList<>();
    for (Ident value : parts.mapResults()) {
      if (!(value.type().baseElement() instanceof ScalarType)
          || group.knownHostShape(value.type()) == null) {
        return Optional.empty();
      }
      mapped.add(
          new Ident(
              group.freshName("split_" + value.name()),
              new Type.Array(notUnique(value.type()), rows.size(), false)));
    }

    List<Type> mapTypes = parts.mapResults().stream().map(Ident::type).toList();
    Lambda mapFunction =
        new Lambda(
            rowParams,
            new Body(parts.mapPart(), parts.mapResults().stream().<SubExp>map(Ident::var).toList()),
            mapTypes);
    Exp.Screma map = Exp.Screma.map(mapFunction, reduction.inputs(), reduction.pos());
    KernelGroup mapGroup = MapLowering.lower(group, name + ROWS_KERNEL, mapped, map, configuration);
    for (GroupOutput output : mapGroup.outputs()) {
      group.bindComputed(
          output.name(), ArrayView.rowMajor(output.buffer(), KernelExprs.ZERO, output.shape()));
    }

    List<Ident> restParams = new ArrayList<>(fold.params().subList(0, accumulators));
    parts.mapResults().forEach(v -> restParams.add(new Ident(v.name(), notUnique(v.type()))));
    List<SubExp> restInputs = new ArrayList<>(mapped.stream().<SubExp>map(Ident::var).toList());
    for (int k = 0; k < rowParams.size(); k++) {
      if (parts.usedByRest().contains(rowParams.get(k).name())) {
        restParams.add(rowParams.get(k));
        restInputs.add(reduction.inputs().get(k));
      }
    }
    Lambda restFold =
        new Lambda(restParams, new Body(parts.rest(), fold.body().result()), fold.returnTypes());
    Exp.Screma remaining =
        Exp.Screma.redomap(
            reduction.combiner(), restFold, reduction.neutral(), restInputs, reduction.pos());
    KernelGroup reduceGroup =
        ReductionLowering.lower(group, name, pattern, remaining, configuration);

    List<Kernel> kernels = new ArrayList<>(mapGroup.kernels());
    kernels.addAll(reduceGroup.kernels());
    List<HostStep> steps = new ArrayList<>(mapGroup.steps());
    steps.addAll(reduceGroup.steps());
    return Optional.of(
        new KernelGroup(
            name, group.inputs(), kernels, steps, reduceGroup.outputs(), group.errors()));
  }

  /**
   * Whether {@code group} is a split reduction's: one of its kernels (after any transposes of its
   * inputs) runs the fold's work a thread per row.
   */
  static boolean split(KernelGroup group) {
    return group.kernels().stream()
        .anyMatch(
            kernel ->
                kernel
                    .name()
                    .replaceFirst("_\\d+$", "")
                    .matches(".*" + ROWS_KERNEL + "_(map|rows)"));
  }

  /**
   * The fold's statements parted by dependence on the accumulators, where the map part does work
   * worth a thread of its own and hands the rest at least one value; else empty.
   */
  private static Optional<Parts> part(Lambda fold, int accumulators) {
    Set<String> dependent = new HashSet<>();
    fold.params().subList(0, accumulators).forEach(p -> dependent.add(p.name()));
    List<Stm> mapPart = new ArrayList<>();
    List<Stm> rest = new ArrayList<>();
    for (Stm stm : fold.body().stms()) {
      if (Analysis.freeVariables(stm).stream().anyMatch(dependent::contains)) {
        rest.add(stm);
        stm.pattern().forEach(id -> dependent.add(id.name()));
      } else {
        mapPart.add(stm);
      }
    }
    if (!Analysis.runsLoops(new Body(mapPart, List.of()))) {
      return Optional.empty();
    }
    Body restBody = new Body(rest, fold.body().result());
    // names are bound once in the optimiser's IR: what the rest uses and does not bind is free
    Set<String> usedByRest = new HashSet<>(Analysis.useCounts(restBody).keySet());
    usedByRest.removeAll(Analysis.boundIn(restBody));
    Set<String> consumedByRest = Analysis.consumedNames(restBody);
    Set<Ident> mapResults = new LinkedHashSet<>();
    for (Stm stm : mapPart) {
      for (Ident id : stm.pattern()) {
        if (usedByRest.contains(id.name())) {
          if (id.isCertificate() || consumedByRest.contains(id.name())) {
            return Optional.empty();
          }
          mapResults.add(id);
        }
      }
    }
    if (mapResults.isEmpty()) {
      return Optional.empty();
    }
    return Optional.of(new Parts(mapPart, List.copyOf(mapResults), rest, usedByRest));
  }

  private static Type notUnique(Type type) {
    return type instanceof Type.Array array ? array.withUnique(false) : type;
  }
}
