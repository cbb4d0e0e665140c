/**
 * The end-of-day risk batch ({@code bin/l0-job risk-batch}): reads and validates a portfolio and a
 * market snapshot of spots, volatilities, rates and correlations (or generates a seeded synthetic
 * one), prices vanilla options with their greeks and FinPar OptionPricing's path-dependent
 * contracts by Monte-Carlo (their greeks by bump-and-reprice on the same paths), and revalues them
 * under a grid of spot and volatility shocks as L0 pipelines, aggregates per book, per instrument
 * and for the portfolio with exact (partition-independent) sums, computes VaR and expected
 * shortfall, and writes Parquet, a summary JSON and an HTML report per valuation date, atomically.
 */
package dev.l0.jobs.risk;
