package dev.l0.dsl;

import dev.l0.ir.Type;
import java.util.List;

/** A staged 6-tuple; {@code _1()} ... {@code _6()} read its components. */
public final class Tup6<
        A extends Val, B extends Val, C extends Val, D extends Val, E extends Val, F extends Val>
    extends Tup {
  private Tup6(Parts parts) {
    super(parts);
  }

  /** The type of 6-tuples of the given component types. */
  public static <
          A extends Val, B extends Val, C extends Val, D extends Val, E extends Val, F extends Val>
      ValType<Tup6<A, B, C, D, E, F>> of(
          ValType<A> a, ValType<B> b, ValType<C> c, ValType<D> d, ValType<E> e, ValType<F> f) {
    CallSite.nonNull("Tup6.of(a, b, c, d, e, f)", a, b, c, d, e, f);
    return new ValType<>(
        Type.tuple(a.l0Type(), b.l0Type(), c.l0Type(), d.l0Type(), e.l0Type(), f.l0Type()),
        List.of(a, b, c, d, e, f),
        Tup6::new);
  }

  public A _1() {
    return component(0);
  }

  public B _2() {
    return component(1);
  }

  public C _3() {
    return component(2);
  }

  public D _4() {
    return component(3);
  }

  public E _5() {
    return component(4);
  }

  public F _6() {
    return component(5);
  }
}
