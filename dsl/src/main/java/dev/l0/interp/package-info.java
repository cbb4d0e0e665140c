/**
 * The reference interpreter: evaluates external L0 programs on their AST with the operations of
 * {@link dev.l0.semantics}, and so defines what every program means; every other executor is tested
 * against it.
 */
package dev.l0.interp;
