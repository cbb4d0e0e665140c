/**
 * Test helpers that run Spark as separate processes: child JVMs with captured output, a Spark
 * "distribution" folder made from the test class path, a standalone Master and Worker, app jars.
 */
package dev.l0.spark.cluster;
