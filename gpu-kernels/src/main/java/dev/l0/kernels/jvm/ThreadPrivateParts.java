package dev.l0.kernels.jvm;

import dev.l0.ir.BinaryOperator;
import dev.l0.kernels.ir.Buffer;
import dev.l0.kernels.ir.KernelExpr;
import dev.l0.kernels.lower.ThreadScratch;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * Which part of a thread-private buffer an element index addresses, as far as its expression tells:
 * the lowering gives each array a thread makes a part of its own ({@link ThreadScratch}), and a
 * part that begins at a start of its own ({@link ThreadScratch#isPartStart}) is addressed by that
 * start plus an offset within the part. Two accesses whose indices add different part starts, or
 * one a part start and the other none, touch different arrays; anything else may be the same
 * element.
 */
public final class ThreadPrivateParts {
  private ThreadPrivateParts() {}

  /**
   * Whether the accesses of {@code buffer} at {@code first} and at {@code second} may touch the
   * same element: always for a buffer that is not thread-private.
   */
  public static boolean mayOverlap(Buffer buffer, KernelExpr first, KernelExpr second) {
    if (!buffer.isThreadPrivate()) {
      return true;
    }
    Optional<Optional<String>> a = part(buffer, first);
    Optional<Optional<String>> b = part(buffer, second);
    return a.isEmpty() || b.isEmpty() || a.get().equals(b.get());
  }

  /**
   * The part start {@code index} adds (empty inside: none, a part that begins elsewhere), or empty
   * where that is unclear: a part start in another place than a term of the sum, or two of them.
   */
  private static Optional<Optional<String>> part(Buffer buffer, KernelExpr index) {
    List<String> added = new ArrayList<>();
    List<String> elsewhere = new ArrayList<>();
    starts(buffer, index, true, added, elsewhere);
    if (!elsewhere.isEmpty() || added.size() > 1) {
      return Optional.empty();
    }
    return Optional.of(added.stream().findFirst());
  }

  /**
   * Collects the part starts of {@code buffer} in {@code e}: into {@code added} those that are
   * terms of the sum {@code e} is (where {@code term}), into {@code elsewhere} the others.
   */
  private static void starts(
      Buffer buffer, KernelExpr e, boolean term, List<String> added, List<String> elsewhere) {
    if (e instanceof KernelExpr.Var v) {
      if (ThreadScratch.isPartStart(buffer, v)) {
        (term ? added : elsewhere).add(v.name());
      }
    } else if (e instanceof KernelExpr.Binary b) {
      boolean sum = term && b.op() == BinaryOperator.ADD;
      starts(buffer, b.left(), sum || (term && b.op() == BinaryOperator.SUB), added, elsewhere);
      starts(buffer, b.right(), sum, added, elsewhere);
    } else if (e instanceof KernelExpr.Unary u) {
      starts(buffer, u.operand(), false, added, elsewhere);
    } else if (e instanceof KernelExpr.Call c) {
      c.args().forEach(a -> starts(buffer, a, false, added, elsewhere));
    } else if (e instanceof KernelExpr.Select s) {
      starts(buffer, s.condition(), false, added, elsewhere);
      starts(buffer, s.ifTrue(), false, added, elsewhere);
      starts(buffer, s.ifFalse(), false, added, elsewhere);
    } else if (e instanceof KernelExpr.Load l) {
      starts(buffer, l.index(), false, added, elsewhere);
    } else if (e instanceof KernelExpr.SharedLoad l) {
      starts(buffer, l.index(), false, added, elsewhere);
    }
  }
}
