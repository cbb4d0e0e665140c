/**
 * Exact floating-point summation: {@link dev.l0.kernels.exact.ExactSum} keeps a sum of doubles
 * without rounding and rounds it once when asked, so the result is the correctly rounded sum of the
 * values whatever order or grouping they were added in (the basis of partition-independent
 * aggregates); {@link dev.l0.kernels.exact.ExactFloatSum}, a fixed-point superaccumulator, adds
 * whole f32/f64 arrays and element-wise vectors fast, and {@link
 * dev.l0.kernels.exact.ExactFloatSumProgram} makes an L0 program's float-sum results exact. No
 * dependency on Spark.
 */
package dev.l0.kernels.exact;
