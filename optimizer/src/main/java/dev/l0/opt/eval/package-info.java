/**
 * Runs internal L0 programs on values with the reference interpreter's operations ({@link
 * dev.l0.semantics}), and converts values between the external (tuples, arrays of tuples) and the
 * internal (tupleless) form.
 */
package dev.l0.opt.eval;
