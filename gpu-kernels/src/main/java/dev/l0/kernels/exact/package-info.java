/**
 * Exact floating-point summation: {@link dev.l0.kernels.exact.ExactSum} keeps a sum of doubles
 * without rounding and rounds it once when asked, so the result is the correctly rounded sum of
 * the values whatever order or grouping they were added in (the basis of partition-independent
 * aggregates). No dependency on Spark.
 */
package dev.l0.kernels.exact;
