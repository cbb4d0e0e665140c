package dev.l0.opt.pass;

import dev.l0.opt.ir.Stm;

/**
 * Where a pass says which {@link RewriteRule} shaped a statement binding a SOAC (or an array a SOAC
 * reads, such as a {@code transpose}), so that {@code explain} can name it on the kernel the
 * statement becomes. {@link #NONE} forgets: a pass applied alone, in a test, needs no log.
 */
public interface RuleLog {
  RuleLog NONE = (rule, shaped) -> {};

  /** {@code rule} rewrote {@code shaped}, the statement as the rule left it. */
  void shaped(RewriteRule rule, Stm shaped);
}
