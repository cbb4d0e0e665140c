package dev.l0.opt;

import dev.l0.opt.ir.Body;
import dev.l0.opt.ir.Exp;
import dev.l0.opt.ir.Ident;
import dev.l0.opt.ir.InternalFunction;
import dev.l0.opt.ir.InternalPrinter;
import dev.l0.opt.ir.InternalProgram;
import dev.l0.opt.ir.Stm;
import dev.l0.opt.ir.SubExp;
import dev.l0.opt.ir.Traversal;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.stream.Collectors;

/**
 * What the optimised program runs as kernels: every SOAC that is not inside another SOAC's function
 * (each becomes one kernel or kernel group), in program order, with the function and the
 * sequential-loop depth it runs at, its input arrays and its outputs with their shapes. The scalar
 * code between kernels is the rest of the entry functions and of the functions they call outside a
 * kernel, which the plan keeps so a backend can run them statement by statement (a call included)
 * and hand each kernel's statement to its lowering.
 */
public record KernelPlan(List<InternalFunction> entries, List<Kernel> kernels) {
  public KernelPlan {
    entries = List.copyOf(entries);
    kernels = List.copyOf(kernels);
  }

  /**
   * One top-level SOAC: its binding {@code statement} in {@code function}. {@code structure} is its
   * nest, e.g. {@code map{map{redomap}}}: the SOACs (and the loops and branches holding SOACs)
   * inside its functions.
   */
  public record Kernel(String function, int loopDepth, String structure, Stm statement) {
    public List<SubExp> inputs() {
      return ((Exp.Soac) statement.exp()).inputs();
    }

    /** The arrays or accumulators it binds, with their shapes in their types. */
    public List<Ident> outputs() {
      return statement.pattern();
    }

    /** The certificates that must hold before it runs. */
    public List<String> certificates() {
      return statement.certificates();
    }

    /** The outermost SOAC's kind. */
    public KernelKind kind() {
      return KernelKind.of((Exp.Soac) statement.exp());
    }

    /** One line for {@code l0 explain}. */
    public String describe() {
      String outs =
          outputs().stream()
              .map(o -> o.name() + ": " + InternalPrinter.type(o.type()))
              .collect(Collectors.joining(", "));
      String ins = inputs().stream().map(SubExp::toString).collect(Collectors.joining(", "));
      String where =
          loopDepth == 0
              ? function
              : function + " (inside " + loopDepth + " loop" + (loopDepth > 1 ? "s" : "") + ")";
      return structure + " in " + where + ": (" + ins + ") -> (" + outs + ")";
    }
  }

  /**
   * The kernels of {@code functions} of {@code program} and of every function they call outside a
   * kernel (a call the optimiser did not inline, such as a recursive one), in program order: such a
   * call runs its function's kernels on the backend, as the caller runs its own.
   */
  public static KernelPlan of(InternalProgram program, List<String> functions) {
    Set<String> wanted = new HashSet<>(functions);
    List<String> pending = new ArrayList<>(functions);
    while (!pending.isEmpty()) {
      String name = pending.remove(pending.size() - 1);
      program.function(name).ifPresent(f -> calledOutsideKernels(f.body(), wanted, pending));
    }
    List<InternalFunction> entries =
        program.functions().stream().filter(f -> wanted.contains(f.name())).toList();
    List<Kernel> out = new ArrayList<>();
    entries.forEach(f -> collect(f.name(), f.body(), 0, out));
    return new KernelPlan(entries, out);
  }

  /**
   * Adds to {@code found} and {@code pending} each function {@code body} calls outside a SOAC's
   * functions (in its statements, branches and loops) that {@code found} lacks.
   */
  private static void calledOutsideKernels(Body body, Set<String> found, List<String> pending) {
    for (Stm stm : body.stms()) {
      Exp e = stm.exp();
      if (e instanceof Exp.Apply call && found.add(call.function())) {
        pending.add(call.function());
      } else if (!(e instanceof Exp.Soac)) {
        e.bodies().forEach(b -> calledOutsideKernels(b, found, pending));
      }
    }
  }

  private static void collect(String function, Body body, int loopDepth, List<Kernel> out) {
    for (Stm stm : body.stms()) {
      Exp e = stm.exp();
      if (e instanceof Exp.Soac) {
        out.add(new Kernel(function, loopDepth, structure(e), stm));
      } else {
        int depth = e instanceof Exp.Loop ? loopDepth + 1 : loopDepth;
        e.bodies().forEach(b -> collect(function, b, depth, out));
      }
    }
  }

  /** {@code name{nested, ...}} for a SOAC, a loop or a branch holding SOACs. */
  private static String structure(Exp e) {
    List<String> nested = new ArrayList<>();
    for (Body b : Traversal.nestedBodies(e)) {
      for (Stm s : b.stms()) {
        if (s.exp() instanceof Exp.Soac || containsSoac(s.exp())) {
          nested.add(structure(s.exp()));
        }
      }
    }
    String name = name(e);
    return nested.isEmpty() ? name : name + "{" + String.join(", ", nested) + "}";
  }

  private static boolean containsSoac(Exp e) {
    return Traversal.nestedBodies(e).stream()
        .flatMap(b -> Traversal.statements(b).stream())
        .anyMatch(s -> s.exp() instanceof Exp.Soac);
  }

  private static String name(Exp e) {
    if (e instanceof Exp.Soac soac) {
      return soac.keyword();
    }
    return e instanceof Exp.Loop ? "loop" : "if";
  }
}
