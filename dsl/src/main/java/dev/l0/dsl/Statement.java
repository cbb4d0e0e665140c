package dev.l0.dsl;

import dev.l0.ir.Expr;
import dev.l0.ir.Pattern;
import dev.l0.ir.SourcePos;
import java.util.List;
import java.util.Optional;
import java.util.function.UnaryOperator;
import java.util.stream.Stream;

/**
 * One staged step of a {@link Block}, in the order the user's Java code performed it (LMS's {@code
 * Stm}). Every statement but a {@link Definition} is a binding construct of L0 that scopes over the
 * rest of its block; a definition is an anonymous computation that {@link Reifier} either writes at
 * its single use or binds with {@code let}.
 */
sealed interface Statement {
  SourcePos pos();

  /** The expressions evaluated once, where the statement stands. */
  List<Expr> evaluatedOnce();

  /** The expressions evaluated once per iteration (a loop body). */
  default List<Expr> evaluatedRepeatedly() {
    return List.of();
  }

  /**
   * Variables this statement names directly rather than through an expression: they must stay
   * variables.
   */
  default List<String> namedVariables() {
    return List.of();
  }

  /**
   * Whether the statement may consume an array (thesis ch. 3), so that no read of it may move past.
   */
  default boolean mayConsume() {
    return false;
  }

  Statement mapExprs(UnaryOperator<Expr> f);

  /** The L0 expression binding this statement over {@code rest}. */
  Expr wrap(Expr rest);

  /**
   * An anonymous computation {@code name = value}; {@code mayConsume} where it is a call or SOAC
   * that may consume an array ({@code Stager#reflect}); {@code description} is how messages name
   * {@code name} ({@link Pattern.Name#description}).
   */
  record Definition(String name, Expr value, SourcePos pos, boolean mayConsume, String description)
      implements Statement {
    @Override
    public List<Expr> evaluatedOnce() {
      return List.of(value);
    }

    @Override
    public Statement mapExprs(UnaryOperator<Expr> f) {
      return new Definition(name, f.apply(value), pos, mayConsume, description);
    }

    @Override
    public Expr wrap(Expr rest) {
      return new Expr.Let(new Pattern.Name(name, pos, Optional.of(description)), value, rest, pos);
    }
  }

  /**
   * {@code let pattern = value in ...}: an explicit {@code L0.let} or the destructuring of a tuple.
   */
  record Binding(Pattern pattern, Expr value, SourcePos pos) implements Statement {
    @Override
    public List<Expr> evaluatedOnce() {
      return List.of(value);
    }

    @Override
    public Statement mapExprs(UnaryOperator<Expr> f) {
      return new Binding(pattern, f.apply(value), pos);
    }

    @Override
    public Expr wrap(Expr rest) {
      return new Expr.Let(pattern, value, rest, pos);
    }
  }

  /** {@code loop (pattern = init) = for counter < bound do loopBody in ...} (thesis §2.1.1). */
  record LoopBinding(
      Pattern pattern, Expr init, String counter, Expr bound, Expr loopBody, SourcePos pos)
      implements Statement {
    @Override
    public List<Expr> evaluatedOnce() {
      return List.of(init, bound);
    }

    @Override
    public List<Expr> evaluatedRepeatedly() {
      return List.of(loopBody);
    }

    @Override
    public boolean mayConsume() {
      return true;
    }

    @Override
    public Statement mapExprs(UnaryOperator<Expr> f) {
      return new LoopBinding(
          pattern, f.apply(init), counter, f.apply(bound), f.apply(loopBody), pos);
    }

    @Override
    public Expr wrap(Expr rest) {
      return new Expr.Loop(pattern, init, counter, bound, loopBody, rest, pos);
    }
  }

  /** {@code let dest = source with [indices] <- value in ...} (thesis §2.1.2). */
  record InPlaceUpdate(String dest, String source, List<Expr> indices, Expr value, SourcePos pos)
      implements Statement {
    public InPlaceUpdate {
      indices = List.copyOf(indices);
    }

    @Override
    public List<Expr> evaluatedOnce() {
      return Stream.concat(indices.stream(), Stream.of(value)).toList();
    }

    @Override
    public List<String> namedVariables() {
      return List.of(source);
    }

    @Override
    public boolean mayConsume() {
      return true;
    }

    @Override
    public Statement mapExprs(UnaryOperator<Expr> f) {
      return new InPlaceUpdate(dest, source, Expr.mapAll(indices, f), f.apply(value), pos);
    }

    @Override
    public Expr wrap(Expr rest) {
      return new Expr.LetWith(dest, source, indices, value, rest, pos);
    }
  }
}
