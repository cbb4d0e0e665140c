/**
 * What L0's scalar operators, built-in functions and first-order array operations do to run-time
 * values (thesis §2.3): the one definition that the reference interpreter and every other evaluator
 * share.
 */
package dev.l0.semantics;
