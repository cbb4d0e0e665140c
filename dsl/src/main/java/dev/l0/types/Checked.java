package dev.l0.types;

import dev.l0.ir.Type;

/**
 * What checking an expression yields: its type (with shapes and uniqueness) and its sharing (thesis
 * §3.1).
 */
record Checked(Type type, Sharing sharing) {
  /** A value that shares memory with nothing: a scalar, or a freshly made array. */
  static Checked fresh(Type type) {
    return new Checked(type, Sharing.none(type));
  }
}
