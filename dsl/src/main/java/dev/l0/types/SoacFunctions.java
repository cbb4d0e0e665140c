package dev.l0.types;

import dev.l0.ir.Builtin;
import dev.l0.ir.FunArg;
import dev.l0.ir.L0CompileError;
import dev.l0.ir.SourcePos;
import dev.l0.ir.Type;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.stream.Collectors;

/**
 * How the function argument of a SOAC is applied to the elements the SOAC passes it (thesis §2.2),
 * including tuple shimming (thesis §2.3.1): a function of n parameters given one n-tuple (or, for
 * reduce and scan, two n-tuples) receives the tuple components as its arguments.
 */
final class SoacFunctions {
  private SoacFunctions() {}

  /**
   * A SOAC function argument whose own sub-expressions (curried arguments, a lambda's body) are
   * checked. {@code parameters} are the types of the element parameters when they are declared
   * (lambdas and program functions) and empty for operators and built-ins, whose types follow the
   * elements; {@code result} is the declared or checked result type, or null for operators and
   * built-ins. {@code curried} are the types of the curried leading arguments.
   */
  record Prepared(
      FunArg arg,
      int arity,
      List<Type> parameters,
      List<Type> curried,
      Type result,
      boolean consumesElements) {
    Prepared {
      parameters = List.copyOf(parameters);
      curried = List.copyOf(curried);
    }
  }

  /**
   * The type {@code function} returns when {@code soac} passes it arguments of types {@code
   * passed}.
   */
  static Type apply(Prepared function, List<Type> passed, String soac) {
    List<Type> args = shim(passed, function.arity());
    if (args == null) {
      throw new L0CompileError(
          function.arg().pos(),
          describe(function.arg())
              + " takes "
              + function.arity()
              + (function.arity() == 1 ? " argument" : " arguments")
              + ", but "
              + soac
              + " passes "
              + passed.stream().map(ScalarRules::name).collect(Collectors.joining(", ", "(", ")")));
    }
    FunArg arg = function.arg();
    if (arg instanceof FunArg.OperatorRef op) {
      List<Type> operands = new ArrayList<>(function.curried());
      operands.addAll(args);
      return ScalarRules.binary(
          op.operator(), operands.get(0), op.pos(), operands.get(1), op.pos(), "");
    }
    if (function.result() == null) {
      FunArg.FunctionRef ref = (FunArg.FunctionRef) arg;
      Builtin builtin = Builtin.byName(ref.name()).orElseThrow();
      List<Type> all = new ArrayList<>(function.curried());
      all.addAll(args);
      return ScalarRules.builtin(
          builtin, all, Collections.nCopies(all.size(), ref.pos()), ref.pos());
    }
    for (int i = 0; i < args.size(); i++) {
      Type declared = function.parameters().get(i);
      if (!declared.sameShapeAs(args.get(i))) {
        throw new L0CompileError(
            parameterPos(arg, i),
            describe(arg)
                + ": parameter "
                + (i + 1)
                + " has type "
                + ScalarRules.name(declared)
                + ", but "
                + soac
                + " passes "
                + ScalarRules.name(args.get(i)));
      }
    }
    return function.result();
  }

  /** How messages name a SOAC's function argument. */
  private static String describe(FunArg arg) {
    if (arg instanceof FunArg.FunctionRef ref) {
      return "function '" + ref.name() + "'";
    }
    if (arg instanceof FunArg.OperatorRef op) {
      return "operator section 'op " + op.operator().symbol() + "'";
    }
    return "the anonymous function";
  }

  /** The number of element parameters of an operator section: two, less the curried operand. */
  static int operatorArity(FunArg.OperatorRef op) {
    return 2 - op.curried().size();
  }

  /**
   * The arguments as the function receives them: as passed, or with their tuples spread; null if
   * neither fits.
   */
  private static List<Type> shim(List<Type> passed, int arity) {
    if (passed.size() == arity) {
      return passed;
    }
    List<Type> spread = new ArrayList<>();
    for (Type t : passed) {
      if (!(t instanceof Type.Tuple tuple) || tuple.elements().size() * passed.size() != arity) {
        return null;
      }
      spread.addAll(tuple.elements());
    }
    return spread;
  }

  private static SourcePos parameterPos(FunArg arg, int i) {
    return arg instanceof FunArg.Lambda lambda ? lambda.params().get(i).pos() : arg.pos();
  }
}
