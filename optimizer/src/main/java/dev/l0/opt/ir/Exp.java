package dev.l0.opt.ir;

import dev.l0.ir.BinaryOperator;
import dev.l0.ir.Builtin;
import dev.l0.ir.PrefixOperator;
import dev.l0.ir.ScalarType;
import dev.l0.ir.ScalarValue;
import dev.l0.ir.SourcePos;
import dev.l0.ir.Type;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.function.Function;

/**
 * The right-hand side of an internal binding (thesis ch. 4). Operands are {@link SubExp}s; nested
 * code lives in {@link Body}s (branches, loop bodies) and {@link Lambda}s (SOAC functions). Each
 * node can rebuild itself with new operands, bodies and lambdas, which is all a pass needs to walk
 * the tree generically.
 */
public sealed interface Exp {

  /** The direct operands, in order. */
  List<SubExp> operands();

  /** This node with {@code f} applied to each direct operand. */
  Exp mapOperands(Function<SubExp, SubExp> f);

  /** The directly nested bodies (if branches, a loop body); lambdas excluded. */
  default List<Body> bodies() {
    return List.of();
  }

  default Exp mapBodies(Function<Body, Body> f) {
    return this;
  }

  /** The directly nested lambdas (SOAC functions). */
  default List<Lambda> lambdas() {
    return List.of();
  }

  default Exp mapLambdas(Function<Lambda, Lambda> f) {
    return this;
  }

  /**
   * Whether evaluating this node may fail or consume an array, not counting the code nested in it
   * ({@link Analysis#mayFail} adds that): such a binding is never removed as dead.
   */
  default boolean mayFailItself() {
    return false;
  }

  /** Whether it is a map ({@link Screma#map}). */
  default boolean isMap() {
    return false;
  }

  /** Whether it is an unfused reduce ({@link Screma#reduce}). */
  default boolean isReduce() {
    return false;
  }

  /** Whether it is an unfused scan ({@link Screma#scan}). */
  default boolean isScan() {
    return false;
  }

  private static List<SubExp> mapAll(List<SubExp> xs, Function<SubExp, SubExp> f) {
    return xs.stream().map(f).toList();
  }

  private static List<SubExp> concat(List<SubExp> a, List<SubExp> b) {
    List<SubExp> all = new ArrayList<>(a);
    all.addAll(b);
    return all;
  }

  /** A copy of an operand: {@code let x = y}. */
  record Atom(SubExp value) implements Exp {
    @Override
    public List<SubExp> operands() {
      return List.of(value);
    }

    @Override
    public Exp mapOperands(Function<SubExp, SubExp> f) {
      return new Atom(f.apply(value));
    }
  }

  /**
   * {@code x op y} on scalars of type {@code operandType}; integer {@code /} and {@code %} can fail
   * unless the divisor is a constant other than 0, and integer {@code pow} unless its exponent is a
   * non-negative constant.
   */
  record BinOp(BinaryOperator op, ScalarType operandType, SubExp left, SubExp right, SourcePos pos)
      implements Exp {
    @Override
    public List<SubExp> operands() {
      return List.of(left, right);
    }

    @Override
    public Exp mapOperands(Function<SubExp, SubExp> f) {
      return new BinOp(op, operandType, f.apply(left), f.apply(right), pos);
    }

    @Override
    public boolean mayFailItself() {
      if (!operandType.isInteger()) {
        return false;
      }
      return switch (op) {
        case DIV, MOD ->
            !(right instanceof SubExp.Const c && ((ScalarValue.Int) c.value()).value() != 0);
        case POW ->
            !(right instanceof SubExp.Const c && ((ScalarValue.Int) c.value()).value() >= 0);
        default -> false;
      };
    }
  }

  record UnOp(PrefixOperator op, ScalarType type, SubExp operand) implements Exp {
    @Override
    public List<SubExp> operands() {
      return List.of(operand);
    }

    @Override
    public Exp mapOperands(Function<SubExp, SubExp> f) {
      return new UnOp(op, type, f.apply(operand));
    }
  }

  /** A built-in function on scalars whose (first) argument has type {@code argType}. */
  record BuiltinCall(Builtin function, ScalarType argType, List<SubExp> args) implements Exp {
    public BuiltinCall {
      args = List.copyOf(args);
    }

    @Override
    public List<SubExp> operands() {
      return args;
    }

    @Override
    public Exp mapOperands(Function<SubExp, SubExp> f) {
      return new BuiltinCall(function, argType, mapAll(args, f));
    }
  }

  /** A call of a program function with flattened arguments. */
  record Apply(String function, List<SubExp> args) implements Exp {
    public Apply {
      args = List.copyOf(args);
    }

    @Override
    public List<SubExp> operands() {
      return args;
    }

    @Override
    public Exp mapOperands(Function<SubExp, SubExp> f) {
      return new Apply(function, mapAll(args, f));
    }

    @Override
    public boolean mayFailItself() {
      return true;
    }
  }

  record If(SubExp condition, Body thenBody, Body elseBody) implements Exp {
    @Override
    public List<SubExp> operands() {
      return List.of(condition);
    }

    @Override
    public Exp mapOperands(Function<SubExp, SubExp> f) {
      return new If(f.apply(condition), thenBody, elseBody);
    }

    @Override
    public List<Body> bodies() {
      return List.of(thenBody, elseBody);
    }

    @Override
    public Exp mapBodies(Function<Body, Body> f) {
      return new If(condition, f.apply(thenBody), f.apply(elseBody));
    }

    @Override
    public boolean mayFailItself() {
      return true;
    }
  }

  /** {@code loop (merge = init) = for counter < bound do body} (thesis §2.1.1), tupleless. */
  record Loop(List<Ident> mergeParams, List<SubExp> init, Ident counter, SubExp bound, Body body)
      implements Exp {
    public Loop {
      mergeParams = List.copyOf(mergeParams);
      init = List.copyOf(init);
    }

    @Override
    public List<SubExp> operands() {
      return concat(init, List.of(bound));
    }

    @Override
    public Exp mapOperands(Function<SubExp, SubExp> f) {
      return new Loop(mergeParams, mapAll(init, f), counter, f.apply(bound), body);
    }

    @Override
    public List<Body> bodies() {
      return List.of(body);
    }

    @Override
    public Exp mapBodies(Function<Body, Body> f) {
      return new Loop(mergeParams, init, counter, bound, f.apply(body));
    }

    @Override
    public boolean mayFailItself() {
      return true;
    }
  }

  /** {@code a[i1, ..., in]}, bounds-checked. */
  record Index(SubExp array, List<SubExp> indices, SourcePos pos) implements Exp {
    public Index {
      indices = List.copyOf(indices);
    }

    @Override
    public List<SubExp> operands() {
      return concat(List.of(array), indices);
    }

    @Override
    public Exp mapOperands(Function<SubExp, SubExp> f) {
      return new Index(f.apply(array), mapAll(indices, f), pos);
    }

    @Override
    public boolean mayFailItself() {
      return true;
    }
  }

  /**
   * In-place update: the array {@code array} with {@code [indices] <- value} (thesis §2.1.2);
   * consumes {@code array}.
   */
  record Update(SubExp array, List<SubExp> indices, SubExp value, SourcePos pos) implements Exp {
    public Update {
      indices = List.copyOf(indices);
    }

    @Override
    public List<SubExp> operands() {
      List<SubExp> all = new ArrayList<>();
      all.add(array);
      all.addAll(indices);
      all.add(value);
      return all;
    }

    @Override
    public Exp mapOperands(Function<SubExp, SubExp> f) {
      return new Update(f.apply(array), mapAll(indices, f), f.apply(value), pos);
    }

    @Override
    public boolean mayFailItself() {
      return true;
    }
  }

  /** An array literal whose rows have type {@code rowType}; nested rows must have equal shapes. */
  record ArrayLit(List<SubExp> elements, Type rowType, SourcePos pos) implements Exp {
    public ArrayLit {
      elements = List.copyOf(elements);
    }

    @Override
    public List<SubExp> operands() {
      return elements;
    }

    @Override
    public Exp mapOperands(Function<SubExp, SubExp> f) {
      return new ArrayLit(mapAll(elements, f), rowType, pos);
    }

    @Override
    public boolean mayFailItself() {
      return rowType.rank() > 0;
    }
  }

  record Iota(SubExp count, SourcePos pos) implements Exp {
    @Override
    public List<SubExp> operands() {
      return List.of(count);
    }

    @Override
    public Exp mapOperands(Function<SubExp, SubExp> f) {
      return new Iota(f.apply(count), pos);
    }

    @Override
    public boolean mayFailItself() {
      return true;
    }
  }

  record Replicate(SubExp count, SubExp value, SourcePos pos) implements Exp {
    @Override
    public List<SubExp> operands() {
      return List.of(count, value);
    }

    @Override
    public Exp mapOperands(Function<SubExp, SubExp> f) {
      return new Replicate(f.apply(count), f.apply(value), pos);
    }

    @Override
    public boolean mayFailItself() {
      return true;
    }
  }

  record Size(int dimension, SubExp array) implements Exp {
    @Override
    public List<SubExp> operands() {
      return List.of(array);
    }

    @Override
    public Exp mapOperands(Function<SubExp, SubExp> f) {
      return new Size(dimension, f.apply(array));
    }
  }

  record Reshape(List<SubExp> shape, SubExp array, SourcePos pos) implements Exp {
    public Reshape {
      shape = List.copyOf(shape);
    }

    @Override
    public List<SubExp> operands() {
      return concat(shape, List.of(array));
    }

    @Override
    public Exp mapOperands(Function<SubExp, SubExp> f) {
      return new Reshape(mapAll(shape, f), f.apply(array), pos);
    }

    @Override
    public boolean mayFailItself() {
      return true;
    }
  }

  /**
   * {@code transpose(k, n, array)}; {@code pos} is the program's transpose, or for one the
   * optimiser adds, the SOAC it rewrote: where a transpose too large to make is reported.
   */
  record Transpose(int k, int n, SubExp array, SourcePos pos) implements Exp {
    @Override
    public List<SubExp> operands() {
      return List.of(array);
    }

    @Override
    public Exp mapOperands(Function<SubExp, SubExp> f) {
      return new Transpose(k, n, f.apply(array), pos);
    }
  }

  /** {@code split(at, a)}: binds the two halves. */
  record Split(SubExp at, SubExp array, SourcePos pos) implements Exp {
    @Override
    public List<SubExp> operands() {
      return List.of(at, array);
    }

    @Override
    public Exp mapOperands(Function<SubExp, SubExp> f) {
      return new Split(f.apply(at), f.apply(array), pos);
    }

    @Override
    public boolean mayFailItself() {
      return true;
    }
  }

  record Concat(SubExp left, SubExp right, SourcePos pos) implements Exp {
    @Override
    public List<SubExp> operands() {
      return List.of(left, right);
    }

    @Override
    public Exp mapOperands(Function<SubExp, SubExp> f) {
      return new Concat(f.apply(left), f.apply(right), pos);
    }

    @Override
    public boolean mayFailItself() {
      return true;
    }
  }

  /** A fresh copy of an array (thesis {@code copy}). */
  record Copy(SubExp array) implements Exp {
    @Override
    public List<SubExp> operands() {
      return List.of(array);
    }

    @Override
    public Exp mapOperands(Function<SubExp, SubExp> f) {
      return new Copy(f.apply(array));
    }
  }

  /**
   * {@code assert(condition)} (thesis §4.2): binds a certificate, or fails with an {@code
   * L0RuntimeError} for {@code operation} at {@code pos} when the condition is false, whose detail
   * is {@code detail} with its {@code {k}} replaced by the k-th of {@code values} (integers; {@code
   * dev.l0.semantics.FailureDetails}).
   */
  record Assert(
      SubExp condition, String operation, String detail, List<SubExp> values, SourcePos pos)
      implements Exp {
    public Assert {
      values = List.copyOf(values);
    }

    /** An assertion whose detail names no value. */
    public Assert(SubExp condition, String operation, String detail, SourcePos pos) {
      this(condition, operation, detail, List.of(), pos);
    }

    @Override
    public List<SubExp> operands() {
      List<SubExp> all = new ArrayList<>(List.of(condition));
      all.addAll(values);
      return all;
    }

    @Override
    public Exp mapOperands(Function<SubExp, SubExp> f) {
      return new Assert(
          f.apply(condition), operation, detail, values.stream().map(f).toList(), pos);
    }

    /** This assertion, checking {@code condition} instead. */
    public Assert withCondition(SubExp condition) {
      return new Assert(condition, operation, detail, values, pos);
    }

    @Override
    public boolean mayFailItself() {
      return true;
    }
  }

  /** A second-order array combinator: its function(s) run over the rows of {@code inputs}. */
  sealed interface Soac extends Exp {
    /**
     * The SOAC's name as the printer and the kernel plan write it: {@code map}, {@code redomap},
     * ....
     */
    String keyword();

    List<SubExp> inputs();

    /**
     * The function applied to each row: the map function, the filter(map)'s flags and values, the
     * reduce or scan operator, the redomap or scanomap fold. Its first {@link #accumulators()}
     * parameters are accumulators, the rest take one row of each input.
     */
    Lambda rowFunction();

    default int accumulators() {
      return 0;
    }

    /**
     * This SOAC applying {@code f} to the rows of {@code newInputs}. A reduce or scan becomes a
     * {@link Screma} (a redomap or scanomap) that keeps its operator for combining, so {@code f}
     * must bind names of its own.
     */
    Soac withRowFunction(Lambda f, List<SubExp> newInputs);

    @Override
    default boolean mayFailItself() {
      return true;
    }
  }

  /**
   * A filter cluster (seed 002's size-changing operator with its producer's and consumer's work
   * fused in): {@code function} maps each row of {@code inputs} to a keep flag and one value per
   * result, and the results are the values of the rows whose flag holds, in order. {@code filter(p,
   * map(f, a))} and {@code map(g, filter(p, a))} are each one; the values of a row that is not kept
   * are never read. Its results are arrays of scalars.
   *
   * <p>Several filters of one array in one pass (seed 002's clusters of filters, closest points'
   * halves and quadtree's quarters) are one filtermap with several {@code filters}: the number of
   * values of each, in order. {@code function} then returns, filter by filter, a keep flag followed
   * by that filter's values; the pattern binds the filters' results in the same order, each
   * filter's of a size of its own.
   *
   * <p>A reduction of kept values in the same pass (filter-reduce) makes it a fold: with {@code
   * neutral} not empty, {@code function}'s first parameters and first results are accumulators
   * (folded over every row in order from {@code neutral}, as a redomap's are), and {@code combine}
   * combines the partial accumulators of chunks; the pattern binds the final accumulators first.
   * Without accumulators {@code combine} is {@link #NO_COMBINE}.
   *
   * <p>A plain {@code filter(p, a1, ..., an)}, the rows where {@code p} holds, is the filtermap of
   * one filter whose values are the row itself, {@code fn x => (p(x), x)} ({@link #filter}); {@link
   * #isFilter} recognises one and {@link #predicate} gives back {@code p}. Only a plain filter may
   * keep rows that are arrays; the keyword, the printer and the kernel plan call it {@code filter}.
   */
  record FilterMap(
      Lambda function,
      List<SubExp> inputs,
      List<Integer> filters,
      List<SubExp> neutral,
      Lambda combine)
      implements Soac {
    /** The combining operator of a filtermap without accumulators: of nothing, to nothing. */
    public static final Lambda NO_COMBINE =
        new Lambda(List.of(), new Body(List.of(), List.of()), List.of());

    /** {@code filtermap} or, for a plain filter, {@code filter}. */
    @Override
    public String keyword() {
      return isFilter() ? "filter" : "filtermap";
    }

    public FilterMap {
      inputs = List.copyOf(inputs);
      filters = List.copyOf(filters);
      neutral = List.copyOf(neutral);
      int returned = neutral.size() + filters.stream().mapToInt(v -> 1 + v).sum();
      if (returned != function.returnTypes().size()) {
        throw new IllegalArgumentException(
            "a filtermap of "
                + neutral.size()
                + " accumulators and filters with "
                + filters
                + " values has a function returning "
                + function.returnTypes().size()
                + " values, not "
                + returned);
      }
      if (neutral.isEmpty() != (combine == NO_COMBINE)) {
        throw new IllegalArgumentException(
            "a filtermap has a combining operator exactly where it has accumulators");
      }
    }

    /** Several filters, no accumulators. */
    public FilterMap(Lambda function, List<SubExp> inputs, List<Integer> filters) {
      this(function, inputs, filters, List.of(), NO_COMBINE);
    }

    /** One filter: {@code function} returns its keep flag, then all its values. */
    public FilterMap(Lambda function, List<SubExp> inputs) {
      this(function, inputs, List.of(function.returnTypes().size() - 1));
    }

    /**
     * {@code filter(p, a1, ..., an)}: the rows where {@code predicate} (of one row, returning one
     * bool) holds, one result array per input, as the filtermap {@code fn x => (p(x), x)}.
     */
    public static FilterMap filter(Lambda predicate, List<SubExp> inputs) {
      List<SubExp> results = new ArrayList<>(predicate.body().result());
      List<Type> types = new ArrayList<>(predicate.returnTypes());
      for (Ident param : predicate.params()) {
        results.add(param.var());
        types.add(param.type());
      }
      return new FilterMap(
          new Lambda(predicate.params(), new Body(predicate.body().stms(), results), types),
          inputs);
    }

    /**
     * Whether it is a plain filter: one filter, no accumulators, and its values each row's own
     * parameters, in order.
     */
    public boolean isFilter() {
      List<SubExp> results = function.body().result();
      List<SubExp> row = function.params().stream().map(p -> (SubExp) p.var()).toList();
      return filters.size() == 1
          && neutral.isEmpty()
          && results.subList(1, results.size()).equals(row);
    }

    /** A plain filter's predicate: its function returning only the keep flag. */
    public Lambda predicate() {
      if (!isFilter()) {
        throw new IllegalStateException("a filtermap that is no plain filter has no predicate");
      }
      return new Lambda(
          function.params(),
          new Body(function.body().stms(), List.of(function.body().result().get(0))),
          List.of(function.returnTypes().get(0)));
    }

    /** Whether every value it keeps is a scalar (one filter cluster of the fusion rules). */
    public boolean keepsScalars() {
      return function.returnTypes().subList(accumulators(), function.returnTypes().size()).stream()
          .allMatch(t -> t.rank() == 0);
    }

    @Override
    public int accumulators() {
      return neutral.size();
    }

    /** Where filter {@code k}'s keep flag is among {@code function}'s results. */
    public int flagPosition(int k) {
      int position = accumulators();
      for (int j = 0; j < k; j++) {
        position += 1 + filters.get(j);
      }
      return position;
    }

    /** Where filter {@code k}'s first result is in the pattern. */
    public int firstResult(int k) {
      return flagPosition(k) - k;
    }

    /**
     * The filter whose kept values pattern position {@code r} binds ({@code r >= accumulators}).
     */
    public int filterOf(int r) {
      int k = 0;
      while (k + 1 < filters.size() && firstResult(k + 1) <= r) {
        k++;
      }
      return k;
    }

    /**
     * Where the value that pattern position {@code r} keeps is among {@code function}'s results.
     */
    public int valuePosition(int r) {
      int k = filterOf(r);
      return flagPosition(k) + 1 + r - firstResult(k);
    }

    @Override
    public List<SubExp> operands() {
      return concat(neutral, inputs);
    }

    @Override
    public Exp mapOperands(Function<SubExp, SubExp> f) {
      return new FilterMap(function, mapAll(inputs, f), filters, mapAll(neutral, f), combine);
    }

    @Override
    public List<Lambda> lambdas() {
      return neutral.isEmpty() ? List.of(function) : List.of(function, combine);
    }

    @Override
    public Exp mapLambdas(Function<Lambda, Lambda> f) {
      return new FilterMap(
          f.apply(function),
          inputs,
          filters,
          neutral,
          neutral.isEmpty() ? NO_COMBINE : f.apply(combine));
    }

    @Override
    public Lambda rowFunction() {
      return function;
    }

    @Override
    public Soac withRowFunction(Lambda f, List<SubExp> newInputs) {
      return new FilterMap(f, newInputs, filters, neutral, combine);
    }
  }

  /**
   * The one SOAC of a pass that maps, reduces or scans (thesis §7.1; Futhark's {@code screma},
   * "scan-reduce-map"): one pass over the rows of {@code inputs}. By its {@link #yields} it binds
   * each row's results of {@code fold} (a {@code map}: no accumulators), or runs {@code acc =
   * fold(acc, row)} from {@code neutral} and binds the final accumulators (a reduction) or every
   * prefix of them, {@code out[i] = acc after row i} (a scan). {@code combine} is the associative
   * operator a parallel execution joins the partial accumulators of chunks with; where it is {@link
   * #NO_COMBINE} the fold is its own combining operator (an unfused {@code reduce} or {@code scan},
   * whose operator takes an accumulator and a row of the accumulator's type), and a map has none.
   * The fold is never reassociated, so every backend's chunks of the documented order give the same
   * result. {@code pos} is where the SOAC was written (a map's irregular results and a reduction's
   * operator that changes its accumulator's shape are reported there).
   *
   * <p>The forms the rules and the explain text name are smart constructors and views: {@link #map}
   * ({@link #isMap}), {@link #reduce} ({@link #isReduce}), {@link #scan} ({@link #isScan}), and the
   * fused {@link #redomap} and {@link #scanomap} ({@link #fused}); {@link #keyword} names each so.
   *
   * <p>A fused reduction may also yield each row's values, as Futhark's screma's map part does: its
   * fold then returns its accumulators followed by {@link #mapOutputs} more values per row, and it
   * binds the final accumulators followed by one array per such value, of the rows' outer size
   * ({@link #withMapOutputs}); horizontal fusion makes one of a reduction and a map of one array
   * ({@code FUSE-HORIZONTAL-MAP}), so one pass gives both. The keyword calls it {@code screma}.
   *
   * <p>{@code alsoWritten} are the other maps, reduces and scans of the program that fusion made
   * part of this one ({@link #fusedFrom}), in source order: messages about the kernel name each of
   * them, since what a backend rejects may be in any.
   */
  record Screma(
      Yield yields,
      Lambda combine,
      Lambda fold,
      List<SubExp> neutral,
      List<SubExp> inputs,
      SourcePos pos,
      List<Written> alsoWritten)
      implements Soac {

    /** A map, reduce or scan as the program wrote it: its L0 name and where its keyword is. */
    public record Written(String soac, SourcePos pos) {}

    /**
     * The combining operator of a map, which has none, and of an unfused reduce or scan, whose fold
     * combines: of nothing, to nothing.
     */
    public static final Lambda NO_COMBINE = FilterMap.NO_COMBINE;

    /** What a screma's pass binds. */
    public enum Yield {
      /** Each row's results of the function, one array per result (a map). */
      ROWS,
      /** The final accumulators, one value per accumulator (a reduce or redomap). */
      REDUCTION,
      /** The accumulator after each row, one array per accumulator (a scan or scanomap). */
      PREFIXES
    }

    public Screma {
      neutral = List.copyOf(neutral);
      inputs = List.copyOf(inputs);
      alsoWritten = List.copyOf(alsoWritten);
      if (yields == Yield.ROWS && !neutral.isEmpty()) {
        throw new IllegalArgumentException("a map has no accumulators");
      }
      if (yields == Yield.ROWS && !combine.equals(NO_COMBINE)) {
        throw new IllegalArgumentException("a map has no combining operator");
      }
    }

    /** A screma that fusion made of nothing else: where it was written is {@code pos} alone. */
    public Screma(
        Yield yields,
        Lambda combine,
        Lambda fold,
        List<SubExp> neutral,
        List<SubExp> inputs,
        SourcePos pos) {
      this(yields, combine, fold, neutral, inputs, pos, List.of());
    }

    /**
     * This screma, which fusion made of {@code parts} (this one's own statement among them or not):
     * it also names where each part, and whatever each was fused from, was written, other than at
     * its own {@link #pos}. A filter has no position of its own, so it adds none.
     */
    public Screma fusedFrom(Soac... parts) {
      List<Written> written = new ArrayList<>(alsoWritten);
      for (Soac part : parts) {
        if (part instanceof Screma s) {
          written.add(new Written(s.writtenName(), s.pos()));
          written.addAll(s.alsoWritten());
        }
      }
      List<Written> others =
          written.stream()
              .filter(w -> !w.pos().equals(SourcePos.NONE) && !w.pos().equals(pos))
              .distinct()
              .sorted(
                  Comparator.comparingInt((Written w) -> w.pos().line())
                      .thenComparingInt(w -> w.pos().column()))
              .toList();
      return new Screma(yields, combine, fold, neutral, inputs, pos, others);
    }

    /**
     * The L0 name of the SOAC the program wrote that became this screma: a map, or a fused redomap
     * or screma the reduce and a scanomap the scan it was written as.
     */
    public String writtenName() {
      return isMap() ? "map" : scans() ? "scan" : "reduce";
    }

    /**
     * {@code map(f, a1, ..., an)}: one result array per result of {@code f}; {@code pos} is where
     * the map was written (its results must be regular, and an irregular one is reported there).
     */
    public static Screma map(Lambda function, List<SubExp> inputs, SourcePos pos) {
      return new Screma(Yield.ROWS, NO_COMBINE, function, List.of(), inputs, pos);
    }

    /**
     * {@code reduce(op, ne, a...)}: a left fold from {@code neutral}, one result per accumulator,
     * {@code op} also combining the chunks; {@code pos} is where the reduce was written (its
     * operator must keep the accumulator's shape, and one that does not is reported there).
     */
    public static Screma reduce(
        Lambda operator, List<SubExp> neutral, List<SubExp> inputs, SourcePos pos) {
      return new Screma(Yield.REDUCTION, NO_COMBINE, operator, neutral, inputs, pos);
    }

    /**
     * {@code scan(op, ne, a...)}: inclusive prefix results, one array per accumulator; {@code pos}
     * is where the scan was written (its results must be regular, and an irregular one is reported
     * there).
     */
    public static Screma scan(
        Lambda operator, List<SubExp> neutral, List<SubExp> inputs, SourcePos pos) {
      return new Screma(Yield.PREFIXES, NO_COMBINE, operator, neutral, inputs, pos);
    }

    /** {@code redomap(combine, fold, ne, a...)}: the fold's final accumulators. */
    public static Screma redomap(
        Lambda combine, Lambda fold, List<SubExp> neutral, List<SubExp> inputs, SourcePos pos) {
      return new Screma(Yield.REDUCTION, combine, fold, neutral, inputs, pos);
    }

    /**
     * {@code scanomap(combine, fold, ne, a...)}: the fold's inclusive prefixes (what map→scan
     * fusion makes).
     */
    public static Screma scanomap(
        Lambda combine, Lambda fold, List<SubExp> neutral, List<SubExp> inputs, SourcePos pos) {
      return new Screma(Yield.PREFIXES, combine, fold, neutral, inputs, pos);
    }

    /**
     * {@code screma(combine, fold, ne, a...)}: a redomap whose {@code fold} returns, after its
     * accumulators, values of each row that the pass binds as arrays (its map part), after the
     * final accumulators.
     */
    public static Screma withMapOutputs(
        Lambda combine, Lambda fold, List<SubExp> neutral, List<SubExp> inputs, SourcePos pos) {
      if (combine.equals(NO_COMBINE) || fold.returnTypes().size() <= neutral.size()) {
        throw new IllegalArgumentException(
            "a screma with map outputs has a combining operator and a fold returning more values"
                + " than its accumulators");
      }
      return new Screma(Yield.REDUCTION, combine, fold, neutral, inputs, pos);
    }

    /**
     * How many of the fold's results each row yields as arrays: all of a map's, those after the
     * accumulators of a reduction with a map part ({@link #withMapOutputs}), none of a scan's.
     */
    public int mapOutputs() {
      return scans() ? 0 : fold.returnTypes().size() - neutral.size();
    }

    /** Whether it is a reduction that also yields each row's values ({@link #withMapOutputs}). */
    public boolean reducesAndMaps() {
      return yields == Yield.REDUCTION && mapOutputs() > 0;
    }

    /** Whether it is a map: each row's results, no accumulators. */
    @Override
    public boolean isMap() {
      return yields == Yield.ROWS;
    }

    /** Whether it is an unfused reduce, whose operator folds and combines. */
    @Override
    public boolean isReduce() {
      return yields == Yield.REDUCTION && combine == NO_COMBINE;
    }

    /** Whether it is an unfused scan, whose operator folds and combines. */
    @Override
    public boolean isScan() {
      return yields == Yield.PREFIXES && combine == NO_COMBINE;
    }

    /** Whether it is a fused redomap or scanomap, with a combining operator of its own. */
    public boolean fused() {
      return !combine.equals(NO_COMBINE);
    }

    /**
     * Whether it yields accumulators, final or every prefix (a reduce, scan, redomap, scanomap).
     */
    public boolean folds() {
      return yields != Yield.ROWS;
    }

    /** Whether it binds every prefix (a scan or scanomap) rather than the final accumulators. */
    public boolean scans() {
      return yields == Yield.PREFIXES;
    }

    /** A map's function. */
    public Lambda function() {
      return fold;
    }

    /** An unfused reduce's or scan's operator, which folds and combines. */
    public Lambda operator() {
      return fold;
    }

    /**
     * The operator that combines partial accumulators: its own, or the fold of a reduce or scan.
     */
    public Lambda combiner() {
      return fused() ? combine : fold;
    }

    /**
     * {@code map}, {@code reduce}, {@code scan}, {@code redomap}, {@code scanomap}, or {@code
     * screma} for a reduction with a map part.
     */
    @Override
    public String keyword() {
      if (isMap()) {
        return "map";
      }
      if (reducesAndMaps()) {
        return "screma";
      }
      if (fused()) {
        return scans() ? "scanomap" : "redomap";
      }
      return scans() ? "scan" : "reduce";
    }

    @Override
    public List<SubExp> operands() {
      return concat(neutral, inputs);
    }

    @Override
    public Exp mapOperands(Function<SubExp, SubExp> f) {
      return new Screma(
          yields, combine, fold, mapAll(neutral, f), mapAll(inputs, f), pos, alsoWritten);
    }

    @Override
    public List<Lambda> lambdas() {
      return fused() ? List.of(combine, fold) : List.of(fold);
    }

    @Override
    public Exp mapLambdas(Function<Lambda, Lambda> f) {
      return new Screma(
          yields,
          fused() ? f.apply(combine) : NO_COMBINE,
          f.apply(fold),
          neutral,
          inputs,
          pos,
          alsoWritten);
    }

    @Override
    public Lambda rowFunction() {
      return fold;
    }

    @Override
    public int accumulators() {
      return neutral.size();
    }

    /**
     * This SOAC applying {@code f} to the rows of {@code newInputs}; a reduce or scan becomes a
     * redomap or scanomap that keeps its operator for combining, so {@code f} must bind names of
     * its own.
     */
    @Override
    public Soac withRowFunction(Lambda f, List<SubExp> newInputs) {
      return new Screma(
          yields, isMap() ? NO_COMBINE : combiner(), f, neutral, newInputs, pos, alsoWritten);
    }
  }
}
