package dev.l0.kernels.lower;

import dev.l0.kernels.ir.Buffer;
import dev.l0.kernels.ir.KernelExpr;
import dev.l0.kernels.ir.KernelStmt;
import dev.l0.kernels.jvm.ThreadPrivateParts;
import dev.l0.opt.ir.Exp;
import dev.l0.opt.ir.Lambda;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.SortedSet;
import java.util.TreeSet;

/**
 * Several rows of a map inside a thread at once, for a CPU: where the map's function runs a
 * sequential loop (a tridiagonal solve's sweeps, whose every step waits for the one before), the
 * code of {@link #ROWS} rows, lowered each with scratch parts of its own, runs statement by
 * statement in turn, and the loops the rows run alike at the same place run as one loop doing a
 * step of each row. The rows' dependence chains are independent, so the core overlaps them (on a
 * CPU the chain's latency, not its work, bounds such a loop).
 *
 * <p>The rows' code may be interleaved only where it gives the same memory and locals as running
 * the rows' code one row after the other: every statement of a later row that moves ahead of a
 * statement of an earlier one must touch nothing the other writes (no local, and no part of a
 * buffer that {@link ThreadPrivateParts} cannot tell apart), and neither may loops that become one.
 * Run-time failures keep the rows' order: each row's code records its first failure in a local of
 * its own ({@link #deferFailures}), raised after the rows ran, the earlier row's first ({@link
 * #raiseInRowOrder}), so a thread records the failure that running the rows one after the other
 * records (the interpreter's).
 */
public final class InterleavedRows {
  private InterleavedRows() {}

  /** How many rows run at once. */
  public static final int ROWS = 2;

  /**
   * Whether rows of a map with function {@code f} gain from running {@link #ROWS} at once: its body
   * runs a loop that carries an array (a sweep over a row, each step reading what the step before
   * stored).
   */
  static boolean gains(Lambda f) {
    return f.body().stms().stream()
        .anyMatch(
            stm ->
                stm.exp() instanceof Exp.Loop loop
                    && loop.mergeParams().stream().anyMatch(p -> p.type().rank() > 0));
  }

  /**
   * The statements of {@code rows} (each row's: the same lowering with names and scratch parts of
   * its own) run in turn, statement by statement, their loops at the same place fused; or null
   * where that would change what they compute or no loops fuse.
   */
  static List<KernelStmt> interleave(List<List<KernelStmt>> rows) {
    int length = rows.get(0).size();
    if (rows.stream().anyMatch(r -> r.size() != length)) {
      return null;
    }
    List<List<Effects>> effects =
        rows.stream().map(r -> r.stream().map(Effects::of).toList()).toList();
    // statement x of a later row runs before statement y > x of every earlier row
    for (int later = 1; later < rows.size(); later++) {
      for (int earlier = 0; earlier < later; earlier++) {
        for (int x = 0; x < length; x++) {
          for (int y = x + 1; y < length; y++) {
            if (effects.get(later).get(x).conflicts(effects.get(earlier).get(y))) {
              return null;
            }
          }
        }
      }
    }
    List<KernelStmt> out = new ArrayList<>();
    boolean fused = false;
    for (int i = 0; i < length; i++) {
      int at = i;
      List<KernelStmt> statements = rows.stream().map(r -> r.get(at)).toList();
      List<Effects> touched = effects.stream().map(e -> e.get(at)).toList();
      if (fusable(statements, touched)) {
        KernelStmt.For first = (KernelStmt.For) statements.get(0);
        List<KernelStmt> body = new ArrayList<>(first.body());
        for (KernelStmt s : statements.subList(1, statements.size())) {
          KernelStmt.For loop = (KernelStmt.For) s;
          body.add(new KernelStmt.Declare(loop.counter(), first.counter()));
          body.addAll(loop.body());
        }
        out.add(
            new KernelStmt.For(first.counter(), first.start(), first.bound(), first.step(), body));
        fused = true;
      } else {
        out.addAll(statements);
      }
    }
    return fused ? out : null;
  }

  /**
   * {@code row}'s code with each failure it raises recorded in {@code failed} instead (the row's
   * first only: {@code failed} starts at 0), so that rows run interleaved raise nothing out of
   * order. The values a raise records are dropped (carrying them in locals of the interleaved loop
   * made LocVolCalib's kernel's Java a third larger and slower), so its error is worded without
   * them ({@code FailureDetails.withoutValues}).
   */
  static List<KernelStmt> deferFailures(List<KernelStmt> row, KernelExpr.Var failed) {
    return row.stream().map(s -> deferred(s, failed)).toList();
  }

  private static KernelStmt deferred(KernelStmt s, KernelExpr.Var failed) {
    if (s instanceof KernelStmt.RaiseError r) {
      return new KernelStmt.If(
          KernelExprs.eq(failed, KernelExprs.ZERO),
          List.of(new KernelStmt.Assign(failed, KernelExprs.i64(r.code()))),
          List.of());
    } else if (s instanceof KernelStmt.If i) {
      return new KernelStmt.If(
          i.condition(), deferFailures(i.thenBody(), failed), deferFailures(i.elseBody(), failed));
    } else if (s instanceof KernelStmt.For f) {
      return new KernelStmt.For(
          f.counter(), f.start(), f.bound(), f.step(), deferFailures(f.body(), failed));
    } else if (s instanceof KernelStmt.While w) {
      return new KernelStmt.While(w.condition(), deferFailures(w.body(), failed));
    }
    return s;
  }

  /**
   * The failures that {@link #deferFailures} recorded in {@code failed} (one local per row, in row
   * order) raised in row order: each of the codes that row's code {@code rows} can raise, where its
   * local holds it.
   */
  static List<KernelStmt> raiseInRowOrder(
      List<KernelExpr.Var> failed, List<List<KernelStmt>> rows) {
    List<KernelStmt> out = new ArrayList<>();
    for (int r = 0; r < rows.size(); r++) {
      SortedSet<Integer> codes = new TreeSet<>();
      collectCodes(rows.get(r), codes);
      for (int code : codes) {
        out.add(
            new KernelStmt.If(
                KernelExprs.eq(failed.get(r), KernelExprs.i64(code)),
                List.of(new KernelStmt.RaiseError(code)),
                List.of()));
      }
    }
    return out;
  }

  private static void collectCodes(List<KernelStmt> statements, Set<Integer> codes) {
    for (KernelStmt s : statements) {
      if (s instanceof KernelStmt.RaiseError r) {
        codes.add(r.code());
      } else if (s instanceof KernelStmt.If i) {
        collectCodes(i.thenBody(), codes);
        collectCodes(i.elseBody(), codes);
      } else if (s instanceof KernelStmt.For f) {
        collectCodes(f.body(), codes);
      } else if (s instanceof KernelStmt.While w) {
        collectCodes(w.body(), codes);
      }
    }
  }

  /**
   * Whether {@code statements} (one per row) are loops over the same counts that touch nothing of
   * each other's ({@code touched}), so that one loop may run a step of each in turn.
   */
  private static boolean fusable(List<KernelStmt> statements, List<Effects> touched) {
    if (!(statements.get(0) instanceof KernelStmt.For first)) {
      return false;
    }
    for (int r = 1; r < statements.size(); r++) {
      if (!(statements.get(r) instanceof KernelStmt.For loop)
          || !loop.start().equals(first.start())
          || !loop.bound().equals(first.bound())
          || !loop.step().equals(first.step())) {
        return false;
      }
      for (int earlier = 0; earlier < r; earlier++) {
        if (touched.get(r).conflicts(touched.get(earlier))) {
          return false;
        }
      }
    }
    return true;
  }

  /** One access of a buffer. */
  private record Access(Buffer buffer, KernelExpr index) {}

  /**
   * What a statement reads and writes: the locals it declares, assigns (declared outside it) and
   * reads, the buffer elements it loads and stores, and whether it uses the block's shared memory
   * or barriers (which it never moves over).
   */
  private static final class Effects {
    final Set<String> declared = new HashSet<>();
    final Set<String> assigned = new HashSet<>();
    final Set<String> read = new HashSet<>();
    final List<Access> loads = new ArrayList<>();
    final List<Access> stores = new ArrayList<>();
    boolean shared;

    static Effects of(KernelStmt s) {
      Effects e = new Effects();
      e.add(s);
      e.assigned.removeAll(e.declared);
      return e;
    }

    /** Whether running this and {@code other} in the other order may change what they compute. */
    boolean conflicts(Effects other) {
      return shared
          || other.shared
          || writesWhatUses(other)
          || other.writesWhatUses(this)
          || touchesSameElement(stores, other.loads)
          || touchesSameElement(stores, other.stores)
          || touchesSameElement(other.stores, loads);
    }

    private boolean writesWhatUses(Effects other) {
      for (String v : assigned) {
        if (other.read.contains(v) || other.assigned.contains(v)) {
          return true;
        }
      }
      for (String v : declared) {
        if (other.read.contains(v)) {
          return true;
        }
      }
      return false;
    }

    private static boolean touchesSameElement(List<Access> writes, List<Access> accesses) {
      for (Access w : writes) {
        for (Access r : accesses) {
          if (w.buffer().equals(r.buffer())
              && ThreadPrivateParts.mayOverlap(w.buffer(), w.index(), r.index())) {
            return true;
          }
        }
      }
      return false;
    }

    private void add(KernelStmt s) {
      if (s instanceof KernelStmt.Declare d) {
        declared.add(d.variable().name());
        read(d.initial());
      } else if (s instanceof KernelStmt.Assign a) {
        assigned.add(a.variable().name());
        read(a.value());
      } else if (s instanceof KernelStmt.Store st) {
        stores.add(new Access(st.buffer(), st.index()));
        read(st.index());
        read(st.value());
      } else if (s instanceof KernelStmt.If i) {
        read(i.condition());
        i.thenBody().forEach(this::add);
        i.elseBody().forEach(this::add);
      } else if (s instanceof KernelStmt.For f) {
        declared.add(f.counter().name());
        read(f.start());
        read(f.bound());
        read(f.step());
        f.body().forEach(this::add);
      } else if (s instanceof KernelStmt.While w) {
        read(w.condition());
        w.body().forEach(this::add);
      } else if (s instanceof KernelStmt.SharedStore || s instanceof KernelStmt.Barrier) {
        shared = true;
      }
    }

    private void read(KernelExpr e) {
      if (e instanceof KernelExpr.Var v) {
        read.add(v.name());
      } else if (e instanceof KernelExpr.Load l) {
        loads.add(new Access(l.buffer(), l.index()));
      } else if (e instanceof KernelExpr.SharedLoad) {
        shared = true;
      }
      e.children().forEach(this::read);
    }
  }
}
