/**
 * The host runner: runs an optimised program's functions statement by statement, arrays kept flat,
 * handing each kernel of its KernelPlan to a pluggable executor and the scalar code between to the
 * evaluator; a call's state (its variables, its meter, the spare arrays its JVM kernels allocate
 * from) is its own.
 */
package dev.l0.kernels.exec;
