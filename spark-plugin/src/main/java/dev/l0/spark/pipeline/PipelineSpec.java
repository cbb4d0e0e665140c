package dev.l0.spark.pipeline;

import dev.l0.ir.L0RuntimeError;
import dev.l0.ir.SourcePos;
import java.io.Serializable;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Objects;
import java.util.stream.Collectors;
import org.apache.spark.sql.types.StructType;

/**
 * A planned pipeline: immutable, serializable and small (program text, not compiled code). Built by
 * {@link PipelinePlanner}; equal when their {@link #key()}s are. Besides what Spark reads, it
 * carries the programs the runners compile: the pipeline itself and, for REDUCE and SCAN, the
 * derived combiner, offset and totals programs.
 */
public final class PipelineSpec implements Serializable {
  private static final long serialVersionUID = 1L;

  private final PipelineKind kind;
  private final List<InputBinding> inputs;
  private final BoundValues bound;
  private final StructType outputSchema;
  private final String callSite;
  private final L0Source main;
  private final L0Source combiner;
  private final L0Source offset;
  private final L0Source totals;
  private final int kernelCount;
  private final List<String> kernelShapes;

  /**
   * The optimiser's explanation of the main program, for {@link #explain()} on the driver; it does
   * not travel with the spec (tens of kilobytes for a large program, in every task's plan), and a
   * copy that travelled plans the program again for it.
   */
  private transient String optimisedExplain;

  private final ExactFloatSums floatSums;
  private final Carried carried;
  private final String key;

  /**
   * The programs a spec runs: the pipeline, and (null where the kind needs none) combiner, offset
   * and totals.
   */
  record Programs(L0Source main, L0Source combiner, L0Source offset, L0Source totals) {
    /**
     * {@code error}, raised by one of these programs, at the position where the user wrote the
     * failing code (a generated program's own text is no source the user has): a program derived
     * from the pipeline's program cites a position of its text, which {@code main}'s origins take
     * on to the user's (a Java DSL program's staging line).
     */
    L0RuntimeError located(L0RuntimeError error) {
      for (L0Source source : Arrays.asList(main, combiner, offset, totals)) {
        SourcePos origin = source == null ? error.pos() : source.origin(error.pos());
        if (!origin.equals(error.pos())) {
          return new L0RuntimeError(
              error.operation(), source == main ? origin : main.origin(origin), error.detail());
        }
      }
      return error;
    }
  }

  /**
   * The input columns a ROWS pipeline carries through to its output unchanged ({@code carry(...)}):
   * their top-level ordinals in the schema the spec was planned against, and their names there, in
   * carry order.
   */
  public record Carried(List<Integer> ordinals, List<String> names, List<String> spellings)
      implements Serializable {
    private static final long serialVersionUID = 1L;

    /** Nothing carried. */
    public static final Carried NONE = new Carried(List.of(), List.of(), List.of());

    /**
     * {@code names} are the columns' names in the input; {@code spellings} the names of the output
     * columns, as {@code carry(...)} spelt them (without backticks), as Spark's {@code
     * select("ID")} names a column {@code id} that it resolves ignoring case.
     */
    public Carried {
      ordinals = List.copyOf(ordinals);
      names = List.copyOf(names);
      spellings = List.copyOf(spellings);
      if (ordinals.size() != names.size() || names.size() != spellings.size()) {
        throw new IllegalArgumentException(
            "carried columns: "
                + ordinals.size()
                + " ordinals for the names "
                + names
                + " spelt "
                + spellings);
      }
    }

    public boolean isEmpty() {
      return ordinals.isEmpty();
    }
  }

  /** The optimiser's view of the main program: kernel count, kernel shapes and explain text. */
  record Kernels(int count, List<String> shapes, String explain) {
    Kernels {
      shapes = List.copyOf(shapes);
    }
  }

  PipelineSpec(
      PipelineKind kind,
      List<InputBinding> inputs,
      BoundValues bound,
      StructType outputSchema,
      String callSite,
      Programs programs,
      Kernels kernels,
      ExactFloatSums floatSums,
      Carried carried) {
    this.kind = Objects.requireNonNull(kind, "kind");
    this.inputs = List.copyOf(inputs);
    this.bound = Objects.requireNonNull(bound, "bound");
    this.outputSchema = Objects.requireNonNull(outputSchema, "outputSchema");
    this.callSite = callSite;
    this.main = programs.main();
    this.combiner = programs.combiner();
    this.offset = programs.offset();
    this.totals = programs.totals();
    this.kernelCount = kernels.count();
    this.kernelShapes = kernels.shapes();
    this.optimisedExplain = kernels.explain();
    this.floatSums = Objects.requireNonNull(floatSums, "floatSums");
    this.carried = Objects.requireNonNull(carried, "carried");
    this.key = main.key();
  }

  /** {@code planned} with the bound values {@code bound}, its programs not printed again. */
  private PipelineSpec(PipelineSpec planned, BoundValues bound) {
    this.kind = planned.kind;
    this.inputs = planned.inputs;
    this.bound = Objects.requireNonNull(bound, "bound");
    this.outputSchema = planned.outputSchema;
    this.callSite = planned.callSite;
    this.main = planned.main;
    this.combiner = planned.combiner;
    this.offset = planned.offset;
    this.totals = planned.totals;
    this.kernelCount = planned.kernelCount;
    this.kernelShapes = planned.kernelShapes;
    this.optimisedExplain = planned.optimisedExplain;
    this.floatSums = planned.floatSums;
    this.carried = planned.carried;
    this.key = planned.key;
  }

  /** This spec with {@code bound} as its values bound with {@code with(...)}. */
  PipelineSpec withBound(BoundValues bound) {
    return bound == this.bound ? this : new PipelineSpec(this, bound);
  }

  /**
   * This spec with its bound values ({@code with(...)}) shipped as one Spark broadcast of {@code
   * session}, so that each executor fetches them once instead of every task carrying them; itself
   * where nothing is bound.
   */
  public PipelineSpec withBroadcastValues(org.apache.spark.sql.SparkSession session) {
    return withBound(bound.broadcast(session));
  }

  /** Whether the bound values travel as a Spark broadcast (true also where none are bound). */
  public boolean boundValuesBroadcast() {
    return bound.isEmpty() || bound.broadcasted();
  }

  /** How the results relate to the input rows. */
  public PipelineKind kind() {
    return kind;
  }

  /**
   * One binding per input of the entry, in order: per parameter, or per tuple leaf of a tuple or
   * array-of-tuples parameter.
   */
  public List<InputBinding> inputs() {
    return inputs;
  }

  /** The driver-side values bound to entry parameters. */
  BoundValues bound() {
    return bound;
  }

  /** The output columns' names and Spark types, none nullable. */
  public StructType outputSchema() {
    return outputSchema;
  }

  /** The input columns carried through to the output unchanged, before the pipeline's outputs. */
  public Carried carried() {
    return carried;
  }

  /** The child's top-level columns read, distinct, in first-use order. */
  public List<String> readColumns() {
    return ColumnBinder.readColumns(inputs);
  }

  /** The number of kernels of the optimised program's kernel plan. */
  public int kernelCount() {
    return kernelCount;
  }

  /** The kernels' shapes, e.g. {@code ["redomap"]}, as the optimiser's explain names them. */
  public List<String> kernelShapes() {
    return kernelShapes;
  }

  /**
   * One line for {@code df.explain()}, e.g. {@code "reduce [total] <- [quantities, prices], 1
   * kernel [redomap]"}, ending {@code ", exact float sums"} where a float sum is exact.
   */
  public String summary() {
    return kind.name().toLowerCase(Locale.ROOT)
        + " "
        + List.of(outputSchema.fieldNames())
        + " <- "
        + readColumns()
        + ", "
        + kernelCount
        + (kernelCount == 1 ? " kernel " : " kernels ")
        + kernelShapes
        + (floatSums.any() ? ", exact float sums" : "")
        + (carried.isEmpty() ? "" : ", carrying " + carried.names());
  }

  /** Which results are exact float sums, and their partial state. */
  ExactFloatSums floatSums() {
    return floatSums;
  }

  /** The kind, the bindings and outputs, then the optimised program and its kernels. */
  public String explain() {
    String bindings =
        inputs.stream()
            .map(
                b ->
                    "  "
                        + b.columnPath()
                        + " ("
                        + b.leafType().simpleString()
                        + ") -> "
                        + "[".repeat(b.rank())
                        + b.elementType().keyword()
                        + "]".repeat(b.rank())
                        + (b.nullReplacement() == null ? "" : ", nulls as " + b.nullReplacement()))
            .collect(Collectors.joining("\n"));
    String outputs =
        List.of(outputSchema.fields()).stream()
            .map(f -> "  " + f.name() + " " + f.dataType().simpleString())
            .collect(Collectors.joining("\n"));
    return PipelineMessages.at(callSite, summary())
        + "\nkind: "
        + kind.name().toLowerCase(Locale.ROOT)
        + "\ninputs:\n"
        + bindings
        + (bound.isEmpty() ? "" : "\nbound with(...):\n" + bound.explain())
        + "\noutputs:\n"
        + outputs
        + (floatSums.any() ? "\n" + floatSums.explain() : "")
        + "\nentry "
        + main.entry()
        + " of "
        + main.sourceName()
        + ", optimised:\n"
        + optimisedExplain();
  }

  private String optimisedExplain() {
    if (optimisedExplain == null) {
      optimisedExplain = PipelinePlanner.kernels(main).explain();
    }
    return optimisedExplain;
  }

  /** Hex SHA-256 of the final program text and entry: the per-JVM compile cache key. */
  public String key() {
    return key;
  }

  /** Where the user called {@code L0.pipeline}, for messages. */
  public String callSite() {
    return callSite;
  }

  /**
   * {@code error}, raised by one of this pipeline's programs in a task, at the position where the
   * user wrote the failing code.
   */
  public L0RuntimeError located(L0RuntimeError error) {
    return programs().located(error);
  }

  /** The programs this spec runs. */
  Programs programs() {
    return new Programs(main, combiner, offset, totals);
  }

  /** The output column names. */
  List<String> outputNames() {
    return List.of(outputSchema.fieldNames());
  }

  /**
   * Equal specs compute the same columns from the same input: the same program and entry ({@link
   * #key()}), the same bindings (which column or struct field feeds each input, and its null
   * replacement), the same bound values (by digest), the same outputs and the same carried columns.
   * Spark relies on this to reuse cached data and exchanges, so nothing that changes a result may
   * be left out.
   */
  @Override
  public boolean equals(Object other) {
    return other instanceof PipelineSpec spec
        && spec.key.equals(key)
        && spec.kind == kind
        && spec.inputs.equals(inputs)
        && spec.bound.digest().equals(bound.digest())
        && spec.outputSchema.equals(outputSchema)
        && spec.floatSums.equals(floatSums)
        && spec.carried.equals(carried);
  }

  @Override
  public int hashCode() {
    return Objects.hash(key, kind, inputs, bound.digest(), outputSchema, floatSums, carried);
  }

  @Override
  public String toString() {
    return "PipelineSpec(" + summary() + ")";
  }
}
