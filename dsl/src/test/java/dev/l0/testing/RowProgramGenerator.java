package dev.l0.testing;

import static dev.l0.testing.ExprGenerator.AT;
import static dev.l0.testing.ExprGenerator.i32;
import static dev.l0.testing.ExprGenerator.var;
import static dev.l0.testing.SizedTypes.arrayOf;

import dev.l0.ir.BinaryOperator;
import dev.l0.ir.Dim;
import dev.l0.ir.Expr;
import dev.l0.ir.FunArg;
import dev.l0.ir.FunDef;
import dev.l0.ir.Param;
import dev.l0.ir.Pattern;
import dev.l0.ir.Program;
import dev.l0.ir.ScalarType;
import dev.l0.ir.Type;
import dev.l0.ir.Value;
import java.util.ArrayList;
import java.util.List;

/**
 * Builds programs of the shape a block per row runs (FinPar's OptionPricing and LocVolCalib) from a
 * decision tape: the entry is a map over the few rows of a matrix (0 to 6 rows of 1 to 12 numbers),
 * half the time zipped with a number per row, whose function binds maps of its row, then runs a
 * sequential loop that carries the row's array (alone, with a scalar, or as the rows of a matrix it
 * fills one row per step). The loop's step chains maps that read their neighbours, maps of zips,
 * reductions whose result a map uses, scans, in-place updates, sequential loops of in-place
 * updates, maps whose rows are arrays (of the row's size, or filtered to a size only the data
 * decides), branches between such steps and loops of them; the loop's result is reduced, indexed or
 * mapped into a number, an array or both. The expressions inside are {@link ExprGenerator}'s (with
 * its per-thread array code), so that the rows' code is as varied as other random programs'.
 * Arguments come from a tape of their own. Rarely, a program indexes out of bounds on purpose (in a
 * strided row, or in the code every thread of a block runs alike).
 */
final class RowProgramGenerator {
  private static final int DEPTH = 2;

  /** The steps a loop's body chains, each from the array the step before made. */
  private enum Step {
    MAP_NEIGHBOURS,
    MAP_ZIP,
    MAP_GENERATED,
    REDUCE_THEN_MAP,
    UPDATE,
    SEQUENTIAL_UPDATES,
    SCAN,
    MAP_OF_ROWS,
    FILTER_THEN_MAP,
    BRANCH,
    INNER_LOOP,
    FILTERED_ROWS
  }

  private final Choices choices;
  private final TypeGenerator types;
  private final ExprGenerator exprs;
  private final Choices valueChoices;
  private ScalarType element;
  private long width;

  private RowProgramGenerator(List<Integer> tape, List<Integer> valueTape) {
    this.choices = new Choices(tape);
    this.valueChoices = new Choices(valueTape);
    this.types = new TypeGenerator(choices);
    this.exprs = new ExprGenerator(choices, types, true, true);
  }

  /**
   * The program {@code tape} makes, with arguments {@code valueTape} makes: a long value tape gives
   * rows of varied numbers however short the program's tape.
   */
  static ProgramCase program(List<Integer> tape, List<Integer> valueTape) {
    return new RowProgramGenerator(tape, valueTape).program();
  }

  private ProgramCase program() {
    element = types.numeric();
    width = 1 + choices.below(12);
    long rows = choices.below(7);
    Type.Array rowType = arrayOf(element, width);
    Type.Array matrix = arrayOf(rowType, rows);
    Binding scalar = new Binding(exprs.freshName("q"), types.scalar());
    String row = exprs.freshName("row");
    Scope scope = new Scope(List.of(scalar)).with(row, rowType);
    List<Param> params = new ArrayList<>(List.of(new Param(rowType.erased(), row, AT)));
    // half the maps also zip a number per row
    String x = choices.percent(50) ? exprs.freshName("x") : null;
    if (x != null) {
      scope = scope.with(x, element);
      params.add(new Param(element, x, AT));
    }
    Type result =
        switch (choices.below(4)) {
          case 0, 1 -> element;
          case 2 -> rowType;
          default -> new Type.Tuple(List.of(element, rowType));
        };
    Expr body = rowBody(scope, row, result);
    FunArg function = new FunArg.Lambda(result.erased(), params, body, AT);
    String m = exprs.freshName("m");
    String xs = exprs.freshName("xs");
    Expr entry =
        new Expr.Map(function, x == null ? var(m) : new Expr.Zip(List.of(var(m), var(xs)), AT), AT);
    List<FunDef> functions = new ArrayList<>(exprs.helperDefinitions());
    List<Param> entryParams =
        new ArrayList<>(
            List.of(
                new Param(matrix.erased(), m, AT),
                new Param(scalar.type().erased(), scalar.name(), AT)));
    ValueGenerator values = new ValueGenerator(valueChoices);
    List<Value> args = new ArrayList<>(List.of(values.value(matrix), values.value(scalar.type())));
    if (x != null) {
      Type.Array numbers = arrayOf(element, rows);
      entryParams.add(new Param(numbers.erased(), xs, AT));
      args.add(values.value(numbers));
    }
    functions.add(
        new FunDef(ProgramGenerator.ENTRY, arrayOf(result, rows).erased(), entryParams, entry, AT));
    return new ProgramCase(new Program(functions), ProgramGenerator.ENTRY, args);
  }

  /** Up to two maps of the row bound first, then the loop, then the result of its arrays. */
  private Expr rowBody(Scope scope, String row, Type result) {
    int bound = choices.below(3);
    List<String> names = new ArrayList<>();
    List<Expr> values = new ArrayList<>();
    Scope inner = scope;
    for (int i = 0; i < bound; i++) {
      String name = exprs.freshName("pre");
      values.add(step(choices.percent(50) ? Step.MAP_NEIGHBOURS : Step.MAP_ZIP, row, inner));
      names.add(name);
      inner = inner.with(name, rowType());
    }
    Expr loop =
        switch (choices.below(3)) {
          case 0 -> arrayLoop(inner, result);
          case 1 -> arrayAndScalarLoop(inner, result);
          default -> matrixLoop(inner, result);
        };
    for (int i = bound - 1; i >= 0; i--) {
      loop = new Expr.Let(new Pattern.Name(names.get(i), AT), values.get(i), loop, AT);
    }
    return loop;
  }

  /** {@code loop (v = copy(init)) = for s < k do steps(v) in result(v)}. */
  private Expr arrayLoop(Scope scope, Type result) {
    String v = exprs.freshName("v");
    String s = exprs.freshName("s");
    Expr init = new Expr.Copy(exprs.generate(rowType(), scope, DEPTH).expr(), AT);
    Expr body = steps(v, scope.with(s, ScalarType.I32));
    return new Expr.Loop(
        new Pattern.Name(v, AT),
        init,
        s,
        tripCount(scope),
        body,
        resultOf(v, scope.with(v, rowType()), result),
        AT);
  }

  /**
   * {@code loop ((v, a) = (copy(init), x)) = for s < k do let w = steps(v) in (w, f(w, a)) in
   * result}: the scalar is often a reduction of the new array.
   */
  private Expr arrayAndScalarLoop(Scope scope, Type result) {
    String v = exprs.freshName("v");
    String a = exprs.freshName("a");
    String s = exprs.freshName("s");
    String w = exprs.freshName("w");
    Expr init =
        new Expr.TupleLit(
            List.of(
                new Expr.Copy(exprs.generate(rowType(), scope, DEPTH).expr(), AT),
                exprs.generate(element, scope, DEPTH).expr()),
            AT);
    Scope inLoop = scope.with(a, element).with(s, ScalarType.I32);
    Expr steps = steps(v, inLoop);
    Scope afterSteps = inLoop.with(w, rowType());
    Expr scalar =
        choices.percent(60)
            ? combine(reduction(var(w)), exprs.generate(element, afterSteps, DEPTH).expr())
            : exprs.generate(element, afterSteps, DEPTH).expr();
    Expr body =
        new Expr.Let(
            new Pattern.Name(w, AT), steps, new Expr.TupleLit(List.of(var(w), scalar), AT), AT);
    Scope after = scope.with(v, rowType()).with(a, element);
    Expr rest = resultOf(v, after, result);
    if (result instanceof ScalarType && choices.percent(50)) {
      rest = combine(rest, var(a));
    }
    return new Expr.Loop(
        new Pattern.Tuple(List.of(new Pattern.Name(v, AT), new Pattern.Name(a, AT)), AT),
        init,
        s,
        tripCount(scope),
        body,
        rest,
        AT);
  }

  /**
   * {@code loop (rows = replicate(k + 1, init)) = for p < k do let rows[p + 1] = map(.. rows[p, j]
   * ..) in rows in result(rows[k])}: a matrix of the row's arrays filled one row per step, as
   * OptionPricing's Sobol rows.
   */
  private Expr matrixLoop(Scope scope, Type result) {
    int count = choices.below(5);
    String rows = exprs.freshName("rows");
    String p = exprs.freshName("p");
    String j = exprs.freshName("j");
    String updated = exprs.freshName("u");
    Expr init =
        new Expr.Replicate(i32(count + 1), exprs.generate(rowType(), scope, DEPTH).expr(), AT);
    Scope inStep =
        scope
            .with(rows, arrayOf(rowType(), count + 1))
            .with(p, ScalarType.I32)
            .with(j, ScalarType.I32);
    Expr previous = new Expr.Index(var(rows), List.of(var(p), var(j)), AT);
    Expr next = mapOverIndices(j, combine(previous, exprs.generate(element, inStep, DEPTH).expr()));
    Expr body =
        new Expr.LetWith(
            updated,
            rows,
            List.of(new Expr.Binary(BinaryOperator.ADD, var(p), i32(1), AT)),
            next,
            var(updated),
            AT);
    String last = exprs.freshName("last");
    Scope after = scope.with(rows, arrayOf(rowType(), count + 1)).with(last, rowType());
    Expr rest =
        new Expr.Let(
            new Pattern.Name(last, AT),
            new Expr.Index(var(rows), List.of(i32(choices.below(count + 1))), AT),
            resultOf(last, after, result),
            AT);
    return new Expr.Loop(new Pattern.Name(rows, AT), init, p, i32(count), body, rest, AT);
  }

  /** A chain of one to three steps from {@code v}, each binding the array the next reads. */
  private Expr steps(String v, Scope scope) {
    int count = 1 + choices.below(3);
    List<String> names = new ArrayList<>();
    List<Expr> values = new ArrayList<>();
    String current = v;
    for (int i = 0; i < count; i++) {
      Step step = choices.pick(List.of(Step.values()));
      values.add(step(step, current, scope));
      current = exprs.freshName("t");
      names.add(current);
    }
    Expr chain = var(current);
    for (int i = count - 1; i >= 0; i--) {
      chain = new Expr.Let(new Pattern.Name(names.get(i), AT), values.get(i), chain, AT);
    }
    return chain;
  }

  /**
   * One step from the array {@code current} to a new one of the row's size, in {@code outer} (which
   * has no {@code current}): {@code current} is not mentioned after it, and not by the code that
   * runs after a loop or update consumed it.
   */
  private Expr step(Step step, String current, Scope outer) {
    Scope scope = outer.with(current, rowType());
    return switch (step) {
      case MAP_NEIGHBOURS -> {
        String j = exprs.freshName("j");
        Expr neighbour =
            new Expr.Index(
                var(current),
                List.of(
                    wrap(
                        new Expr.Binary(
                            BinaryOperator.ADD, var(j), i32(choices.between(-1, 1)), AT))),
                AT);
        yield mapOverIndices(
            j,
            combine(
                neighbour, exprs.generate(element, scope.with(j, ScalarType.I32), DEPTH).expr()));
      }
      case MAP_ZIP -> {
        String x = exprs.freshName("x");
        String y = exprs.freshName("y");
        Expr other = exprs.generate(rowType(), scope, DEPTH).expr();
        Scope inRow = scope.with(x, element).with(y, element);
        FunArg f =
            new FunArg.Lambda(
                element,
                List.of(new Param(element, x, AT), new Param(element, y, AT)),
                combine(var(x), combine(var(y), exprs.generate(element, inRow, DEPTH).expr())),
                AT);
        yield new Expr.Map(f, new Expr.Zip(List.of(var(current), other), AT), AT);
      }
      // a copy: the generated array may be a variable, which a later update must not consume
      case MAP_GENERATED -> new Expr.Copy(exprs.generate(rowType(), scope, DEPTH + 1).expr(), AT);
      case REDUCE_THEN_MAP -> {
        String total = exprs.freshName("total");
        String x = exprs.freshName("x");
        Scope withTotal = scope.with(total, element).with(x, element);
        FunArg f =
            new FunArg.Lambda(
                element,
                List.of(new Param(element, x, AT)),
                combine(
                    var(x), combine(var(total), exprs.generate(element, withTotal, DEPTH).expr())),
                AT);
        Expr reduced =
            choices.percent(50)
                ? reduction(var(current))
                : reduction(exprs.generate(arrayOf(element, width), scope, DEPTH).expr());
        yield new Expr.Let(
            new Pattern.Name(total, AT), reduced, new Expr.Map(f, var(current), AT), AT);
      }
      case UPDATE -> {
        String updated = exprs.freshName("u");
        Expr index =
            choices.percent(50)
                ? i32(choices.below((int) width))
                : wrap(exprs.generate(ScalarType.I32, scope, DEPTH).expr());
        yield new Expr.LetWith(
            updated,
            current,
            List.of(index),
            exprs.generate(element, scope, DEPTH).expr(),
            var(updated),
            AT);
      }
      case SEQUENTIAL_UPDATES -> {
        String w = exprs.freshName("w");
        String k = exprs.freshName("k");
        String updated = exprs.freshName("u");
        Scope inLoop = outer.with(w, rowType()).with(k, ScalarType.I32);
        Expr before =
            new Expr.Index(
                var(w), List.of(wrap(new Expr.Binary(BinaryOperator.SUB, var(k), i32(1), AT))), AT);
        Expr value = combine(before, exprs.generate(element, inLoop, DEPTH).expr());
        Expr update = new Expr.LetWith(updated, w, List.of(wrap(var(k))), value, var(updated), AT);
        yield new Expr.Loop(
            new Pattern.Name(w, AT), var(current), k, i32(width), update, var(w), AT);
      }
      case SCAN -> {
        Monoid monoid = choices.pick(Monoid.of(element));
        yield new Expr.Scan(operator(monoid), monoid.neutral(), var(current), AT);
      }
      case MAP_OF_ROWS -> {
        // rows of the row's size made at the row's level, each reduced by a map of them
        String j = exprs.freshName("j");
        String x = exprs.freshName("x");
        String r = exprs.freshName("r");
        String rows = exprs.freshName("mm");
        Scope inner = scope.with(j, ScalarType.I32).with(x, element);
        FunArg ofElement =
            new FunArg.Lambda(
                element,
                List.of(new Param(element, x, AT)),
                combine(var(x), exprs.generate(element, inner, DEPTH).expr()),
                AT);
        FunArg ofIndex =
            new FunArg.Lambda(
                rowType().erased(),
                List.of(new Param(ScalarType.I32, j, AT)),
                new Expr.Map(ofElement, var(current), AT),
                AT);
        FunArg reduced =
            new FunArg.Lambda(
                element, List.of(new Param(rowType().erased(), r, AT)), reduction(var(r)), AT);
        yield new Expr.Let(
            new Pattern.Name(rows, AT),
            new Expr.Map(ofIndex, new Expr.Iota(i32(width), AT), AT),
            new Expr.Map(reduced, var(rows), AT),
            AT);
      }
      case FILTER_THEN_MAP -> {
        // an array whose size only the row's data decides, reduced for a map
        String x = exprs.freshName("x");
        String kept = exprs.freshName("kept");
        String total = exprs.freshName("total");
        FunArg keep =
            new FunArg.Lambda(
                ScalarType.BOOL,
                List.of(new Param(element, x, AT)),
                exprs.generate(ScalarType.BOOL, scope.with(x, element), DEPTH).expr(),
                AT);
        String y = exprs.freshName("y");
        FunArg f =
            new FunArg.Lambda(
                element, List.of(new Param(element, y, AT)), combine(var(y), var(total)), AT);
        yield new Expr.Let(
            new Pattern.Name(kept, AT),
            new Expr.Filter(keep, var(current), AT),
            new Expr.Let(
                new Pattern.Name(total, AT),
                reduction(var(kept)),
                new Expr.Map(f, var(current), AT),
                AT),
            AT);
      }
      case INNER_LOOP -> {
        // a loop inside the loop whose steps are maps again
        String w = exprs.freshName("w");
        String k = exprs.freshName("k");
        Scope inLoop = outer.with(k, ScalarType.I32);
        Step inner = choices.pick(List.of(Step.MAP_NEIGHBOURS, Step.REDUCE_THEN_MAP, Step.UPDATE));
        yield new Expr.Loop(
            new Pattern.Name(w, AT),
            var(current),
            k,
            tripCount(outer),
            step(inner, w, inLoop),
            var(w),
            AT);
      }
      case FILTERED_ROWS -> {
        // rows whose size only the data decides (the same in every row), maybe no rows
        String j = exprs.freshName("j");
        String x = exprs.freshName("x");
        String e = exprs.freshName("e");
        String r = exprs.freshName("r");
        String y = exprs.freshName("y");
        String rows = exprs.freshName("mm");
        String total = exprs.freshName("total");
        FunArg keep =
            new FunArg.Lambda(
                ScalarType.BOOL,
                List.of(new Param(element, e, AT)),
                exprs.generate(ScalarType.BOOL, outer.with(e, element), DEPTH).expr(),
                AT);
        Scope inner = scope.with(j, ScalarType.I32).with(x, element);
        FunArg ofElement =
            new FunArg.Lambda(
                element,
                List.of(new Param(element, x, AT)),
                combine(var(x), exprs.generate(element, inner, DEPTH).expr()),
                AT);
        Type unsized = Type.array(element, Dim.UNKNOWN).erased();
        FunArg ofIndex =
            new FunArg.Lambda(
                unsized,
                List.of(new Param(ScalarType.I32, j, AT)),
                new Expr.Map(ofElement, new Expr.Filter(keep, var(current), AT), AT),
                AT);
        // a literal count: one the rows' data decides is an array the host cannot bound
        Expr count = i32(choices.below(5));
        FunArg reduced =
            new FunArg.Lambda(element, List.of(new Param(unsized, r, AT)), reduction(var(r)), AT);
        FunArg f =
            new FunArg.Lambda(
                element, List.of(new Param(element, y, AT)), combine(var(y), var(total)), AT);
        yield new Expr.Let(
            new Pattern.Name(rows, AT),
            new Expr.Map(ofIndex, new Expr.Iota(count, AT), AT),
            new Expr.Let(
                new Pattern.Name(total, AT),
                reduction(new Expr.Map(reduced, var(rows), AT)),
                new Expr.Map(f, var(current), AT),
                AT),
            AT);
      }
      case BRANCH ->
          new Expr.If(
              exprs.generate(ScalarType.BOOL, scope, DEPTH).expr(),
              step(
                  choices.pick(List.of(Step.MAP_NEIGHBOURS, Step.UPDATE, Step.MAP_OF_ROWS)),
                  current,
                  outer),
              step(
                  choices.pick(List.of(Step.MAP_ZIP, Step.SCAN, Step.SEQUENTIAL_UPDATES)),
                  current,
                  outer),
              AT);
    };
  }

  /** The loop's result from its array {@code v}: a reduction, an element, or a map of it. */
  private Expr resultOf(String v, Scope scope, Type result) {
    if (result instanceof Type.Tuple tuple) {
      return new Expr.TupleLit(
          tuple.elements().stream().map(part -> resultOf(v, scope, part)).toList(), AT);
    }
    if (result instanceof ScalarType) {
      Expr of =
          choices.percent(50)
              ? reduction(var(v))
              : new Expr.Index(var(v), List.of(i32(choices.below((int) width))), AT);
      return combine(of, exprs.generate(element, scope, DEPTH).expr());
    }
    String x = exprs.freshName("x");
    FunArg f =
        new FunArg.Lambda(
            element,
            List.of(new Param(element, x, AT)),
            combine(var(x), exprs.generate(element, scope.with(x, element), DEPTH).expr()),
            AT);
    return choices.percent(70)
        ? new Expr.Map(f, var(v), AT)
        : exprs.generate(rowType(), scope, DEPTH).expr();
  }

  /** {@code map(fn t (i32 j) => body, iota(width))}. */
  private Expr mapOverIndices(String j, Expr body) {
    FunArg f = new FunArg.Lambda(element, List.of(new Param(ScalarType.I32, j, AT)), body, AT);
    return new Expr.Map(f, new Expr.Iota(i32(width), AT), AT);
  }

  /** {@code reduce(op, ne, array)} with one of the element type's monoids. */
  private Expr reduction(Expr array) {
    Monoid monoid = choices.pick(Monoid.of(element));
    return new Expr.Reduce(operator(monoid), monoid.neutral(), array, AT);
  }

  /** {@code fn t (t x, t y) => x op y} of {@code monoid}. */
  private FunArg operator(Monoid monoid) {
    String x = exprs.freshName("x");
    String y = exprs.freshName("y");
    return new FunArg.Lambda(
        element,
        List.of(new Param(element, x, AT), new Param(element, y, AT)),
        monoid.combine(var(x), var(y)),
        AT);
  }

  /** {@code x + y}, {@code x - y} or {@code x * y}. */
  private Expr combine(Expr x, Expr y) {
    BinaryOperator op =
        choices.pick(List.of(BinaryOperator.ADD, BinaryOperator.SUB, BinaryOperator.MUL));
    return new Expr.Binary(op, x, y, AT);
  }

  /** {@code ((e % width) + width) % width}: an index into the row. */
  private Expr wrap(Expr e) {
    Expr n = i32(width);
    Expr remainder = new Expr.Binary(BinaryOperator.MOD, e, n, AT);
    return new Expr.Binary(
        BinaryOperator.MOD, new Expr.Binary(BinaryOperator.ADD, remainder, n, AT), n, AT);
  }

  /**
   * A trip count of 0 to 4: a literal, or one the data decides ({@code e % 5}, no iterations where
   * negative), which the block's threads agree on.
   */
  private Expr tripCount(Scope scope) {
    return choices.percent(70)
        ? i32(choices.below(5))
        : new Expr.Binary(
            BinaryOperator.MOD, exprs.generate(ScalarType.I32, scope, DEPTH).expr(), i32(5), AT);
  }

  private Type.Array rowType() {
    return arrayOf(element, width);
  }
}
