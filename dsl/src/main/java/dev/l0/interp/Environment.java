package dev.l0.interp;

import dev.l0.ir.L0CompileError;
import dev.l0.ir.Pattern;
import dev.l0.ir.SourcePos;
import dev.l0.ir.Value;
import dev.l0.semantics.Operands;

/**
 * The variables in scope: an immutable chain of bindings, innermost first, so that a binding
 * shadows outer ones and a closure keeps exactly the scope it was created in.
 */
final class Environment {
  static final Environment EMPTY = new Environment(null, null, null);

  private final String name;
  private final Value value;
  private final Environment outer;

  private Environment(String name, Value value, Environment outer) {
    this.name = name;
    this.value = value;
    this.outer = outer;
  }

  Environment bind(String variable, Value v) {
    return new Environment(variable, v, this);
  }

  /** Binds the names of {@code pattern} to the corresponding parts of {@code v} (thesis Fig. 1). */
  Environment bind(Pattern pattern, Value v) {
    if (pattern instanceof Pattern.Name n) {
      return bind(n.name(), v);
    }
    Pattern.Tuple tuplePattern = (Pattern.Tuple) pattern;
    Value.Tuple tuple = Operands.tuple(v, pattern.pos());
    if (tuple.elements().size() != tuplePattern.elements().size()) {
      throw new L0CompileError(
          pattern.pos(),
          "ill-typed program: a pattern of "
              + tuplePattern.elements().size()
              + " elements binds a tuple of "
              + tuple.elements().size());
    }
    Environment env = this;
    for (int i = 0; i < tuple.elements().size(); i++) {
      env = env.bind(tuplePattern.elements().get(i), tuple.elements().get(i));
    }
    return env;
  }

  Value lookup(String variable, SourcePos pos) {
    for (Environment e = this; e != EMPTY; e = e.outer) {
      if (e.name.equals(variable)) {
        return e.value;
      }
    }
    throw new L0CompileError(pos, "unknown variable " + variable);
  }
}
