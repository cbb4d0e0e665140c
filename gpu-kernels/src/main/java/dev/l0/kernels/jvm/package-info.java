/**
 * The JVM backend: each fused SOAC of a KernelPlan printed as Java source over primitive arrays,
 * compiled with Janino, run chunk-parallel in the kernels' deterministic reduction order.
 */
package dev.l0.kernels.jvm;
