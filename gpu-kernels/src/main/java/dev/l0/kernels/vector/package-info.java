/**
 * Exact lane-wise math: fdlibm's algorithms (what {@link java.lang.StrictMath} and {@link
 * dev.l0.math.L0Math} compute) written with the JDK Vector API, so that every lane's result equals
 * the scalar one bit for bit, applied to arrays in one call per function. Where the {@code
 * jdk.incubator.vector} module is not loaded, the same calls run the scalar functions.
 */
package dev.l0.kernels.vector;
