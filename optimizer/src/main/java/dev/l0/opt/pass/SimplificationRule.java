package dev.l0.opt.pass;

/**
 * The simplification rules by name, each a unit that a test can apply alone: the {@link
 * Simplifier}'s rules of thesis §5.3 (a {@code Simplifier} holds a set of them; {@link
 * Simplifier#only} applies one), and the hindrance removals and the transpose materialisation that
 * are a pass each (the pass named, run alone, applies its rule). None changes a floating-point
 * result or hides a failure. The last four are recorded in the {@link RuleLog} on the SOAC they
 * shape, so {@code explain} names them on its kernel.
 */
public enum SimplificationRule implements RewriteRule {
  /** §5.3 copy propagation: {@code let x = y in e} is {@code e} with {@code y} for {@code x}. */
  COPY_PROPAGATION("COPY-PROPAGATION"),
  /**
   * §5.3 constant folding with the evaluator's own scalar semantics ({@code 2147483647 + 1} is
   * {@code -2147483648}; an operation that would fail stays to fail at run time), the integer
   * identities {@code x + 0}, {@code x - 0}, {@code x * 1}, {@code x / 1}, {@code x <= x}, {@code x
   * - x}, {@code x ^ x}, {@code x * 0}, {@code x & 0}, {@code x & x}, {@code x | x}, and boolean
   * absorption ({@code x && x}, {@code x || (x || y)}); no identity on floats.
   */
  CONSTANT_FOLDING("CONSTANT-FOLDING"),
  /** §5.3 with shapes in types: {@code size(k, v)} is the size {@code v}'s type names. */
  FOLD_SIZE("FOLD-SIZE"),
  /**
   * Figs. 12 and 14: indexing into {@code iota}, {@code replicate}, {@code transpose}, {@code
   * reshape} or a literal reads the element without the array; the bounds check stays as an
   * assertion, so a failing index still fails in {@code index}.
   */
  FOLD_INDEX("FOLD-INDEX"),
  /** {@code if true then a else b} is {@code a}; an {@code if} whose branches are equal is one. */
  FOLD_IF("FOLD-IF"),
  /** {@code assert(true)} is checked: its certificate is removed from every statement it guards. */
  REMOVE_CHECKED_ASSERT("REMOVE-CHECKED-ASSERT"),
  /**
   * §5.3 dead-code removal: a binding nobody reads that cannot fail, and a map's scalar output
   * nobody reads.
   */
  REMOVE_DEAD_CODE("REMOVE-DEAD-CODE"),
  /**
   * A map's or fused screma's input whose row parameter its function never reads is no input (one
   * input always stays, which keeps the SOAC's size).
   */
  PRUNE_SOAC_INPUTS("PRUNE-SOAC-INPUTS"),
  /**
   * A map's row type takes the sizes its function's results have where the declared result type (an
   * inlined function's) names none.
   */
  REFINE_MAP_SHAPES("REFINE-MAP-SHAPES"),
  /**
   * §9.1 size-hindrance removal ({@link SizeHindrances}): a {@code transpose}'s unknown sizes are
   * its operand's, transposed; a SOAC's row parameter's unknown sizes are its input's rows'.
   */
  REMOVE_SIZE_HINDRANCE("REMOVE-SIZE-HINDRANCE"),
  /**
   * §9.2 inlining of indexing into a cheap map ({@code dev.l0.opt.fusion.IndexInlining}): {@code
   * map(f, a)[i]} is {@code f(a[i])}, so the index no longer blocks the map's fusion.
   */
  INLINE_INDEXING("INLINE-INDEXING"),
  /**
   * Ch. 8 ({@link TransposeMaterialisation}): a transposed array read as a value other than by a
   * kernel is copied by a kernel, {@code map(fn r => r, transpose(a))}, reading it as a view.
   */
  MATERIALISE_TRANSPOSE("MATERIALISE-TRANSPOSE"),
  /**
   * Ch. 6 hoisting, per row ({@link LoopInvariantRowCalls}): {@code exp}, {@code log}, {@code sin},
   * {@code cos} or {@code erf} of a row of an array bound outside a {@code loop}, in a map inside
   * it, is one map over that array in front of the loop, which the map reads as one more input.
   */
  HOIST_INVARIANT_ROW_CALLS("HOIST-INVARIANT-ROW-CALLS");

  private final String ruleName;

  SimplificationRule(String ruleName) {
    this.ruleName = ruleName;
  }

  @Override
  public String ruleName() {
    return ruleName;
  }
}
