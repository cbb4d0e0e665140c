package dev.l0.kernels.lower;

import dev.l0.opt.ir.Body;
import dev.l0.opt.ir.Exp;
import dev.l0.opt.ir.Ident;
import dev.l0.opt.ir.Stm;
import dev.l0.opt.ir.SubExp;
import dev.l0.opt.ir.Traversal;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Whether a loop inside a kernel thread may give the rows of an array it carries sizes of their
 * own, which its type leaves unknown: the next value's rows are made (through copies, in-place
 * updates, branches and maps) by a construct that makes sizes ({@code concat}, an array literal, a
 * {@code reshape} or {@code transpose}, an {@code iota} or {@code replicate} whose count is not the
 * {@code size} of an array), so they may be larger than the rows the array was laid out for. Rows
 * made otherwise (by a loop, an index, an outside array) are taken to keep their sizes, as the
 * lowering has always laid them out.
 */
final class LoopRowGrowth {
  /** The statement binding each name of the loop's body, at any depth (names are unique). */
  private final Map<String, Stm> producers = new HashMap<>();

  private LoopRowGrowth(Body loopBody) {
    for (Stm stm : Traversal.statements(loopBody)) {
      stm.pattern().forEach(id -> producers.put(id.name(), stm));
    }
  }

  /**
   * Whether the rows of {@code result}, a result of {@code loopBody}, may get sizes of their own.
   */
  static boolean mayResizeRows(Body loopBody, SubExp result) {
    return new LoopRowGrowth(loopBody).rowsMaySize(result);
  }

  private boolean rowsMaySize(SubExp array) {
    Stm stm = producer(array);
    if (stm == null) {
      return false;
    }
    Exp e = stm.exp();
    if (e instanceof Exp.Screma m && m.isMap()) {
      return maySize(resultOf(m.fold().body(), stm, array));
    }
    if (e instanceof Exp.If branch) {
      return rowsMaySize(resultOf(branch.thenBody(), stm, array))
          || rowsMaySize(resultOf(branch.elseBody(), stm, array));
    }
    SubExp source = sourceOf(e);
    return source == null ? makesSizes(e) : rowsMaySize(source);
  }

  /** Whether {@code array} may have a size of its own in any dimension. */
  private boolean maySize(SubExp array) {
    Stm stm = producer(array);
    if (stm == null) {
      return false;
    }
    Exp e = stm.exp();
    if (e instanceof Exp.Screma m && m.isMap()) {
      return maySize(m.inputs().get(0)) || maySize(resultOf(m.fold().body(), stm, array));
    }
    if (e instanceof Exp.If branch) {
      return maySize(resultOf(branch.thenBody(), stm, array))
          || maySize(resultOf(branch.elseBody(), stm, array));
    }
    if (e instanceof Exp.Iota iota) {
      return !isSize(iota.count());
    }
    if (e instanceof Exp.Replicate replicate) {
      return !isSize(replicate.count()) || maySize(replicate.value());
    }
    SubExp source = sourceOf(e);
    return source == null ? makesSizes(e) : maySize(source);
  }

  /** The array whose shape {@code e} keeps (a copy, an in-place update), or {@code null}. */
  private static SubExp sourceOf(Exp e) {
    if (e instanceof Exp.Atom atom) {
      return atom.value();
    }
    if (e instanceof Exp.Copy copy) {
      return copy.array();
    }
    return e instanceof Exp.Update update ? update.array() : null;
  }

  private static boolean makesSizes(Exp e) {
    return e instanceof Exp.Concat
        || e instanceof Exp.ArrayLit
        || e instanceof Exp.Reshape
        || e instanceof Exp.Transpose
        || e instanceof Exp.Iota
        || e instanceof Exp.Replicate;
  }

  /** Whether {@code count} is the {@code size} of an array. */
  private boolean isSize(SubExp count) {
    Stm stm = producer(count);
    return stm != null && stm.exp() instanceof Exp.Size;
  }

  private Stm producer(SubExp s) {
    return s instanceof SubExp.Var v ? producers.get(v.name()) : null;
  }

  /** The result of {@code body} that {@code stm} binds to {@code value}. */
  private static SubExp resultOf(Body body, Stm stm, SubExp value) {
    List<String> names = stm.pattern().stream().map(Ident::name).toList();
    return body.result().get(names.indexOf(value.varName()));
  }
}
