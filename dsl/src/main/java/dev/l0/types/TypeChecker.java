package dev.l0.types;

import dev.l0.ir.Expr;
import dev.l0.ir.FunDef;
import dev.l0.ir.L0CompileError;
import dev.l0.ir.Program;
import dev.l0.ir.Type;
import java.util.IdentityHashMap;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The L0 type checker (thesis ch. 2 and ch. 3): types without inference (every function and
 * anonymous function declares its types), shapes where they are statically known, sharing analysis
 * and the uniqueness rules. Reports the first error in source order.
 */
public final class TypeChecker {
  private TypeChecker() {}

  /**
   * Checks {@code program}.
   *
   * @throws L0CompileError for the first ill-formed construct, at its position
   */
  public static TypedProgram check(Program program) {
    return NestingLimit.onLargeStack(() -> checkOnLargeStack(program));
  }

  private static TypedProgram checkOnLargeStack(Program program) {
    Map<String, FunDef> functions = new LinkedHashMap<>();
    program.functions().forEach(f -> functions.putIfAbsent(f.name(), f));
    Map<Expr, Type> types = new IdentityHashMap<>();
    for (FunDef f : program.functions()) {
      FunDef first = functions.get(f.name());
      if (first != f) {
        throw new L0CompileError(
            f.pos(),
            "function '"
                + f.name()
                + "' is defined twice (first at "
                + UniquenessTracker.at(first.pos())
                + ")");
      }
      NestingLimit.check(f);
      new ExpressionChecker(functions, types).checkFunction(f);
    }
    return new TypedProgram(program, types);
  }
}
