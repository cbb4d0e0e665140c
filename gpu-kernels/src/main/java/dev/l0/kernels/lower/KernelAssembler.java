package dev.l0.kernels.lower;

import dev.l0.kernels.ir.Buffer;
import dev.l0.kernels.ir.Kernel;
import dev.l0.kernels.ir.KernelExpr;
import dev.l0.kernels.ir.KernelStmt;
import dev.l0.kernels.ir.SharedArray;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

/**
 * Makes a {@link Kernel} from its code: its parameters are the buffers, the shared arrays and the
 * scalar variables the code uses without declaring them, in order of first use.
 */
final class KernelAssembler {
  private final Set<Buffer> buffers = new LinkedHashSet<>();
  private final Set<KernelExpr.Var> scalars = new LinkedHashSet<>();
  private final Set<SharedArray> shared = new LinkedHashSet<>();
  private final Set<String> declared = new HashSet<>();

  private KernelAssembler() {}

  static Kernel assemble(String name, List<KernelStmt> body) {
    KernelAssembler assembler = new KernelAssembler();
    assembler.statements(body);
    return new Kernel(
        name,
        List.copyOf(assembler.buffers),
        List.copyOf(assembler.scalars),
        List.copyOf(assembler.shared),
        body);
  }

  private void statements(List<KernelStmt> body) {
    body.forEach(this::statement);
  }

  private void statement(KernelStmt s) {
    if (s instanceof KernelStmt.Declare d) {
      expr(d.initial());
      declared.add(d.variable().name());
    } else if (s instanceof KernelStmt.Assign a) {
      expr(a.variable());
      expr(a.value());
    } else if (s instanceof KernelStmt.Store st) {
      buffers.add(st.buffer());
      expr(st.index());
      expr(st.value());
    } else if (s instanceof KernelStmt.SharedStore st) {
      shared.add(st.array());
      expr(st.index());
      expr(st.value());
    } else if (s instanceof KernelStmt.If i) {
      expr(i.condition());
      statements(i.thenBody());
      statements(i.elseBody());
    } else if (s instanceof KernelStmt.For f) {
      expr(f.start());
      expr(f.bound());
      expr(f.step());
      declared.add(f.counter().name());
      statements(f.body());
    } else if (s instanceof KernelStmt.While w) {
      expr(w.condition());
      statements(w.body());
    } else if (s instanceof KernelStmt.RaiseError r) {
      r.values().forEach(this::expr);
    }
  }

  private void expr(KernelExpr e) {
    if (e instanceof KernelExpr.Var v && !declared.contains(v.name())) {
      scalars.add(v);
    } else if (e instanceof KernelExpr.Load l) {
      buffers.add(l.buffer());
    } else if (e instanceof KernelExpr.SharedLoad l) {
      shared.add(l.array());
    }
    e.children().forEach(this::expr);
  }
}
