package dev.l0.opt.pass;

import dev.l0.opt.ir.InternalProgram;
import dev.l0.opt.ir.NameSource;
import java.util.List;

/**
 * Runs a group of passes in order, again and again, until a round changes nothing (the programs are
 * records, so "nothing changed" is structural equality) or {@code maxRounds} rounds have run.
 */
public record Fixpoint(String name, List<Pass> passes, int maxRounds) implements Pass {
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
    return current;
  }
}
