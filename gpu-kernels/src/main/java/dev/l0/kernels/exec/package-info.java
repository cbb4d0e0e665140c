/**
 * The host runner: runs an optimised program's functions statement by statement, arrays kept flat,
 * handing each kernel of its KernelPlan to a pluggable executor and the scalar code between to the
 * evaluator.
 */
package dev.l0.kernels.exec;
