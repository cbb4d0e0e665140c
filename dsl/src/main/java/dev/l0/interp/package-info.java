/**
 * The reference interpreter: evaluates external L0 programs directly on their AST and so
 * defines what every program means; every other executor is tested against it.
 */
package dev.l0.interp;
