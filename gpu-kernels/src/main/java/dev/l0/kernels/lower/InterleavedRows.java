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

/**
 * Two rows of a map inside a thread at once, for a CPU: where the map's function runs a sequential
 * loop (a tridiagonal solve's sweeps, whose every step waits for the one before), the code of two
 * rows, lowered each with scratch parts of its own, runs statement by statement in turn, and each
 * pair of loops the two rows run alike runs as one loop doing a step of each row. The two rows'
 * dependence chains are independent, so the core overlaps them (on a CPU the chain's latency, not
 * its work, bounds such a loop).
 *
 * <p>The rows' code may be interleaved only where it gives the same memory and locals as running
 * the first row's code, then the second's: every statement of the second row that moves ahead of a
 * statement of the first must touch nothing the other writes (no local, and no part of a buffer
 * that {@link ThreadPrivateParts} cannot tell apart), and neither may two loops that become one.
 * Run-time failures may be recorded in another order, which a kernel's error word allows (it keeps
 * any one code).
 */
final class InterleavedRows {
  private InterleavedRows() {}

  /** Whether rows of a map with function {@code f} gain from running two at once. */
  static boolean gains(Lambda f) {
    return f.body().stms().stream().anyMatch(stm -> stm.exp() instanceof Exp.Loop);
  }

  /**
   * The statements {@code first} (one row's) and {@code second} (the next row's, the same lowering
   * with names and scratch parts of its own) run in turn, their loops at the same place fused; or
   * null where that would change what they compute or they are not alike.
   */
  static List<KernelStmt> interleave(List<KernelStmt> first, List<KernelStmt> second) {
    if (first.size() != second.size()) {
      return null;
    }
    List<Effects> a = first.stream().map(Effects::of).toList();
    List<Effects> b = second.stream().map(Effects::of).toList();
    for (int x = 0; x < b.size(); x++) {
      for (int y = x + 1; y < a.size(); y++) {
        if (b.get(x).conflicts(a.get(y))) {
          return null;
        }
      }
    }
    List<KernelStmt> out = new ArrayList<>();
    boolean fused = false;
    for (int i = 0; i < first.size(); i++) {
      KernelStmt s = first.get(i);
      KernelStmt t = second.get(i);
      if (s instanceof KernelStmt.For f
          && t instanceof KernelStmt.For g
          && f.start().equals(g.start())
          && f.bound().equals(g.bound())
          && f.step().equals(g.step())
          && !a.get(i).conflicts(b.get(i))) {
        List<KernelStmt> body = new ArrayList<>(f.body());
        body.add(new KernelStmt.Declare(g.counter(), f.counter()));
        body.addAll(g.body());
        out.add(new KernelStmt.For(f.counter(), f.start(), f.bound(), f.step(), body));
        fused = true;
      } else {
        out.add(s);
        out.add(t);
      }
    }
    return fused ? out : null;
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
      } else if (e instanceof KernelExpr.Binary b) {
        read(b.left());
        read(b.right());
      } else if (e instanceof KernelExpr.Unary u) {
        read(u.operand());
      } else if (e instanceof KernelExpr.Call c) {
        c.args().forEach(this::read);
      } else if (e instanceof KernelExpr.Select s) {
        read(s.condition());
        read(s.ifTrue());
        read(s.ifFalse());
      } else if (e instanceof KernelExpr.Load l) {
        loads.add(new Access(l.buffer(), l.index()));
        read(l.index());
      } else if (e instanceof KernelExpr.SharedLoad l) {
        shared = true;
        read(l.index());
      }
    }
  }
}
