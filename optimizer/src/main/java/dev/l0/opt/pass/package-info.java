/**
 * The first-order optimisation passes of thesis ch. 5–6 (inlining, normalisation, simplification,
 * hoisting, common-subexpression elimination), size-hindrance removal (§9.1), the copy of
 * transposes read as values (ch. 8), the names of these rules ({@link
 * dev.l0.opt.pass.SimplificationRule}) and the log in which a pass records the SOACs a rule shaped,
 * and the pass manager that runs them to a fixpoint.
 */
package dev.l0.opt.pass;
