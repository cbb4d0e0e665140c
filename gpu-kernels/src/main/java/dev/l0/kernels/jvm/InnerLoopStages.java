package dev.l0.kernels.jvm;

import dev.l0.ir.ScalarType;
import dev.l0.kernels.ir.Buffer;
import dev.l0.kernels.ir.KernelExpr;
import dev.l0.kernels.ir.KernelStmt;
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
 * {@code f64}) run lane-wise over chunks of its iterations, through {@code VectorMath}: the
 * arguments of the calls are computed into scratch arrays by loops over the chunk, the functions
 * applied to the whole arrays, and then the loop's own body runs over the chunk with each call
 * replaced by a read of its result. A call whose argument needs another call's result (say {@code
 * erf(d1)} with {@code d1} from a {@code log}) is of a later level: level 1's arguments are staged
 * first, then its functions applied, then level 2's arguments (which read level 1's results), and
 * so on. Each staging loop is the body cut down to the statements the level's arguments need,
 * {@code if}s included (a call under an {@code if} has its argument stored only where the original
 * evaluates it; the function is applied to the whole array, which has no effect on anything else).
 * Every element is therefore computed by the same operations on the same values as in the body, and
 * the body still runs its iterations in order, so sums the loop carries add their terms in the
 * original order: the results are the same bits.
 *
 * <p>A run of fewer than {@link #MIN_ITERATIONS} iterations runs the loop as it is. A loop
 * qualifies when its step is a constant (so a thread's loop over the rows of the grid does not),
 * its body has no loops, {@code while}s or barriers, and at least one costly call whose arguments
 * do not depend on what the loop carries from one iteration to the next: the variables declared
 * outside the body that it assigns, and loads of the buffers and shared arrays it stores to (calls
 * that do stay in the body, as do calls under an {@code if} whose condition depends on them). In a
 * thread's own buffer, only loads of the parts the body stores to count ({@link
 * ThreadPrivateParts}): a map inside a thread that reads arrays the thread made earlier and writes
 * its result to an array of its own is staged.
 */
final class InnerLoopStages {
  /** The iterations one round of the staging loops, the math calls and the body covers. */
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

  /** The index of an iteration within its chunk: the scratch arrays' index. */
  static final KernelExpr.Var LANE = new KernelExpr.Var("lane$", ScalarType.I64);

  /** The longest chain of calls whose arguments need earlier calls' results that is staged. */
  private static final int MAX_LEVELS = 8;

  /**
   * {@code VectorMath.function} applied to the chunk in the scratch arrays {@code arguments} (one,
   * or two for {@code pow}), its result written over the first; for a call under an {@code if},
   * only where the level's loop set the boolean {@code stored}, which is false before the loop.
   */
  record MathCall(String function, List<Buffer> arguments, Optional<KernelExpr.Var> stored) {
    Buffer result() {
      return arguments.get(0);
    }
  }

  /**
   * One level: the loop over the chunk that stores its calls' arguments ({@code body}), then the
   * calls.
   */
  record Level(List<KernelStmt> body, List<MathCall> calls) {}

  private final List<Level> levels;
  private final List<KernelStmt> body;
  private final List<Buffer> scratch;

  private InnerLoopStages(List<Level> levels, List<KernelStmt> body, List<Buffer> scratch) {
    this.levels = List.copyOf(levels);
    this.body = List.copyOf(body);
    this.scratch = List.copyOf(scratch);
  }

  /** The levels, in the order they run. */
  List<Level> levels() {
    return levels;
  }

  /** The loop's body with every staged call replaced by a load of its result at {@link #LANE}. */
  List<KernelStmt> body() {
    return body;
  }

  /** The scratch arrays of {@link #CHUNK} doubles the stages use, each by its own name. */
  List<Buffer> scratch() {
    return scratch;
  }

  /** The staged calls' functions, in the order the levels apply them. */
  List<String> functions() {
    List<String> functions = new ArrayList<>();
    for (Level level : levels) {
      level.calls().forEach(c -> functions.add(c.function()));
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
    if (!straightLine(loop.body())
        // a loop over the grid (a thread's rows) steps by the grid's size; an inner map by 1
        || !(loop.step() instanceof KernelExpr.Constant)
        || FixedPointLoops.guard(loop).isPresent()
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
    return call instanceof KernelExpr.Binary b ? List.of(b.left(), b.right()) : children(call);
  }

  /** The operands of {@code e}. */
  private static List<KernelExpr> children(KernelExpr e) {
    if (e instanceof KernelExpr.Binary b) {
      return List.of(b.left(), b.right());
    }
    if (e instanceof KernelExpr.Unary u) {
      return List.of(u.operand());
    }
    if (e instanceof KernelExpr.Call c) {
      return c.args();
    }
    if (e instanceof KernelExpr.Select s) {
      return List.of(s.condition(), s.ifTrue(), s.ifFalse());
    }
    if (e instanceof KernelExpr.Load l) {
      return List.of(l.index());
    }
    if (e instanceof KernelExpr.SharedLoad l) {
      return List.of(l.index());
    }
    return List.of();
  }

  /** {@code e} with the operands {@code children}, in {@link #children}'s order. */
  private static KernelExpr withChildren(KernelExpr e, List<KernelExpr> children) {
    if (e instanceof KernelExpr.Binary b) {
      return new KernelExpr.Binary(b.op(), b.operandType(), children.get(0), children.get(1));
    }
    if (e instanceof KernelExpr.Unary u) {
      return new KernelExpr.Unary(u.op(), children.get(0));
    }
    if (e instanceof KernelExpr.Call c) {
      return new KernelExpr.Call(c.function(), children);
    }
    if (e instanceof KernelExpr.Select s) {
      return new KernelExpr.Select(children.get(0), children.get(1), children.get(2));
    }
    if (e instanceof KernelExpr.Load l) {
      return new KernelExpr.Load(l.buffer(), children.get(0));
    }
    if (e instanceof KernelExpr.SharedLoad l) {
      return new KernelExpr.SharedLoad(l.array(), children.get(0));
    }
    return e;
  }

  /**
   * What depends on the loop's carried state (tainted), and each variable's and each costly call's
   * level.
   */
  private static final class Analysis {
    private final KernelStmt.For loop;
    private final Set<String> declaredInBody = new HashSet<>();
    private final Set<String> tainted = new HashSet<>();
    private final Set<String> storedArrays = new HashSet<>();

    /** The indices the body stores to each thread-private buffer at, by the buffer's name. */
    private final Map<String, List<KernelExpr>> storedParts = new HashMap<>();

    private final Map<String, Integer> variableLevels = new HashMap<>();

    /** The level of each staged call, by identity. */
    private final Map<KernelExpr, Integer> callLevels = new IdentityHashMap<>();

    /** The staged calls in the order of the body. */
    private final List<KernelExpr> calls = new ArrayList<>();

    /** The scratch arrays of each staged call's arguments, by identity. */
    private final Map<KernelExpr, List<Buffer>> callArrays = new IdentityHashMap<>();

    private boolean changed;
    private boolean repeated;

    Analysis(KernelStmt.For loop) {
      this.loop = loop;
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
        }
      }
    }

    /**
     * Finds the tainted variables and the levels by iterating to a fixed point, then each staged
     * call's level; false if there is none, or a chain longer than {@link #MAX_LEVELS}, or a call
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

    /** What an expression depends on: carried state ({@code tainted}), and the calls' levels. */
    private record Info(boolean tainted, int level) {
      static final Info NONE = new Info(false, 0);

      Info and(Info other) {
        return new Info(tainted || other.tainted, Math.max(level, other.level));
      }
    }

    private void walk(List<KernelStmt> body, Info context, boolean record) {
      for (KernelStmt s : body) {
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
        }
      }
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
      for (KernelExpr child : children(e)) {
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
        if (callLevels.put(e, level) != null) {
          repeated = true;
        }
        calls.add(e);
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

    /** The levels' loops and calls and the rewritten body. */
    InnerLoopStages stages() {
      List<Buffer> scratch = new ArrayList<>();
      for (KernelExpr call : calls) {
        List<Buffer> arrays = new ArrayList<>();
        for (int k = 0; k < arguments(call).size(); k++) {
          Buffer array = new Buffer("lane$" + scratch.size(), ScalarType.F64);
          scratch.add(array);
          arrays.add(array);
        }
        callArrays.put(call, arrays);
      }
      int levels = callLevels.values().stream().mapToInt(Integer::intValue).max().orElseThrow();
      List<Level> result = new ArrayList<>();
      for (int level = 1; level <= levels; level++) {
        List<MathCall> levelCalls = new ArrayList<>();
        List<KernelStmt> sliced =
            slice(loop.body(), new HashSet<>(), level, false, levelCalls::add);
        // in the order of the body (the slice finds them from its end)
        levelCalls.sort(java.util.Comparator.comparingInt(c -> scratch.indexOf(c.result())));
        result.add(new Level(sliced, levelCalls));
      }
      return new InnerLoopStages(result, rewritten(loop.body(), Integer.MAX_VALUE), scratch);
    }

    /**
     * The statements of {@code body} that level {@code level}'s arguments need, with a store of
     * each of the level's call's arguments before the statement that holds the call; {@code needed}
     * holds the variables needed after {@code body} on entry and before it on return.
     */
    private List<KernelStmt> slice(
        List<KernelStmt> body,
        Set<String> needed,
        int level,
        boolean conditional,
        java.util.function.Consumer<MathCall> calls) {
      Deque<KernelStmt> out = new ArrayDeque<>();
      for (int k = body.size() - 1; k >= 0; k--) {
        KernelStmt s = body.get(k);
        List<KernelExpr> expressions;
        if (s instanceof KernelStmt.Declare || s instanceof KernelStmt.Assign) {
          String name = s instanceof KernelStmt.Declare d ? d.variable().name() : assignedName(s);
          KernelExpr value =
              s instanceof KernelStmt.Declare d ? d.initial() : ((KernelStmt.Assign) s).value();
          // an assignment keeps the need: the variable's declaration (before an if whose
          // branches assign it) must be in the slice too
          boolean need =
              s instanceof KernelStmt.Declare ? needed.remove(name) : needed.contains(name);
          if (need) {
            out.addFirst(rewritten(s, level));
            reads(value, level, needed);
          }
          expressions = List.of(value);
        } else if (s instanceof KernelStmt.Store st) {
          expressions = List.of(st.index(), st.value());
        } else if (s instanceof KernelStmt.SharedStore st) {
          expressions = List.of(st.index(), st.value());
        } else if (s instanceof KernelStmt.If i) {
          Set<String> neededElse = new HashSet<>(needed);
          List<KernelStmt> thenBody = slice(i.thenBody(), needed, level, true, calls);
          List<KernelStmt> elseBody = slice(i.elseBody(), neededElse, level, true, calls);
          needed.addAll(neededElse);
          if (!thenBody.isEmpty() || !elseBody.isEmpty()) {
            out.addFirst(new KernelStmt.If(rewritten(i.condition(), level), thenBody, elseBody));
            reads(i.condition(), level, needed);
          }
          expressions = List.of(i.condition());
        } else {
          expressions = List.of();
        }
        List<KernelStmt> stores = new ArrayList<>();
        for (KernelExpr e : expressions) {
          argumentStores(e, level, needed, conditional, stores, calls);
        }
        for (int j = stores.size() - 1; j >= 0; j--) {
          out.addFirst(stores.get(j));
        }
      }
      return new ArrayList<>(out);
    }

    private static String assignedName(KernelStmt s) {
      return ((KernelStmt.Assign) s).variable().name();
    }

    /**
     * Adds to {@code stores} a store of the arguments of each call of level {@code level} in {@code
     * e}, and the variables they read to {@code needed}.
     */
    private void argumentStores(
        KernelExpr e,
        int level,
        Set<String> needed,
        boolean conditional,
        List<KernelStmt> stores,
        java.util.function.Consumer<MathCall> calls) {
      Integer callLevel = callLevels.get(e);
      if (callLevel != null && callLevel == level) {
        List<Buffer> arrays = callArrays.get(e);
        List<KernelExpr> arguments = arguments(e);
        for (int k = 0; k < arguments.size(); k++) {
          stores.add(new KernelStmt.Store(arrays.get(k), LANE, rewritten(arguments.get(k), level)));
          reads(arguments.get(k), level, needed);
        }
        Optional<KernelExpr.Var> stored = Optional.empty();
        if (conditional) {
          // the function runs only on chunks where the branch ran at least once
          stored =
              Optional.of(new KernelExpr.Var("stored$" + arrays.get(0).name(), ScalarType.BOOL));
          stores.add(
              new KernelStmt.Assign(
                  stored.get(), new KernelExpr.Constant(dev.l0.ir.ScalarValue.bool(true))));
        }
        calls.accept(new MathCall(costly(e), arrays, stored));
        return;
      }
      if (callLevel != null && callLevel < level) {
        return;
      }
      for (KernelExpr child : children(e)) {
        argumentStores(child, level, needed, conditional, stores, calls);
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
      for (KernelExpr child : children(e)) {
        reads(child, level, needed);
      }
    }

    private List<KernelStmt> rewritten(List<KernelStmt> body, int level) {
      return body.stream().map(s -> rewritten(s, level)).toList();
    }

    /** {@code s} with each staged call of a level below {@code level} a load of its result. */
    private KernelStmt rewritten(KernelStmt s, int level) {
      if (s instanceof KernelStmt.Declare d) {
        return new KernelStmt.Declare(d.variable(), rewritten(d.initial(), level));
      }
      if (s instanceof KernelStmt.Assign a) {
        return new KernelStmt.Assign(a.variable(), rewritten(a.value(), level));
      }
      if (s instanceof KernelStmt.Store st) {
        return new KernelStmt.Store(
            st.buffer(), rewritten(st.index(), level), rewritten(st.value(), level));
      }
      if (s instanceof KernelStmt.SharedStore st) {
        return new KernelStmt.SharedStore(
            st.array(), rewritten(st.index(), level), rewritten(st.value(), level));
      }
      if (s instanceof KernelStmt.If i) {
        return new KernelStmt.If(
            rewritten(i.condition(), level),
            rewritten(i.thenBody(), level),
            rewritten(i.elseBody(), level));
      }
      return s;
    }

    private KernelExpr rewritten(KernelExpr e, int level) {
      Integer callLevel = callLevels.get(e);
      if (callLevel != null && callLevel < level) {
        return new KernelExpr.Load(callArrays.get(e).get(0), LANE);
      }
      return withChildren(e, children(e).stream().map(c -> rewritten(c, level)).toList());
    }
  }
}
