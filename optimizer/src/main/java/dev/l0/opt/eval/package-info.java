/**
 * Runs internal L0 programs on values, bit-identically to the reference interpreter, and converts
 * values between the external (tuples, arrays of tuples) and the internal (tupleless) form.
 */
package dev.l0.opt.eval;
