package dev.l0.dsl;

import dev.l0.ir.Type;
import java.util.List;

/** A staged 4-tuple; {@code _1()} ... {@code _4()} read its components. */
public final class Tup4<A extends Val, B extends Val, C extends Val, D extends Val> extends Tup {
  private Tup4(Parts parts) {
    super(parts);
  }

  /** The type of 4-tuples of the given component types. */
  public static <A extends Val, B extends Val, C extends Val, D extends Val>
      ValType<Tup4<A, B, C, D>> of(ValType<A> a, ValType<B> b, ValType<C> c, ValType<D> d) {
    CallSite.nonNull("Tup4.of(a, b, c, d)", a, b, c, d);
    return new ValType<>(
        Type.tuple(a.l0Type(), b.l0Type(), c.l0Type(), d.l0Type()), List.of(a, b, c, d), Tup4::new);
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
}
