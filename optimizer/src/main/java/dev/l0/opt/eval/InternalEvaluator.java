package dev.l0.opt.eval;

import dev.l0.ir.L0ResourceError;
import dev.l0.ir.L0RuntimeError;
import dev.l0.ir.ScalarValue;
import dev.l0.ir.Shape;
import dev.l0.ir.SourcePos;
import dev.l0.ir.Type;
import dev.l0.ir.Value;
import dev.l0.opt.ir.Body;
import dev.l0.opt.ir.Exp;
import dev.l0.opt.ir.Ident;
import dev.l0.opt.ir.InternalFunction;
import dev.l0.opt.ir.InternalProgram;
import dev.l0.opt.ir.InternalTypes;
import dev.l0.opt.ir.Lambda;
import dev.l0.opt.ir.Stm;
import dev.l0.opt.ir.SubExp;
import dev.l0.semantics.ArrayOperations;
import dev.l0.semantics.FailureDetails;
import dev.l0.semantics.ScalarOperations;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * A direct evaluator for internal L0 with the reference interpreter's semantics: the very same
 * scalar and array operations ({@link ScalarOperations}, {@link ArrayOperations}), SOACs evaluated
 * sequentially left to right (reduce, scan and redomap fold from the neutral element), and the same
 * run-time errors. It is the oracle that shows every pass preserves results. Names are globally
 * unique, so one mutable environment per function activation suffices.
 */
public final class InternalEvaluator {
  /** The only value of type {@code cert} (thesis §4.2). */
  public static final Value CHECKED = new Value.Tuple(List.of());

  private final InternalProgram program;

  public InternalEvaluator(InternalProgram program) {
    this.program = program;
  }

  /** Calls {@code function} with tupleless arguments and returns its tupleless results. */
  public List<Value> call(String function, List<Value> args) {
    InternalFunction f =
        program
            .function(function)
            .orElseThrow(() -> new IllegalArgumentException("no function " + function));
    if (f.params().size() != args.size()) {
      throw new IllegalArgumentException(
          function + " takes " + f.params().size() + " components, given " + args.size());
    }
    try {
      return invoke(f, args);
    } catch (StackOverflowError tooDeep) {
      // internal functions have no source position: the caller adds the called function's
      throw L0ResourceError.recursionTooDeep(SourcePos.NONE, "evaluator");
    }
  }

  private List<Value> invoke(InternalFunction f, List<Value> args) {
    Map<String, Value> env = new HashMap<>();
    bind(f.params(), args, env);
    return body(f.body(), env);
  }

  private static void bind(List<Ident> names, List<Value> values, Map<String, Value> env) {
    for (int k = 0; k < names.size(); k++) {
      env.put(names.get(k).name(), values.get(k));
    }
  }

  private List<Value> body(Body body, Map<String, Value> env) {
    for (Stm stm : body.stms()) {
      bind(stm.pattern(), exp(stm, env), env);
    }
    return values(body.result(), env);
  }

  private static Value value(SubExp s, Map<String, Value> env) {
    if (s instanceof SubExp.Const c) {
      return c.value();
    }
    Value v = env.get(((SubExp.Var) s).name());
    if (v == null) {
      throw new IllegalStateException("unbound internal variable " + s);
    }
    return v;
  }

  private static List<Value> values(List<SubExp> xs, Map<String, Value> env) {
    return xs.stream().map(x -> value(x, env)).toList();
  }

  private static Value.Array array(SubExp s, Map<String, Value> env) {
    return (Value.Array) value(s, env);
  }

  private List<Value> lambda(Lambda f, List<Value> args, Map<String, Value> env) {
    bind(f.params(), args, env);
    return body(f.body(), env);
  }

  private List<Value> exp(Stm stm, Map<String, Value> env) {
    Exp e = stm.exp();
    if (e instanceof Exp.Atom a) {
      return List.of(value(a.value(), env));
    }
    if (e instanceof Exp.BinOp b) {
      return List.of(
          ScalarOperations.binary(b.op(), value(b.left(), env), value(b.right(), env), b.pos()));
    }
    if (e instanceof Exp.UnOp u) {
      return List.of(ScalarOperations.unary(u.op(), value(u.operand(), env), SourcePos.NONE));
    }
    if (e instanceof Exp.BuiltinCall c) {
      return List.of(ScalarOperations.builtin(c.function(), values(c.args(), env), SourcePos.NONE));
    }
    if (e instanceof Exp.Apply a) {
      return invoke(program.function(a.function()).orElseThrow(), values(a.args(), env));
    }
    if (e instanceof Exp.If i) {
      boolean c = ((ScalarValue.Bool) value(i.condition(), env)).value();
      return body(c ? i.thenBody() : i.elseBody(), env);
    }
    if (e instanceof Exp.Loop l) {
      return loop(l, env);
    }
    if (e instanceof Exp.Assert a) {
      if (!((ScalarValue.Bool) value(a.condition(), env)).value()) {
        long[] values =
            a.values().stream().mapToLong(v -> ((ScalarValue.Int) value(v, env)).value()).toArray();
        throw new L0RuntimeError(a.operation(), a.pos(), FailureDetails.format(a.detail(), values));
      }
      return List.of(CHECKED);
    }
    if (e instanceof Exp.Soac soac) {
      return soac(soac, stm.pattern(), env);
    }
    if (e instanceof Exp.Split s) {
      return ArrayOperations.split(value(s.at(), env), value(s.array(), env), s.pos()).elements();
    }
    return List.of(arrayOperation(e, env));
  }

  private List<Value> loop(Exp.Loop l, Map<String, Value> env) {
    List<Value> merge = values(l.init(), env);
    ScalarValue.Int bound = (ScalarValue.Int) value(l.bound(), env);
    for (long i = 0; i < bound.value(); i++) {
      bind(l.mergeParams(), merge, env);
      env.put(l.counter().name(), new ScalarValue.Int(bound.type(), i));
      merge = body(l.body(), env);
    }
    return merge;
  }

  // ---- SOACs ----

  private List<Value> soac(Exp.Soac soac, List<Ident> pattern, Map<String, Value> env) {
    List<Value.Array> inputs = soac.inputs().stream().map(x -> array(x, env)).toList();
    int width = inputs.isEmpty() ? 0 : inputs.get(0).length();
    for (Value.Array in : inputs) {
      if (in.length() != width) {
        throw new UncheckedSizes(
            "SOAC inputs of different sizes "
                + width
                + " and "
                + in.length()
                + " reached evaluation without a size check");
      }
    }
    if (soac instanceof Exp.Screma m && m.isMap()) {
      List<List<Value>> columns = columns(pattern.size());
      for (int i = 0; i < width; i++) {
        addRow(columns, lambda(m.function(), row(inputs, i), env));
        requireRoomAfterFirstRow(columns, width, "map", m.pos());
      }
      return regularArrays(
          pattern,
          columns,
          width == 0 ? rowsOnZero(m.function(), inputs, env) : List.of(),
          "map",
          env,
          m.pos());
    }
    if (soac instanceof Exp.FilterMap f && f.isFilter()) {
      Lambda predicate = f.predicate();
      List<List<Value>> columns = columns(pattern.size());
      for (int i = 0; i < width; i++) {
        List<Value> row = row(inputs, i);
        if (((ScalarValue.Bool) lambda(predicate, row, env).get(0)).value()) {
          addRow(columns, row);
        }
      }
      return arrays(pattern, columns, inputs);
    }
    if (soac instanceof Exp.FilterMap f) {
      int accumulators = f.accumulators();
      List<Value> acc = values(f.neutral(), env);
      List<List<Value>> columns = columns(pattern.size());
      for (int i = 0; i < width; i++) {
        List<Value> row = new ArrayList<>(acc);
        row.addAll(row(inputs, i));
        List<Value> flagged = lambda(f.function(), row, env);
        acc = flagged.subList(0, accumulators);
        for (int k = 0; k < f.filters().size(); k++) {
          int flag = f.flagPosition(k);
          if (((ScalarValue.Bool) flagged.get(flag)).value()) {
            int first = f.firstResult(k);
            List<Value> values = flagged.subList(flag + 1, flag + 1 + f.filters().get(k));
            addRow(columns.subList(first, first + values.size()), values);
          }
        }
      }
      List<Value> out = new ArrayList<>(acc);
      for (int c = accumulators; c < pattern.size(); c++) {
        out.add(new Value.Array(InternalTypes.row(pattern.get(c).type()), columns.get(c)));
      }
      return out;
    }
    Exp.Screma s = (Exp.Screma) soac;
    if (s.reducesAndMaps()) {
      return reduceAndMap(s, pattern, inputs, width, env);
    }
    if (!s.scans()) {
      return fold(s.fold(), values(s.neutral(), env), inputs, width, env, s.pos());
    }
    List<Value> neutral = values(s.neutral(), env);
    SourcePos pos = s.pos();
    List<Value> acc = neutral;
    List<List<Value>> columns = columns(pattern.size());
    for (int i = 0; i < width; i++) {
      acc = step(soac.rowFunction(), acc, row(inputs, i), env, "scan", pos);
      addRow(columns, acc);
      requireRoomAfterFirstRow(columns, width, "scan", pos);
    }
    return regularArrays(pattern, columns, neutral, "scan", env, pos);
  }

  /**
   * A map's function applied to the zero row of its inputs, whose results give the shape of the
   * rows of a map over empty arrays, as in the reference interpreter; none where it fails there.
   * The zero row is no row of the map, so the checks the optimiser hoisted out of the function need
   * not hold for it: a SOAC on arrays of different sizes fails there too.
   */
  private List<Value> rowsOnZero(Lambda f, List<Value.Array> inputs, Map<String, Value> env) {
    List<Value> zeros =
        inputs.stream().map(a -> ArrayOperations.zero(a.elementType(), a.elementShape())).toList();
    try {
      return lambda(f, zeros, env);
    } catch (L0RuntimeError | UncheckedSizes failsOnZero) {
      return List.of();
    }
  }

  /**
   * SOAC inputs of different sizes: an unchecked precondition, or the zero row of {@link
   * #rowsOnZero}.
   */
  private static final class UncheckedSizes extends IllegalStateException {
    UncheckedSizes(String message) {
      super(message);
    }
  }

  private List<Value> fold(
      Lambda f,
      List<Value> neutral,
      List<Value.Array> inputs,
      int width,
      Map<String, Value> env,
      SourcePos pos) {
    List<Value> acc = neutral;
    for (int i = 0; i < width; i++) {
      acc = step(f, acc, row(inputs, i), env, "reduce", pos);
    }
    return acc;
  }

  /**
   * A reduction with a map part ({@link Exp.Screma#reducesAndMaps}): the accumulators folded over
   * every row in order, as {@link #fold} does, and each row's other results, as a map binds them.
   */
  private List<Value> reduceAndMap(
      Exp.Screma s,
      List<Ident> pattern,
      List<Value.Array> inputs,
      int width,
      Map<String, Value> env) {
    int accumulators = s.accumulators();
    List<Value> acc = values(s.neutral(), env);
    List<List<Value>> columns = columns(s.mapOutputs());
    for (int i = 0; i < width; i++) {
      List<Value> results = lambda(s.fold(), concat(acc, row(inputs, i)), env);
      List<Value> next = results.subList(0, accumulators);
      ArrayOperations.requireAccumulatorShape(shape(acc), shape(next), "reduce", s.pos());
      acc = next;
      addRow(columns, results.subList(accumulators, results.size()));
      requireRoomAfterFirstRow(columns, width, "map", s.pos());
    }
    List<Value> out = new ArrayList<>(acc);
    out.addAll(
        regularArrays(
            pattern.subList(accumulators, pattern.size()),
            columns,
            List.of(),
            "map",
            env,
            s.pos()));
    return out;
  }

  /**
   * {@code f(acc, row)}, whose results must have the accumulators' shapes, as in the interpreter
   * ({@link ArrayOperations#requireAccumulatorShape}).
   */
  private List<Value> step(
      Lambda f,
      List<Value> acc,
      List<Value> row,
      Map<String, Value> env,
      String operation,
      SourcePos pos) {
    List<Value> result = lambda(f, concat(acc, row), env);
    ArrayOperations.requireAccumulatorShape(shape(acc), shape(result), operation, pos);
    return result;
  }

  /**
   * The shape of accumulators as the interpreter sees them: one value's, or a tuple's of several.
   */
  private static Shape shape(List<Value> components) {
    return components.size() == 1
        ? Shape.of(components.get(0))
        : new Shape.Tuple(components.stream().map(Shape::of).toList());
  }

  private static List<Value> concat(List<Value> a, List<Value> b) {
    List<Value> out = new ArrayList<>(a);
    out.addAll(b);
    return out;
  }

  private static List<Value> row(List<Value.Array> inputs, int i) {
    return inputs.stream().map(a -> a.get(i)).toList();
  }

  private static List<List<Value>> columns(int count) {
    List<List<Value>> out = new ArrayList<>();
    for (int c = 0; c < count; c++) {
      out.add(new ArrayList<>());
    }
    return out;
  }

  private static void addRow(List<List<Value>> columns, List<Value> row) {
    for (int c = 0; c < columns.size(); c++) {
      columns.get(c).add(row.get(c));
    }
  }

  /**
   * Refuses, once {@code columns} hold their first row, results of {@code width} rows that could
   * not be held, at the SOAC, as the interpreter does ({@link ArrayOperations#requireRoomForRows});
   * a result of billions of scalars was otherwise built for minutes until the heap ran out.
   */
  private static void requireRoomAfterFirstRow(
      List<List<Value>> columns, int width, String operation, SourcePos pos) {
    for (List<Value> column : columns) {
      if (column.size() == 1) {
        ArrayOperations.requireRoomForRows(operation, width, column.get(0), pos);
      }
    }
  }

  /** The kept rows of a filter's inputs: their rows keep the inputs' shapes. */
  private static List<Value> arrays(
      List<Ident> pattern, List<List<Value>> columns, List<Value.Array> inputs) {
    List<Value> out = new ArrayList<>();
    for (int c = 0; c < pattern.size(); c++) {
      out.add(
          new Value.Array(
              InternalTypes.row(pattern.get(c).type()),
              columns.get(c),
              inputs.get(c).elementShape()));
    }
    return out;
  }

  /**
   * The result arrays of a map or scan, each of which must be regular (thesis §2.1). Without rows,
   * the first results have the shapes of {@code rows} (a scan's neutral elements, or a map's
   * results on a zero row) and the others that of their static row type ({@link
   * ArrayOperations#emptyResultShape}).
   */
  private static List<Value> regularArrays(
      List<Ident> pattern,
      List<List<Value>> columns,
      List<Value> rows,
      String operation,
      Map<String, Value> env,
      SourcePos pos) {
    List<Value> out = new ArrayList<>();
    for (int c = 0; c < pattern.size(); c++) {
      Type row = InternalTypes.row(pattern.get(c).type());
      Shape emptyShape = c < rows.size() ? Shape.of(rows.get(c)) : staticShape(row, env);
      out.add(ArrayOperations.regular(row, columns.get(c), emptyShape, operation, pos));
    }
    return out;
  }

  /**
   * The shape of a value of {@code type} as far as the type knows it (unknown sizes are 0): that of
   * rows that are not there.
   */
  private static Shape staticShape(Type type, Map<String, Value> env) {
    return ArrayOperations.emptyResultShape(
        type, size -> ((ScalarValue.Int) value(SubExp.var(size), env)).value());
  }

  // ---- first-order array operations ----

  private static Value arrayOperation(Exp e, Map<String, Value> env) {
    if (e instanceof Exp.Index x) {
      return ArrayOperations.index(value(x.array(), env), values(x.indices(), env), x.pos());
    }
    if (e instanceof Exp.Update u) {
      return ArrayOperations.update(
          value(u.array(), env), values(u.indices(), env), value(u.value(), env), u.pos());
    }
    if (e instanceof Exp.ArrayLit a) {
      return ArrayOperations.regular(
          a.rowType(),
          values(a.elements(), env),
          staticShape(a.rowType(), env),
          "array literal",
          a.pos());
    }
    if (e instanceof Exp.Iota i) {
      return ArrayOperations.iota(value(i.count(), env), i.pos());
    }
    if (e instanceof Exp.Replicate r) {
      return ArrayOperations.replicate(value(r.count(), env), value(r.value(), env), r.pos());
    }
    if (e instanceof Exp.Size s) {
      return ArrayOperations.size(s.dimension(), value(s.array(), env), SourcePos.NONE);
    }
    if (e instanceof Exp.Reshape r) {
      return ArrayOperations.reshape(values(r.shape(), env), value(r.array(), env), r.pos());
    }
    if (e instanceof Exp.Transpose t) {
      return ArrayOperations.transpose(t.k(), t.n(), value(t.array(), env), t.pos());
    }
    if (e instanceof Exp.Concat c) {
      return ArrayOperations.concat(value(c.left(), env), value(c.right(), env), c.pos());
    }
    if (e instanceof Exp.Copy c) {
      return value(c.array(), env);
    }
    throw new IllegalStateException("not an array operation: " + e.getClass().getSimpleName());
  }
}
