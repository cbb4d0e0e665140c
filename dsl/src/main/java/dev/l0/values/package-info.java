/**
 * Run-time values outside the interpreter: reading and writing them in the data format of
 * shared/data/README.md, and their types.
 */
package dev.l0.values;
