package dev.l0.dsl;

import dev.l0.ir.Type;
import java.util.List;

/** A staged 5-tuple; {@code _1()} ... {@code _5()} read its components. */
public final class Tup5<A extends Val, B extends Val, C extends Val, D extends Val, E extends Val>
    extends Tup {
  private Tup5(Parts parts) {
    super(parts);
  }

  /** The type of 5-tuples of the given component types. */
  public static <A extends Val, B extends Val, C extends Val, D extends Val, E extends Val>
      ValType<Tup5<A, B, C, D, E>> of(
          ValType<A> a, ValType<B> b, ValType<C> c, ValType<D> d, ValType<E> e) {
    CallSite.nonNull("Tup5.of(a, b, c, d, e)", a, b, c, d, e);
    return new ValType<>(
        Type.tuple(a.l0Type(), b.l0Type(), c.l0Type(), d.l0Type(), e.l0Type()),
        List.of(a, b, c, d, e),
        Tup5::new);
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
}
