/**
 * Lowering of the optimiser's kernel plan to the kernel IR: each top-level SOAC (map, redomap,
 * reduce, scan, scanomap, filter) becomes a kernel group, whose threads read an input they would
 * read along rows, a row per thread, from a transposed copy, and, on a GPU, whose reductions run
 * the heavy work of their folds a thread per row first; what it cannot lower it rejects.
 */
package dev.l0.kernels.lower;
