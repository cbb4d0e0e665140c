package dev.l0.opt;

import dev.l0.opt.flatten.TupleFlattener;
import dev.l0.opt.ir.Exp;
import dev.l0.opt.ir.InternalFunction;
import dev.l0.opt.ir.InternalProgram;
import dev.l0.opt.ir.NameSource;
import dev.l0.opt.ir.Stm;
import dev.l0.opt.ir.Traversal;
import dev.l0.opt.pass.Pass;
import dev.l0.opt.pass.PassManager;
import dev.l0.syntax.L0Parser;
import dev.l0.types.TypeChecker;
import java.util.List;
import java.util.function.Predicate;

/** A program text flattened into internal L0, for tests of single passes. */
record Internal(InternalProgram program, NameSource names) {

  static Internal of(String source) {
    NameSource names = new NameSource();
    return new Internal(
        TupleFlattener.flatten(TypeChecker.check(L0Parser.parse(source, "test.l0")), names), names);
  }

  /**
   * This program after {@code passes}, each checked by the {@link dev.l0.opt.ir.IrChecker} where
   * the check is on.
   */
  Internal after(Pass... passes) {
    return new Internal(PassManager.runAll(List.of(passes), program, names), names);
  }

  InternalFunction main() {
    return program.function("main").orElseThrow();
  }

  /** The statements of {@code main} at the top level only. */
  List<Stm> topLevel() {
    return main().body().stms();
  }

  /** The statements of {@code main} at every depth. */
  List<Stm> everywhere() {
    return Traversal.statements(main().body());
  }

  long count(Predicate<Exp> what) {
    return everywhere().stream().filter(s -> what.test(s.exp())).count();
  }
}
