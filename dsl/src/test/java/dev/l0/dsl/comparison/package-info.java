/**
 * Tests of the shared test helper the DSL tests compare programs with: {@link
 * dev.l0.testing.AlphaNormalizer}.
 */
package dev.l0.dsl.comparison;
