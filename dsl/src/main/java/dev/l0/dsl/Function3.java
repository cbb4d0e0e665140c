package dev.l0.dsl;

/** A Java function of three staged values: the body of a three-parameter L0 function or lambda. */
@FunctionalInterface
public interface Function3<A, B, C, R> {
  R apply(A a, B b, C c);
}
