/**
 * Lowering of the optimiser's kernel plan to the kernel IR: each top-level SOAC (map, redomap,
 * reduce, scan, scanomap, filter) becomes a kernel group; what it cannot lower it rejects.
 */
package dev.l0.kernels.lower;
