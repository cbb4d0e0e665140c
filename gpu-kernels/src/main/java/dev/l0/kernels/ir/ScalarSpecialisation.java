package dev.l0.kernels.ir;

import dev.l0.ir.ScalarValue;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * A kernel specialised to values of some of its scalar parameters: every read of such a parameter
 * in its code replaced by the constant it is bound to, so a compiler folds what those values decide
 * (loop trip counts, index arithmetic, bounds checks, branches). The parameters stay in the
 * kernel's signature, unread, so the specialised kernel launches as the original does.
 */
public final class ScalarSpecialisation {
  private ScalarSpecialisation() {}

  /** {@code kernel} with each scalar parameter that {@code values} names read as its value. */
  public static Kernel of(Kernel kernel, Map<String, ScalarValue> values) {
    return new Kernel(
        kernel.name(),
        kernel.buffers(),
        kernel.scalars(),
        kernel.shared(),
        statements(kernel.body(), values));
  }

  /**
   * The scalar parameters each loop inside a thread of {@code kernel} (a constant step; a thread's
   * loop over the grid's rows does not step by one) reads in its bound, for each loop whose bound
   * reads nothing else but constants (OptionPricing's loops over a path's dates, underlyings and
   * models): values of these parameters fix those loops' trip counts.
   */
  public static List<List<String>> loopBoundScalars(Kernel kernel) {
    List<String> parameters = kernel.scalars().stream().map(KernelExpr.Var::name).toList();
    List<List<String>> bounds = new ArrayList<>();
    collectLoopBounds(kernel.body(), parameters, bounds);
    return bounds;
  }

  /**
   * The scalar parameters of {@code kernel} read only by the bounds of its threads' loops over the
   * grid's rows (the loops whose step is not a constant): they count the launch's rows and decide
   * nothing about what a row computes.
   */
  public static Set<String> rowCountScalars(Kernel kernel) {
    Set<String> inRowLoopBounds = new HashSet<>();
    Set<String> elsewhere = new HashSet<>();
    collectReads(kernel.body(), inRowLoopBounds, elsewhere);
    Set<String> rowCounts = new HashSet<>();
    for (KernelExpr.Var parameter : kernel.scalars()) {
      if (inRowLoopBounds.contains(parameter.name()) && !elsewhere.contains(parameter.name())) {
        rowCounts.add(parameter.name());
      }
    }
    return rowCounts;
  }

  private static void collectReads(
      List<KernelStmt> body, Set<String> inRowLoopBounds, Set<String> elsewhere) {
    for (KernelStmt s : body) {
      if (s instanceof KernelStmt.For f && !(f.step() instanceof KernelExpr.Constant)) {
        collectReads(f.bound(), inRowLoopBounds);
        collectReads(f.start(), elsewhere);
        collectReads(f.step(), elsewhere);
        collectReads(f.body(), inRowLoopBounds, elsewhere);
      } else {
        s.withParts(
            e -> {
              collectReads(e, elsewhere);
              return e;
            },
            b -> {
              collectReads(b, inRowLoopBounds, elsewhere);
              return b;
            });
      }
    }
  }

  private static void collectReads(KernelExpr e, Set<String> reads) {
    if (e instanceof KernelExpr.Var v) {
      reads.add(v.name());
    }
    e.children().forEach(c -> collectReads(c, reads));
  }

  /**
   * Whether {@code values} fix a short loop: a loop one of {@code bounds} ({@link
   * #loopBoundScalars}) describes whose parameters all have integer values from 0 to {@code most},
   * the loops a compiler unrolls and folds once their trip counts are constants.
   */
  public static boolean fixesShortLoop(
      List<List<String>> bounds, Map<String, ScalarValue> values, long most) {
    return bounds.stream()
        .anyMatch(
            read ->
                read.stream()
                    .allMatch(
                        name ->
                            values.get(name) instanceof ScalarValue.Int i
                                && i.value() >= 0
                                && i.value() <= most));
  }

  private static void collectLoopBounds(
      List<KernelStmt> body, List<String> parameters, List<List<String>> bounds) {
    for (KernelStmt s : body) {
      if (s instanceof KernelStmt.For f) {
        List<String> read = new ArrayList<>();
        if (f.step() instanceof KernelExpr.Constant
            && onlyVariablesAndConstants(f.bound(), read)
            && !read.isEmpty()
            && parameters.containsAll(read)) {
          bounds.add(List.copyOf(read));
        }
        collectLoopBounds(f.body(), parameters, bounds);
      } else if (s instanceof KernelStmt.If i) {
        collectLoopBounds(i.thenBody(), parameters, bounds);
        collectLoopBounds(i.elseBody(), parameters, bounds);
      } else if (s instanceof KernelStmt.While w) {
        collectLoopBounds(w.body(), parameters, bounds);
      }
    }
  }

  /**
   * Whether {@code e} reads only variables and constants; adds the variables' names to {@code
   * read}.
   */
  private static boolean onlyVariablesAndConstants(KernelExpr e, List<String> read) {
    if (e instanceof KernelExpr.Var v) {
      read.add(v.name());
      return true;
    }
    if (e instanceof KernelExpr.Constant) {
      return true;
    }
    if (e instanceof KernelExpr.Binary b) {
      return onlyVariablesAndConstants(b.left(), read)
          && onlyVariablesAndConstants(b.right(), read);
    }
    if (e instanceof KernelExpr.Unary u) {
      return onlyVariablesAndConstants(u.operand(), read);
    }
    if (e instanceof KernelExpr.Call c) {
      return c.args().stream().allMatch(a -> onlyVariablesAndConstants(a, read));
    }
    return false;
  }

  private static List<KernelStmt> statements(
      List<KernelStmt> body, Map<String, ScalarValue> values) {
    return body.stream()
        .map(s -> s.withParts(e -> expr(e, values), b -> statements(b, values)))
        .toList();
  }

  private static KernelExpr expr(KernelExpr e, Map<String, ScalarValue> values) {
    if (e instanceof KernelExpr.Var v) {
      ScalarValue value = values.get(v.name());
      return value == null ? v : new KernelExpr.Constant(value);
    }
    return e.withChildren(e.children().stream().map(c -> expr(c, values)).toList());
  }
}
