package dev.l0.testing;

import dev.l0.ir.Expr;
import dev.l0.ir.FunArg;
import dev.l0.ir.FunDef;
import dev.l0.ir.Param;
import dev.l0.ir.Pattern;
import dev.l0.ir.Program;
import dev.l0.ir.SourcePos;
import java.util.List;

/**
 * Rebuilds programs with every position set to {@link SourcePos#NONE} (functions, parameters,
 * patterns, function arguments and expressions), so that tests can compare programs by structure.
 */
public final class SourcePositions {
  private static final SourcePos NONE = SourcePos.NONE;

  private SourcePositions() {}

  public static Program erase(Program program) {
    return new Program(program.functions().stream().map(SourcePositions::erase).toList());
  }

  public static FunDef erase(FunDef function) {
    return new FunDef(
        function.name(),
        function.returnType(),
        erase(function.params()),
        erase(function.body()),
        NONE);
  }

  public static Expr erase(Expr expr) {
    return expr.transformUp(SourcePositions::withoutPosition);
  }

  /**
   * {@code e}, whose sub-expressions are already erased, without its own position and those of its
   * patterns and function argument.
   */
  private static Expr withoutPosition(Expr e) {
    if (e instanceof Expr.Literal x) {
      return new Expr.Literal(x.value(), NONE);
    } else if (e instanceof Expr.Var x) {
      return new Expr.Var(x.name(), NONE);
    } else if (e instanceof Expr.TupleLit x) {
      return new Expr.TupleLit(x.elements(), NONE);
    } else if (e instanceof Expr.ArrayLit x) {
      return new Expr.ArrayLit(x.elements(), NONE);
    } else if (e instanceof Expr.Binary x) {
      return new Expr.Binary(x.op(), x.left(), x.right(), NONE);
    } else if (e instanceof Expr.Unary x) {
      return new Expr.Unary(x.op(), x.operand(), NONE);
    } else if (e instanceof Expr.If x) {
      return new Expr.If(x.condition(), x.thenBranch(), x.elseBranch(), NONE);
    } else if (e instanceof Expr.Index x) {
      return new Expr.Index(x.array(), x.indices(), NONE);
    } else if (e instanceof Expr.Call x) {
      return new Expr.Call(x.function(), x.args(), NONE);
    } else if (e instanceof Expr.Let x) {
      return new Expr.Let(erase(x.pattern()), x.value(), x.body(), NONE);
    } else if (e instanceof Expr.LetWith x) {
      return new Expr.LetWith(x.dest(), x.source(), x.indices(), x.value(), x.body(), NONE);
    } else if (e instanceof Expr.Loop x) {
      return new Expr.Loop(
          erase(x.pattern()), x.init(), x.counter(), x.bound(), x.loopBody(), x.body(), NONE);
    } else if (e instanceof Expr.Zip x) {
      return new Expr.Zip(x.arrays(), NONE);
    } else if (e instanceof Expr.Unzip x) {
      return new Expr.Unzip(x.array(), NONE);
    } else if (e instanceof Expr.Iota x) {
      return new Expr.Iota(x.count(), NONE);
    } else if (e instanceof Expr.Replicate x) {
      return new Expr.Replicate(x.count(), x.value(), NONE);
    } else if (e instanceof Expr.Size x) {
      return new Expr.Size(x.dimension(), x.array(), NONE);
    } else if (e instanceof Expr.Reshape x) {
      return new Expr.Reshape(x.shape(), x.array(), NONE);
    } else if (e instanceof Expr.Transpose x) {
      return new Expr.Transpose(x.k(), x.n(), x.array(), NONE);
    } else if (e instanceof Expr.Split x) {
      return new Expr.Split(x.at(), x.array(), NONE);
    } else if (e instanceof Expr.Concat x) {
      return new Expr.Concat(x.left(), x.right(), NONE);
    } else if (e instanceof Expr.Copy x) {
      return new Expr.Copy(x.value(), NONE);
    } else if (e instanceof Expr.Map x) {
      return new Expr.Map(erase(x.function()), x.array(), NONE);
    } else if (e instanceof Expr.Filter x) {
      return new Expr.Filter(erase(x.function()), x.array(), NONE);
    } else if (e instanceof Expr.Reduce x) {
      return new Expr.Reduce(erase(x.function()), x.neutral(), x.array(), NONE);
    }
    Expr.Scan x = (Expr.Scan) e;
    return new Expr.Scan(erase(x.function()), x.neutral(), x.array(), NONE);
  }

  /**
   * A function argument whose sub-expressions are already erased, without its own position and its
   * parameters'.
   */
  private static FunArg erase(FunArg function) {
    if (function instanceof FunArg.Lambda lambda) {
      return new FunArg.Lambda(lambda.returnType(), erase(lambda.params()), lambda.body(), NONE);
    }
    if (function instanceof FunArg.FunctionRef ref) {
      return new FunArg.FunctionRef(ref.name(), ref.curried(), NONE);
    }
    FunArg.OperatorRef section = (FunArg.OperatorRef) function;
    return new FunArg.OperatorRef(section.operator(), section.curried(), NONE);
  }

  private static List<Param> erase(List<Param> params) {
    return params.stream().map(p -> new Param(p.type(), p.name(), NONE)).toList();
  }

  private static Pattern erase(Pattern pattern) {
    if (pattern instanceof Pattern.Tuple tuple) {
      return new Pattern.Tuple(
          tuple.elements().stream().map(SourcePositions::erase).toList(), NONE);
    }
    return new Pattern.Name(((Pattern.Name) pattern).name(), NONE);
  }
}
