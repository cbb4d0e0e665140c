package dev.l0.syntax;

import dev.l0.ir.BinaryOperator;
import dev.l0.ir.Dim;
import dev.l0.ir.Expr;
import dev.l0.ir.FunArg;
import dev.l0.ir.FunDef;
import dev.l0.ir.Param;
import dev.l0.ir.Pattern;
import dev.l0.ir.PrefixOperator;
import dev.l0.ir.Program;
import dev.l0.ir.ScalarType;
import dev.l0.ir.ScalarValue;
import dev.l0.ir.SourcePos;
import dev.l0.ir.Type;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.function.Supplier;

/**
 * Random syntax trees, well-typed or not, over every node kind, pattern, function argument and type
 * that L0 text can express, with positions {@link SourcePos#NONE}: the domain on which {@code
 * parse(print(p))} must give back {@code p}.
 */
final class RandomSyntax {
  private static final SourcePos NONE = SourcePos.NONE;
  private static final List<String> NAMES = List.of("a", "b", "x", "y2", "long_name_3", "N");
  private static final List<String> FUNCTIONS = List.of("f", "g", "exp", "f64", "int", "real");
  private static final int NODE_KINDS = 26;

  private final Random random;

  RandomSyntax(long seed) {
    this.random = new Random(seed);
  }

  Program program() {
    List<FunDef> functions = new ArrayList<>();
    int count = 1 + random.nextInt(3);
    for (int i = 0; i < count; i++) {
      functions.add(new FunDef(pick(NAMES), type(2, true), params(), expr(4), NONE));
    }
    return new Program(functions);
  }

  Expr expr(int depth) {
    if (depth == 0 || random.nextInt(6) == 0) {
      return random.nextBoolean()
          ? new Expr.Var(pick(NAMES), NONE)
          : new Expr.Literal(scalar(), NONE);
    }
    int d = depth - 1;
    if (random.nextInt(5) < 2) {
      return random.nextInt(4) > 0
          ? new Expr.Binary(operator(), expr(d), expr(d), NONE)
          : new Expr.Unary(pick(List.of(PrefixOperator.values())), expr(d), NONE);
    }
    switch (random.nextInt(NODE_KINDS)) {
      case 0:
        return new Expr.Literal(scalar(), NONE);
      case 1:
        return new Expr.Var(pick(NAMES), NONE);
      case 2:
        return new Expr.TupleLit(list(0, 3, () -> expr(d)), NONE);
      case 3:
        return new Expr.ArrayLit(list(1, 3, () -> expr(d)), NONE);
      case 4:
        return new Expr.Binary(operator(), expr(d), expr(d), NONE);
      case 5:
        return new Expr.Unary(pick(List.of(PrefixOperator.values())), expr(d), NONE);
      case 6:
        return new Expr.If(expr(d), expr(d), expr(d), NONE);
      case 7:
        return new Expr.Index(expr(d), list(1, 3, () -> expr(d)), NONE);
      case 8:
        return new Expr.Call(pick(FUNCTIONS), list(0, 3, () -> expr(d)), NONE);
      case 9:
        return new Expr.Let(pattern(2), expr(d), expr(d), NONE);
      case 10:
        {
          String dest = pick(NAMES);
          String source = random.nextBoolean() ? dest : pick(NAMES);
          return new Expr.LetWith(dest, source, list(1, 3, () -> expr(d)), expr(d), expr(d), NONE);
        }
      case 11:
        {
          Pattern pattern = pattern(2);
          Expr init = random.nextBoolean() ? variablesOf(pattern) : expr(d);
          return new Expr.Loop(pattern, init, pick(NAMES), expr(d), expr(d), expr(d), NONE);
        }
      case 12:
        return new Expr.Zip(list(1, 3, () -> expr(d)), NONE);
      case 13:
        return new Expr.Unzip(expr(d), NONE);
      case 14:
        return new Expr.Iota(expr(d), NONE);
      case 15:
        return new Expr.Replicate(expr(d), expr(d), NONE);
      case 16:
        return new Expr.Size(random.nextInt(4), expr(d), NONE);
      case 17:
        return new Expr.Reshape(list(0, 3, () -> expr(d)), expr(d), NONE);
      case 18:
        return random.nextBoolean()
            ? new Expr.Transpose(0, 1, expr(d), NONE)
            : new Expr.Transpose(random.nextInt(5) - 2, random.nextInt(4), expr(d), NONE);
      case 19:
        return new Expr.Split(expr(d), expr(d), NONE);
      case 20:
        return new Expr.Concat(expr(d), expr(d), NONE);
      case 21:
        return new Expr.Copy(expr(d), NONE);
      case 22:
        return new Expr.Map(funArg(d), expr(d), NONE);
      case 23:
        return new Expr.Filter(funArg(d), expr(d), NONE);
      case 24:
        return new Expr.Reduce(funArg(d), expr(d), expr(d), NONE);
      default:
        return new Expr.Scan(funArg(d), expr(d), expr(d), NONE);
    }
  }

  /**
   * Half of the time one of a few operators, so that equal and neighbouring precedences meet often.
   */
  private BinaryOperator operator() {
    return random.nextBoolean()
        ? pick(
            List.of(BinaryOperator.SUB, BinaryOperator.POW, BinaryOperator.MUL, BinaryOperator.ADD))
        : pick(List.of(BinaryOperator.values()));
  }

  private FunArg funArg(int depth) {
    switch (random.nextInt(3)) {
      case 0:
        return new FunArg.Lambda(type(2, true), params(), expr(depth), NONE);
      case 1:
        return new FunArg.FunctionRef(pick(FUNCTIONS), list(0, 2, () -> expr(depth)), NONE);
      default:
        return new FunArg.OperatorRef(operator(), list(0, 1, () -> expr(depth)), NONE);
    }
  }

  private List<Param> params() {
    return list(0, 3, () -> new Param(type(2, true), pick(NAMES), NONE));
  }

  private Pattern pattern(int depth) {
    if (depth == 0 || random.nextInt(3) > 0) {
      return new Pattern.Name(pick(NAMES), NONE);
    }
    return new Pattern.Tuple(list(0, 3, () -> pattern(depth - 1)), NONE);
  }

  private static Expr variablesOf(Pattern pattern) {
    if (pattern instanceof Pattern.Tuple tuple) {
      return new Expr.TupleLit(
          tuple.elements().stream().map(RandomSyntax::variablesOf).toList(), NONE);
    }
    return new Expr.Var(((Pattern.Name) pattern).name(), NONE);
  }

  /**
   * A type; only an outermost array (of a parameter, a result or a tuple element) may be unique.
   */
  Type type(int depth, boolean mayBeUnique) {
    int choice = depth == 0 ? 0 : random.nextInt(3);
    if (choice == 0) {
      return pick(List.of(ScalarType.values()));
    }
    if (choice == 1) {
      return new Type.Tuple(list(0, 3, () -> type(depth - 1, true)));
    }
    return new Type.Array(type(depth - 1, false), Dim.UNKNOWN, mayBeUnique && random.nextBoolean());
  }

  private ScalarValue scalar() {
    switch (random.nextInt(9)) {
      case 0:
        return ScalarValue.bool(random.nextBoolean());
      case 1:
        return ScalarValue.i32(pick(List.of(0, -1, 7, Integer.MIN_VALUE, Integer.MAX_VALUE)));
      case 2:
        return ScalarValue.i32(random.nextInt());
      case 3:
        return ScalarValue.i64(random.nextLong());
      case 4:
        return ScalarValue.i64(pick(List.of(Long.MIN_VALUE, Long.MAX_VALUE, 0L, -5L)));
      case 5:
        return ScalarValue.f64(
            pick(List.of(0.0, -0.0, 0.1, -2.5, 1e300, -4.9e-324, Double.MAX_VALUE, 1e-7)));
      case 6:
        {
          double bits = Double.longBitsToDouble(random.nextLong());
          return ScalarValue.f64(Double.isFinite(bits) ? bits : random.nextGaussian());
        }
      case 7:
        return ScalarValue.f32(
            pick(List.of(0.1f, -0.0f, Float.MIN_VALUE, Float.MAX_VALUE, -3.25f)));
      default:
        return ScalarValue.f32(random.nextFloat() * 1000 - 500);
    }
  }

  private <T> List<T> list(int fewest, int most, Supplier<T> element) {
    int count = fewest + random.nextInt(most - fewest + 1);
    List<T> elements = new ArrayList<>();
    for (int i = 0; i < count; i++) {
      elements.add(element.get());
    }
    return elements;
  }

  private <T> T pick(List<T> choices) {
    return choices.get(random.nextInt(choices.size()));
  }
}
