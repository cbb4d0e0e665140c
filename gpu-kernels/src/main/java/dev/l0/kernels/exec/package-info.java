/**
 * The host runner: runs an optimised program's entry function statement by statement, handing
 * each kernel of its KernelPlan to a pluggable executor and the scalar code between to the evaluator.
 */
package dev.l0.kernels.exec;
