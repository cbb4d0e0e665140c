/**
 * DSL programs and their tests, written as a user writes them: outside package dev.l0.dsl, so that
 * the positions the DSL records point at these files.
 */
package dev.l0.dsl.usage;
