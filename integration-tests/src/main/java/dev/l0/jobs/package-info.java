/**
 * Spark jobs built on L0 pipelines, run by {@code bin/l0-job} or {@code spark-submit}: the
 * Black-Scholes reference job, the Parquet benchmark of an L0 pipeline against Spark SQL, and
 * FinPar's OptionPricing and LocVolCalib split over partitions, and what their benchmarks say of
 * the machine.
 */
package dev.l0.jobs;
