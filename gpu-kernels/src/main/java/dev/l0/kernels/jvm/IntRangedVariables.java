package dev.l0.kernels.jvm;

import dev.l0.ir.Builtin;
import dev.l0.ir.ScalarType;
import dev.l0.ir.ScalarValue;
import dev.l0.kernels.ir.Kernel;
import dev.l0.kernels.ir.KernelExpr;
import dev.l0.kernels.ir.KernelStmt;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The {@code i64} locals of a kernel's code that only ever hold values of {@code int}'s range:
 * every declaration and assignment of one gives it an {@code i32} value widened to {@code i64}, an
 * integer constant in {@code int}'s range, another such local, or a choice ({@code ?:}) between
 * such values. The kernel's scalars are never among them (they come from outside the code). A loop
 * bounded by such a local runs with an {@code int} counter ({@link JavaKernelIrPrinter}'s {@code
 * intBound}): the shape a thread records for an array it builds row by row (OptionPricing's
 * Brownian bridge copies its rows with it) is one.
 */
final class IntRangedVariables {
  private IntRangedVariables() {}

  /**
   * The names of {@code kernel}'s {@code i64} locals that hold only values of {@code int}'s range.
   */
  static Set<String> of(Kernel kernel) {
    Map<String, List<KernelExpr>> definitions = new HashMap<>();
    Set<String> counters = new HashSet<>();
    collect(kernel.body(), definitions, counters);
    Set<String> ranged = new HashSet<>(definitions.keySet());
    ranged.removeAll(counters);
    kernel.scalars().forEach(scalar -> ranged.remove(scalar.name()));
    boolean changed = true;
    while (changed) {
      changed =
          ranged.removeIf(
              name -> definitions.get(name).stream().anyMatch(value -> !intRanged(value, ranged)));
    }
    return Set.copyOf(ranged);
  }

  /**
   * The values every {@code i64} local of {@code body} (at any depth) is declared or assigned, and
   * the names of its loop counters (which take values the loop computes).
   */
  private static void collect(
      List<KernelStmt> body, Map<String, List<KernelExpr>> definitions, Set<String> counters) {
    for (KernelStmt s : body) {
      if (s instanceof KernelStmt.Declare d) {
        define(d.variable(), d.initial(), definitions);
      } else if (s instanceof KernelStmt.Assign a) {
        define(a.variable(), a.value(), definitions);
      } else if (s instanceof KernelStmt.If i) {
        collect(i.thenBody(), definitions, counters);
        collect(i.elseBody(), definitions, counters);
      } else if (s instanceof KernelStmt.For f) {
        counters.add(f.counter().name());
        collect(f.body(), definitions, counters);
      } else if (s instanceof KernelStmt.While w) {
        collect(w.body(), definitions, counters);
      }
    }
  }

  private static void define(
      KernelExpr.Var variable, KernelExpr value, Map<String, List<KernelExpr>> definitions) {
    if (variable.type() == ScalarType.I64) {
      definitions.computeIfAbsent(variable.name(), name -> new ArrayList<>()).add(value);
    }
  }

  private static boolean intRanged(KernelExpr value, Set<String> ranged) {
    if (value instanceof KernelExpr.Constant c) {
      return c.value() instanceof ScalarValue.Int i
          && i.value() >= Integer.MIN_VALUE
          && i.value() <= Integer.MAX_VALUE;
    }
    if (value instanceof KernelExpr.Call c) {
      return c.function() == Builtin.TO_I64 && c.args().get(0).type() == ScalarType.I32;
    }
    if (value instanceof KernelExpr.Var v) {
      return v.type() == ScalarType.I64 && ranged.contains(v.name());
    }
    if (value instanceof KernelExpr.Select s) {
      return intRanged(s.ifTrue(), ranged) && intRanged(s.ifFalse(), ranged);
    }
    return false;
  }
}
