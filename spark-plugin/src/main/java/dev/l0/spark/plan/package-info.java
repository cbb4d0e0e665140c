/**
 * Spark plans for L0 pipelines: the logical node, the rule that fuses adjacent pipelines, the
 * planner strategy and the columnar physical node, the partial aggregate fused onto that node, with
 * the per-task reading of Spark column vectors into runtime batches, the output batches over the
 * runtime's arrays, and the executor-wide GPU state.
 */
package dev.l0.spark.plan;
