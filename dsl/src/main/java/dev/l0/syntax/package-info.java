/**
 * The concrete syntax of L0 (thesis ch. 2): turns program text into the external IR and back.
 * Lexer, recursive-descent parser with exact error positions, and a canonical printer.
 */
package dev.l0.syntax;
