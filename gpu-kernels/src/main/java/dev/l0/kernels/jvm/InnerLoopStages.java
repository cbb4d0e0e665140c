package dev.l0.kernels.jvm;

import dev.l0.ir.ScalarType;
import dev.l0.kernels.ir.Buffer;
import dev.l0.kernels.ir.Kernel;
import dev.l0.kernels.ir.KernelExpr;
import dev.l0.kernels.ir.KernelStmt;
import dev.l0.kernels.ir.ThreadIndex;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.HashMap;
import java.util.HashSet;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * A loop inside a kernel thread (an inner map, or the map part of an inner reduction) whose costly
 * math calls ({@code exp}, {@code log}, {@code pow}, {@code sin}, {@code cos}, {@code erf} of
 * {@code f64}) and branchy regions run lane-wise over chunks of its iterations: the inputs of each
 * such unit are computed into scratch arrays by loops over the chunk, the units applied to the
 * whole arrays ({@code VectorMath} for a call; for a region, its code staged lane-wise by {@link
 * StagedMapPrinter}, both branches of each {@code if} evaluated and picked by masks, or, where an
 * {@code if} of it has a cheap branch and a costly one, split there: {@link Split}), and then the
 * loop's own body runs over the chunk with each unit replaced by a read of its results. A
 * <em>region</em> is a run of statements that only compute {@code f64} locals from {@code f64}
 * locals (declarations, assignments, and {@code if}s of such statements; no loads, stores or
 * errors) and hold an {@code if} with at least {@link #REGION_OPERATIONS} floating-point operations
 * in its branches: code whose branches a scalar loop mispredicts and whose arithmetic waits on long
 * chains (an inverse normal's rational approximations, say). A unit whose input needs another
 * unit's result (say {@code erf(d1)} with {@code d1} from a {@code log}) is of a later level: level
 * 1's inputs are staged first, then its units applied, then level 2's inputs (which read level 1's
 * results), and so on. Each staging loop is the body cut down to the statements the level's inputs
 * need, {@code if}s and inner loops included. Each unit has a cursor that counts its evaluations in
 * the chunk: a staging loop stores the inputs at the cursor and advances it where the original
 * evaluates the unit, and the body advances it at the same places and reads the results there, so a
 * unit under an {@code if} or in an inner loop reads back its own evaluation. Every element is
 * therefore computed by the same operations on the same values as in the body, and the body still
 * runs its iterations in order, so sums the loop carries add their terms in the original order: the
 * results are the same bits.
 *
 * <p>A run of fewer than {@link #MIN_ITERATIONS} iterations runs the loop as it is, as does a run
 * of a loop with a region staged whole that evaluates its units fewer than {@link
 * #REGION_MIN_EVALUATIONS} times. A loop qualifies when its step is a constant (so a thread's loop
 * over the rows of the grid does not), its body has no {@code while}s or barriers, its inner loops
 * (if any) have start, bound and step that read nothing the loop's body declares or assigns (so the
 * number of evaluations per iteration is known before a chunk runs) and do not leave early ({@link
 * FixedPointLoops}), and it has at least one unit whose inputs do not depend on what the loop
 * carries from one iteration to the next: the variables declared outside the body that it assigns,
 * and loads of the buffers and shared arrays it stores to (units that do stay in the body, as do
 * units under an {@code if} whose condition depends on them). In a thread's own buffer, only loads
 * of the parts the body stores to count ({@link ThreadPrivateParts}): a map inside a thread that
 * reads arrays the thread made earlier and writes its result to an array of its own is staged.
 */
final class InnerLoopStages {
  /**
   * The evaluations of a unit one round of the staging loops, the units and the body covers (a
   * round covers at least one iteration of the loop, so more where an iteration evaluates a unit
   * more often than this).
   */
  static final int CHUNK = 256;

  /**
   * The fewest iterations a run of the loop has for it to run staged; shorter runs run the loop as
   * it is. Measured: InterestCalib's loops of a few to a few dozen iterations were slower staged
   * (its small dataset took 37.3 and 39.5 s of user CPU before, 43.2 and 40.6 s with every run
   * staged; bench/README.md), and at 64 LocVolCalib small's 32-point volatility loop ran its {@code
   * log} and {@code exp} scalar, a quarter of its time; at 32 it runs lane-wise, about a fifth less
   * CPU per run (bench/README.md, fifth session).
   */
  static final int MIN_ITERATIONS = 32;

  /**
   * The fewest evaluations of its units (iterations times evaluations per iteration) a run of a
   * loop with a region staged whole needs for it to run staged; shorter runs run the loop as it is.
   * A region's lane-wise code is large and is slow until the JIT compiler's last tier has compiled
   * it, a fixed cost that only long runs win back. Measured on OptionPricing (bench/README.md,
   * sixth session): runs of 32 evaluations (small, a chunk's paths) and 480 (medium) took about
   * three times the CPU time in the first run and no less once warm; 1,101 (large, one path's
   * dates; fifth session) more in the first run and less warm; 35,232 (large, a chunk's paths) less
   * in both.
   */
  static final int REGION_MIN_EVALUATIONS = 4096;

  /**
   * The most evaluations of a unit per iteration (in the loop's inner loops) for a run to be
   * staged: the scratch arrays hold a chunk's evaluations, at least one iteration's.
   */
  static final int MAX_EVALUATIONS_PER_ITERATION = 4096;

  /**
   * The fewest {@code f64} arithmetic operations in the branches of an {@code if} for the run of
   * straight-line code around it to be staged as a region.
   */
  static final int REGION_OPERATIONS = 16;

  /** The longest chain of units whose inputs need earlier units' results that is staged. */
  private static final int MAX_LEVELS = 8;

  /**
   * A run of straight-line {@code f64} code staged as a whole: {@code statements} compute {@code
   * outputs} from {@code inputs} and {@code invariants} (together the variables they read or assign
   * that they do not declare first), each an {@code f64}. The {@code invariants} are those the loop
   * around the region neither declares nor assigns (nor is its counter): the same in every
   * evaluation, they are passed to the region's code once per run, as scalars, not stored per
   * evaluation as the inputs are.
   */
  record Region(
      List<KernelStmt> statements,
      List<KernelExpr.Var> inputs,
      List<KernelExpr.Var> invariants,
      List<KernelExpr.Var> outputs) {
    Region {
      statements = List.copyOf(statements);
      inputs = List.copyOf(inputs);
      invariants = List.copyOf(invariants);
      outputs = List.copyOf(outputs);
    }

    /**
     * The region as a map kernel over {@code n$} rows: row {@code r} reads input {@code k} from
     * buffer {@code in$k} and writes output {@code j} to buffer {@code out$j}, both at {@code r};
     * its scalars are {@code n$} and then the invariants. Its staged form ({@link StagedMap}) is
     * the region's lane-wise code.
     */
    Kernel kernel() {
      List<KernelStmt> body = new ArrayList<>(statements);
      body.addAll(stores());
      return gridLoop(body);
    }

    /**
     * The region split at its first {@code if} (of its own statements, not nested) with a cheap
     * branch, arithmetic only (no {@code if}, no costly call), and a costly branch (an {@code if}
     * or a costly call): AS241's central rational function against its tails, which take a {@code
     * log}. Empty where no {@code if} is of that kind.
     */
    Optional<Split> split() {
      for (int k = 0; k < statements.size(); k++) {
        if (!(statements.get(k) instanceof KernelStmt.If i)) {
          continue;
        }
        boolean thenCheap = cheap(i.thenBody());
        boolean elseCheap = cheap(i.elseBody());
        if (thenCheap == elseCheap) {
          continue;
        }
        List<KernelStmt> before = statements.subList(0, k);
        List<KernelStmt> after = statements.subList(k + 1, statements.size());
        List<KernelStmt> cheapBody = new ArrayList<>(before);
        cheapBody.addAll(thenCheap ? i.thenBody() : i.elseBody());
        cheapBody.addAll(after);
        cheapBody.addAll(stores());
        List<KernelStmt> costlyBranch = new ArrayList<>(thenCheap ? i.elseBody() : i.thenBody());
        costlyBranch.addAll(after);
        costlyBranch.addAll(stores());
        List<KernelStmt> costlyBody = new ArrayList<>(before);
        costlyBody.add(
            thenCheap
                ? new KernelStmt.If(i.condition(), List.of(), costlyBranch)
                : new KernelStmt.If(i.condition(), costlyBranch, List.of()));
        return Optional.of(new Split(rowPerBlock(cheapBody), rowPerBlock(costlyBody)));
      }
      return Optional.empty();
    }

    /** The stores of the outputs at the row ({@link #kernel}). */
    private List<KernelStmt> stores() {
      List<KernelStmt> stores = new ArrayList<>();
      for (int j = 0; j < outputs.size(); j++) {
        stores.add(
            new KernelStmt.Store(new Buffer("out$" + j, ScalarType.F64), ROW, outputs.get(j)));
      }
      return stores;
    }

    /**
     * A map kernel over the rows ({@link #kernel}) whose row runs {@code statements}: a loop over
     * the rows by the grid, which stages.
     */
    private Kernel gridLoop(List<KernelStmt> statements) {
      return withBody(
          List.of(
              new KernelStmt.For(
                  ROW,
                  new KernelExpr.Thread(ThreadIndex.BLOCK_IDX),
                  ROWS,
                  new KernelExpr.Thread(ThreadIndex.GRID_DIM),
                  rowBody(statements))));
    }

    /**
     * {@link #gridLoop} with a block per row, for a kernel that runs per row over exactly as many
     * blocks as rows: a counted loop without branches of its own, which the JIT compiler may
     * vectorise.
     */
    private Kernel rowPerBlock(List<KernelStmt> statements) {
      List<KernelStmt> body = new ArrayList<>();
      body.add(new KernelStmt.Declare(ROW, new KernelExpr.Thread(ThreadIndex.BLOCK_IDX)));
      body.addAll(rowBody(statements));
      return withBody(body);
    }

    /** {@code statements} after the loads of the inputs at the row. */
    private List<KernelStmt> rowBody(List<KernelStmt> statements) {
      List<KernelStmt> body = new ArrayList<>();
      for (int k = 0; k < inputs.size(); k++) {
        body.add(
            new KernelStmt.Declare(
                inputs.get(k), new KernelExpr.Load(new Buffer("in$" + k, ScalarType.F64), ROW)));
      }
      body.addAll(statements);
      return body;
    }

    /** The region's kernel with {@code body}: its buffers, then its scalars. */
    private Kernel withBody(List<KernelStmt> body) {
      List<Buffer> buffers = new ArrayList<>();
      for (int k = 0; k < inputs.size(); k++) {
        buffers.add(new Buffer("in$" + k, ScalarType.F64));
      }
      for (int j = 0; j < outputs.size(); j++) {
        buffers.add(new Buffer("out$" + j, ScalarType.F64));
      }
      List<KernelExpr.Var> scalars = new ArrayList<>();
      scalars.add(ROWS);
      scalars.addAll(invariants);
      return new Kernel("region", buffers, scalars, List.of(), body);
    }

    /** Whether {@code branch} is arithmetic only: no {@code if}, no costly call. */
    private static boolean cheap(List<KernelStmt> branch) {
      for (KernelStmt s : branch) {
        KernelExpr value =
            s instanceof KernelStmt.Declare d
                ? d.initial()
                : s instanceof KernelStmt.Assign a ? a.value() : null;
        if (value == null || hasCostlyCall(value)) {
          return false;
        }
      }
      return true;
    }

    private static boolean hasCostlyCall(KernelExpr e) {
      return costly(e) != null || e.children().stream().anyMatch(Region::hasCostlyCall);
    }
  }

  /**
   * A region's code in two kernels over the same rows, buffers and scalars, each run per row with a
   * block per row, one after the other ({@link Region#split}): {@code cheap} gives every row the
   * outputs the region gives where the split {@code if} takes its cheap branch (the cheap branch in
   * place of the {@code if}: straight-line code whose operations cannot fail, as {@link StagedMap}
   * admits only such in branches, a loop without branches that the JIT compiler vectorises); {@code
   * costly} stores the outputs only of the rows where the {@code if} takes its costly branch, over
   * those of {@code cheap}. Each row then holds the region's outputs, and the costly branch's
   * operations (a {@code log}, further {@code if}s) run only where the region runs them.
   */
  record Split(Kernel cheap, Kernel costly) {}

  /** The row of a region's kernel ({@link Region#kernel}). */
  private static final KernelExpr.Var ROW = new KernelExpr.Var("row$", ScalarType.I64);

  /** The number of rows of a region's kernel ({@link Region#kernel}), its only scalar. */
  static final KernelExpr.Var ROWS = new KernelExpr.Var("n$", ScalarType.I64);

  /**
   * One staged unit: the {@code VectorMath} function {@code function} applied to the scratch arrays
   * {@code arguments} (one, or two for {@code pow}), its result written over the first; or, where
   * {@code region} is present, the region's code from its inputs in {@code arguments} to its
   * outputs in {@code results}; in either case over the first {@code cursor} elements. {@code
   * loops} are the inner loops around the unit, outermost first.
   */
  record MathCall(
      String function,
      Optional<Region> region,
      List<Buffer> arguments,
      List<Buffer> results,
      KernelExpr.Var cursor,
      List<KernelStmt.For> loops) {}

  /**
   * One level: the loop over the chunk that stores its units' inputs ({@code body}), then the
   * units.
   */
  record Level(List<KernelStmt> body, List<MathCall> calls) {}

  private final List<Level> levels;
  private final List<KernelStmt> body;
  private final List<Buffer> scratch;
  private final List<MathCall> units;

  private InnerLoopStages(
      List<Level> levels, List<KernelStmt> body, List<Buffer> scratch, List<MathCall> units) {
    this.levels = List.copyOf(levels);
    this.body = List.copyOf(body);
    this.scratch = List.copyOf(scratch);
    this.units = List.copyOf(units);
  }

  /** The levels, in the order they run. */
  List<Level> levels() {
    return levels;
  }

  /** The loop's body with every staged unit replaced by a load of its results at its cursor. */
  List<KernelStmt> body() {
    return body;
  }

  /** The scratch arrays of doubles the stages use, each by its own name. */
  List<Buffer> scratch() {
    return scratch;
  }

  /** The staged units, in the order of the body. */
  List<MathCall> units() {
    return units;
  }

  /**
   * Whether a unit is a region staged whole, both branches lane-wise ({@link
   * #REGION_MIN_EVALUATIONS}); a region that splits ({@link Region#split}) runs plain loops and
   * per-row code, which need no long runs.
   */
  boolean hasWholeRegion() {
    return units.stream()
        .anyMatch(unit -> unit.region().isPresent() && unit.region().get().split().isEmpty());
  }

  /**
   * The staged units' functions ({@code region} for a region staged whole, {@code split region} for
   * one that splits), in the order the levels apply them.
   */
  List<String> functions() {
    List<String> functions = new ArrayList<>();
    for (Level level : levels) {
      for (MathCall c : level.calls()) {
        functions.add(
            c.region().isEmpty()
                ? c.function()
                : c.region().get().split().isPresent() ? "split region" : "region");
      }
    }
    return functions;
  }

  /**
   * The stages of {@code loop}, or empty where it does not qualify (see the class comment), or
   * where it cannot be printed as a method of its own of at most {@code methodBudget} estimated
   * bytes ({@link OutlinedStatements}), or where it is left at a fixed point ({@link
   * FixedPointLoops}).
   */
  static Optional<InnerLoopStages> of(KernelStmt.For loop, int methodBudget) {
    OutlinedStatements outlining = new OutlinedStatements();
    if (!(loop.step() instanceof KernelExpr.Constant)
        // a loop over the grid (a thread's rows) steps by the grid's size; an inner map by 1
        || FixedPointLoops.guard(loop).isPresent()
        || !innerLoopsFixed(loop)
        || outlining.parameters(loop).isEmpty()) {
      return Optional.empty();
    }
    Analysis analysis = new Analysis(loop);
    if (!analysis.levelCalls()) {
      return Optional.empty();
    }
    InnerLoopStages stages = analysis.stages();
    // the staged method holds the loop as it is too, for short runs
    List<KernelStmt> printed = new ArrayList<>(loop.body());
    printed.addAll(stages.body());
    stages.levels().forEach(level -> printed.addAll(level.body()));
    KernelStmt.For whole =
        new KernelStmt.For(loop.counter(), loop.start(), loop.bound(), loop.step(), printed);
    return outlining.size(whole) <= methodBudget ? Optional.of(stages) : Optional.empty();
  }

  /** The loops of {@code body} (at any depth) that {@link #of} stages. */
  static List<InnerLoopStages> inside(List<KernelStmt> body, int methodBudget) {
    List<InnerLoopStages> found = new ArrayList<>();
    for (KernelStmt s : body) {
      if (s instanceof KernelStmt.If i) {
        found.addAll(inside(i.thenBody(), methodBudget));
        found.addAll(inside(i.elseBody(), methodBudget));
      } else if (s instanceof KernelStmt.While w) {
        found.addAll(inside(w.body(), methodBudget));
      } else if (s instanceof KernelStmt.For f) {
        Optional<InnerLoopStages> staged = of(f, methodBudget);
        if (staged.isPresent()) {
          found.add(staged.get());
        } else {
          found.addAll(inside(f.body(), methodBudget));
        }
      }
    }
    return found;
  }

  /**
   * Whether {@code loop}'s body has no {@code while}s or barriers and every inner loop's start,
   * bound and step read nothing the body declares or assigns (nor the loop's counter), and no inner
   * loop leaves early.
   */
  private static boolean innerLoopsFixed(KernelStmt.For loop) {
    Set<String> varying = new HashSet<>();
    varying.add(loop.counter().name());
    definitions(loop.body(), varying);
    return innerLoopsFixed(loop.body(), varying);
  }

  private static boolean innerLoopsFixed(List<KernelStmt> body, Set<String> varying) {
    for (KernelStmt s : body) {
      if (s instanceof KernelStmt.If i) {
        if (!innerLoopsFixed(i.thenBody(), varying) || !innerLoopsFixed(i.elseBody(), varying)) {
          return false;
        }
      } else if (s instanceof KernelStmt.For f) {
        Set<String> read = new HashSet<>();
        for (KernelExpr e : List.of(f.start(), f.bound(), f.step())) {
          variables(e, read);
          if (StagedMap.stagedFunction(e) != null || hasLoad(e)) {
            return false;
          }
        }
        read.retainAll(varying);
        if (!read.isEmpty()
            || FixedPointLoops.guard(f).isPresent()
            || !innerLoopsFixed(f.body(), varying)) {
          return false;
        }
      } else if (s instanceof KernelStmt.While || s instanceof KernelStmt.Barrier) {
        return false;
      }
    }
    return true;
  }

  /** Adds the names {@code body} declares or assigns (inner loops' counters included). */
  private static void definitions(List<KernelStmt> body, Set<String> names) {
    for (KernelStmt s : body) {
      if (s instanceof KernelStmt.Declare d) {
        names.add(d.variable().name());
      } else if (s instanceof KernelStmt.Assign a) {
        names.add(a.variable().name());
      } else if (s instanceof KernelStmt.If i) {
        definitions(i.thenBody(), names);
        definitions(i.elseBody(), names);
      } else if (s instanceof KernelStmt.For f) {
        names.add(f.counter().name());
        definitions(f.body(), names);
      } else if (s instanceof KernelStmt.While w) {
        definitions(w.body(), names);
      }
    }
  }

  /** Adds the names of the variables {@code e} reads. */
  private static void variables(KernelExpr e, Set<String> names) {
    if (e instanceof KernelExpr.Var v) {
      names.add(v.name());
    }
    for (KernelExpr child : e.children()) {
      variables(child, names);
    }
  }

  private static boolean hasLoad(KernelExpr e) {
    if (e instanceof KernelExpr.Load || e instanceof KernelExpr.SharedLoad) {
      return true;
    }
    return e.children().stream().anyMatch(InnerLoopStages::hasLoad);
  }

  /** The function {@code VectorMath} computes {@code e} with, if {@code e} is a costly call. */
  private static String costly(KernelExpr e) {
    String function = StagedMap.stagedFunction(e);
    // sqrt is one instruction, cheaper than staging its argument
    return "sqrt".equals(function) ? null : function;
  }

  /**
   * Whether {@code body} has no loops, {@code while}s or barriers, in its {@code if}s' bodies
   * neither.
   */
  static boolean straightLine(List<KernelStmt> body) {
    for (KernelStmt s : body) {
      if (s instanceof KernelStmt.If i) {
        if (!straightLine(i.thenBody()) || !straightLine(i.elseBody())) {
          return false;
        }
      } else if (s instanceof KernelStmt.For
          || s instanceof KernelStmt.While
          || s instanceof KernelStmt.Barrier) {
        return false;
      }
    }
    return true;
  }

  /** The arguments of a call: a {@code Call}'s, or a {@code pow}'s two operands. */
  private static List<KernelExpr> arguments(KernelExpr call) {
    return call instanceof KernelExpr.Binary b ? List.of(b.left(), b.right()) : call.children();
  }

  // ------------------------------------------------------------------ regions

  /**
   * The regions of {@code loop}'s body (see the class comment), by their first statement: in every
   * statement list of the body (inner loops' bodies and the branches of {@code if}s that are not
   * themselves in a region included), each maximal run of region statements, cut at the front until
   * every input is an {@code f64}, where it still holds a large {@code if} and its outputs (the
   * variables it defines that the loop reads outside it) are {@code f64}s, and the region's kernel
   * stages ({@link StagedMap}).
   */
  static Map<KernelStmt, Region> regions(KernelStmt.For loop) {
    Map<KernelStmt, Region> found = new IdentityHashMap<>();
    findRegions(loop.body(), loop, found);
    return found;
  }

  private static void findRegions(
      List<KernelStmt> body, KernelStmt.For loop, Map<KernelStmt, Region> found) {
    int k = 0;
    while (k < body.size()) {
      if (!regionStatement(body.get(k))) {
        KernelStmt s = body.get(k);
        if (s instanceof KernelStmt.If i) {
          findRegions(i.thenBody(), loop, found);
          findRegions(i.elseBody(), loop, found);
        } else if (s instanceof KernelStmt.For f) {
          findRegions(f.body(), loop, found);
        }
        k++;
        continue;
      }
      int end = k;
      while (end < body.size() && regionStatement(body.get(end))) {
        end++;
      }
      for (int first = k; first < end; first++) {
        Optional<Region> region = region(body.subList(first, end), loop);
        if (region.isPresent()) {
          found.put(body.get(first), region.get());
          break;
        }
      }
      k = end;
    }
  }

  /** The region the statements {@code run} of {@code loop}'s body make, if they make one. */
  private static Optional<Region> region(List<KernelStmt> run, KernelStmt.For loop) {
    if (run.stream().noneMatch(InnerLoopStages::largeIf)) {
      return Optional.empty();
    }
    Map<String, KernelExpr.Var> declared = new java.util.LinkedHashMap<>();
    Map<String, KernelExpr.Var> defined = new java.util.LinkedHashMap<>();
    Map<String, KernelExpr.Var> inputs = new java.util.LinkedHashMap<>();
    freeVariables(run, declared, defined, inputs);
    Set<String> readOutside = new HashSet<>();
    readsOutside(loop.body(), run, readOutside);
    List<KernelExpr.Var> outputs = new ArrayList<>();
    for (KernelExpr.Var v : defined.values()) {
      if (readOutside.contains(v.name())) {
        outputs.add(v);
      }
    }
    boolean allF64 =
        inputs.values().stream().allMatch(v -> v.type() == ScalarType.F64)
            && outputs.stream().allMatch(v -> v.type() == ScalarType.F64);
    if (!allF64 || outputs.isEmpty()) {
      return Optional.empty();
    }
    Set<String> varying = new HashSet<>();
    varying.add(loop.counter().name());
    definitions(loop.body(), varying);
    List<KernelExpr.Var> perEvaluation = new ArrayList<>();
    List<KernelExpr.Var> invariants = new ArrayList<>();
    for (KernelExpr.Var v : inputs.values()) {
      (varying.contains(v.name()) ? perEvaluation : invariants).add(v);
    }
    Region region = new Region(run, perEvaluation, invariants, outputs);
    return StagedMap.of(region.kernel()).isPresent() ? Optional.of(region) : Optional.empty();
  }

  /**
   * Whether {@code s} may be part of a region: a declaration or assignment of a value with no load,
   * or an {@code if} of such a condition whose branches hold only such statements.
   */
  private static boolean regionStatement(KernelStmt s) {
    if (s instanceof KernelStmt.Declare d) {
      return !hasLoad(d.initial());
    }
    if (s instanceof KernelStmt.Assign a) {
      return !hasLoad(a.value());
    }
    if (s instanceof KernelStmt.If i) {
      return !hasLoad(i.condition())
          && i.thenBody().stream().allMatch(InnerLoopStages::regionStatement)
          && i.elseBody().stream().allMatch(InnerLoopStages::regionStatement);
    }
    return false;
  }

  /** Whether {@code s} is an {@code if} whose branches hold {@link #REGION_OPERATIONS} or more. */
  private static boolean largeIf(KernelStmt s) {
    return s instanceof KernelStmt.If i
        && operations(i.thenBody()) + operations(i.elseBody()) >= REGION_OPERATIONS;
  }

  /** The {@code f64} arithmetic operations of {@code body}. */
  private static int operations(List<KernelStmt> body) {
    int count = 0;
    for (KernelStmt s : body) {
      if (s instanceof KernelStmt.Declare d) {
        count += operations(d.initial());
      } else if (s instanceof KernelStmt.Assign a) {
        count += operations(a.value());
      } else if (s instanceof KernelStmt.If i) {
        count += operations(i.condition()) + operations(i.thenBody()) + operations(i.elseBody());
      }
    }
    return count;
  }

  private static int operations(KernelExpr e) {
    int own =
        e instanceof KernelExpr.Binary b && b.operandType() == ScalarType.F64
                || StagedMap.stagedFunction(e) != null
            ? 1
            : 0;
    return own + e.children().stream().mapToInt(InnerLoopStages::operations).sum();
  }

  /**
   * Walks {@code run} in order: {@code declared} gets what it declares, {@code defined} what it
   * declares or assigns, {@code inputs} what it reads or assigns before declaring it.
   */
  private static void freeVariables(
      List<KernelStmt> run,
      Map<String, KernelExpr.Var> declared,
      Map<String, KernelExpr.Var> defined,
      Map<String, KernelExpr.Var> inputs) {
    for (KernelStmt s : run) {
      if (s instanceof KernelStmt.Declare d) {
        reads(d.initial(), declared, inputs);
        declared.put(d.variable().name(), d.variable());
        defined.put(d.variable().name(), d.variable());
      } else if (s instanceof KernelStmt.Assign a) {
        reads(a.value(), declared, inputs);
        if (!declared.containsKey(a.variable().name())) {
          inputs.putIfAbsent(a.variable().name(), a.variable());
        }
        defined.put(a.variable().name(), a.variable());
      } else if (s instanceof KernelStmt.If i) {
        reads(i.condition(), declared, inputs);
        freeVariables(i.thenBody(), declared, defined, inputs);
        freeVariables(i.elseBody(), declared, defined, inputs);
      }
    }
  }

  private static void reads(
      KernelExpr e, Map<String, KernelExpr.Var> declared, Map<String, KernelExpr.Var> inputs) {
    if (e instanceof KernelExpr.Var v && !declared.containsKey(v.name())) {
      inputs.putIfAbsent(v.name(), v);
    }
    for (KernelExpr child : e.children()) {
      reads(child, declared, inputs);
    }
  }

  /** Adds the variables {@code body} reads or assigns outside the statements of {@code run}. */
  private static void readsOutside(List<KernelStmt> body, List<KernelStmt> run, Set<String> names) {
    for (KernelStmt s : body) {
      if (run.stream().anyMatch(r -> r == s)) {
        continue;
      }
      if (s instanceof KernelStmt.Declare d) {
        variables(d.initial(), names);
      } else if (s instanceof KernelStmt.Assign a) {
        // an assignment needs the variable declared where it is
        names.add(a.variable().name());
        variables(a.value(), names);
      } else if (s instanceof KernelStmt.Store st) {
        variables(st.index(), names);
        variables(st.value(), names);
      } else if (s instanceof KernelStmt.SharedStore st) {
        variables(st.index(), names);
        variables(st.value(), names);
      } else if (s instanceof KernelStmt.If i) {
        variables(i.condition(), names);
        readsOutside(i.thenBody(), run, names);
        readsOutside(i.elseBody(), run, names);
      } else if (s instanceof KernelStmt.For f) {
        variables(f.start(), names);
        variables(f.bound(), names);
        variables(f.step(), names);
        readsOutside(f.body(), run, names);
      } else if (s instanceof KernelStmt.While w) {
        variables(w.condition(), names);
        readsOutside(w.body(), run, names);
      } else if (s instanceof KernelStmt.RaiseError r) {
        r.values().forEach(v -> variables(v, names));
      }
    }
  }

  // ------------------------------------------------------------------ analysis

  /**
   * What depends on the loop's carried state (tainted), and each variable's and each unit's level.
   */
  private static final class Analysis {
    private final KernelStmt.For loop;
    private final Map<KernelStmt, Region> regions;
    private final Set<String> declaredInBody = new HashSet<>();
    private final Set<String> tainted = new HashSet<>();
    private final Set<String> storedArrays = new HashSet<>();

    /** The indices the body stores to each thread-private buffer at, by the buffer's name. */
    private final Map<String, List<KernelExpr>> storedParts = new HashMap<>();

    private final Map<String, Integer> variableLevels = new HashMap<>();

    /** The level of each staged unit (a call expression or a region), by identity. */
    private final Map<Object, Integer> callLevels = new IdentityHashMap<>();

    /** The staged units in the order of the body. */
    private final List<Object> calls = new ArrayList<>();

    /** The inner loops around each staged unit, by identity. */
    private final Map<Object, List<KernelStmt.For>> callLoops = new IdentityHashMap<>();

    /** Each staged unit's scratch arrays, cursor and printed form, by identity. */
    private final Map<Object, MathCall> units = new IdentityHashMap<>();

    private final Deque<KernelStmt.For> enclosing = new ArrayDeque<>();

    private boolean changed;
    private boolean repeated;

    Analysis(KernelStmt.For loop) {
      this.loop = loop;
      this.regions = regions(loop);
      Set<String> assigned = new HashSet<>();
      collect(loop.body(), assigned);
      for (String name : assigned) {
        if (!declaredInBody.contains(name)) {
          tainted.add(name);
        }
      }
    }

    private void collect(List<KernelStmt> body, Set<String> assigned) {
      for (KernelStmt s : body) {
        if (s instanceof KernelStmt.Declare d) {
          declaredInBody.add(d.variable().name());
        } else if (s instanceof KernelStmt.Assign a) {
          assigned.add(a.variable().name());
        } else if (s instanceof KernelStmt.Store st) {
          if (st.buffer().isThreadPrivate()) {
            storedParts.computeIfAbsent(st.buffer().name(), b -> new ArrayList<>()).add(st.index());
          } else {
            storedArrays.add("buffer " + st.buffer().name());
          }
        } else if (s instanceof KernelStmt.SharedStore st) {
          storedArrays.add("shared " + st.array().name());
        } else if (s instanceof KernelStmt.If i) {
          collect(i.thenBody(), assigned);
          collect(i.elseBody(), assigned);
        } else if (s instanceof KernelStmt.For f) {
          declaredInBody.add(f.counter().name());
          collect(f.body(), assigned);
        }
      }
    }

    /**
     * Finds the tainted variables and the levels by iterating to a fixed point, then each staged
     * unit's level; false if there is none, or a chain longer than {@link #MAX_LEVELS}, or a call
     * that appears at two places as one object.
     */
    boolean levelCalls() {
      do {
        changed = false;
        walk(loop.body(), Info.NONE, false);
        if (variableLevels.values().stream().anyMatch(l -> l > MAX_LEVELS)) {
          return false;
        }
      } while (changed);
      walk(loop.body(), Info.NONE, true);
      return !repeated && !callLevels.isEmpty();
    }

    /** What an expression depends on: carried state ({@code tainted}), and the units' levels. */
    private record Info(boolean tainted, int level) {
      static final Info NONE = new Info(false, 0);

      Info and(Info other) {
        return new Info(tainted || other.tainted, Math.max(level, other.level));
      }
    }

    private void walk(List<KernelStmt> body, Info context, boolean record) {
      for (int k = 0; k < body.size(); k++) {
        KernelStmt s = body.get(k);
        Region region = regions.get(s);
        if (region != null) {
          Info inputs = context;
          for (KernelExpr.Var v : region.inputs()) {
            inputs = inputs.and(info(v, context, record));
          }
          for (KernelExpr.Var v : region.invariants()) {
            inputs = inputs.and(info(v, context, record));
          }
          if (!inputs.tainted()) {
            int level = inputs.level() + 1;
            for (KernelExpr.Var v : region.outputs()) {
              define(v.name(), new Info(false, level));
            }
            if (record) {
              recordUnit(region, level);
            }
            k += region.statements().size() - 1;
            continue;
          }
        }
        if (s instanceof KernelStmt.Declare d) {
          define(d.variable().name(), info(d.initial(), context, record).and(context));
        } else if (s instanceof KernelStmt.Assign a) {
          define(a.variable().name(), info(a.value(), context, record).and(context));
        } else if (s instanceof KernelStmt.Store st) {
          info(st.index(), context, record);
          info(st.value(), context, record);
        } else if (s instanceof KernelStmt.SharedStore st) {
          info(st.index(), context, record);
          info(st.value(), context, record);
        } else if (s instanceof KernelStmt.If i) {
          Info inner = context.and(info(i.condition(), context, record));
          walk(i.thenBody(), inner, record);
          walk(i.elseBody(), inner, record);
        } else if (s instanceof KernelStmt.For f) {
          define(f.counter().name(), context);
          enclosing.addLast(f);
          walk(f.body(), context, record);
          enclosing.removeLast();
        }
      }
    }

    private void recordUnit(Object unit, int level) {
      if (callLevels.put(unit, level) != null) {
        repeated = true;
      }
      calls.add(unit);
      callLoops.put(unit, List.copyOf(enclosing));
    }

    private void define(String name, Info info) {
      if (!declaredInBody.contains(name)) {
        return;
      }
      if (info.tainted() && tainted.add(name)) {
        changed = true;
      }
      int level = variableLevels.getOrDefault(name, 0);
      if (info.level() > level) {
        variableLevels.put(name, info.level());
        changed = true;
      }
    }

    /** {@code e}'s dependence where {@code context} holds; records its staged calls if asked. */
    private Info info(KernelExpr e, Info context, boolean record) {
      if (e instanceof KernelExpr.Var v) {
        return new Info(tainted.contains(v.name()), variableLevels.getOrDefault(v.name(), 0));
      }
      Info info = Info.NONE;
      for (KernelExpr child : e.children()) {
        info = info.and(info(child, context, record));
      }
      if (e instanceof KernelExpr.Load l && storedTo(l)) {
        return new Info(true, info.level());
      }
      if (e instanceof KernelExpr.SharedLoad l
          && storedArrays.contains("shared " + l.array().name())) {
        return new Info(true, info.level());
      }
      String function = costly(e);
      if (function == null) {
        return info;
      }
      Info arguments = info.and(context);
      if (arguments.tainted()) {
        // stays in the body: its result is known only there
        return new Info(true, arguments.level());
      }
      int level = arguments.level() + 1;
      if (record) {
        recordUnit(e, level);
      }
      return new Info(false, level);
    }

    /**
     * Whether the body stores where {@code load} may read: anywhere in its buffer, or, in a
     * thread-private buffer, in the same part ({@link ThreadPrivateParts}).
     */
    private boolean storedTo(KernelExpr.Load load) {
      Buffer buffer = load.buffer();
      if (!buffer.isThreadPrivate()) {
        return storedArrays.contains("buffer " + buffer.name());
      }
      return storedParts.getOrDefault(buffer.name(), List.of()).stream()
          .anyMatch(stored -> ThreadPrivateParts.mayOverlap(buffer, stored, load.index()));
    }

    /** The levels' loops and units and the rewritten body. */
    InnerLoopStages stages() {
      List<Buffer> scratch = new ArrayList<>();
      List<MathCall> ordered = new ArrayList<>();
      for (Object call : calls) {
        KernelExpr.Var cursor = new KernelExpr.Var("cursor$" + ordered.size(), ScalarType.I64);
        MathCall unit;
        if (call instanceof Region region) {
          List<Buffer> inputs = scratchArrays(region.inputs().size(), scratch);
          List<Buffer> outputs = scratchArrays(region.outputs().size(), scratch);
          unit =
              new MathCall(null, Optional.of(region), inputs, outputs, cursor, callLoops.get(call));
        } else {
          KernelExpr e = (KernelExpr) call;
          List<Buffer> arrays = scratchArrays(arguments(e).size(), scratch);
          unit =
              new MathCall(
                  costly(e),
                  Optional.empty(),
                  arrays,
                  List.of(arrays.get(0)),
                  cursor,
                  callLoops.get(call));
        }
        units.put(call, unit);
        ordered.add(unit);
      }
      int levels = callLevels.values().stream().mapToInt(Integer::intValue).max().orElseThrow();
      List<Level> result = new ArrayList<>();
      for (int level = 1; level <= levels; level++) {
        List<MathCall> levelCalls = new ArrayList<>();
        List<KernelStmt> sliced = slice(loop.body(), new HashSet<>(), level, levelCalls::add);
        // in the order of the body (the slice finds them from its end)
        levelCalls.sort(java.util.Comparator.comparingInt(ordered::indexOf));
        result.add(new Level(sliced, levelCalls));
      }
      return new InnerLoopStages(
          result, rewritten(loop.body(), Integer.MAX_VALUE), scratch, ordered);
    }

    private static List<Buffer> scratchArrays(int count, List<Buffer> scratch) {
      List<Buffer> arrays = new ArrayList<>();
      for (int k = 0; k < count; k++) {
        Buffer array = new Buffer("lane$" + scratch.size(), ScalarType.F64);
        scratch.add(array);
        arrays.add(array);
      }
      return arrays;
    }

    /**
     * The statements of {@code body} that level {@code level}'s inputs need, with a store of each
     * of the level's units' inputs at its cursor before the statement that holds the unit; {@code
     * needed} holds the variables needed after {@code body} on entry and before it on return.
     */
    private List<KernelStmt> slice(
        List<KernelStmt> body,
        Set<String> needed,
        int level,
        java.util.function.Consumer<MathCall> calls) {
      Deque<List<KernelStmt>> out = new ArrayDeque<>();
      for (int k = body.size() - 1; k >= 0; k--) {
        KernelStmt s = body.get(k);
        Region region = regionEndingAt(body, k);
        if (region != null) {
          out.addFirst(sliceRegion(region, needed, level, calls));
          k -= region.statements().size() - 1;
          continue;
        }
        List<KernelStmt> emitted = new ArrayList<>();
        List<KernelExpr> expressions;
        KernelStmt kept = null;
        if (s instanceof KernelStmt.Declare || s instanceof KernelStmt.Assign) {
          String name = s instanceof KernelStmt.Declare d ? d.variable().name() : assignedName(s);
          KernelExpr value =
              s instanceof KernelStmt.Declare d ? d.initial() : ((KernelStmt.Assign) s).value();
          // an assignment keeps the need: the variable's declaration (before an if whose
          // branches assign it) must be in the slice too
          boolean need =
              s instanceof KernelStmt.Declare ? needed.remove(name) : needed.contains(name);
          if (need) {
            kept = rewrittenStatement(s, level);
            reads(value, level, needed);
          }
          expressions = List.of(value);
        } else if (s instanceof KernelStmt.Store st) {
          expressions = List.of(st.index(), st.value());
        } else if (s instanceof KernelStmt.SharedStore st) {
          expressions = List.of(st.index(), st.value());
        } else if (s instanceof KernelStmt.If i) {
          Set<String> neededElse = new HashSet<>(needed);
          List<KernelStmt> thenBody = slice(i.thenBody(), needed, level, calls);
          List<KernelStmt> elseBody = slice(i.elseBody(), neededElse, level, calls);
          needed.addAll(neededElse);
          if (!thenBody.isEmpty() || !elseBody.isEmpty()) {
            kept = new KernelStmt.If(rewritten(i.condition(), level), thenBody, elseBody);
            reads(i.condition(), level, needed);
          }
          expressions = List.of(i.condition());
        } else if (s instanceof KernelStmt.For f) {
          // what the body needs at its start is needed at its end too (the next iteration)
          Set<String> atEnd = new HashSet<>(needed);
          List<KernelStmt> sliced;
          List<MathCall> found;
          while (true) {
            Set<String> atStart = new HashSet<>(atEnd);
            found = new ArrayList<>();
            sliced = slice(f.body(), atStart, level, found::add);
            atStart.remove(f.counter().name());
            if (atEnd.containsAll(atStart)) {
              needed.addAll(atStart);
              break;
            }
            atEnd.addAll(atStart);
          }
          found.forEach(calls);
          if (!sliced.isEmpty()) {
            kept = new KernelStmt.For(f.counter(), f.start(), f.bound(), f.step(), sliced);
            for (KernelExpr e : List.of(f.start(), f.bound(), f.step())) {
              reads(e, level, needed);
            }
          }
          expressions = List.of();
        } else {
          expressions = List.of();
        }
        List<KernelStmt> stores = new ArrayList<>();
        for (KernelExpr e : expressions) {
          argumentStores(e, level, needed, stores, calls);
        }
        if (kept != null || !stores.isEmpty()) {
          // the cursors of earlier levels' calls this statement reads
          emitted.addAll(cursorSteps(expressions, level));
        }
        emitted.addAll(stores);
        if (kept != null) {
          emitted.add(kept);
        }
        out.addFirst(emitted);
      }
      List<KernelStmt> result = new ArrayList<>();
      out.forEach(result::addAll);
      return result;
    }

    /** The staged region whose last statement is {@code body.get(k)}, or null. */
    private Region regionEndingAt(List<KernelStmt> body, int k) {
      for (Object call : calls) {
        if (call instanceof Region r) {
          int size = r.statements().size();
          if (k - size + 1 >= 0 && body.get(k - size + 1) == r.statements().get(0)) {
            return r;
          }
        }
      }
      return null;
    }

    /**
     * A staged region in the slice of level {@code level}: its inputs stored where it is of the
     * level, its outputs read back where they are needed and it is of an earlier level.
     */
    private List<KernelStmt> sliceRegion(
        Region region, Set<String> needed, int level, java.util.function.Consumer<MathCall> calls) {
      int own = callLevels.get(region);
      MathCall unit = units.get(region);
      List<KernelStmt> emitted = new ArrayList<>();
      if (own == level) {
        for (int j = 0; j < region.inputs().size(); j++) {
          KernelExpr.Var input = region.inputs().get(j);
          emitted.add(new KernelStmt.Store(unit.arguments().get(j), unit.cursor(), input));
          needed.add(input.name());
        }
        emitted.add(step(unit.cursor()));
        calls.accept(unit);
      } else if (own < level
          && region.outputs().stream().anyMatch(v -> needed.contains(v.name()))) {
        emitted.addAll(regionResults(region));
        // an output the region declares is defined here; one it assigns keeps its declaration
        Set<String> declared = declaredIn(region);
        region.outputs().stream()
            .filter(v -> declared.contains(v.name()))
            .forEach(v -> needed.remove(v.name()));
      }
      return emitted;
    }

    /** A staged region's evaluation in a later pass: its cursor advanced, its outputs read back. */
    private List<KernelStmt> regionResults(Region region) {
      MathCall unit = units.get(region);
      Set<String> declared = declaredIn(region);
      List<KernelStmt> emitted = new ArrayList<>();
      emitted.add(step(unit.cursor()));
      for (int j = 0; j < region.outputs().size(); j++) {
        KernelExpr.Var v = region.outputs().get(j);
        KernelExpr value = new KernelExpr.Load(unit.results().get(j), previous(unit.cursor()));
        emitted.add(
            declared.contains(v.name())
                ? new KernelStmt.Declare(v, value)
                : new KernelStmt.Assign(v, value));
      }
      return emitted;
    }

    /** The variables {@code region}'s statements declare (at its top level). */
    private static Set<String> declaredIn(Region region) {
      Set<String> declared = new HashSet<>();
      for (KernelStmt s : region.statements()) {
        if (s instanceof KernelStmt.Declare d) {
          declared.add(d.variable().name());
        }
      }
      return declared;
    }

    private static KernelStmt step(KernelExpr.Var cursor) {
      return new KernelStmt.Assign(
          cursor,
          new KernelExpr.Binary(
              dev.l0.ir.BinaryOperator.ADD,
              ScalarType.I64,
              cursor,
              new KernelExpr.Constant(dev.l0.ir.ScalarValue.i64(1))));
    }

    private static KernelExpr previous(KernelExpr.Var cursor) {
      return new KernelExpr.Binary(
          dev.l0.ir.BinaryOperator.SUB,
          ScalarType.I64,
          cursor,
          new KernelExpr.Constant(dev.l0.ir.ScalarValue.i64(1)));
    }

    /**
     * The cursor steps of the calls of levels below {@code level} in {@code expressions}: a pass
     * that evaluates the statement reads their results at the step's place.
     */
    private List<KernelStmt> cursorSteps(List<KernelExpr> expressions, int level) {
      List<KernelStmt> steps = new ArrayList<>();
      for (KernelExpr e : expressions) {
        earlierCalls(e, level, steps);
      }
      return steps;
    }

    private void earlierCalls(KernelExpr e, int level, List<KernelStmt> steps) {
      Integer callLevel = callLevels.get(e);
      if (callLevel != null && callLevel < level) {
        steps.add(step(units.get(e).cursor()));
      }
      for (KernelExpr child : e.children()) {
        earlierCalls(child, level, steps);
      }
    }

    private static String assignedName(KernelStmt s) {
      return ((KernelStmt.Assign) s).variable().name();
    }

    /**
     * Adds to {@code stores} a store of the arguments of each call of level {@code level} in {@code
     * e} at its cursor, then the cursor's step, and the variables they read to {@code needed}.
     */
    private void argumentStores(
        KernelExpr e,
        int level,
        Set<String> needed,
        List<KernelStmt> stores,
        java.util.function.Consumer<MathCall> calls) {
      Integer callLevel = callLevels.get(e);
      if (callLevel != null && callLevel == level) {
        MathCall unit = units.get(e);
        List<KernelExpr> arguments = arguments(e);
        for (int k = 0; k < arguments.size(); k++) {
          stores.add(
              new KernelStmt.Store(
                  unit.arguments().get(k), unit.cursor(), rewritten(arguments.get(k), level)));
          reads(arguments.get(k), level, needed);
        }
        stores.add(step(unit.cursor()));
        calls.accept(unit);
        return;
      }
      if (callLevel != null && callLevel < level) {
        return;
      }
      for (KernelExpr child : e.children()) {
        argumentStores(child, level, needed, stores, calls);
      }
    }

    /** Adds the variables {@code e} reads to {@code needed}, results of earlier levels excepted. */
    private void reads(KernelExpr e, int level, Set<String> needed) {
      Integer callLevel = callLevels.get(e);
      if (callLevel != null && callLevel < level) {
        return;
      }
      if (e instanceof KernelExpr.Var v) {
        needed.add(v.name());
      }
      for (KernelExpr child : e.children()) {
        reads(child, level, needed);
      }
    }

    /**
     * {@code body} with each staged unit of a level below {@code level} replaced by its results,
     * read at its cursor, which a step before the statement advances.
     */
    private List<KernelStmt> rewritten(List<KernelStmt> body, int level) {
      List<KernelStmt> out = new ArrayList<>();
      for (int k = 0; k < body.size(); k++) {
        KernelStmt s = body.get(k);
        Region region = regions.get(s);
        Integer regionLevel = region == null ? null : callLevels.get(region);
        if (regionLevel != null && regionLevel < level) {
          out.addAll(regionResults(region));
          k += region.statements().size() - 1;
          continue;
        }
        out.addAll(cursorSteps(ownExpressions(s), level));
        out.add(rewrittenStatement(s, level));
      }
      return out;
    }

    /** The expressions of {@code s} itself, not of the statements it holds. */
    private static List<KernelExpr> ownExpressions(KernelStmt s) {
      if (s instanceof KernelStmt.Declare d) {
        return List.of(d.initial());
      }
      if (s instanceof KernelStmt.Assign a) {
        return List.of(a.value());
      }
      if (s instanceof KernelStmt.Store st) {
        return List.of(st.index(), st.value());
      }
      if (s instanceof KernelStmt.SharedStore st) {
        return List.of(st.index(), st.value());
      }
      if (s instanceof KernelStmt.If i) {
        return List.of(i.condition());
      }
      return List.of();
    }

    /** {@code s} with each staged call of a level below {@code level} a load of its result. */
    private KernelStmt rewrittenStatement(KernelStmt s, int level) {
      return s.withParts(e -> rewritten(e, level), body -> rewritten(body, level));
    }

    private KernelExpr rewritten(KernelExpr e, int level) {
      Integer callLevel = callLevels.get(e);
      if (callLevel != null && callLevel < level) {
        return new KernelExpr.Load(units.get(e).results().get(0), previous(units.get(e).cursor()));
      }
      return e.withChildren(e.children().stream().map(c -> rewritten(c, level)).toList());
    }
  }
}
