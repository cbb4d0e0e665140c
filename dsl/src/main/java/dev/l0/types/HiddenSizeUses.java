package dev.l0.types;

import dev.l0.ir.Expr;
import dev.l0.ir.FunArg;
import dev.l0.ir.FunDef;
import dev.l0.ir.Param;
import dev.l0.ir.Pattern;
import dev.l0.ir.Type;
import java.util.List;
import java.util.Optional;

/**
 * Finds where an entry function's body could see the sizes of a parameter's dimensions below an
 * empty one: a value bound from nested Java arrays ({@code new double[0][3]}) has no row under its
 * empty dimension to give those sizes, while an L0 array keeps them ({@code size(1, a)} of an empty
 * {@code [0][3]} array is 3). The answer is conservative: the parameter is safe only where every
 * use is one whose result cannot depend on those sizes, namely
 *
 * <ul>
 *   <li>{@code size(d, p)} of a dimension {@code d} whose size is known;
 *   <li>indexing {@code p[i, ...]} or updating {@code p with [i, ...]} through the empty dimension,
 *       which fails whatever the sizes below it;
 *   <li>{@code map(f, p)} over an empty outer dimension whose rows are scalars or tuples of
 *       scalars: {@code f} never runs, and the result is an empty array of known shape.
 * </ul>
 *
 * <p>Every other use (passing {@code p} on, {@code transpose}, {@code filter}, a reduce, ...) is
 * reported. A name that a {@code let}, loop or lambda binds again hides the parameter there. Both
 * ways of giving Java values to an entry use it: the runtime API's nested array arguments and the
 * Spark plugin's {@code with(...)} values.
 */
public final class HiddenSizeUses {
  private final TypedProgram typed;
  private final String parameter;
  private final int knownDimensions;

  private HiddenSizeUses(TypedProgram typed, String parameter, int knownDimensions) {
    this.typed = typed;
    this.parameter = parameter;
    this.knownDimensions = knownDimensions;
  }

  /**
   * The first expression of {@code entry} (an entry function of {@code typed}) that could see the
   * sizes of {@code parameter}'s dimensions from {@code knownDimensions} on (dimension {@code
   * knownDimensions - 1} being empty); empty where none can.
   */
  public static Optional<Expr> firstUse(
      TypedProgram typed, FunDef entry, String parameter, int knownDimensions) {
    return new HiddenSizeUses(typed, parameter, knownDimensions).in(entry.body(), true);
  }

  /** The first such use in {@code e}, where the parameter is in scope if {@code visible}. */
  private Optional<Expr> in(Expr e, boolean visible) {
    if (visible && e instanceof Expr.Var v && v.name().equals(parameter)) {
      return Optional.of(e);
    }
    if (visible && e instanceof Expr.Size s && isParameter(s.array())) {
      return s.dimension() < knownDimensions ? Optional.empty() : Optional.of(e);
    }
    if (visible
        && e instanceof Expr.Index index
        && isParameter(index.array())
        && index.indices().size() >= knownDimensions) {
      return first(index.indices(), visible);
    }
    if (visible
        && e instanceof Expr.Map map
        && isParameter(map.array())
        && knownDimensions == 1
        && !containsArray(((Type.Array) typed.typeOf(map)).element())) {
      return in(map.function(), visible);
    }
    if (e instanceof Expr.Let let) {
      return in(let.value(), visible).or(() -> in(let.body(), visible && !binds(let.pattern())));
    }
    if (e instanceof Expr.LetWith update) {
      if (visible
          && update.source().equals(parameter)
          && update.indices().size() < knownDimensions) {
        return Optional.of(e);
      }
      return first(update.indices(), visible)
          .or(() -> in(update.value(), visible))
          .or(() -> in(update.body(), visible && !update.dest().equals(parameter)));
    }
    if (e instanceof Expr.Loop loop) {
      boolean inLoop = visible && !binds(loop.pattern());
      return first(List.of(loop.init(), loop.bound()), visible)
          .or(() -> in(loop.body(), inLoop))
          .or(() -> in(loop.loopBody(), inLoop && !loop.counter().equals(parameter)));
    }
    Optional<FunArg> function = e.soacFunction();
    if (function.isPresent()) {
      List<Expr> operands =
          e.children().subList(function.get().children().size(), e.children().size());
      return in(function.get(), visible).or(() -> first(operands, visible));
    }
    return first(e.children(), visible);
  }

  /** The first such use in a SOAC's function argument. */
  private Optional<Expr> in(FunArg function, boolean visible) {
    if (function instanceof FunArg.Lambda lambda) {
      boolean hidden = lambda.params().stream().map(Param::name).anyMatch(parameter::equals);
      return in(lambda.body(), visible && !hidden);
    }
    return first(function.children(), visible);
  }

  private Optional<Expr> first(List<Expr> exprs, boolean visible) {
    for (Expr e : exprs) {
      Optional<Expr> use = in(e, visible);
      if (use.isPresent()) {
        return use;
      }
    }
    return Optional.empty();
  }

  private boolean isParameter(Expr e) {
    return e instanceof Expr.Var v && v.name().equals(parameter);
  }

  private boolean binds(Pattern pattern) {
    return pattern.names().stream().anyMatch(name -> name.name().equals(parameter));
  }

  private static boolean containsArray(Type type) {
    if (type instanceof Type.Tuple tuple) {
      return tuple.elements().stream().anyMatch(HiddenSizeUses::containsArray);
    }
    return type instanceof Type.Array;
  }
}
