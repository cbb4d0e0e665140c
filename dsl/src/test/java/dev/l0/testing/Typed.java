package dev.l0.testing;

import dev.l0.ir.Expr;
import dev.l0.ir.Type;

/**
 * A generated expression with the type it has by construction. Array sizes in {@code type} are what
 * the generator knows statically (see {@link SizedTypes}); the program text itself only ever
 * carries {@link Type#erased()} types.
 */
record Typed(Expr expr, Type type) {}
