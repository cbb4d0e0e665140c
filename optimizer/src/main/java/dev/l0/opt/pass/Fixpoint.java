package dev.l0.opt.pass;

import dev.l0.opt.ir.InternalProgram;
import dev.l0.opt.ir.IrChecker;
import dev.l0.opt.ir.NameSource;
import java.util.List;

/**
 * Runs a group of passes in order, again and again, until a round changes nothing (the programs are
 * records, so "nothing changed" is structural equality). One that still changes the program after
 * {@code maxRounds} rounds stops there and says so: a warning on the {@code
 * dev.l0.opt.pass.Fixpoint} logger, and an {@link IllegalStateException} where the {@link
 * IrChecker} is on (the tests), so a pass pair that undoes each other's work cannot hide.
 */
public record Fixpoint(String name, List<Pass> passes, int maxRounds) implements Pass {
  private static final System.Logger LOG = System.getLogger(Fixpoint.class.getName());

  public Fixpoint {
    passes = List.copyOf(passes);
  }

  @Override
  public InternalProgram apply(InternalProgram program, NameSource names) {
    InternalProgram current = program;
    for (int round = 0; round < maxRounds; round++) {
      InternalProgram next = PassManager.runAll(passes, current, names);
      if (next.equals(current)) {
        return next;
      }
      current = next;
    }
    String message =
        "the fixpoint "
            + name
            + " did not converge in "
            + maxRounds
            + " rounds; it stops with the last round's program";
    if (IrChecker.enabled()) {
      throw new IllegalStateException(message);
    }
    LOG.log(System.Logger.Level.WARNING, message);
    return current;
  }
}
