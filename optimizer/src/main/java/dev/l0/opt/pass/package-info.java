/**
 * The first-order optimisation passes of thesis ch. 5–6 (inlining, normalisation, simplification,
 * hoisting, common-subexpression elimination), size-hindrance removal (§9.1), and the pass manager
 * that runs them to a fixpoint.
 */
package dev.l0.opt.pass;
