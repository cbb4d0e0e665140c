package dev.l0.dsl;

import dev.l0.ir.SourcePos;
import java.util.List;

/**
 * A staged tuple (thesis Fig. 1), the common part of {@link Tup2} ... {@link Tup6} and {@link
 * TupN}. L0 has no projection: a tuple known only as a whole (a parameter, a call's result) is
 * taken apart with a pattern {@code let {c1, ..., cn} = t in ...} the first time a component is
 * read.
 */
public abstract class Tup extends Val {
  Tup(Parts parts) {
    super(parts);
  }

  /** Component {@code index}, 0-based. */
  final <C extends Val> C component(int index) {
    SourcePos pos = CallSite.current();
    List<Val> parts =
        components.isPresent() ? components.get() : Stager.active(pos).destructure(this, pos);
    return narrow(parts.get(index));
  }
}
