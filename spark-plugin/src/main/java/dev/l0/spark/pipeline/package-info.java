/**
 * Plans L0 pipelines against a DataFrame schema (binding, kind, fused program) and runs them on
 * column batches, partition by partition, without any Spark execution classes.
 */
package dev.l0.spark.pipeline;
