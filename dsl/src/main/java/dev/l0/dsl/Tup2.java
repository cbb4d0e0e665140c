package dev.l0.dsl;

import dev.l0.ir.Type;
import java.util.List;

/** A staged 2-tuple; {@code _1()} ... {@code _2()} read its components. */
public final class Tup2<A extends Val, B extends Val> extends Tup {
  private Tup2(Parts parts) {
    super(parts);
  }

  /** The type of 2-tuples of the given component types. */
  public static <A extends Val, B extends Val> ValType<Tup2<A, B>> of(ValType<A> a, ValType<B> b) {
    CallSite.nonNull("Tup2.of(a, b)", a, b);
    return new ValType<>(Type.tuple(a.l0Type(), b.l0Type()), List.of(a, b), Tup2::new);
  }

  public A _1() {
    return component(0);
  }

  public B _2() {
    return component(1);
  }
}
