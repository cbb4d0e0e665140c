package dev.l0.kernels.lower;

import dev.l0.kernels.ir.KernelExpr;
import java.util.List;

/** Where a lowered body puts one of its results: a local, or a region of a buffer. */
sealed interface Destination
    permits Destination.ToLocal,
        Destination.ToMemory,
        Destination.ToResizable,
        Destination.ToUnsized,
        Destination.ToChosen {

  /** A scalar result assigned to a declared local. */
  record ToLocal(KernelExpr.Var local) implements Destination {}

  /** A result written into {@code view} (one element when the result is a scalar). */
  record ToMemory(ArrayView view) implements Destination {}

  /**
   * An array result written into {@code region}, whose outer size is a local holding its live
   * number of rows, at most {@code capacity} (the rows allocated): the write sets the local.
   */
  record ToResizable(ArrayView region, KernelExpr capacity) implements Destination {}

  /**
   * An array result whose shape the thread learns when it writes it ({@link UnsizedResult}):
   * written row-major from {@code offset} of the result's buffer. Where it is row {@code row} of a
   * map's result ({@code rows} not null), a shape other than the first row's is not written but
   * noted in {@code rows}, whose error the map raises once all its rows ran, as the interpreter
   * does; elsewhere it raises the kernel's shape error at once.
   */
  record ToUnsized(UnsizedResult result, KernelExpr offset, KernelExpr row, IrregularRows rows)
      implements Destination {
    ToUnsized(UnsizedResult result, KernelExpr offset) {
      this(result, offset, null, null);
    }
  }

  /**
   * The first row of a map inside a thread whose shape differs from its first row's ({@code first},
   * -1 while none does) and that row's sizes.
   */
  record IrregularRows(KernelExpr.Var first, List<KernelExpr.Var> sizes) {}

  /**
   * A scalar result stored into the element {@code ifTrue} where {@code condition} holds, else into
   * the element {@code ifFalse} (a map's row written into the row an update takes, or into scratch
   * where the update fails: {@link MapIntoUpdatedRow}).
   */
  record ToChosen(KernelExpr condition, ArrayView ifTrue, ArrayView ifFalse)
      implements Destination {}
}
