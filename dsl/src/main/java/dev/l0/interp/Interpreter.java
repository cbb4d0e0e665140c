package dev.l0.interp;

import dev.l0.ir.BinaryOperator;
import dev.l0.ir.Builtin;
import dev.l0.ir.Expr;
import dev.l0.ir.FunArg;
import dev.l0.ir.FunDef;
import dev.l0.ir.L0CompileError;
import dev.l0.ir.L0ResourceError;
import dev.l0.ir.L0RuntimeError;
import dev.l0.ir.Param;
import dev.l0.ir.Program;
import dev.l0.ir.ScalarValue;
import dev.l0.ir.Shape;
import dev.l0.ir.SourcePos;
import dev.l0.ir.Type;
import dev.l0.ir.Value;
import dev.l0.semantics.ArrayOperations;
import dev.l0.semantics.Operands;
import dev.l0.semantics.ScalarOperations;
import dev.l0.syntax.L0Printer;
import dev.l0.types.NestingLimit;
import dev.l0.types.TypeChecker;
import dev.l0.types.TypedProgram;
import dev.l0.values.ValueTypes;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The reference interpreter of external L0 (thesis ch. 2, with the decisions of
 * shared/notes/l0-language-decisions.md): call-by-value evaluation of the untyped AST of a
 * type-checked program. It defines what every program means, so it favours clarity and exactness
 * over speed. {@code &&} and {@code ||} evaluate both operands; {@code reduce} is a left fold from
 * the neutral element and {@code scan} its inclusive prefixes (which fixes the result for
 * non-associative float operators); {@code let-with} copies the updated array.
 *
 * <p>A map over an empty array has no result to take the shape of its rows from: they have the
 * shape of its function's result on a zero element, else of the map's static element type as the
 * type checker infers it ({@link #map}).
 *
 * <p>A program's own failures (bounds, sizes, division by zero) are {@link L0RuntimeError}s. An
 * ill-typed program is reported as an {@link L0CompileError} where the interpreter notices it.
 * Recursion deeper than the Java stack allows is a limit of this implementation, an {@link
 * L0ResourceError} at the function called ({@link L0ResourceError#recursionTooDeep}); so is a map
 * or scan result too large to hold, refused at the SOAC once its first row is made ({@link
 * ArrayOperations#requireRoomForRows}).
 */
public final class Interpreter {
  private final Map<String, FunDef> functions = new HashMap<>();
  private final Program program;

  /** The program's static types, checked when a map over an empty array first needs them. */
  private TypedProgram typed;

  public Interpreter(Program program) {
    this.program = program;
    for (FunDef f : program.functions()) {
      functions.putIfAbsent(f.name(), f);
    }
  }

  /**
   * Runs {@code function} on {@code args}.
   *
   * @throws IllegalArgumentException if there is no such function or the arguments do not fit its
   *     parameters
   * @throws L0RuntimeError if the program fails
   */
  public Value call(String function, List<Value> args) {
    FunDef f = functions.get(function);
    if (f == null) {
      throw new IllegalArgumentException("the program has no function " + function);
    }
    if (args.size() != f.params().size()) {
      throw new IllegalArgumentException(
          function + " takes " + f.params().size() + " argument(s), given " + args.size());
    }
    for (int i = 0; i < args.size(); i++) {
      Type expected = f.params().get(i).type();
      if (!ValueTypes.conforms(args.get(i), expected)) {
        throw new IllegalArgumentException(
            "argument "
                + (i + 1)
                + " of "
                + function
                + " has type "
                + L0Printer.print(ValueTypes.typeOf(args.get(i)))
                + ", expected "
                + L0Printer.print(expected));
      }
    }
    // On a large stack, as the command line runs it: a program within the nesting limit runs
    // whatever the caller's stack (a chain of 2,500 lets overflowed a thread of 256 KiB).
    return NestingLimit.onLargeStack(
        () -> {
          try {
            return callFunction(function, args, f.pos());
          } catch (StackOverflowError tooDeep) {
            throw L0ResourceError.recursionTooDeep(f.pos(), "interpreter");
          }
        });
  }

  /** Calls a top-level function or, when the program has none of that name, a built-in. */
  private Value callFunction(String name, List<Value> args, SourcePos pos) {
    FunDef f = functions.get(name);
    if (f != null) {
      if (args.size() != f.params().size()) {
        throw new L0CompileError(
            pos,
            "ill-typed program: "
                + name
                + " takes "
                + f.params().size()
                + " argument(s), given "
                + args.size());
      }
      Environment env = Environment.EMPTY;
      for (int i = 0; i < args.size(); i++) {
        env = env.bind(f.params().get(i).name(), args.get(i));
      }
      return eval(f.body(), env);
    }
    Optional<Builtin> builtin = Builtin.byName(name);
    if (builtin.isEmpty()) {
      throw new L0CompileError(pos, "unknown function " + name);
    }
    return ScalarOperations.builtin(builtin.get(), args, pos);
  }

  private List<Value> evalAll(List<Expr> exprs, Environment env) {
    List<Value> values = new ArrayList<>(exprs.size());
    for (Expr e : exprs) {
      values.add(eval(e, env));
    }
    return values;
  }

  private Value eval(Expr e, Environment env) {
    SourcePos pos = e.pos();
    if (e instanceof Expr.Literal lit) {
      return lit.value();
    }
    if (e instanceof Expr.Var v) {
      return env.lookup(v.name(), pos);
    }
    if (e instanceof Expr.TupleLit t) {
      return new Value.Tuple(evalAll(t.elements(), env));
    }
    if (e instanceof Expr.ArrayLit a) {
      if (a.elements().isEmpty()) {
        throw new L0CompileError(pos, "an array literal needs at least one element");
      }
      List<Value> elements = evalAll(a.elements(), env);
      return ArrayOperations.regular(
          ValueTypes.typeOf(elements.get(0)),
          elements,
          Shape.of(elements.get(0)),
          "array literal",
          pos);
    }
    if (e instanceof Expr.Binary b) {
      Value left = eval(b.left(), env);
      Value right = eval(b.right(), env);
      return ScalarOperations.binary(b.op(), left, right, pos);
    }
    if (e instanceof Expr.Unary u) {
      return ScalarOperations.unary(u.op(), eval(u.operand(), env), pos);
    }
    if (e instanceof Expr.If i) {
      return Operands.bool(eval(i.condition(), env), i.condition().pos())
          ? eval(i.thenBranch(), env)
          : eval(i.elseBranch(), env);
    }
    if (e instanceof Expr.Index i) {
      Value array = eval(i.array(), env);
      return ArrayOperations.index(array, evalAll(i.indices(), env), pos);
    }
    if (e instanceof Expr.Call c) {
      return callFunction(c.function(), evalAll(c.args(), env), pos);
    }
    if (e instanceof Expr.Let l) {
      return eval(l.body(), env.bind(l.pattern(), eval(l.value(), env)));
    }
    if (e instanceof Expr.LetWith w) {
      Value source = env.lookup(w.source(), pos);
      List<Value> indices = evalAll(w.indices(), env);
      Value updated = ArrayOperations.update(source, indices, eval(w.value(), env), pos);
      return eval(w.body(), env.bind(w.dest(), updated));
    }
    if (e instanceof Expr.Loop l) {
      return loop(l, env);
    }
    if (e instanceof Expr.Zip z) {
      return ArrayOperations.zip(evalAll(z.arrays(), env), pos);
    }
    if (e instanceof Expr.Unzip u) {
      return ArrayOperations.unzip(eval(u.array(), env), pos);
    }
    if (e instanceof Expr.Iota i) {
      return ArrayOperations.iota(eval(i.count(), env), pos);
    }
    if (e instanceof Expr.Replicate r) {
      Value count = eval(r.count(), env);
      return ArrayOperations.replicate(count, eval(r.value(), env), pos);
    }
    if (e instanceof Expr.Size s) {
      return ArrayOperations.size(s.dimension(), eval(s.array(), env), pos);
    }
    if (e instanceof Expr.Reshape r) {
      List<Value> shape = evalAll(r.shape(), env);
      return ArrayOperations.reshape(shape, eval(r.array(), env), pos);
    }
    if (e instanceof Expr.Transpose t) {
      return ArrayOperations.transpose(t.k(), t.n(), eval(t.array(), env), pos);
    }
    if (e instanceof Expr.Split s) {
      Value at = eval(s.at(), env);
      return ArrayOperations.split(at, eval(s.array(), env), pos);
    }
    if (e instanceof Expr.Concat c) {
      Value left = eval(c.left(), env);
      return ArrayOperations.concat(left, eval(c.right(), env), pos);
    }
    if (e instanceof Expr.Copy c) {
      return eval(c.value(), env);
    }
    if (e instanceof Expr.Map m) {
      return map(m, env);
    }
    if (e instanceof Expr.Filter f) {
      return filter(f, env);
    }
    if (e instanceof Expr.Reduce r) {
      return reduce(r, env);
    }
    return scan((Expr.Scan) e, env);
  }

  /**
   * {@code loop (p = init) = for i < bound do body}: thesis §2.1.1; a bound of 0 or less runs no
   * iteration.
   */
  private Value loop(Expr.Loop l, Environment env) {
    Value state = eval(l.init(), env);
    ScalarValue.Int bound = Operands.integer(eval(l.bound(), env), l.bound().pos());
    for (long i = 0; i < bound.value(); i++) {
      Environment iteration =
          env.bind(l.pattern(), state).bind(l.counter(), new ScalarValue.Int(bound.type(), i));
      state = eval(l.loopBody(), iteration);
    }
    return eval(l.body(), env.bind(l.pattern(), state));
  }

  /**
   * A map's result. Over an empty array, its rows have the shape of the function's result on the
   * zero element of the input's row shape ({@link ArrayOperations#zero}), so {@code map(fn [i32]
   * (i32 x) => [x, x], a)} has 2 columns also when {@code a} is empty; where the function fails on
   * that element, they have the shape of the map's static element type ({@link
   * ArrayOperations#emptyResultShape}).
   */
  private Value map(Expr.Map m, Environment env) {
    SoacFunction f = function(m.function(), env);
    Value.Array input = Operands.array(eval(m.array(), env), m.pos());
    List<Value> results = new ArrayList<>(input.length());
    for (Value element : input.elements()) {
      results.add(f.apply(element));
      if (results.size() == 1) {
        ArrayOperations.requireRoomForRows("map", input.length(), results.get(0), m.pos());
      }
    }
    if (!results.isEmpty()) {
      return ArrayOperations.regular(
          ValueTypes.typeOf(results.get(0)), results, Shape.of(results.get(0)), "map", m.pos());
    }
    try {
      Value row = f.apply(ArrayOperations.zero(input.elementType(), input.elementShape()));
      return Value.Array.empty(ValueTypes.typeOf(row), Shape.of(row));
    } catch (L0RuntimeError failsOnZero) {
      return emptyMapResult(m, env);
    }
  }

  /**
   * A map's result over an empty array from its static type, where its function fails on the zero
   * element.
   */
  private Value emptyMapResult(Expr.Map m, Environment env) {
    Type elementType = ((Type.Array) typed().typeOf(m)).element();
    Shape elementShape =
        ArrayOperations.emptyResultShape(
            elementType, size -> Operands.integer(env.lookup(size, m.pos()), m.pos()).value());
    return Value.Array.empty(elementType, elementShape);
  }

  private TypedProgram typed() {
    if (typed == null) {
      typed = TypeChecker.check(program);
    }
    return typed;
  }

  private Value filter(Expr.Filter fl, Environment env) {
    SoacFunction f = function(fl.function(), env);
    Value.Array input = Operands.array(eval(fl.array(), env), fl.pos());
    List<Value> kept = new ArrayList<>();
    for (Value element : input.elements()) {
      if (Operands.bool(f.apply(element), fl.function().pos())) {
        kept.add(element);
      }
    }
    return new Value.Array(input.elementType(), kept, input.elementShape());
  }

  private Value reduce(Expr.Reduce r, Environment env) {
    SoacFunction f = function(r.function(), env);
    Value accumulator = eval(r.neutral(), env);
    Value.Array input = Operands.array(eval(r.array(), env), r.pos());
    for (Value element : input.elements()) {
      accumulator = step(f, accumulator, element, "reduce", r.pos());
    }
    return accumulator;
  }

  /**
   * {@code f(accumulator, element)}, which must have the accumulator's shape ({@link
   * ArrayOperations#requireAccumulatorShape}).
   */
  private static Value step(
      SoacFunction f, Value accumulator, Value element, String operation, SourcePos pos) {
    Value result = f.apply(accumulator, element);
    ArrayOperations.requireAccumulatorShape(
        Shape.of(accumulator), Shape.of(result), operation, pos);
    return result;
  }

  private Value scan(Expr.Scan s, Environment env) {
    SoacFunction f = function(s.function(), env);
    Value accumulator = eval(s.neutral(), env);
    Value.Array input = Operands.array(eval(s.array(), env), s.pos());
    List<Value> prefixes = new ArrayList<>(input.length());
    for (Value element : input.elements()) {
      accumulator = step(f, accumulator, element, "scan", s.pos());
      prefixes.add(accumulator);
      if (prefixes.size() == 1) {
        ArrayOperations.requireRoomForRows("scan", input.length(), accumulator, s.pos());
      }
    }
    return ArrayOperations.regular(
        input.elementType(), prefixes, Shape.of(accumulator), "scan", s.pos());
  }

  /** A SOAC's function argument, evaluated in {@code env}. */
  private SoacFunction function(FunArg arg, Environment env) {
    SourcePos pos = arg.pos();
    if (arg instanceof FunArg.Lambda lambda) {
      List<Type> parameterTypes = lambda.params().stream().map(Param::type).toList();
      return new SoacFunction(
          List.of(),
          parameterTypes,
          parameterTypes.size(),
          args -> {
            Environment scope = env;
            for (int i = 0; i < args.size(); i++) {
              scope = scope.bind(lambda.params().get(i).name(), args.get(i));
            }
            return eval(lambda.body(), scope);
          },
          pos);
    }
    if (arg instanceof FunArg.FunctionRef ref) {
      List<Value> curried = evalAll(ref.curried(), env);
      FunDef f = functions.get(ref.name());
      if (f != null) {
        List<Type> parameterTypes = f.params().stream().map(Param::type).toList();
        return new SoacFunction(
            curried,
            parameterTypes,
            parameterTypes.size(),
            args -> callFunction(f.name(), args, pos),
            pos);
      }
      Builtin builtin =
          Builtin.byName(ref.name())
              .orElseThrow(() -> new L0CompileError(pos, "unknown function " + ref.name()));
      return new SoacFunction(
          curried,
          null,
          builtin.arity(),
          args -> ScalarOperations.builtin(builtin, args, pos),
          pos);
    }
    FunArg.OperatorRef ref = (FunArg.OperatorRef) arg;
    BinaryOperator op = ref.operator();
    return new SoacFunction(
        evalAll(ref.curried(), env),
        null,
        2,
        args -> ScalarOperations.binary(op, args.get(0), args.get(1), pos),
        pos);
  }
}
