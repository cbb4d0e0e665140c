package dev.l0.types;

import dev.l0.ir.L0CompileError;
import dev.l0.ir.SourcePos;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;

/**
 * Consumption state while checking one function (thesis §3.2, Uniqueness Rule 1): which variables
 * have been consumed and where, and which have been observed in the current sequence. A use of a
 * consumed variable, or of anything aliasing it, is an error; so is consuming a variable observed
 * earlier in the same sequence, or one bound outside the loop or anonymous function that consumes
 * it.
 */
final class UniquenessTracker {
  /** Where a variable was observed, and through which variable (itself or an alias of it). */
  record Observation(Variable variable, SourcePos pos) {}

  private final Map<Variable, SourcePos> consumed = new LinkedHashMap<>();
  private final Map<Variable, Observation> observed = new LinkedHashMap<>();

  /**
   * Records a use of {@code variable} at {@code pos}; fails if it or an alias of it was consumed.
   */
  void use(Variable variable, SourcePos pos) {
    SourcePos consumedAt = consumed.get(variable);
    if (consumedAt != null) {
      throw new L0CompileError(
          pos,
          variable.named("variable")
              + " used at "
              + at(pos)
              + " after it was consumed at "
              + at(consumedAt));
    }
    for (Variable alias : variable.aliases().all()) {
      SourcePos aliasConsumedAt = consumed.get(alias);
      if (aliasConsumedAt != null) {
        throw new L0CompileError(
            pos,
            variable.named("variable")
                + " used at "
                + at(pos)
                + " after it was consumed at "
                + at(aliasConsumedAt)
                + " (it aliases "
                + alias.quoted()
                + ")");
      }
    }
    Observation observation = new Observation(variable, pos);
    observed.putIfAbsent(variable, observation);
    variable.aliases().all().forEach(alias -> observed.putIfAbsent(alias, observation));
  }

  /**
   * Fails unless {@code variables} may be consumed at {@code pos}. {@code pending} are the
   * observations made earlier in the same sequence; {@code loopDepth} is the nesting of loops and
   * anonymous functions at {@code pos}.
   */
  void checkConsumable(
      Set<Variable> variables, SourcePos pos, Map<Variable, Observation> pending, int loopDepth) {
    for (Variable v : variables) {
      if (v.loopDepth() < loopDepth) {
        throw new L0CompileError(
            pos,
            v.named("variable")
                + " (bound at "
                + at(v.declaredAt())
                + ") is consumed at "
                + at(pos)
                + " inside a loop or anonymous function that does not bind it,"
                + " so it would be consumed more than once");
      }
      Observation earlier = pending.get(v);
      if (earlier != null) {
        throw new L0CompileError(
            pos,
            v.named("variable")
                + " is consumed at "
                + at(pos)
                + " but "
                + earlier.variable().quoted()
                + " is used at "
                + at(earlier.pos())
                + " in the same sequence (thesis §3.2); bind one of them with let first");
      }
    }
  }

  /** Marks {@code variables} consumed at {@code pos}: any later use of them is an error. */
  void markConsumed(Set<Variable> variables, SourcePos pos) {
    variables.forEach(v -> consumed.putIfAbsent(v, pos));
  }

  /** Whether {@code variable} has been consumed. */
  boolean isConsumed(Variable variable) {
    return consumed.containsKey(variable);
  }

  /** A copy of the observations made so far. */
  Map<Variable, Observation> observations() {
    return new LinkedHashMap<>(observed);
  }

  /** Goes back to an earlier set of observations: a binding construct ends a sequence. */
  void restoreObservations(Map<Variable, Observation> earlier) {
    observed.clear();
    observed.putAll(earlier);
  }

  /** Adds observations made elsewhere (an inner sequence or another branch). */
  void addObservations(Map<Variable, Observation> more) {
    more.forEach(observed::putIfAbsent);
  }

  /** A copy of the consumptions so far. */
  Map<Variable, SourcePos> consumptions() {
    return new LinkedHashMap<>(consumed);
  }

  /** Goes back to an earlier set of consumptions (to check the other branch of an {@code if}). */
  void restoreConsumptions(Map<Variable, SourcePos> earlier) {
    consumed.clear();
    consumed.putAll(earlier);
  }

  /** Adds consumptions made in another branch. */
  void addConsumptions(Map<Variable, SourcePos> more) {
    more.forEach(consumed::putIfAbsent);
  }

  /** A position as messages write it: {@code line:column}. */
  static String at(SourcePos pos) {
    return pos.column() > 0 ? pos.line() + ":" + pos.column() : String.valueOf(pos.line());
  }
}
