package dev.l0.interp;

import dev.l0.ir.L0CompileError;
import dev.l0.ir.SourcePos;
import dev.l0.ir.Type;
import dev.l0.ir.Value;
import dev.l0.semantics.Operands;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Function;

/**
 * The function argument of a SOAC, ready to apply (thesis §2.2): its curried leading arguments
 * already evaluated and, for an anonymous function, its enclosing scope captured. Applying it
 * performs tuple shimming (thesis §2.3.1): when the SOAC passes tuples where the function expects
 * their components, each tuple is spread, so {@code map(op +, zip(a, b))} adds pairs and a {@code
 * reduce} over pairs may take a function of four parameters.
 */
final class SoacFunction {
  private final List<Value> curried;
  private final int parameterCount;
  private final boolean firstParameterIsTuple;
  private final Function<List<Value>, Value> body;
  private final SourcePos pos;

  /**
   * @param curried the leading arguments already given
   * @param parameters the types of all parameters, curried ones included; {@code null} for a
   *     built-in or operator, whose parameters are scalars
   * @param parameterCount the number of parameters, curried ones included
   * @param body runs the function on all its arguments, curried ones first
   */
  SoacFunction(
      List<Value> curried,
      List<Type> parameters,
      int parameterCount,
      Function<List<Value>, Value> body,
      SourcePos pos) {
    this.curried = List.copyOf(curried);
    this.parameterCount = parameterCount;
    this.firstParameterIsTuple =
        parameters != null
            && parameters.size() > curried.size()
            && parameters.get(curried.size()) instanceof Type.Tuple;
    this.body = body;
    this.pos = pos;
  }

  /**
   * Calls the function with the SOAC's arguments: one element for map and filter, accumulator and
   * element for reduce and scan.
   */
  Value apply(Value... soacArguments) {
    List<Value> arguments = new ArrayList<>(curried);
    arguments.addAll(shim(List.of(soacArguments)));
    if (arguments.size() != parameterCount) {
      throw new L0CompileError(
          pos,
          "ill-typed program: the function takes "
              + parameterCount
              + " argument(s), given "
              + arguments.size());
    }
    return body.apply(arguments);
  }

  private List<Value> shim(List<Value> soacArguments) {
    boolean countFits = curried.size() + soacArguments.size() == parameterCount;
    boolean tupleFits = !(soacArguments.get(0) instanceof Value.Tuple) || firstParameterIsTuple;
    if (countFits && tupleFits) {
      return soacArguments;
    }
    List<Value> spread = new ArrayList<>();
    for (Value v : soacArguments) {
      spread.addAll(Operands.tuple(v, pos).elements());
    }
    return spread;
  }
}
