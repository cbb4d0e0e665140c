package dev.l0.kernels.jvm;

import dev.l0.ir.ScalarType;
import dev.l0.kernels.ir.Buffer;
import dev.l0.kernels.ir.KernelExpr;
import dev.l0.kernels.ir.KernelStmt;
import dev.l0.kernels.ir.SharedArray;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashSet;
import java.util.IdentityHashMap;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * Which compound statements ({@code if}, {@code for}, {@code while}) of a kernel's body {@link
 * JavaKernelIrPrinter} moves into static methods of their own, and what each such method takes, so
 * that every printed method stays below a size budget. HotSpot never compiles a method of more than
 * 8000 bytes of bytecode ({@code -XX:HugeMethodLimit}, with {@code DontCompileHugeMethods} on by
 * default): such a kernel would run interpreted, about ten times slower. A moved statement reads
 * its free variables, buffers and shared arrays as parameters and returns its first error code.
 * Statements are told apart by identity (equal statements at two places are two statements). A
 * statement that assigns variables declared outside it (a loop's state) takes their values as
 * parameters and hands their new values back through the caller's spill array, as raw bits. Sizes
 * are estimates of the bytecode Janino makes, in bytes.
 */
final class OutlinedStatements {
  /** The estimated size of a call of a moved statement at its place. */
  private static final int CALL_SIZE = 24;

  /**
   * Parameter slots a method may have (the JVM allows 255, a {@code long} or {@code double} taking
   * two).
   */
  private static final int MAX_PARAMETER_SLOTS = 250;

  /**
   * What a moved statement's method takes: the scalars it reads or assigns that are declared
   * outside it, the buffers and shared arrays it uses, and whether it reads the block index or the
   * grid size; and the scalars declared outside it that it assigns ({@code results}, handed back).
   */
  record Parameters(
      List<KernelExpr.Var> scalars,
      List<Buffer> buffers,
      List<SharedArray> shared,
      boolean block,
      boolean grid,
      List<KernelExpr.Var> results) {}

  /** The most variables declared outside a moved statement that it may assign. */
  static final int MAX_RESULTS = 64;

  /**
   * The most parameters a moved statement's method has with its scalars as parameters; one that
   * would have more receives its scalars through the spill array instead (written by the caller
   * just before the call, read into locals first thing). HotSpot's optimising compiler (C2) gives
   * up on a method whose incoming plus outgoing arguments passed on the stack need more stack slots
   * than it represents, and the method then runs compiled by C1 only, several times slower: with
   * JDK 17 on x86-64 (AVX-512), a call with 52 {@code long} arguments compiled and one with 56 did
   * not ("COMPILE SKIPPED: unsupported incoming calling sequence" in the callee, "unsupported
   * calling sequence" in the caller), and FinPar OptionPricing's path loop, a method of 61
   * parameters, ran so. With at most this many on each side of every call, caller and callee stay
   * far below that.
   */
  static final int MAX_PARAMETERS = 16;

  /** The length of the spill array: the most results, or scalar parameters, a method has. */
  static final int SPILL_SIZE = Math.max(MAX_RESULTS, MAX_PARAMETER_SLOTS);

  private final Map<KernelStmt, Optional<Parameters>> parameters = new IdentityHashMap<>();

  /**
   * The statements of {@code body} (at any depth) to move into methods of their own so that what
   * stays is at most {@code budget} bytes: largest first among those that fit the budget, else the
   * smallest that does not (its method is then split in turn). Empty when the body fits; may leave
   * the body over the budget when no statement can move.
   */
  Set<KernelStmt> choose(List<KernelStmt> body, int budget) {
    return choose(body, null, budget);
  }

  /**
   * As {@link #choose(List, int)} for the body of {@code moved}'s own method: statements inside it,
   * never itself.
   */
  Set<KernelStmt> chooseInside(KernelStmt moved, int budget) {
    return choose(List.of(moved), moved, budget);
  }

  private Set<KernelStmt> choose(List<KernelStmt> body, KernelStmt stays, int budget) {
    Set<KernelStmt> chosen = Collections.newSetFromMap(new IdentityHashMap<>());
    while (true) {
      Map<KernelStmt, Integer> candidates = new IdentityHashMap<>();
      int total = size(body, chosen, candidates);
      if (stays != null) {
        candidates.remove(stays);
      }
      if (total <= budget || candidates.isEmpty()) {
        return chosen;
      }
      KernelStmt best = null;
      int bestSize = 0;
      // in the body's order, so that of candidates of one size the first is moved whatever the
      // statements' identity hash codes (the printed Java, and so the compiled-class cache, stays
      // the same from run to run)
      List<KernelStmt> inOrder = new ArrayList<>();
      compoundStatements(body, inOrder);
      for (KernelStmt candidate : inOrder) {
        Integer size = candidates.get(candidate);
        if (size == null) {
          continue;
        }
        boolean fits = size <= budget;
        boolean bestFits = best != null && bestSize <= budget;
        if (best == null
            || (fits && (!bestFits || size > bestSize))
            || (!fits && !bestFits && size < bestSize)) {
          best = candidate;
          bestSize = size;
        }
      }
      chosen.add(best);
    }
  }

  /** Adds the {@code if}s and loops of {@code body}, at any depth, to {@code out} in its order. */
  private static void compoundStatements(List<KernelStmt> body, List<KernelStmt> out) {
    for (KernelStmt s : body) {
      if (s instanceof KernelStmt.If i) {
        out.add(s);
        compoundStatements(i.thenBody(), out);
        compoundStatements(i.elseBody(), out);
      } else if (s instanceof KernelStmt.For f) {
        out.add(s);
        compoundStatements(f.body(), out);
      } else if (s instanceof KernelStmt.While w) {
        out.add(s);
        compoundStatements(w.body(), out);
      }
    }
  }

  /**
   * The parameters of {@code s}'s method, or empty if it cannot move (it assigns too many outer
   * variables, or needs too many parameters).
   */
  Optional<Parameters> parameters(KernelStmt s) {
    return parameters.computeIfAbsent(s, OutlinedStatements::analyse);
  }

  /** The estimated size of {@code s} printed whole, with no statement moved out of it. */
  int size(KernelStmt s) {
    return size(s, Set.of(), new IdentityHashMap<>());
  }

  /**
   * The estimated size of {@code body}, statements in {@code chosen} counted as calls; every
   * movable compound statement outside them goes into {@code candidates} with its size.
   */
  private int size(
      List<KernelStmt> body, Set<KernelStmt> chosen, Map<KernelStmt, Integer> candidates) {
    int size = 0;
    for (KernelStmt s : body) {
      size += size(s, chosen, candidates);
    }
    return size;
  }

  private int size(KernelStmt s, Set<KernelStmt> chosen, Map<KernelStmt, Integer> candidates) {
    if (chosen.contains(s)) {
      return CALL_SIZE + 12 * parameters(s).orElseThrow().results().size();
    }
    int size;
    if (s instanceof KernelStmt.Declare d) {
      size = 2 + size(d.initial());
    } else if (s instanceof KernelStmt.Assign a) {
      size = 2 + size(a.value());
    } else if (s instanceof KernelStmt.Store st) {
      size = 4 + size(st.index()) + size(st.value());
    } else if (s instanceof KernelStmt.SharedStore st) {
      size = 4 + size(st.index()) + size(st.value());
    } else if (s instanceof KernelStmt.If i) {
      size =
          6
              + size(i.condition())
              + size(i.thenBody(), chosen, candidates)
              + size(i.elseBody(), chosen, candidates);
    } else if (s instanceof KernelStmt.For f) {
      size =
          24
              + size(f.start())
              + size(f.bound())
              + size(f.step())
              + size(f.body(), chosen, candidates);
    } else if (s instanceof KernelStmt.While w) {
      size = 6 + size(w.condition()) + size(w.body(), chosen, candidates);
    } else if (s instanceof KernelStmt.RaiseError r) {
      size = 10 + r.values().stream().mapToInt(OutlinedStatements::size).sum();
    } else {
      size = 0;
    }
    if (s instanceof KernelStmt.For f) {
      // the if that leaves a loop at its fixed point stays in the loop's method: it breaks out of
      // it
      FixedPointLoops.guard(f).ifPresent(candidates::remove);
    }
    boolean compound =
        s instanceof KernelStmt.If || s instanceof KernelStmt.For || s instanceof KernelStmt.While;
    if (compound && size > CALL_SIZE * 2 && parameters(s).isPresent()) {
      candidates.put(s, size);
    }
    return size;
  }

  private static int size(KernelExpr e) {
    if (e instanceof KernelExpr.Constant
        || e instanceof KernelExpr.Var
        || e instanceof KernelExpr.Thread) {
      return 3;
    }
    if (e instanceof KernelExpr.Binary b) {
      // comparisons and long arithmetic of indices come with conversions and branches
      return 4 + size(b.left()) + size(b.right());
    }
    if (e instanceof KernelExpr.Unary u) {
      return 2 + size(u.operand());
    }
    if (e instanceof KernelExpr.Call c) {
      int size = 4;
      for (KernelExpr a : c.args()) {
        size += size(a);
      }
      return size;
    }
    if (e instanceof KernelExpr.Select s) {
      return 8 + size(s.condition()) + size(s.ifTrue()) + size(s.ifFalse());
    }
    if (e instanceof KernelExpr.Load l) {
      return 4 + size(l.index());
    }
    return 4 + size(((KernelExpr.SharedLoad) e).index());
  }

  /**
   * Whether a moved statement's method that takes {@code p} receives its scalars through the spill
   * array ({@link #MAX_PARAMETERS}); its buffers, shared arrays, block index and grid size stay
   * parameters.
   */
  static boolean scalarsInSpill(Parameters p) {
    int count =
        1
            + p.buffers().size()
            + p.shared().size()
            + p.scalars().size()
            + (p.block() ? 1 : 0)
            + (p.grid() ? 1 : 0);
    return count > MAX_PARAMETERS;
  }

  /** What {@code s} reads and assigns from outside itself. */
  private static Optional<Parameters> analyse(KernelStmt s) {
    FreeVariables free = new FreeVariables();
    free.statement(s, new ArrayList<>(List.of(new HashSet<>())));
    if (free.assignedOutside.size() > MAX_RESULTS) {
      return Optional.empty();
    }
    free.assignedOutside.values().forEach(v -> free.read.putIfAbsent(v.name(), v));
    int slots =
        1 + free.buffers.size() + free.shared.size() + (free.block ? 1 : 0) + (free.grid ? 1 : 0);
    for (KernelExpr.Var v : free.read.values()) {
      slots += v.type() == ScalarType.I64 || v.type() == ScalarType.F64 ? 2 : 1;
    }
    if (slots > MAX_PARAMETER_SLOTS) {
      return Optional.empty();
    }
    return Optional.of(
        new Parameters(
            List.copyOf(free.read.values()),
            List.copyOf(free.buffers),
            List.copyOf(free.shared),
            free.block,
            free.grid,
            List.copyOf(free.assignedOutside.values())));
  }

  /** The free variables of a statement, found with a stack of the scopes declared inside it. */
  private static final class FreeVariables {
    final Map<String, KernelExpr.Var> read = new LinkedHashMap<>();
    final Map<String, KernelExpr.Var> assignedOutside = new LinkedHashMap<>();
    final Set<Buffer> buffers = new LinkedHashSet<>();
    final Set<SharedArray> shared = new LinkedHashSet<>();
    boolean block;
    boolean grid;

    void statements(List<KernelStmt> body, List<Set<String>> scopes) {
      scopes.add(new HashSet<>());
      body.forEach(s -> statement(s, scopes));
      scopes.remove(scopes.size() - 1);
    }

    void statement(KernelStmt s, List<Set<String>> scopes) {
      if (s instanceof KernelStmt.Declare d) {
        expr(d.initial(), scopes);
        scopes.get(scopes.size() - 1).add(d.variable().name());
      } else if (s instanceof KernelStmt.Assign a) {
        expr(a.value(), scopes);
        if (!declared(a.variable().name(), scopes)) {
          assignedOutside.putIfAbsent(a.variable().name(), a.variable());
        }
      } else if (s instanceof KernelStmt.Store st) {
        buffers.add(st.buffer());
        expr(st.index(), scopes);
        expr(st.value(), scopes);
      } else if (s instanceof KernelStmt.SharedStore st) {
        shared.add(st.array());
        expr(st.index(), scopes);
        expr(st.value(), scopes);
      } else if (s instanceof KernelStmt.If i) {
        expr(i.condition(), scopes);
        statements(i.thenBody(), scopes);
        statements(i.elseBody(), scopes);
      } else if (s instanceof KernelStmt.For f) {
        expr(f.start(), scopes);
        expr(f.bound(), scopes);
        expr(f.step(), scopes);
        scopes.add(new HashSet<>(Set.of(f.counter().name())));
        statements(f.body(), scopes);
        scopes.remove(scopes.size() - 1);
      } else if (s instanceof KernelStmt.While w) {
        expr(w.condition(), scopes);
        statements(w.body(), scopes);
      } else if (s instanceof KernelStmt.RaiseError r) {
        r.values().forEach(v -> expr(v, scopes));
      }
    }

    void expr(KernelExpr e, List<Set<String>> scopes) {
      KernelExpr s = JavaKernelIrPrinter.simplified(e);
      if (s instanceof KernelExpr.Var v) {
        if (!declared(v.name(), scopes)) {
          read.putIfAbsent(v.name(), v);
        }
      } else if (s instanceof KernelExpr.Thread t) {
        block |= t.index() == dev.l0.kernels.ir.ThreadIndex.BLOCK_IDX;
        grid |= t.index() == dev.l0.kernels.ir.ThreadIndex.GRID_DIM;
      } else if (s instanceof KernelExpr.Binary b) {
        expr(b.left(), scopes);
        expr(b.right(), scopes);
      } else if (s instanceof KernelExpr.Unary u) {
        expr(u.operand(), scopes);
      } else if (s instanceof KernelExpr.Call c) {
        c.args().forEach(a -> expr(a, scopes));
      } else if (s instanceof KernelExpr.Select sel) {
        expr(sel.condition(), scopes);
        expr(sel.ifTrue(), scopes);
        expr(sel.ifFalse(), scopes);
      } else if (s instanceof KernelExpr.Load l) {
        buffers.add(l.buffer());
        expr(l.index(), scopes);
      } else if (s instanceof KernelExpr.SharedLoad l) {
        shared.add(l.array());
        expr(l.index(), scopes);
      }
    }

    private static boolean declared(String name, List<Set<String>> scopes) {
      for (Set<String> scope : scopes) {
        if (scope.contains(name)) {
          return true;
        }
      }
      return false;
    }
  }
}
