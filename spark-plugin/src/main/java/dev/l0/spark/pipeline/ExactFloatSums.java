package dev.l0.spark.pipeline;

import dev.l0.ir.Expr;
import dev.l0.ir.FunDef;
import dev.l0.ir.L0RuntimeError;
import dev.l0.ir.Program;
import dev.l0.ir.ScalarType;
import dev.l0.ir.SourcePos;
import dev.l0.ir.Type;
import dev.l0.kernels.exact.ExactFloatSum;
import dev.l0.kernels.exact.ExactFloatSumProgram;
import dev.l0.kernels.exact.ExactSum;
import dev.l0.syntax.L0Printer;
import dev.l0.types.TypedProgram;
import java.io.Serializable;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashSet;
import java.util.Iterator;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.function.Supplier;

/**
 * The exact float sums of a REDUCE pipeline ({@link FloatSums}): which of its results are float
 * sums ({@link ExactFloatSumProgram#whyNotExact}), and their partial state, one {@link ExactSum}
 * per result leaf instead of a rounded float. The pipeline's program then returns those results'
 * summands (each reduce's input array) instead of summing them, so its kernels compute them on the
 * task's device; the runner adds each batch's summands exactly on the executor's host, partials
 * merge exactly across batches and partitions, and the final row rounds each sum once: the
 * correctly rounded sum, bit-identical whatever the batch size, partitioning, thread count or
 * device. Other results are unchanged.
 */
final class ExactFloatSums implements Serializable {
  private static final long serialVersionUID = 1L;

  /** Per result leaf: the float type of an exact sum, or null for a result combined in order. */
  private final ScalarType[] exactLeaves;

  /** Per result leaf: where its exact sum's reduce is written, or null. */
  private final SourcePos[] sumPositions;

  /** Per result: how it is combined, for explain. */
  private final List<String> notes;

  private ExactFloatSums(ScalarType[] exactLeaves, SourcePos[] sumPositions, List<String> notes) {
    this.exactLeaves = exactLeaves;
    this.sumPositions = sumPositions;
    this.notes = List.copyOf(notes);
  }

  /** No exact sums among {@code leaves} result leaves. */
  static ExactFloatSums none(int leaves) {
    return new ExactFloatSums(new ScalarType[leaves], new SourcePos[leaves], List.of());
  }

  /**
   * The plan and the program the pipeline runs: the summands program where a sum is exact, else
   * {@code main}.
   */
  record Planned(ExactFloatSums sums, L0Source main, List<Expr> orderedAggregates) {}

  /**
   * Plans the float sums {@code mode} asks for of the pipeline {@code main} (checked as {@code
   * typed}, entry {@code entry}, results {@code analysis}); a {@link PipelinePlanningException}
   * where {@code mode} is {@link FloatSums#EXACT} and there is no float sum to make exact.
   */
  static Planned plan(
      FloatSums mode,
      L0Source main,
      TypedProgram typed,
      FunDef entry,
      EntryAnalysis.Result analysis,
      String callSite) {
    List<Expr> aggregates =
        analysis.results().stream().map(r -> r.aggregate().orElse(null)).toList();
    int leafCount = TupleLeaves.types(entry.returnType()).size();
    if (mode == FloatSums.ORDERED) {
      return new Planned(none(leafCount), main, aggregates);
    }
    if (analysis.kind() != PipelineKind.REDUCE) {
      if (mode == FloatSums.EXACT) {
        throw new PipelinePlanningException(
            callSite,
            "exactFloatSums() applies to pipelines whose results are reduces, "
                + "but the results of '"
                + entry.name()
                + "' are "
                + (analysis.kind() == PipelineKind.SCAN ? "scans" : "row-wise"));
      }
      return new Planned(none(leafCount), main, aggregates);
    }
    List<ScalarType> leaves = new ArrayList<>();
    List<SourcePos> positions = new ArrayList<>();
    List<String> notes = new ArrayList<>();
    List<String> reasons = new ArrayList<>();
    List<Expr> ordered = new ArrayList<>();
    Set<Expr> exact = new HashSet<>();
    for (Expr aggregate : aggregates) {
      Expr.Reduce reduce = (Expr.Reduce) aggregate;
      Type element = typed.typeOf(reduce);
      List<Type> leafTypes = TupleLeaves.types(element);
      Optional<String> whyNot = ExactFloatSumProgram.whyNotExact(reduce, element);
      String described = "the reduce at " + reduce.pos() + " (" + L0Printer.print(element) + ")";
      if (whyNot.isEmpty()) {
        exact.add(reduce);
        leafTypes.forEach(t -> leaves.add((ScalarType) t));
        leafTypes.forEach(t -> positions.add(reduce.pos()));
        notes.add(described + ": exact float sum");
      } else {
        ordered.add(reduce);
        leafTypes.forEach(t -> leaves.add(null));
        leafTypes.forEach(t -> positions.add(null));
        notes.add(described + ": combined in order, not exact (" + whyNot.get() + ")");
        reasons.add(described + ": " + whyNot.get());
      }
    }
    if (exact.isEmpty()) {
      if (mode == FloatSums.EXACT) {
        throw new PipelinePlanningException(
            callSite,
            "exactFloatSums() found no float sum to make exact: "
                + String.join("; ", reasons)
                + " (an exact sum needs a reduce with operator + on f32 or f64, or on tuples of "
                + "them, and neutral element 0)");
      }
      return new Planned(none(leafCount), main, aggregates);
    }
    return new Planned(
        new ExactFloatSums(
            leaves.toArray(new ScalarType[0]), positions.toArray(new SourcePos[0]), notes),
        summandsProgram(typed.program(), entry, analysis.result(), exact, main),
        ordered);
  }

  /**
   * The pipeline's entry with each of {@code exact} replaced by its input array: the summands, one
   * array per exact sum.
   */
  private static L0Source summandsProgram(
      Program program, FunDef entry, RowShape result, Set<Expr> exact, L0Source main) {
    Expr body =
        entry
            .body()
            .transformUp(
                e ->
                    e instanceof Expr.Reduce reduce && exact.contains(reduce) ? reduce.array() : e);
    FunDef summands =
        new FunDef(
            entry.name(),
            summandsType(result, exact, entry.returnType()),
            entry.params(),
            body,
            entry.pos());
    List<FunDef> functions = new ArrayList<>();
    program.functions().forEach(f -> functions.add(f.name().equals(entry.name()) ? summands : f));
    return L0Source.generated(
        new Program(functions), main.sourceName() + " (exact float sums: summands)", entry.name());
  }

  /**
   * {@code type}, the type of a value of shape {@code shape}, with each exact sum's type made an
   * array of its summands.
   */
  private static Type summandsType(RowShape shape, Set<Expr> exact, Type type) {
    if (shape instanceof RowShape.TupleOf tuple) {
      List<Type> parts = new ArrayList<>();
      for (int k = 0; k < tuple.parts().size(); k++) {
        parts.add(summandsType(tuple.parts().get(k), exact, ((Type.Tuple) type).elements().get(k)));
      }
      return new Type.Tuple(parts);
    }
    return exact.contains(((RowShape.Reduced) shape).reduction()) ? Type.array(type) : type;
  }

  /** Whether any result is an exact sum. */
  boolean any() {
    return Arrays.stream(exactLeaves).anyMatch(t -> t != null);
  }

  /**
   * A batch's partial from the program's result leaves: each exact sum's summands (an f64 or f32
   * array) added exactly on at most {@code threads} threads.
   */
  List<Object> partialOf(List<Object> results, int threads) {
    List<Object> partial = new ArrayList<>(results.size());
    for (int k = 0; k < results.size(); k++) {
      Object value = results.get(k);
      int leaf = k;
      partial.add(
          exactLeaves[k] == null
              ? value
              : exactLeaves[k] == ScalarType.F64
                  ? atTheReduce(leaf, () -> ExactFloatSum.of((double[]) value, threads))
                  : atTheReduce(leaf, () -> ExactFloatSum.of((float[]) value, threads)));
    }
    return partial;
  }

  /**
   * {@code sum} of result leaf {@code leaf}; a sum whose exact value passes the largest {@code f64}
   * while adding finite values is an {@link L0RuntimeError} at the leaf's reduce, which the task
   * reports with the pipeline's call site, the partition and the rows.
   */
  private ExactSum atTheReduce(int leaf, Supplier<ExactSum> sum) {
    try {
      return sum.get();
    } catch (ArithmeticException overflow) {
      throw new L0RuntimeError("reduce", sumPositions[leaf], overflow.getMessage());
    }
  }

  /** The leaves of {@code partial} combined in order, in order. */
  List<Object> orderedLeaves(List<Object> partial) {
    List<Object> ordered = new ArrayList<>();
    for (int k = 0; k < partial.size(); k++) {
      if (exactLeaves[k] == null) {
        ordered.add(partial.get(k));
      }
    }
    return ordered;
  }

  /**
   * {@code a} and {@code b} combined: exact sums merged exactly (neither changed), the other leaves
   * from {@code combinedOrdered}.
   */
  List<Object> combine(List<Object> a, List<Object> b, List<Object> combinedOrdered) {
    Iterator<Object> ordered = combinedOrdered.iterator();
    List<Object> combined = new ArrayList<>(a.size());
    for (int k = 0; k < a.size(); k++) {
      int leaf = k;
      combined.add(
          exactLeaves[k] == null
              ? ordered.next()
              : atTheReduce(
                  leaf,
                  () -> new ExactSum().add((ExactSum) a.get(leaf)).add((ExactSum) b.get(leaf))));
    }
    return combined;
  }

  /** The final values of {@code partial}: each exact sum rounded once to its float type. */
  List<Object> rounded(List<Object> partial) {
    List<Object> values = new ArrayList<>(partial.size());
    for (int k = 0; k < partial.size(); k++) {
      Object value = partial.get(k);
      values.add(
          exactLeaves[k] == null
              ? value
              : exactLeaves[k] == ScalarType.F64
                  ? (Object) ((ExactSum) value).value()
                  : (Object) ExactFloatSum.roundedToFloat((ExactSum) value));
    }
    return values;
  }

  /** Explain lines, one per result, where any sum is exact; empty otherwise. */
  String explain() {
    if (!any()) {
      return "";
    }
    return "float sums: exact (summands computed by the pipeline's kernels on the task's device, added exactly on the "
        + "executor's host, partials merged exactly across batches and partitions, rounded once at the end)\n  "
        + String.join("\n  ", notes);
  }

  @Override
  public boolean equals(Object other) {
    return other instanceof ExactFloatSums sums && Arrays.equals(sums.exactLeaves, exactLeaves);
  }

  @Override
  public int hashCode() {
    return Arrays.hashCode(exactLeaves);
  }
}
