/**
 * Test support shared with every module through the dsl test-jar: random well-typed programs, the
 * appendix programs and reference data, and normal forms (positions erased, names canonical).
 */
package dev.l0.testing;
