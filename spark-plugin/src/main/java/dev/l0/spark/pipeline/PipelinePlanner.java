package dev.l0.spark.pipeline;

import dev.l0.ir.Expr;
import dev.l0.ir.FunDef;
import dev.l0.ir.L0CompileError;
import dev.l0.ir.Program;
import dev.l0.ir.ScalarType;
import dev.l0.ir.Type;
import dev.l0.kernels.exec.HostRunner;
import dev.l0.kernels.jvm.JvmKernelExecutor;
import dev.l0.opt.KernelPlan;
import dev.l0.opt.OptimizedProgram;
import dev.l0.opt.Optimizer;
import dev.l0.opt.cluster.ClusterSolver;
import dev.l0.syntax.L0Parser;
import dev.l0.syntax.L0Printer;
import dev.l0.types.TypeChecker;
import dev.l0.types.TypedProgram;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.stream.IntStream;
import org.apache.spark.sql.types.DataTypes;
import org.apache.spark.sql.types.StructField;
import org.apache.spark.sql.types.StructType;

/**
 * Plans pipelines: parses, type-checks and optimises the L0 program, binds its entry's parameters
 * to driver-side values ({@code with}) and the others to the child's columns, decides the {@link
 * PipelineKind} from the entry's body, plans the exact float sums the request asks for ({@link
 * ExactFloatSums}), and derives the small programs that combine partial results; also composes two
 * adjacent pipelines into one.
 */
public final class PipelinePlanner {
  private PipelinePlanner() {}

  /**
   * {@link #plan(PipelineRequest, StructType, boolean)} with Spark's default name resolution,
   * ignoring case.
   */
  public static PipelineSpec plan(PipelineRequest request, StructType inputSchema) {
    return plan(request, inputSchema, false);
  }

  /**
   * Parses, type-checks and optimises the program, binds it to the child's schema (column names
   * matched exactly when {@code caseSensitive}, as Spark's {@code spark.sql.caseSensitive}, else
   * ignoring case), decides the kind; throws {@link PipelinePlanningException}.
   */
  public static PipelineSpec plan(
      PipelineRequest request, StructType inputSchema, boolean caseSensitive) {
    SpecKey key = SpecKey.of(request, inputSchema, caseSensitive);
    Planned planned = SPECS.get(key);
    if (planned == null) {
      planned = planned(request, inputSchema, caseSensitive);
      SPECS.put(key, planned.withoutValues());
      return planned.spec();
    }
    return planned
        .spec()
        .withBound(
            BoundValues.of(
                planned.typed(), planned.entry(), request.boundArguments(), request.callSite()));
  }

  /**
   * How many pipelines' plans the driver keeps ({@link #plan}): a job that builds the same pipeline
   * for every query (a batch run again, a benchmark's runs) plans its program once, instead of
   * parsing, type-checking and printing it again on every query, which also kept HotSpot compiling
   * the parser and checker run after run (the thirtieth session's FinPar runs on Spark).
   */
  static final int PLANNED_PIPELINES = 64;

  /**
   * What a planned spec depends on besides the values bound with {@code with(...)}: the request
   * with only the names of the bound parameters (the values are checked and bound on every plan),
   * the input schema, the name resolution and the optimiser's settings.
   */
  private record SpecKey(
      PipelineRequest request,
      List<String> boundParameters,
      StructType inputSchema,
      boolean caseSensitive,
      ClusterSolver.Settings clustering) {
    static SpecKey of(PipelineRequest request, StructType inputSchema, boolean caseSensitive) {
      return new SpecKey(
          request.withBoundArguments(List.of()),
          request.boundArguments().stream().map(BoundArgument::parameter).toList(),
          inputSchema,
          caseSensitive,
          ClusterSolver.Settings.fromSystemProperties());
    }
  }

  /**
   * A planned spec, with the type-checked program and the entry (all its parameters) that the
   * values bound on a later plan are checked against.
   */
  private record Planned(TypedProgram typed, FunDef entry, PipelineSpec spec) {
    /** This plan holding no bound values, so that the cache keeps no user data alive. */
    Planned withoutValues() {
      return new Planned(typed, entry, spec.withBound(BoundValues.none()));
    }
  }

  /** The plans of the pipelines planned last, the least recently used first. */
  private static final Map<SpecKey, Planned> SPECS =
      Collections.synchronizedMap(
          new LinkedHashMap<>(16, 0.75f, true) {
            @Override
            protected boolean removeEldestEntry(Map.Entry<SpecKey, Planned> eldest) {
              return size() > PLANNED_PIPELINES;
            }
          });

  private static Planned planned(
      PipelineRequest request, StructType inputSchema, boolean caseSensitive) {
    String callSite = request.callSite();
    Program parsed = checked(request.programText(), request.sourceName(), callSite);
    FunDef entry =
        parsed
            .function(request.entry())
            .orElseThrow(
                () ->
                    new PipelinePlanningException(
                        callSite,
                        "the program "
                            + request.sourceName()
                            + " has no function '"
                            + request.entry()
                            + "'; it defines "
                            + String.join(", ", parsed.functionNames())));
    L0Source main =
        L0Source.reachable(
            parsed, request.programText(), request.sourceName(), entry.name(), request.origins());
    TypedProgram typed = TypeChecker.check(main.program());
    entry = typed.function(entry.name());
    BoundValues bound = BoundValues.of(typed, entry, request.boundArguments(), callSite);
    FunDef columnEntry =
        new FunDef(
            entry.name(),
            entry.returnType(),
            entry.params().stream().filter(p -> !bound.binds(p.name())).toList(),
            entry.body(),
            entry.pos());
    ColumnBinder binder = new ColumnBinder(callSite, caseSensitive);
    List<InputBinding> inputs =
        binder.bind(columnEntry, request.inputColumns(), inputSchema, request.nullReplacements());
    EntryAnalysis.Result analysis = EntryAnalysis.analyse(columnEntry, callSite);
    StructType outputs =
        outputSchema(entry, analysis.kind(), request.outputNames(), caseSensitive, callSite);
    PipelineSpec.Carried carried =
        carried(binder, request.carriedColumns(), inputSchema, analysis, outputs, callSite);
    DerivedPrograms derived = new DerivedPrograms(typed, request.sourceName(), callSite);
    List<Expr> aggregates =
        analysis.results().stream().map(r -> r.aggregate().orElse(null)).toList();
    ExactFloatSums.Planned sums =
        ExactFloatSums.plan(request.floatSums(), main, typed, entry, analysis, callSite);
    List<Expr> ordered = sums.orderedAggregates();
    PipelineSpec.Programs programs =
        switch (analysis.kind()) {
          case ROWS -> new PipelineSpec.Programs(main, null, null, null);
          case REDUCE ->
              new PipelineSpec.Programs(
                  sums.main(), ordered.isEmpty() ? null : derived.combiner(ordered), null, null);
          case SCAN ->
              new PipelineSpec.Programs(
                  main,
                  derived.combiner(aggregates),
                  derived.offset(aggregates),
                  derived.totals(entry, analysis.result(), analysis.unzippedScans()));
        };
    PipelineSpec.Kernels kernels;
    try {
      kernels = kernels(programs);
    } catch (L0CompileError e) {
      throw new PipelinePlanningException(callSite, e.getMessage(), e);
    }
    return new Planned(
        typed,
        entry,
        new PipelineSpec(
            analysis.kind(),
            inputs,
            bound,
            outputs,
            callSite,
            programs,
            kernels,
            sums.sums(),
            carried));
  }

  /**
   * The input columns {@code names} that {@code carry(...)} asks for: only a map (a ROWS pipeline
   * whose results have one row per input row, no filter) has an output row per input row to carry
   * them to, and a carried column may not share its name with an output column.
   */
  private static PipelineSpec.Carried carried(
      ColumnBinder binder,
      List<String> names,
      StructType inputSchema,
      EntryAnalysis.Result analysis,
      StructType outputs,
      String callSite) {
    if (names.isEmpty()) {
      return PipelineSpec.Carried.NONE;
    }
    PipelineKind kind = analysis.kind();
    if (kind != PipelineKind.ROWS) {
      throw new PipelinePlanningException(
          callSite,
          "carry("
              + String.join(", ", names)
              + ") needs a pipeline with one output row per input row, but this one is a "
              + kind.name().toLowerCase(Locale.ROOT)
              + " pipeline; join its result with the input instead");
    }
    for (RowShape result : analysis.results()) {
      if (result instanceof RowShape.Rows rows && rows.rowSet() instanceof Expr.Filter filter) {
        throw new PipelinePlanningException(
            callSite,
            "carry("
                + String.join(", ", names)
                + ") needs one output row per input row, but the filter at "
                + filter.pos()
                + " keeps only some rows; return the filter's condition as a column and filter"
                + " with Spark instead");
      }
    }
    PipelineSpec.Carried carried = binder.carried(names, inputSchema);
    for (String name : carried.spellings()) {
      for (String output : outputs.fieldNames()) {
        if (output.equalsIgnoreCase(name)) {
          throw new PipelinePlanningException(
              callSite,
              "carry(...) names the column '"
                  + name
                  + "', but the pipeline's output column '"
                  + output
                  + "' has that name; rename one of them with as(...) or withColumnRenamed");
        }
      }
    }
    return carried;
  }

  /**
   * The single pipeline equivalent to running {@code first} then {@code second} on first's output
   * (second reads first's output columns), or empty when first is not ROWS, or when first's outputs
   * include arrays of arrays of tuples, which the composition cannot take apart. The composed L0
   * program calls both entries; the optimiser fuses them. Its errors name both call sites ({@code
   * Job.java:12, fused with Job.java:14}): the failing code may be either pipeline's. Pipelines
   * with values bound by {@code with(...)} or carrying columns ({@code carry(...)}) are not
   * composed (empty).
   */
  public static Optional<PipelineSpec> merge(PipelineSpec first, PipelineSpec second) {
    if (first.kind() != PipelineKind.ROWS
        || !first.bound().isEmpty()
        || !second.bound().isEmpty()
        || !first.carried().isEmpty()
        || !second.carried().isEmpty()) {
      return Optional.empty();
    }
    PipelineSpec.Programs two = second.programs();
    Optional<L0Source> main = PipelineComposer.compose(first, two.main(), second.inputs());
    if (main.isEmpty()) {
      return Optional.empty();
    }
    L0Source totals =
        two.totals() == null
            ? null
            : PipelineComposer.compose(first, two.totals(), second.inputs()).orElseThrow();
    PipelineSpec.Programs programs =
        new PipelineSpec.Programs(main.get(), two.combiner(), two.offset(), totals);
    return Optional.of(
        new PipelineSpec(
            second.kind(),
            first.inputs(),
            BoundValues.none(),
            second.outputSchema(),
            first.callSite() + ", fused with " + second.callSite(),
            programs,
            kernels(programs),
            second.floatSums(),
            PipelineSpec.Carried.NONE));
  }

  /**
   * The program parsed from {@code text} and type-checked; L0 errors keep their {@code
   * file:line:col}.
   */
  private static Program checked(String text, String sourceName, String callSite) {
    try {
      Program program = L0Parser.parse(text, sourceName);
      TypeChecker.check(program);
      return program;
    } catch (L0CompileError e) {
      throw new PipelinePlanningException(callSite, e.getMessage(), e);
    }
  }

  /**
   * How many programs' kernel plans the driver keeps ({@link #kernels}): Spark plans a pipeline
   * again for every query over it, and optimising a program of many SOACs takes a while.
   */
  static final int PLANNED_PROGRAMS = 64;

  /**
   * What a kernel plan depends on: the program, and the optimiser's settings that can change the
   * plan (the filter clustering's limits, {@code l0.opt.cluster.*}, read when it is planned).
   */
  private record PlanKey(L0Source source, ClusterSolver.Settings clustering) {}

  /** The kernel plans of the programs planned last, the least recently used first. */
  private static final Map<PlanKey, PipelineSpec.Kernels> PLANNED =
      Collections.synchronizedMap(
          new LinkedHashMap<>(16, 0.75f, true) {
            @Override
            protected boolean removeEldestEntry(Map.Entry<PlanKey, PipelineSpec.Kernels> eldest) {
              return size() > PLANNED_PROGRAMS;
            }
          });

  /**
   * The kernels of the main program of {@code programs} ({@link #kernels(L0Source)}), every program
   * of them (the main one, and a combiner, offset or totals program) compiled for the JVM backend
   * first, so that one that cannot be compiled fails planning, not the tasks that run it.
   */
  static PipelineSpec.Kernels kernels(PipelineSpec.Programs programs) {
    for (L0Source derived :
        Arrays.asList(programs.combiner(), programs.offset(), programs.totals())) {
      if (derived != null) {
        kernels(derived);
      }
    }
    return kernels(programs.main());
  }

  /**
   * The kernels of {@code source}'s program as the optimiser plans them, optimised once for the
   * last {@link #PLANNED_PROGRAMS} programs planned under the same optimiser settings. The program
   * is compiled for the JVM backend as an executor compiles it (every kernel lowered, printed as
   * Java and compiled by Janino, whose classes the JVM keeps by their source, so an executor in
   * this JVM, as in local mode, does not compile them again): a kernel that the lowering rejects,
   * or whose Java Janino or the JVM refuses, is the program's compile error, as a task would raise
   * it when it compiles the program, found here, so that it fails {@code df.transform(...)} instead
   * of the job's first task. A GPU's executor compiles the same kernels for CUDA, and runs them on
   * the JVM backend where the GPU cannot.
   */
  static PipelineSpec.Kernels kernels(L0Source source) {
    PlanKey key = new PlanKey(source, ClusterSolver.Settings.fromSystemProperties());
    PipelineSpec.Kernels planned = PLANNED.get(key);
    if (planned != null) {
      return planned;
    }
    OptimizedProgram optimised = Optimizer.optimize(TypeChecker.check(source.program()));
    new HostRunner(optimised, new JvmKernelExecutor(1)); // compiles every kernel, or throws
    List<String> shapes =
        optimised.kernelPlan().kernels().stream().map(KernelPlan.Kernel::structure).toList();
    PipelineSpec.Kernels kernels =
        new PipelineSpec.Kernels(shapes.size(), shapes, optimised.explain());
    PLANNED.put(key, kernels);
    return kernels;
  }

  /**
   * One non-nullable column per result leaf, named by {@code names} or {@code _1, _2, ...}; two
   * names that Spark would resolve to one column (equal, or equal but for case unless {@code
   * caseSensitive}) are an error.
   */
  private static StructType outputSchema(
      FunDef entry, PipelineKind kind, List<String> names, boolean caseSensitive, String callSite) {
    List<Type> leaves = TupleLeaves.types(entry.returnType());
    if (!names.isEmpty() && names.size() != leaves.size()) {
      throw new PipelinePlanningException(
          callSite,
          "'"
              + entry.name()
              + "' returns "
              + L0Printer.print(entry.returnType())
              + ", which is "
              + leaves.size()
              + " output column(s), but as(...) names "
              + names.size()
              + ": "
              + String.join(", ", names));
    }
    List<String> chosen =
        names.isEmpty()
            ? IntStream.rangeClosed(1, leaves.size()).mapToObj(k -> "_" + k).toList()
            : names;
    Map<String, String> seen = new HashMap<>();
    List<StructField> fields = new ArrayList<>();
    for (int k = 0; k < leaves.size(); k++) {
      String name = chosen.get(k);
      String earlier = seen.put(caseSensitive ? name : name.toLowerCase(Locale.ROOT), name);
      if (earlier != null && earlier.equals(name)) {
        throw new PipelinePlanningException(
            callSite, "as(...) names the output column '" + name + "' twice");
      }
      if (earlier != null) {
        throw new PipelinePlanningException(
            callSite,
            "as(...) names the output columns '"
                + earlier
                + "' and '"
                + name
                + "', one name while spark.sql.caseSensitive is false");
      }
      Type leaf = leaves.get(k);
      int depth = kind == PipelineKind.REDUCE ? leaf.rank() : leaf.rank() - 1;
      fields.add(
          DataTypes.createStructField(
              chosen.get(k),
              ColumnBinder.sparkType((ScalarType) leaf.baseElement(), depth, false),
              false));
    }
    return DataTypes.createStructType(fields);
  }
}
