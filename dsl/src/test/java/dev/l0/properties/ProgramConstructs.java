package dev.l0.properties;

import dev.l0.ir.Expr;
import dev.l0.ir.FunArg;
import dev.l0.ir.FunDef;
import dev.l0.ir.Pattern;
import dev.l0.ir.Program;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;

/**
 * The constructs a program uses, by name ({@code "Map"}, {@code "Let with tuple pattern"}, {@code
 * "SOAC over SOAC"}, {@code "SOAC in lambda"}, {@code "producer with several consumers"}, ...):
 * what the generator's coverage statistics count.
 */
final class ProgramConstructs {
  private ProgramConstructs() {}

  static Set<String> of(Program program) {
    Set<String> found = new TreeSet<>();
    if (program.functions().size() > 1) {
      found.add("helper function");
    }
    for (FunDef f : program.functions()) {
      collect(f.body(), found);
    }
    return found;
  }

  private static void collect(Expr e, Set<String> found) {
    found.add(e.getClass().getSimpleName());
    if (e instanceof Expr.Loop loop && loop.loopBody() instanceof Expr.LetWith) {
      found.add("in-place update in loop");
    }
    if (e instanceof Expr.Let let) {
      if (let.pattern() instanceof Pattern.Tuple) {
        found.add("Let with tuple pattern");
      } else if (isSoac(let.value())
          && consumers(((Pattern.Name) let.pattern()).name(), let.body()) >= 2) {
        found.add("producer with several consumers");
      }
    }
    if (e instanceof Expr.Map m) {
      soac(m.function(), m.array(), found);
    } else if (e instanceof Expr.Filter f) {
      soac(f.function(), f.array(), found);
    } else if (e instanceof Expr.Reduce r) {
      soac(r.function(), r.array(), found);
    } else if (e instanceof Expr.Scan s) {
      soac(s.function(), s.array(), found);
    }
    for (Expr child : e.children()) {
      collect(child, found);
    }
  }

  private static boolean isSoac(Expr e) {
    return e instanceof Expr.Map
        || e instanceof Expr.Filter
        || e instanceof Expr.Reduce
        || e instanceof Expr.Scan;
  }

  /** The SOAC inputs (zipped or not) in {@code e} that are the variable {@code name}. */
  private static int consumers(String name, Expr e) {
    int count = 0;
    if (isSoac(e)) {
      Expr input = e.children().get(e.children().size() - 1);
      for (Expr array : input instanceof Expr.Zip z ? z.arrays() : List.of(input)) {
        if (array instanceof Expr.Var v && v.name().equals(name)) {
          count++;
        }
      }
    }
    for (Expr child : e.children()) {
      count += consumers(name, child);
    }
    return count;
  }

  private static void soac(FunArg function, Expr input, Set<String> found) {
    if (function instanceof FunArg.Lambda l && containsSoac(l.body())) {
      found.add("SOAC in lambda");
    }
    if (function instanceof FunArg.Lambda l) {
      found.add(l.params().size() > 1 && input instanceof Expr.Zip ? "shimmed lambda" : "Lambda");
    } else if (function instanceof FunArg.FunctionRef ref) {
      found.add(ref.curried().isEmpty() ? "function reference" : "curried function reference");
    } else if (function instanceof FunArg.OperatorRef op) {
      found.add(op.curried().isEmpty() ? "operator section" : "curried operator section");
    }
    List<Expr> inputs = input instanceof Expr.Zip z ? z.arrays() : List.of(input);
    for (Expr array : inputs) {
      if (array instanceof Expr.Map || array instanceof Expr.Filter || array instanceof Expr.Scan) {
        found.add("SOAC over SOAC");
      } else if (array instanceof Expr.Var) {
        found.add("SOAC over variable");
      }
    }
  }

  private static boolean containsSoac(Expr e) {
    return isSoac(e) || e.children().stream().anyMatch(ProgramConstructs::containsSoac);
  }
}
