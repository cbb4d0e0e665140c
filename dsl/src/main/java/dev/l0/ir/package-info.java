/**
 * External L0 as the thesis defines it (ch. 2): types, expressions, functions, programs, and the
 * run-time values and shapes they compute. Every node is an immutable record carrying the {@link
 * dev.l0.ir.SourcePos} it was written at.
 */
package dev.l0.ir;
