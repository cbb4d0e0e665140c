package dev.l0.opt;

import dev.l0.opt.flatten.TupleFlattener;
import dev.l0.opt.ir.Body;
import dev.l0.opt.ir.Exp;
import dev.l0.opt.ir.InternalFunction;
import dev.l0.opt.ir.InternalProgram;
import dev.l0.opt.ir.NameSource;
import dev.l0.opt.ir.Stm;
import dev.l0.opt.pass.Pass;
import dev.l0.syntax.L0Parser;
import dev.l0.types.TypeChecker;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Predicate;

/** A program text flattened into internal L0, for tests of single passes. */
record Internal(InternalProgram program, NameSource names) {

  static Internal of(String source) {
    NameSource names = new NameSource();
    return new Internal(TupleFlattener.flatten(TypeChecker.check(L0Parser.parse(source, "test.l0")), names), names);
  }

  Internal after(Pass... passes) {
    InternalProgram p = program;
    for (Pass pass : passes) {
      p = pass.apply(p, names);
    }
    return new Internal(p, names);
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
    List<Stm> out = new ArrayList<>();
    collect(main().body(), out);
    return out;
  }

  long count(Predicate<Exp> what) {
    return everywhere().stream().filter(s -> what.test(s.exp())).count();
  }

  private static void collect(Body body, List<Stm> out) {
    for (Stm stm : body.stms()) {
      out.add(stm);
      stm.exp().bodies().forEach(b -> collect(b, out));
      stm.exp().lambdas().forEach(l -> collect(l.body(), out));
    }
  }
}
