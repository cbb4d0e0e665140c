package dev.l0.dsl;

import dev.l0.ir.Type;
import java.util.List;

/** A staged 3-tuple; {@code _1()} ... {@code _3()} read its components. */
public final class Tup3<A extends Val, B extends Val, C extends Val> extends Tup {
  private Tup3(Parts parts) {
    super(parts);
  }

  /** The type of 3-tuples of the given component types. */
  public static <A extends Val, B extends Val, C extends Val> ValType<Tup3<A, B, C>> of(
      ValType<A> a, ValType<B> b, ValType<C> c) {
    CallSite.nonNull("Tup3.of(a, b, c)", a, b, c);
    return new ValType<>(
        Type.tuple(a.l0Type(), b.l0Type(), c.l0Type()), List.of(a, b, c), Tup3::new);
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
}
