/**
 * L0's own reading of Parquet files: flat columns of primitive types decoded from the pages
 * straight into Spark's on-heap column vectors, with fewer copies than Spark's reader; anything
 * else is left to Spark's reader.
 */
package dev.l0.spark.parquet;
