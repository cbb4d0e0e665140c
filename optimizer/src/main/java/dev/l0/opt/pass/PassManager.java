package dev.l0.opt.pass;

import dev.l0.opt.ir.InternalProgram;
import dev.l0.opt.ir.IrChecker;
import dev.l0.opt.ir.NameSource;
import java.util.List;

/**
 * Runs a pipeline of {@link Pass}es in order (a {@link Fixpoint} is itself a pass). With {@link
 * IrChecker#enabled() the check on}, the {@link IrChecker} runs after every pass and names the pass
 * that broke the internal IR.
 */
public final class PassManager {
  private PassManager() {}

  public static InternalProgram runAll(
      List<Pass> passes, InternalProgram program, NameSource names) {
    InternalProgram current = program;
    for (Pass pass : passes) {
      current = pass.apply(current, names);
      if (!(pass instanceof Fixpoint)) {
        checkAfter(pass.name(), current);
      }
    }
    return current;
  }

  /**
   * Fails with an {@link IllegalStateException} naming {@code step} and the broken invariant where
   * the check is on and {@code program} breaks one; does nothing where it is off.
   */
  public static void checkAfter(String step, InternalProgram program) {
    if (IrChecker.enabled()) {
      IrChecker.problem(program)
          .ifPresent(
              problem -> {
                throw new IllegalStateException(
                    "the internal IR is broken after " + step + ": " + problem);
              });
    }
  }
}
