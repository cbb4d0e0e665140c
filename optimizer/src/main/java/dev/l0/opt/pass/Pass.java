package dev.l0.opt.pass;

import dev.l0.opt.ir.InternalProgram;
import dev.l0.opt.ir.NameSource;

/**
 * One program-to-program rewrite that preserves every result and every failure, in the manner of
 * Catalyst's {@code Rule} or a Futhark pass module. Fresh names come from the compilation's {@link
 * NameSource}.
 */
public interface Pass {
  String name();

  InternalProgram apply(InternalProgram program, NameSource names);
}
