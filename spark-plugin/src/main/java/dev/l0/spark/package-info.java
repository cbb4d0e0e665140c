/**
 * Spark integration: the executor plugin, the SQL extension, pipeline plan nodes and Arrow interop.
 * Spark is a {@code provided} dependency; users add the one shaded jar with {@code --jars}.
 */
package dev.l0.spark;
