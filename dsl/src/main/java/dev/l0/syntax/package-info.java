/**
 * The concrete syntax of L0 (thesis ch. 2): turns program text into the external IR and back.
 * Lexer, recursive-descent parser with exact error positions, a canonical printer, and the reading
 * of program files (strict UTF-8, a file that cannot be read named with why).
 */
package dev.l0.syntax;
