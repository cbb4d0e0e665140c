package dev.l0.kernels.jvm;

import dev.l0.ir.BinaryOperator;
import dev.l0.ir.Builtin;
import dev.l0.ir.ScalarType;
import dev.l0.kernels.ir.Buffer;
import dev.l0.kernels.ir.Kernel;
import dev.l0.kernels.ir.KernelExpr;
import dev.l0.kernels.ir.KernelStmt;
import dev.l0.kernels.ir.ThreadIndex;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.Deque;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * A map kernel in staged form: the per-row body of a kernel that is one grid-stride loop {@code for
 * (i = blockIdx.x; i < bound; i += gridDim.x)} over straight-line code, rewritten as a list of
 * {@link Op}s, each of which computes one local for every row of a chunk of rows at once. Locals
 * are renamed apart ({@code s$N}); an {@code If} whose branches only declare and assign locals
 * becomes selects (both branches are evaluated for every row, which is the same because expressions
 * have no effects and those that could fail are refused in branches); a call of {@code exp}, {@code
 * log}, {@code sqrt}, {@code sin}, {@code cos}, {@code erf} or {@code pow} on {@code f64} becomes
 * its own {@link MathCall} (a {@code VectorMath} call over the chunk).
 *
 * <p>A kernel matches when it has no shared and no thread-private memory, its body is that one
 * loop, the bound reads only the kernel's scalars, and the loop body has only {@code Declare},
 * {@code Assign}, such {@code If}s, {@code Load}s of global buffers at the row index that no
 * statement of the kernel stores into, and {@code Store}s at the row index outside branches; and
 * its buffers and scalars fit one Java method's parameters ({@link
 * StagedMapPrinter#chunkParameterSlots}), else its rows run per row.
 */
record StagedMap(
    KernelExpr.Var counter,
    KernelExpr bound,
    List<Op> ops,
    Set<Buffer> loaded,
    Set<Buffer> stored) {

  /** One stage: writes one local (or the output buffer) for every row of a chunk. */
  sealed interface Op {}

  /**
   * {@code target = value} for every row; {@code value} reads locals, kernel scalars, the counter
   * and loads at the row.
   */
  record Compute(KernelExpr.Var target, KernelExpr value) implements Op {}

  /**
   * {@code target = function(arguments)} for every row by {@code VectorMath}; each argument a local
   * or a load at the row.
   */
  record MathCall(KernelExpr.Var target, String function, List<KernelExpr> arguments)
      implements Op {}

  /** {@code buffer[row] = value} for every row. */
  record Store(Buffer buffer, KernelExpr value) implements Op {}

  /** The staged form of {@code kernel}, or empty when it does not match. */
  static Optional<StagedMap> of(Kernel kernel) {
    if (!kernel.shared().isEmpty()
        || kernel.buffers().stream().anyMatch(Buffer::isThreadPrivate)
        || kernel.body().size() != 1
        || !(kernel.body().get(0) instanceof KernelStmt.For loop)) {
      return Optional.empty();
    }
    if (!JavaKernelIrPrinter.simplified(loop.start())
            .equals(new KernelExpr.Thread(ThreadIndex.BLOCK_IDX))
        || !JavaKernelIrPrinter.simplified(loop.step())
            .equals(new KernelExpr.Thread(ThreadIndex.GRID_DIM))
        || !readsOnly(loop.bound(), Set.copyOf(kernel.scalars()))) {
      return Optional.empty();
    }
    Flattening flattening = new Flattening(loop.counter(), Set.copyOf(kernel.scalars()));
    try {
      flattening.statements(loop.body(), null);
    } catch (NotStaged e) {
      return Optional.empty();
    }
    if (flattening.loaded.stream().anyMatch(flattening.stored::contains)
        || StagedMapPrinter.chunkParameterSlots(kernel) > StagedMapPrinter.MAX_PARAMETER_SLOTS) {
      return Optional.empty();
    }
    return Optional.of(
        new StagedMap(
            loop.counter(),
            loop.bound(),
            inPhases(flattening.ops),
            Set.copyOf(flattening.loaded),
            Set.copyOf(flattening.stored)));
  }

  /**
   * {@code ops} reordered into phases: the arithmetic of phase 0, the math calls of level 0, the
   * arithmetic of phase 1, the math calls of level 1, and so on, where a math call's level is the
   * number of math calls on the longest chain of dependences before it (each as early as it can
   * be), and each other op comes as late as the ops that read it allow, so that fewer values wait
   * in arrays. Within a phase the ops keep their order. An op still comes after every op it reads a
   * local of, every earlier op that reads a local it writes, and every earlier op that writes a
   * local or buffer it writes, so every row computes the same values. Fewer runs of consecutive
   * arithmetic ops mean fewer stages, so fewer passes over the chunk's arrays.
   */
  static List<Op> inPhases(List<Op> ops) {
    List<List<Integer>> before = dependences(ops);
    int[] position = new int[ops.size()];
    int last = 0;
    // even positions hold arithmetic phases, odd ones levels of math calls
    for (int j = 0; j < ops.size(); j++) {
      int earliest = 0;
      for (int i : before.get(j)) {
        earliest =
            Math.max(earliest, position[i] + (isMath(ops.get(i)) || isMath(ops.get(j)) ? 1 : 0));
      }
      position[j] = earliest % 2 == (isMath(ops.get(j)) ? 1 : 0) ? earliest : earliest + 1;
      last = Math.max(last, position[j]);
    }
    int lastPhase = last % 2 == 0 ? last : last + 1;
    List<List<Integer>> after = new ArrayList<>();
    ops.forEach(op -> after.add(new ArrayList<>()));
    for (int j = 0; j < ops.size(); j++) {
      for (int i : before.get(j)) {
        after.get(i).add(j);
      }
    }
    for (int i = ops.size() - 1; i >= 0; i--) {
      if (isMath(ops.get(i))) {
        continue;
      }
      int latest = lastPhase;
      for (int j : after.get(i)) {
        latest = Math.min(latest, position[j] - (isMath(ops.get(j)) ? 1 : 0));
      }
      position[i] = latest % 2 == 0 ? latest : latest - 1;
    }
    List<Integer> order = new ArrayList<>();
    for (int j = 0; j < ops.size(); j++) {
      order.add(j);
    }
    order.sort(Comparator.comparingInt((Integer j) -> position[j]).thenComparingInt(j -> j));
    return order.stream().map(ops::get).toList();
  }

  private static boolean isMath(Op op) {
    return op instanceof MathCall;
  }

  /**
   * For each op, the earlier ops it must follow: those that write a local it reads (the latest
   * such), that read a local it writes, or that write what it writes.
   */
  private static List<List<Integer>> dependences(List<Op> ops) {
    Set<KernelExpr.Var> locals = new LinkedHashSet<>();
    for (Op op : ops) {
      KernelExpr.Var target = target(op);
      if (target != null) {
        locals.add(target);
      }
    }
    Map<Object, Integer> lastWrite = new HashMap<>();
    Map<KernelExpr.Var, List<Integer>> readsSinceWrite = new HashMap<>();
    List<List<Integer>> before = new ArrayList<>();
    for (int j = 0; j < ops.size(); j++) {
      Set<Integer> after = new LinkedHashSet<>();
      Set<KernelExpr.Var> read = reads(ops.get(j), locals);
      for (KernelExpr.Var v : read) {
        Integer writer = lastWrite.get(v);
        if (writer != null) {
          after.add(writer);
        }
      }
      Object written = ops.get(j) instanceof Store s ? s.buffer() : target(ops.get(j));
      Integer previousWriter = lastWrite.get(written);
      if (previousWriter != null) {
        after.add(previousWriter);
      }
      if (written instanceof KernelExpr.Var v) {
        after.addAll(readsSinceWrite.getOrDefault(v, List.of()));
        readsSinceWrite.put(v, new ArrayList<>());
      }
      for (KernelExpr.Var v : read) {
        readsSinceWrite.computeIfAbsent(v, x -> new ArrayList<>()).add(j);
      }
      lastWrite.put(written, j);
      after.remove(j);
      before.add(List.copyOf(after));
    }
    return before;
  }

  /** The local {@code op} writes, or null for a store. */
  static KernelExpr.Var target(Op op) {
    if (op instanceof Compute c) {
      return c.target();
    }
    return op instanceof MathCall m ? m.target() : null;
  }

  /** Whether {@code e} is built from constants and the variables {@code allowed} only. */
  private static boolean readsOnly(KernelExpr e, Set<KernelExpr.Var> allowed) {
    if (e instanceof KernelExpr.Constant) {
      return true;
    }
    if (e instanceof KernelExpr.Var v) {
      return allowed.contains(v);
    }
    if (e instanceof KernelExpr.Binary b) {
      return readsOnly(b.left(), allowed) && readsOnly(b.right(), allowed);
    }
    if (e instanceof KernelExpr.Unary u) {
      return readsOnly(u.operand(), allowed);
    }
    if (e instanceof KernelExpr.Call c) {
      return c.args().stream().allMatch(a -> readsOnly(a, allowed));
    }
    if (e instanceof KernelExpr.Select s) {
      return readsOnly(s.condition(), allowed)
          && readsOnly(s.ifTrue(), allowed)
          && readsOnly(s.ifFalse(), allowed);
    }
    return false;
  }

  /** The locals an op reads. */
  static Set<KernelExpr.Var> reads(Op op, Set<KernelExpr.Var> locals) {
    Set<KernelExpr.Var> out = new LinkedHashSet<>();
    if (op instanceof Compute c) {
      collectVars(c.value(), locals, out);
    } else if (op instanceof MathCall m) {
      m.arguments().forEach(a -> collectVars(a, locals, out));
    } else {
      collectVars(((Store) op).value(), locals, out);
    }
    return out;
  }

  /** The variables of {@code e} that are in {@code among}, added to {@code out}. */
  static void collectVars(KernelExpr e, Set<KernelExpr.Var> among, Set<KernelExpr.Var> out) {
    if (e instanceof KernelExpr.Var v) {
      if (among.contains(v)) {
        out.add(v);
      }
    } else if (e instanceof KernelExpr.Binary b) {
      collectVars(b.left(), among, out);
      collectVars(b.right(), among, out);
    } else if (e instanceof KernelExpr.Unary u) {
      collectVars(u.operand(), among, out);
    } else if (e instanceof KernelExpr.Call c) {
      c.args().forEach(a -> collectVars(a, among, out));
    } else if (e instanceof KernelExpr.Select s) {
      collectVars(s.condition(), among, out);
      collectVars(s.ifTrue(), among, out);
      collectVars(s.ifFalse(), among, out);
    }
  }

  /** The locals the ops define, in order of first definition. */
  List<KernelExpr.Var> locals() {
    Set<KernelExpr.Var> out = new LinkedHashSet<>();
    for (Op op : ops) {
      if (op instanceof Compute c) {
        out.add(c.target());
      } else if (op instanceof MathCall m) {
        out.add(m.target());
      }
    }
    return List.copyOf(out);
  }

  private static final KernelExpr ONE = new KernelExpr.Constant(dev.l0.ir.ScalarValue.f64(1.0));

  /** Thrown while flattening a body that does not match. */
  private static final class NotStaged extends Exception {
    NotStaged() {
      super(null, null, false, false);
    }
  }

  /** The rewriting of a loop body into ops. */
  private static final class Flattening {
    private final KernelExpr.Var counter;
    private final Set<KernelExpr.Var> scalars;
    private final Deque<Map<String, KernelExpr.Var>> scopes = new ArrayDeque<>();
    private final List<Op> ops = new ArrayList<>();
    private final Set<Buffer> loaded = new LinkedHashSet<>();
    private final Set<Buffer> stored = new LinkedHashSet<>();
    private int fresh;

    /** The mask of the branch being flattened, null outside branches. */
    private KernelExpr.Var branchMask;

    Flattening(KernelExpr.Var counter, Set<KernelExpr.Var> scalars) {
      this.counter = counter;
      this.scalars = scalars;
    }

    /** {@code body} under {@code mask} (a boolean local, null outside branches). */
    void statements(List<KernelStmt> body, KernelExpr.Var mask) throws NotStaged {
      KernelExpr.Var outer = branchMask;
      branchMask = mask;
      scopes.push(new HashMap<>());
      for (KernelStmt s : body) {
        statement(s, mask);
      }
      scopes.pop();
      branchMask = outer;
    }

    private void statement(KernelStmt s, KernelExpr.Var mask) throws NotStaged {
      if (s instanceof KernelStmt.Declare d) {
        KernelExpr value =
            converted(expression(d.initial(), mask != null, true), d.variable().type());
        KernelExpr.Var local = newLocal(d.variable().type());
        define(local, value);
        scopes.peek().put(d.variable().name(), local);
      } else if (s instanceof KernelStmt.Assign a) {
        KernelExpr.Var local = local(a.variable().name());
        KernelExpr value =
            converted(expression(a.value(), mask != null, mask == null), a.variable().type());
        if (mask != null) {
          value = new KernelExpr.Select(mask, value, local);
        }
        define(local, value);
      } else if (s instanceof KernelStmt.Store st
          && mask == null
          && !st.buffer().isThreadPrivate()
          && isRow(st.index())) {
        stored.add(st.buffer());
        ops.add(
            new Store(
                st.buffer(), converted(expression(st.value(), false), st.buffer().elementType())));
      } else if (s instanceof KernelStmt.If i) {
        KernelExpr condition = expression(i.condition(), mask != null);
        KernelExpr.Var thenMask = newLocal(ScalarType.BOOL);
        define(thenMask, mask == null ? condition : and(mask, condition));
        statements(i.thenBody(), thenMask);
        if (!i.elseBody().isEmpty()) {
          KernelExpr.Var elseMask = newLocal(ScalarType.BOOL);
          KernelExpr notCondition = new KernelExpr.Unary(dev.l0.ir.PrefixOperator.NOT, thenMask);
          define(elseMask, mask == null ? notCondition : and(mask, notCondition));
          statements(i.elseBody(), elseMask);
        }
      } else {
        throw new NotStaged();
      }
    }

    private static KernelExpr and(KernelExpr l, KernelExpr r) {
      return new KernelExpr.Binary(BinaryOperator.AND, ScalarType.BOOL, l, r);
    }

    private KernelExpr.Var newLocal(ScalarType type) {
      return new KernelExpr.Var("s$" + fresh++, type);
    }

    private KernelExpr.Var local(String name) throws NotStaged {
      for (Map<String, KernelExpr.Var> scope : scopes) {
        KernelExpr.Var v = scope.get(name);
        if (v != null) {
          return v;
        }
      }
      throw new NotStaged();
    }

    /**
     * {@code target = value} as an op: a {@link MathCall} where {@code value} is a staged function
     * call.
     */
    private void define(KernelExpr.Var target, KernelExpr value) {
      String function = stagedFunction(value);
      if (function == null) {
        ops.add(new Compute(target, value));
        return;
      }
      List<KernelExpr> args = new ArrayList<>();
      for (KernelExpr a : arguments(value)) {
        if (branchMask != null) {
          // rows where the branch does not run compute the function of 1.0, which every function
          // computes lane-wise (an argument such as 0.0 or a NaN would send its vector to the
          // scalar code); their results are never used
          args.add(inLocal(new KernelExpr.Select(branchMask, a, ONE)));
        } else {
          args.add(isStagedArgument(a) ? a : inLocal(a));
        }
      }
      ops.add(new MathCall(target, function, args));
    }

    /** Whether a {@code VectorMath} call reads {@code a} as it is: a local or a load at the row. */
    private boolean isStagedArgument(KernelExpr a) {
      return a instanceof KernelExpr.Var v && !scalars.contains(v) && !v.equals(counter)
          || a instanceof KernelExpr.Load;
    }

    private static List<KernelExpr> arguments(KernelExpr call) {
      return call instanceof KernelExpr.Call c
          ? c.args()
          : List.of(((KernelExpr.Binary) call).left(), ((KernelExpr.Binary) call).right());
    }

    /**
     * {@code e} with the IR's locals renamed to their staged locals and every staged function call
     * moved into a local of its own (its arguments too, unless a local or a load); refuses what
     * does not match, and in a branch ({@code inBranch}) the operations that could fail.
     */
    private KernelExpr expression(KernelExpr e, boolean inBranch) throws NotStaged {
      return expression(e, inBranch, false);
    }

    /**
     * As {@link #expression(KernelExpr, boolean)}, but a staged call at the top ({@code top}) stays
     * in place for {@link #define}.
     */
    private KernelExpr expression(KernelExpr e, boolean inBranch, boolean top) throws NotStaged {
      if (e instanceof KernelExpr.Constant) {
        return e;
      }
      if (e instanceof KernelExpr.Var v) {
        if (v.equals(counter) || scalars.contains(v)) {
          return v;
        }
        return local(v.name());
      }
      if (e instanceof KernelExpr.Load l) {
        if (l.buffer().isThreadPrivate() || !isRow(l.index())) {
          throw new NotStaged();
        }
        loaded.add(l.buffer());
        return new KernelExpr.Load(l.buffer(), counter);
      }
      KernelExpr rebuilt;
      if (e instanceof KernelExpr.Binary b) {
        if (inBranch
            && b.operandType().isInteger()
            && (b.op() == BinaryOperator.DIV
                || b.op() == BinaryOperator.MOD
                || b.op() == BinaryOperator.POW)) {
          throw new NotStaged();
        }
        rebuilt =
            new KernelExpr.Binary(
                b.op(),
                b.operandType(),
                expression(b.left(), inBranch),
                expression(b.right(), inBranch));
      } else if (e instanceof KernelExpr.Unary u) {
        rebuilt = new KernelExpr.Unary(u.op(), expression(u.operand(), inBranch));
      } else if (e instanceof KernelExpr.Call c) {
        List<KernelExpr> args = new ArrayList<>();
        for (KernelExpr a : c.args()) {
          args.add(expression(a, inBranch));
        }
        rebuilt = new KernelExpr.Call(c.function(), args);
      } else if (e instanceof KernelExpr.Select s) {
        rebuilt =
            new KernelExpr.Select(
                expression(s.condition(), inBranch),
                expression(s.ifTrue(), inBranch),
                expression(s.ifFalse(), inBranch));
      } else {
        throw new NotStaged();
      }
      if (top || stagedFunction(rebuilt) == null) {
        return rebuilt;
      }
      KernelExpr.Var result = newLocal(ScalarType.F64);
      define(result, rebuilt);
      return result;
    }

    private KernelExpr.Var inLocal(KernelExpr value) {
      KernelExpr.Var local = newLocal(value.type());
      ops.add(new Compute(local, value));
      return local;
    }

    private boolean isRow(KernelExpr index) {
      return JavaKernelIrPrinter.simplified(index).equals(counter);
    }

    private static KernelExpr converted(KernelExpr e, ScalarType type) {
      return e.type() == type || type == ScalarType.BOOL
          ? e
          : new KernelExpr.Call(conversionTo(type), List.of(e));
    }

    private static Builtin conversionTo(ScalarType type) {
      return switch (type) {
        case I32 -> Builtin.TO_I32;
        case I64 -> Builtin.TO_I64;
        case F32 -> Builtin.TO_F32;
        case F64 -> Builtin.TO_F64;
        case BOOL -> throw new IllegalArgumentException("no conversion to bool");
      };
    }
  }

  /**
   * The {@code VectorMath} function computing {@code e}, or null when {@code e} is not an f64 call
   * of one.
   */
  static String stagedFunction(KernelExpr e) {
    if (e instanceof KernelExpr.Binary b
        && b.op() == BinaryOperator.POW
        && b.operandType() == ScalarType.F64) {
      return "pow";
    }
    if (e instanceof KernelExpr.Call c && c.args().get(0).type() == ScalarType.F64) {
      return switch (c.function()) {
        case EXP, LOG, SQRT, SIN, COS, ERF -> c.function().functionName();
        default -> null;
      };
    }
    return null;
  }
}
