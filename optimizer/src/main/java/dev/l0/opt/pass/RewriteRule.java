package dev.l0.opt.pass;

/**
 * A named rewrite rule: a {@link SimplificationRule} or a fusion rule ({@code
 * dev.l0.opt.fusion.FusionRule}). The name is the one the thesis (or the seed) gives it, as {@code
 * explain} shows it per kernel.
 */
public interface RewriteRule {
  /** The rule's name, e.g. {@code FUSE-MAP-REDOMAP} or {@code REMOVE-SIZE-HINDRANCE}. */
  String ruleName();
}
