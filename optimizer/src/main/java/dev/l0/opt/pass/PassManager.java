package dev.l0.opt.pass;

import dev.l0.opt.ir.InternalProgram;
import dev.l0.opt.ir.NameSource;
import java.util.List;

/** Runs a pipeline of {@link Pass}es in order (a {@link Fixpoint} is itself a pass). */
public final class PassManager {
  private PassManager() {}

  public static InternalProgram runAll(List<Pass> passes, InternalProgram program, NameSource names) {
    InternalProgram current = program;
    for (Pass pass : passes) {
      current = pass.apply(current, names);
    }
    return current;
  }
}
