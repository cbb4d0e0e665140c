/**
 * Static checking of external L0 (thesis ch. 2 and ch. 3): types, shapes, sharing and uniqueness.
 * {@link dev.l0.types.TypeChecker} turns a parsed program into a {@link dev.l0.types.TypedProgram}
 * or the first error.
 */
package dev.l0.types;
