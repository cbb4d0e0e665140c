/**
 * The optimiser's entry point: from a type-checked program to an optimised internal program, its
 * {@link dev.l0.opt.KernelPlan} and the explain text (thesis ch. 4–7).
 */
package dev.l0.opt;
