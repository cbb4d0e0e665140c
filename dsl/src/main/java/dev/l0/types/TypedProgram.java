package dev.l0.types;

import dev.l0.ir.Expr;
import dev.l0.ir.FunDef;
import dev.l0.ir.Program;
import dev.l0.ir.Type;
import java.util.Collections;
import java.util.IdentityHashMap;
import java.util.Map;

/**
 * A program that passed {@link TypeChecker}, with the type of each of its expressions (including
 * those inside anonymous functions), looked up by object identity. Types carry the statically known
 * sizes and uniqueness.
 */
public record TypedProgram(Program program, Map<Expr, Type> expressionTypes) {
  public TypedProgram {
    expressionTypes = Collections.unmodifiableMap(new IdentityHashMap<>(expressionTypes));
  }

  /** The type of {@code e}, which must be an expression of this program (the same object). */
  public Type typeOf(Expr e) {
    Type t = expressionTypes.get(e);
    if (t == null) {
      throw new IllegalArgumentException("not an expression of this program: " + e);
    }
    return t;
  }

  /** The function named {@code name}. */
  public FunDef function(String name) {
    return program
        .function(name)
        .orElseThrow(
            () -> new IllegalArgumentException("the program has no function '" + name + "'"));
  }
}
