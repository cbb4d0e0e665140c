/**
 * Internal L0 (thesis ch. 4): tupleless, let-normalised, globally uniquely named statements with
 * certificates and multi-input/multi-output SOACs, plus its printer and name supply.
 */
package dev.l0.opt.ir;
