package dev.l0.dsl;

import dev.l0.ir.Expr;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * One scope being staged: a function body, a lambda body, an if branch or a loop body (LMS's {@code
 * reifyBlock}). Operations staged while it is current append {@link Statement}s to it; when it
 * ends, {@link Reifier} turns them and the block's result into one expression. The only mutable
 * state of the DSL besides {@link Stager}, and it lives only while its program is staged.
 */
final class Block {
  private final Stager owner;
  private final Block function;

  /** The name of the function whose body this block is; null for a nested block. */
  private final String functionName;

  private final List<Statement> statements = new ArrayList<>();
  private boolean open = true;

  private Block(Stager owner, Block function, String functionName) {
    this.owner = owner;
    this.function = function == null ? this : function;
    this.functionName = functionName;
  }

  /** The body of the function {@code name} of the program {@code owner} stages. */
  static Block functionBody(Stager owner, String name) {
    return new Block(owner, null, name);
  }

  /** A block nested in {@code enclosing}: a lambda's body, an if branch or a loop body. */
  static Block nestedIn(Block enclosing) {
    return new Block(enclosing.owner, enclosing.function, null);
  }

  void add(Statement statement) {
    statements.add(statement);
  }

  /**
   * Why a value staged in this block may not be used where {@code here} is current (null between
   * function bodies); empty where it may: this block belongs to the same program and function and
   * is still open (open blocks of one function are exactly the blocks enclosing the current one).
   */
  Optional<String> whyNotVisibleFrom(Block here) {
    if (here != null && here.owner != owner) {
      return Optional.of(
          "a value of the L0.program at " + owner.pos() + " is used in another program");
    }
    if (!open || here == null) {
      return Optional.of(
          "a value staged inside a lambda, branch, loop or function that has ended is used outside"
              + " it");
    }
    if (here.function != function) {
      return Optional.of(
          "a value of the function '"
              + function.functionName
              + "' is used in the function '"
              + here.function.functionName
              + "'; pass it as a parameter");
    }
    return Optional.empty();
  }

  /** The block's statements around {@code result}, as one expression. */
  Expr reify(Expr result) {
    return Reifier.reify(statements, result);
  }

  void end() {
    open = false;
  }
}
