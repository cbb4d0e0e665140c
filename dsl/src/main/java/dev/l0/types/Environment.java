package dev.l0.types;

import java.util.Optional;

/** An immutable scope chain: the variables visible at one point of a program, innermost first. */
final class Environment {
  static final Environment EMPTY = new Environment(null, null);

  private final Variable innermost;
  private final Environment outer;

  private Environment(Variable innermost, Environment outer) {
    this.innermost = innermost;
    this.outer = outer;
  }

  /** This scope with {@code variable} added, shadowing any earlier binding of its name. */
  Environment bind(Variable variable) {
    return new Environment(variable, this);
  }

  /** The binding {@code name} refers to here. */
  Optional<Variable> lookup(String name) {
    for (Environment e = this; e.innermost != null; e = e.outer) {
      if (e.innermost.name().equals(name)) {
        return Optional.of(e.innermost);
      }
    }
    return Optional.empty();
  }
}
