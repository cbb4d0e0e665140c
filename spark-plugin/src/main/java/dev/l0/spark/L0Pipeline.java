package dev.l0.spark;

import dev.l0.ir.SourcePos;
import dev.l0.spark.pipeline.BoundArgument;
import dev.l0.spark.pipeline.FloatSums;
import dev.l0.spark.pipeline.PipelineKind;
import dev.l0.spark.pipeline.PipelineMessages;
import dev.l0.spark.pipeline.PipelinePlanner;
import dev.l0.spark.pipeline.PipelinePlanningException;
import dev.l0.spark.pipeline.PipelineRequest;
import dev.l0.spark.pipeline.PipelineSpec;
import dev.l0.spark.plan.L0PipelineNode;
import java.io.Serializable;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import scala.Function1;

/**
 * An L0 program bound to DataFrame columns, applied with {@code df.transform(pipeline)}. Immutable:
 * every setter returns a new pipeline. {@link #with} binds parameters to driver-side values; the
 * columns named in {@link #on} feed, in order, the leaves of the other parameters: an array of
 * scalars takes one column, an array of tuples (or a tuple of arrays) one column per tuple leaf; a
 * struct column counts as its leaf fields, an array column gives an inner dimension. {@link #as}
 * names the outputs. Planning happens in {@link #apply}, so a wrong column, type or program fails
 * in {@code df.transform(...)} with the call site of {@link L0#pipeline}, not later in a task.
 */
public final class L0Pipeline implements Function1<Dataset<Row>, Dataset<Row>>, Serializable {
  private static final long serialVersionUID = 1L;
  private static final String DEFAULT_ENTRY = "main";

  /** Where a reduce or scan pipeline can go instead of over a streaming DataFrame. */
  private static final String OVER_MICRO_BATCHES =
      "apply it to each micro-batch in writeStream().foreachBatch(...), or to a DataFrame that is "
          + "not streaming";

  private final String programText;
  private final String sourceName;
  private final String entry;
  private final List<String> inputColumns;
  private final List<String> outputNames;
  private final Map<String, Object> nullReplacements;
  private final List<BoundArgument> boundArguments;
  private final String callSite;
  private final boolean exactFloatSums;
  private final List<String> carriedColumns;
  private final Map<SourcePos, SourcePos> origins;

  private L0Pipeline(
      String programText,
      String sourceName,
      String entry,
      List<String> inputColumns,
      List<String> outputNames,
      Map<String, Object> nullReplacements,
      List<BoundArgument> boundArguments,
      String callSite,
      boolean exactFloatSums,
      List<String> carriedColumns,
      Map<SourcePos, SourcePos> origins) {
    this.programText = programText;
    this.sourceName = sourceName;
    this.entry = entry;
    this.inputColumns = List.copyOf(inputColumns);
    this.outputNames = List.copyOf(outputNames);
    this.nullReplacements = Collections.unmodifiableMap(new LinkedHashMap<>(nullReplacements));
    this.boundArguments = List.copyOf(boundArguments);
    this.callSite = callSite;
    this.exactFloatSums = exactFloatSums;
    this.carriedColumns = List.copyOf(carriedColumns);
    this.origins = Map.copyOf(origins);
  }

  static L0Pipeline of(String programText, String sourceName, String callSite) {
    return of(programText, sourceName, callSite, Map.of());
  }

  /**
   * A pipeline of a program printed as {@code programText}, each printed position's {@code origins}
   * where it was written (a Java DSL program's staging lines).
   */
  static L0Pipeline of(
      String programText, String sourceName, String callSite, Map<SourcePos, SourcePos> origins) {
    return new L0Pipeline(
        Objects.requireNonNull(programText, "L0 program text"),
        sourceName,
        DEFAULT_ENTRY,
        List.of(),
        List.of(),
        Map.of(),
        List.of(),
        callSite,
        false,
        List.of(),
        origins);
  }

  /**
   * The DataFrame columns feeding the entry's parameters, in order, named as {@code df.col(...)}
   * names them: a column whose whole name matches (dots included) first, else {@code col.field} for
   * a struct field, with backticks quoting a name ({@code "`a.b`"}); case is ignored unless {@code
   * spark.sql.caseSensitive} is true; a name that matches two columns is an error.
   */
  public L0Pipeline on(String... columns) {
    return new L0Pipeline(
        programText,
        sourceName,
        entry,
        names("on", columns),
        outputNames,
        nullReplacements,
        boundArguments,
        callSite,
        exactFloatSums,
        carriedColumns,
        origins);
  }

  /**
   * The names of the output columns, one per result component (default {@code _1}, {@code _2},
   * ...).
   */
  public L0Pipeline as(String... outputs) {
    return new L0Pipeline(
        programText,
        sourceName,
        entry,
        inputColumns,
        names("as", outputs),
        nullReplacements,
        boundArguments,
        callSite,
        exactFloatSums,
        carriedColumns,
        origins);
  }

  /** The entry function (default {@code main}). */
  public L0Pipeline entry(String name) {
    return new L0Pipeline(
        programText,
        sourceName,
        requireName("entry", name),
        inputColumns,
        outputNames,
        nullReplacements,
        boundArguments,
        callSite,
        exactFloatSums,
        carriedColumns,
        origins);
  }

  /**
   * Binds the entry parameter named {@code parameter} (its name in the L0 source) to a driver-side
   * value, the same whole value for every row: a {@code Double}, {@code Float}, {@code Integer},
   * {@code Long} or {@code Boolean} for a scalar parameter; a primitive array ({@code double[]},
   * {@code int[]}, ...), regular nested primitive arrays ({@code double[][]}, ...) or a {@code
   * FlatArray} for an array parameter. The columns of {@link #on} then feed the other parameters,
   * in order. Checked when the pipeline is planned (unknown or twice-bound parameter, type
   * mismatch, irregular nested array); the values reach each executor once, as a Spark broadcast.
   */
  public L0Pipeline with(String parameter, Object value) {
    List<BoundArgument> bound = new ArrayList<>(boundArguments);
    bound.add(new BoundArgument(requireName("with", parameter), value));
    return new L0Pipeline(
        programText,
        sourceName,
        entry,
        inputColumns,
        outputNames,
        nullReplacements,
        bound,
        callSite,
        exactFloatSums,
        carriedColumns,
        origins);
  }

  /**
   * Declares the value that replaces a null in column {@code columnPath} ({@code "col"}, or {@code
   * "col.field"} for a struct leaf, resolved as {@link #on} resolves names); without one, a null is
   * an error. The value is a boxed number or boolean that the column's type holds: a whole number
   * in range for an integer column, the nearest value for a float column (a finite value that would
   * round to an infinity does not fit). A column gets one replacement: naming it twice is an error.
   */
  public L0Pipeline nullAs(String columnPath, Object replacement) {
    requireName("nullAs", columnPath);
    if (!(replacement instanceof Number) && !(replacement instanceof Boolean)) {
      throw new IllegalArgumentException(
          PipelineMessages.at(
              callSite,
              "nullAs(\""
                  + columnPath
                  + "\", ...) needs a number or a boolean, not "
                  + (replacement == null ? "null" : replacement.getClass().getName())));
    }
    if (nullReplacements.containsKey(columnPath)) {
      throw new IllegalArgumentException(
          PipelineMessages.at(
              callSite,
              "nullAs(\""
                  + columnPath
                  + "\", ...) is declared twice, with "
                  + nullReplacements.get(columnPath)
                  + " and "
                  + replacement
                  + "; declare one replacement per column"));
    }
    Map<String, Object> replacements = new LinkedHashMap<>(nullReplacements);
    replacements.put(columnPath, replacement);
    return new L0Pipeline(
        programText,
        sourceName,
        entry,
        inputColumns,
        outputNames,
        replacements,
        boundArguments,
        callSite,
        exactFloatSums,
        carriedColumns,
        origins);
  }

  /**
   * Makes every float sum among the results exact: each reduce whose operator is {@code +} on
   * {@code f32} or {@code f64} (or component-wise on tuples of them) and whose neutral element is 0
   * gives the correctly rounded sum of its values, bit-identical whatever {@code
   * spark.l0.batchRows}, the partitioning, the thread count or the device (by default each batch's
   * sum is rounded and batches and partitions are combined in order). The kernels compute the
   * summands, the executor adds them exactly on the host and the partials merge exactly, rounded
   * once. Planning fails where the pipeline has no such reduce; other results are combined as
   * before. The session key {@code spark.l0.exactFloatSums=true} does this for every reduce
   * pipeline that has a float sum.
   */
  public L0Pipeline exactFloatSums() {
    return new L0Pipeline(
        programText,
        sourceName,
        entry,
        inputColumns,
        outputNames,
        nullReplacements,
        boundArguments,
        callSite,
        true,
        carriedColumns,
        origins);
  }

  /**
   * Carries the input columns named {@code columns} through to the output unchanged (default:
   * none): the output is these columns, in this order, then the pipeline's own ({@link #as}). Only
   * for a pipeline with one output row per input row (a map); a carried column is a whole top-level
   * column of any Spark type, named as {@link #on} names columns, and need not feed the program. So
   * {@code df.transform(L0.pipeline(p).on("spot").as("price").carry("id", "book"))} gives {@code
   * id, book, price} without a join back to {@code df}. Checked when the pipeline is planned (no
   * such column, a struct field, a column named twice or named as an output, a top-level filter, a
   * reduce or scan pipeline).
   */
  public L0Pipeline carry(String... columns) {
    return new L0Pipeline(
        programText,
        sourceName,
        entry,
        inputColumns,
        outputNames,
        nullReplacements,
        boundArguments,
        callSite,
        exactFloatSums,
        names("carry", columns),
        origins);
  }

  /**
   * What this pipeline asks for, as the planner takes it, float sums ordered unless {@link
   * #exactFloatSums()} asked.
   */
  public PipelineRequest request() {
    return request(exactFloatSums ? FloatSums.EXACT : FloatSums.ORDERED);
  }

  private PipelineRequest request(FloatSums floatSums) {
    return new PipelineRequest(
        programText,
        sourceName,
        entry,
        inputColumns,
        outputNames,
        nullReplacements,
        callSite,
        boundArguments,
        floatSums,
        carriedColumns,
        origins);
  }

  /**
   * Plans this pipeline against {@code df}'s schema (column names resolved as the session's {@code
   * spark.sql.caseSensitive} says) and returns {@code df} with the pipeline on top; throws {@link
   * dev.l0.spark.pipeline.PipelinePlanningException} where they do not fit.
   */
  @Override
  public Dataset<Row> apply(Dataset<Row> df) {
    if (!(df instanceof org.apache.spark.sql.classic.Dataset)) {
      throw new IllegalArgumentException(
          PipelineMessages.at(
              callSite,
              "needs a classic Spark Dataset, not "
                  + df.getClass().getName()
                  + " (Spark Connect is not supported)"));
    }
    org.apache.spark.sql.classic.Dataset<Row> classic =
        (org.apache.spark.sql.classic.Dataset<Row>) df;
    FloatSums floatSums =
        exactFloatSums
            ? FloatSums.EXACT
            : L0Settings.exactFloatSums(
                    key -> Optional.ofNullable(classic.sparkSession().conf().get(key, null)))
                ? FloatSums.EXACT_WHERE_PRESENT
                : FloatSums.ORDERED;
    PipelineSpec spec =
        PipelinePlanner.plan(
                request(floatSums),
                df.schema(),
                classic.sparkSession().sessionState().conf().caseSensitiveAnalysis())
            .withBroadcastValues(classic.sparkSession());
    if (df.isStreaming()) {
      requireRowWiseOverAStream(spec.kind());
    }
    return org.apache.spark.sql.classic.Dataset.ofRows(
        classic.sparkSession(), L0PipelineNode.of(classic.queryExecution().analyzed(), spec));
  }

  /**
   * A streaming DataFrame runs its plan once per micro-batch, so only row-wise pipelines mean the
   * same there: a reduce would give one row per micro-batch and a scan would start again in each.
   */
  private void requireRowWiseOverAStream(PipelineKind kind) {
    if (kind == PipelineKind.REDUCE) {
      throw new PipelinePlanningException(
          callSite,
          "a reduce pipeline over a streaming DataFrame would reduce each micro-batch on its own, "
              + "not the stream; "
              + OVER_MICRO_BATCHES);
    }
    if (kind == PipelineKind.SCAN) {
      throw new PipelinePlanningException(
          callSite,
          "a scan pipeline over a streaming DataFrame would start again in each micro-batch, not "
              + "run over the stream; "
              + OVER_MICRO_BATCHES);
    }
  }

  @Override
  public String toString() {
    return "L0Pipeline("
        + sourceName
        + ", entry "
        + entry
        + ", on "
        + inputColumns
        + ", as "
        + outputNames
        + (exactFloatSums ? ", exact float sums" : "")
        + (carriedColumns.isEmpty() ? "" : ", carry " + carriedColumns)
        + ")";
  }

  private List<String> names(String method, String... names) {
    Objects.requireNonNull(names, method);
    for (String name : names) {
      requireName(method, name);
    }
    return Arrays.asList(names);
  }

  private String requireName(String method, String name) {
    if (name == null || name.isBlank()) {
      throw new IllegalArgumentException(
          PipelineMessages.at(callSite, method + "(...) got an empty or null name"));
    }
    return name;
  }
}
