package dev.l0.spark.pipeline;

import dev.l0.ir.L0RuntimeError;
import dev.l0.ir.Type;
import dev.l0.kernels.api.CompiledProgram;
import dev.l0.kernels.api.MeasuredRun;
import dev.l0.kernels.api.Parameter;
import dev.l0.kernels.api.RunMeasurements;
import dev.l0.kernels.exec.SpareArrays;
import dev.l0.kernels.runtime.CudaUnavailableException;
import dev.l0.kernels.runtime.DeviceKind;
import dev.l0.syntax.Article;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.EnumMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.stream.Collectors;

/**
 * Runs one {@link PipelineSpec} in one task, batch by batch, so memory does not grow with the
 * partition: ROWS batches map to output batches; REDUCE (and SCAN's first pass) keeps only the
 * running partial; SCAN's second pass keeps only the carry, the last scanned row. Not thread-safe.
 * Programs are compiled when a runner first needs one, once per JVM, spec key and execution
 * settings, into a bounded per-JVM cache ({@link ProgramCache}); the runner leases each program it
 * uses until it is closed, so a program that leaves the cache meanwhile is closed only after the
 * runner is.
 */
public final class PartitionRunner implements AutoCloseable {
  /** The programs of a spec, each compiled when a runner first needs it. */
  private enum Role {
    MAIN,
    COMBINER,
    OFFSET,
    TOTALS;

    L0Source source(PipelineSpec.Programs programs) {
      switch (this) {
        case MAIN:
          return programs.main();
        case COMBINER:
          return programs.combiner();
        case OFFSET:
          return programs.offset();
        default:
          return programs.totals();
      }
    }

    /**
     * Whether the role's program takes the entry's parameters (so also its bound values), not
     * partial results.
     */
    boolean takesEntryParameters() {
      return this == MAIN || this == TOTALS;
    }
  }

  /** The most result arrays {@link #mapNextRows} keeps for reuse. */
  private static final int SPARE_ARRAYS = 16;

  private final PipelineSpec spec;
  private final ExecutionSettings settings;
  private final SpareArrays spares = new SpareArrays(SPARE_ARRAYS);
  private List<Object> lastResults = List.of();
  private final Map<Role, LeaseCache.Lease<CompiledProgram>> programs = new EnumMap<>(Role.class);
  private final List<String> fallbackReasons = new ArrayList<>();
  private DeviceKind backend;
  private long compileNanos;
  private long kernelNanos;
  private long transferBytes;
  private long transferNanos;
  private long compileCacheHits;
  private PartialResult running;
  private PartialResult carry;
  private boolean scanStarted;
  private boolean closed;

  private PartitionRunner(PipelineSpec spec, ExecutionSettings settings) {
    this.spec = spec;
    this.settings = settings;
  }

  /**
   * A runner for {@code spec} on the device {@code settings} ask for. It takes each program it
   * needs (the pipeline, and the combiner, offset or totals program) from the per-JVM cache, or
   * compiles it there, when it first needs it.
   */
  public static PartitionRunner open(PipelineSpec spec, ExecutionSettings settings) {
    return new PartitionRunner(spec, settings);
  }

  /**
   * The program in {@code role}, from this runner, the per-JVM cache or a compilation; counts
   * compile time, cache hits and fallbacks.
   */
  private CompiledProgram program(Role role) {
    if (closed) {
      throw new IllegalStateException(PipelineMessages.at(spec.callSite(), "its runner is closed"));
    }
    LeaseCache.Lease<CompiledProgram> known = programs.get(role);
    return known != null ? known.value() : compiled(role);
  }

  private CompiledProgram compiled(Role role) {
    String name = role.name().toLowerCase(Locale.ROOT);
    LeaseCache.Lease<CompiledProgram> lookup;
    try {
      lookup = ProgramCache.get(name, role.source(spec.programs()), settings);
    } catch (CudaUnavailableException e) {
      // spark.l0.device=cuda on an executor where CUDA cannot work: said where the user built it
      throw new CudaUnavailableException(PipelineMessages.at(spec.callSite(), e.getMessage()));
    }
    programs.put(role, lookup);
    CompiledProgram program = lookup.value();
    if (backend != DeviceKind.CUDA) {
      backend = program.device().chosen();
    }
    if (lookup.createdNow()) {
      compileNanos += program.compileNanos();
      compileCacheHits += program.kernelCacheHits();
    } else {
      compileCacheHits++;
    }
    if (settings.gpuOrdinal() >= 0 && program.device().chosen() == DeviceKind.JVM) {
      fallbackReasons.add(
          name
              + " program: GPU "
              + settings.gpuOrdinal()
              + " was assigned to the task, but "
              + program.device().report());
    }
    return program;
  }

  /** The device the main program runs on and why, e.g. {@code "jvm: no CUDA driver (...)"}. */
  public String device() {
    return program(Role.MAIN).device().report();
  }

  /**
   * ROWS: the result rows of {@code input}, one column per output schema field. A column the
   * program returns unchanged is the input's own array, not a copy.
   */
  public ColumnBatch mapRows(ColumnBatch input) {
    requireKind("mapRows", PipelineKind.ROWS);
    return resultRows(run(Role.MAIN, checkedColumns(input)));
  }

  /**
   * ROWS, batch after batch: {@link #mapRows}, where the caller is done with the batch that the
   * previous call returned, as a Spark operator is with a batch once it asks for the next: the
   * result arrays that the JVM backend allocated for it (not input columns passed through, nor
   * arrays the program keeps) are allocated again for this batch's results, zero-filled, instead of
   * new ones (at most {@value #SPARE_ARRAYS} of them), so a task allocates its result columns once,
   * not once per batch.
   */
  public ColumnBatch mapNextRows(ColumnBatch input) {
    requireKind("mapNextRows", PipelineKind.ROWS);
    spares.giveBack(lastResults);
    ColumnBatch output = resultRows(run(Role.MAIN, checkedColumns(input), spares));
    lastResults = output.columns();
    return output;
  }

  /** REDUCE, and SCAN's first pass: combines this batch into the running partial. */
  public void fold(ColumnBatch input) {
    requireKind("fold", PipelineKind.REDUCE, PipelineKind.SCAN);
    PartialResult batch = partialOf(run(foldRole(), checkedColumns(input)));
    running = running == null ? batch : combine(running, batch);
  }

  /** The running partial; the program run on no rows if no batch was folded. */
  public PartialResult partial() {
    requireKind("partial", PipelineKind.REDUCE, PipelineKind.SCAN);
    if (running != null) {
      return running;
    }
    Object[] noRows =
        spec.inputs().stream().map(b -> BatchColumns.empty(b.elementType(), b.rank())).toArray();
    return partialOf(run(foldRole(), noRows));
  }

  /**
   * A batch's partial from the fold program's results: the summands of exact float sums added up
   * exactly, on the task's threads.
   */
  private PartialResult partialOf(List<Object> results) {
    return new PartialResult(spec.floatSums().partialOf(results, settings.jvmThreads()));
  }

  /** REDUCE: the values of the result row of {@code total}, every exact float sum rounded once. */
  List<Object> resultValues(PartialResult total) {
    return spec.floatSums().rounded(total.values());
  }

  /** SCAN's second pass: the carry into this partition, empty for the first partition. */
  public void startScan(Optional<PartialResult> carryIn) {
    requireKind("startScan", PipelineKind.SCAN);
    carry = carryIn.orElse(null);
    scanStarted = true;
  }

  /**
   * SCAN's second pass: this batch's scan rows with the carry applied; the carry then moves past
   * this batch.
   */
  public ColumnBatch scanRows(ColumnBatch input) {
    requireKind("scanRows", PipelineKind.SCAN);
    if (!scanStarted) {
      throw new IllegalStateException(
          "scanRows before startScan: give the runner the partition's carry first");
    }
    List<Object> scanned = run(Role.MAIN, checkedColumns(input));
    if (carry != null) {
      List<Object> arguments = new ArrayList<>(carry.values());
      arguments.addAll(scanned);
      scanned = run(Role.OFFSET, arguments.toArray());
    }
    ColumnBatch output = resultRows(scanned);
    if (output.rows() > 0) {
      carry = new PartialResult(scanned.stream().map(BatchColumns::lastRow).toList());
    }
    return output;
  }

  /**
   * The first row of {@code input} whose program run fails with an {@link L0RuntimeError}, where
   * running {@code input} failed: the program {@link #mapRows} and {@link #scanRows} run ({@code
   * folding} false) or the one {@link #fold} runs. Found by halving the batch, so it costs about
   * two runs over the batch; empty where no single row fails (an operator failed while combining
   * rows). Only for naming the row of an error.
   */
  public OptionalInt firstFailingRow(ColumnBatch input, boolean folding) {
    return firstFailingRow(failedRole(folding), checkedColumns(input), 0, input.rows());
  }

  /**
   * Whether the program, which failed on {@code input}, fails on none of its rows as well: the
   * failing code then does not depend on the rows (an index into a bound value out of its bounds,
   * say), and no row is to blame.
   */
  public boolean failsWithoutRows(ColumnBatch input, boolean folding) {
    return fails(failedRole(folding), checkedColumns(input), 0, 0);
  }

  /** The first failing row of rows {@code [from, from + count)}, which fail together. */
  private OptionalInt firstFailingRow(Role role, Object[] columns, int from, int count) {
    if (count == 1) {
      return OptionalInt.of(from);
    }
    int half = count / 2;
    if (fails(role, columns, from, half)) {
      return firstFailingRow(role, columns, from, half);
    }
    if (fails(role, columns, from + half, count - half)) {
      return firstFailingRow(role, columns, from + half, count - half);
    }
    return OptionalInt.empty();
  }

  private boolean fails(Role role, Object[] columns, int from, int count) {
    try {
      run(
          role,
          Arrays.stream(columns).map(column -> BatchColumns.slice(column, from, count)).toArray());
      return false;
    } catch (L0RuntimeError e) {
      return true;
    }
  }

  /**
   * {@code a} then {@code b} combined with each result's operator, exact float sums merged exactly.
   */
  PartialResult combine(PartialResult a, PartialResult b) {
    ExactFloatSums sums = spec.floatSums();
    List<Object> arguments = new ArrayList<>(sums.orderedLeaves(a.values()));
    arguments.addAll(sums.orderedLeaves(b.values()));
    List<Object> ordered =
        arguments.isEmpty() ? List.of() : run(Role.COMBINER, arguments.toArray());
    return new PartialResult(sums.combine(a.values(), b.values(), ordered));
  }

  /** The counters since {@link #open}. */
  public RunStatistics statistics() {
    return new RunStatistics(
        compileNanos,
        kernelNanos,
        transferBytes,
        transferNanos,
        compileCacheHits,
        fallbackReasons.size(),
        fallbackReasons,
        Optional.ofNullable(backend));
  }

  /**
   * Ends this runner and its leases on the compiled programs: they stay in the per-JVM cache for
   * the next task, unless they have left it, in which case the last lease's end closes them.
   */
  @Override
  public void close() {
    closed = true;
    programs.values().forEach(LeaseCache.Lease::close);
    programs.clear();
  }

  private Role foldRole() {
    return spec.kind() == PipelineKind.SCAN ? Role.TOTALS : Role.MAIN;
  }

  /** The role whose run failed: the one {@link #fold} runs, or the one the row methods run. */
  private Role failedRole(boolean folding) {
    return folding ? foldRole() : Role.MAIN;
  }

  /**
   * Runs the program in {@code role} on {@code leaves}, one per leaf of its parameters (a tuple or
   * array of tuples parameter takes one leaf per component, as its {@link InputBinding}s feed it)
   * that no {@code with(...)} value binds, adds what it spent to the counters and returns its
   * result's leaves.
   */
  private List<Object> run(Role role, Object[] leaves) {
    return run(role, leaves, SpareArrays.NONE);
  }

  /** {@link #run(Role, Object[])}, the JVM backend's buffers allocated from {@code buffers}. */
  private List<Object> run(Role role, Object[] leaves, SpareArrays buffers) {
    CompiledProgram program = program(role);
    // a loop, not a stream: a task runs this once per batch
    List<Type> parameterTypes = new ArrayList<>(program.parameters().size());
    for (Parameter parameter : program.parameters()) {
      parameterTypes.add(parameter.type());
    }
    MeasuredRun measured =
        program.runMeasuredWithSpares(
            buffers,
            role.takesEntryParameters()
                ? spec.bound().arguments(parameterTypes, Arrays.asList(leaves))
                : TupleLeaves.arguments(parameterTypes, Arrays.asList(leaves)));
    RunMeasurements spent = measured.measurements();
    kernelNanos += spent.kernelNanos();
    transferBytes += spent.transferBytes();
    transferNanos += spent.transferNanos();
    return TupleLeaves.values(measured.result(), program.resultType());
  }

  /**
   * Result columns as a batch; they have the same number of rows, as planning made sure ({@link
   * EntryAnalysis}: row-wise results that filters thinned differently are a planning error).
   */
  private static ColumnBatch resultRows(List<Object> columns) {
    return new ColumnBatch(BatchColumns.rows(columns.get(0)), columns);
  }

  /** The input columns, checked against the bindings: count, forms and row counts. */
  private Object[] checkedColumns(ColumnBatch input) {
    List<InputBinding> bindings = spec.inputs();
    if (input.columns().size() != bindings.size()) {
      throw new IllegalArgumentException(
          PipelineMessages.at(
              spec.callSite(),
              "reads "
                  + bindings.size()
                  + " input column(s) ("
                  + bindings.stream()
                      .map(InputBinding::columnPath)
                      .collect(Collectors.joining(", "))
                  + "), given "
                  + input.columns().size()));
    }
    for (int k = 0; k < bindings.size(); k++) {
      InputBinding binding = bindings.get(k);
      Object column = input.columns().get(k);
      if (BatchColumns.elementType(column) != binding.elementType()
          || BatchColumns.rank(column) != binding.rank()) {
        throw new IllegalArgumentException(
            "input column '"
                + binding.columnPath()
                + "' must be "
                + (binding.rank() == 1
                    ? Article.before(binding.elementType().keyword()) + " primitive array"
                    : "a FlatArray of "
                        + binding.elementType().keyword()
                        + " with "
                        + binding.rank()
                        + " dimensions")
                + ", given "
                + (column == null ? "null" : column.getClass().getSimpleName()));
      }
      if (BatchColumns.rows(column) != input.rows()) {
        throw new IllegalArgumentException(
            "input column '"
                + binding.columnPath()
                + "' has "
                + BatchColumns.rows(column)
                + " rows, but the batch has "
                + input.rows());
      }
    }
    return input.columns().toArray();
  }

  private void requireKind(String operation, PipelineKind... kinds) {
    if (closed) {
      throw new IllegalStateException(operation + " on a closed runner");
    }
    for (PipelineKind kind : kinds) {
      if (spec.kind() == kind) {
        return;
      }
    }
    throw new IllegalStateException(
        operation
            + " is for "
            + List.of(kinds)
            + " pipelines, but "
            + spec.summary()
            + " is "
            + spec.kind());
  }
}
