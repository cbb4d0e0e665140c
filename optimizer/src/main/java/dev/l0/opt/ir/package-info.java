/**
 * Internal L0 (thesis ch. 4): tupleless, let-normalised, globally uniquely named statements with
 * certificates and multi-input/multi-output SOACs, plus its printer, name supply, the generic
 * traversals the passes share and the checker of its invariants.
 */
package dev.l0.opt.ir;
