/**
 * End-to-end tests of L0 pipelines on a real local Spark (no mocks): results against plain Spark
 * and sequential Java, fusion in the physical plan, planning errors, and memory over a large
 * partition.
 */
package dev.l0.spark.endtoend;
