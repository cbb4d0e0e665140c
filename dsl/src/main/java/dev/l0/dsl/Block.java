package dev.l0.dsl;

import dev.l0.ir.Expr;
import java.util.ArrayList;
import java.util.List;

/**
 * One scope being staged: a function body, a lambda body, an if branch or a loop body (LMS's {@code
 * reifyBlock}). Operations staged while it is current append {@link Statement}s to it; when it
 * ends, {@link Reifier} turns them and the block's result into one expression. The only mutable
 * state of the DSL besides {@link Stager}, and it lives only while its program is staged.
 */
final class Block {
  private final Stager owner;
  private final Block function;
  private final List<Statement> statements = new ArrayList<>();
  private boolean open = true;

  /**
   * A block nested in {@code enclosing}, or the body of a function when {@code enclosing} is null.
   */
  Block(Stager owner, Block enclosing) {
    this.owner = owner;
    this.function = enclosing == null ? this : enclosing.function;
  }

  void add(Statement statement) {
    statements.add(statement);
  }

  /**
   * Whether a value staged in this block may be used where {@code here} is current: this block is
   * still open and belongs to the same function of the same program (open blocks of one function
   * are exactly the blocks enclosing the current one).
   */
  boolean isVisibleFrom(Block here) {
    return open && here != null && here.owner == owner && here.function == function;
  }

  /** The block's statements around {@code result}, as one expression. */
  Expr reify(Expr result) {
    return Reifier.reify(statements, result);
  }

  void end() {
    open = false;
  }
}
