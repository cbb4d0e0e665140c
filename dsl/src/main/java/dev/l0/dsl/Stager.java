package dev.l0.dsl;

import dev.l0.ir.Builtin;
import dev.l0.ir.Expr;
import dev.l0.ir.FunArg;
import dev.l0.ir.FunDef;
import dev.l0.ir.L0CompileError;
import dev.l0.ir.Param;
import dev.l0.ir.Pattern;
import dev.l0.ir.Program;
import dev.l0.ir.SourcePos;
import dev.l0.ir.Type;
import dev.l0.syntax.L0Printer;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.function.BiFunction;
import java.util.function.Consumer;
import java.util.function.Function;
import java.util.function.Supplier;

/**
 * The staging context of one program being built (LMS's {@code reflect}/{@code reify}): the block
 * now current, fresh names, the functions defined so far. Active on the building thread for the
 * duration of {@link L0#program}, which is how static DSL operations find it.
 */
final class Stager {
  private static final ThreadLocal<Stager> ACTIVE = new ThreadLocal<>();

  /** A staged block or function body: its expression, and the type of its result. */
  record Staged<R extends Val>(Expr expr, ValType<R> type) {}

  /** A staged function or lambda: parameters, body, result type. */
  record StagedFunction<R extends Val>(List<Param> params, Expr body, ValType<R> resultType) {}

  private final List<FunDef> functions = new ArrayList<>();
  private final Map<String, List<Val>> destructured = new HashMap<>();

  /**
   * How messages name the variables the DSL named itself ({@link Pattern.Name#description}), by
   * name: what made each value and at which Java line.
   */
  private final Map<String, String> descriptions = new HashMap<>();

  private int namesIssued;

  /** The parameter names users gave ({@link ValType#named}), which {@link #fresh} never issues. */
  private final Set<String> namesGiven = new HashSet<>();

  private Block current;

  /** Where the user called {@link L0#program} for this program. */
  private final SourcePos pos;

  private Stager(SourcePos pos) {
    this.pos = pos;
  }

  /** Runs {@code definitions} with a fresh stager active and returns the program they defined. */
  static Program stage(SourcePos pos, Consumer<Stager> definitions) {
    if (ACTIVE.get() != null) {
      throw new L0CompileError(
          pos, "L0.program cannot be called while another program is being staged");
    }
    Stager stager = new Stager(pos);
    ACTIVE.set(stager);
    try {
      definitions.accept(stager);
    } finally {
      ACTIVE.remove();
    }
    return new Program(stager.functions);
  }

  /** Where the user called {@link L0#program} for this program. */
  SourcePos pos() {
    return pos;
  }

  /**
   * Throws at {@code use} unless this stager's program is the one being staged on this thread, for
   * its {@link ProgramBuilder} used after the program was built or while another is staged.
   */
  void requireStaging(SourcePos use) {
    if (ACTIVE.get() != this) {
      throw new L0CompileError(
          use,
          "this ProgramBuilder is the one of the L0.program at "
              + pos
              + (ACTIVE.get() == null
                  ? ", which has been built; define functions inside its definitions"
                  : ", not of the one being staged; define functions with that one's builder"));
    }
  }

  /** The stager of the program being built on this thread. */
  static Stager active(SourcePos pos) {
    Stager stager = ACTIVE.get();
    if (stager == null) {
      throw new L0CompileError(
          pos,
          "L0 operations can only be staged inside L0.program(...), on the thread that called it");
    }
    return stager;
  }

  /**
   * A new variable name, unique in the program: {@code base_N}, never an L0 keyword nor a name a
   * user gave a parameter.
   */
  String fresh(String base) {
    String name = base + "_" + namesIssued++;
    return namesGiven.contains(name) ? fresh(base) : name;
  }

  /**
   * Stages the operation {@code definition} in the current block and returns its handle (LMS's
   * reflect).
   */
  <V extends Val> V reflect(ValType<V> type, Expr definition) {
    Block block = currentBlock(definition.pos());
    String name = fresh("t");
    String description =
        "the result of the " + operationName(definition) + " at " + definition.pos();
    descriptions.put(name, description);
    block.add(
        new Statement.Definition(
            name, definition, definition.pos(), mayConsume(definition), description));
    return type.wrap(new Expr.Var(name, definition.pos()), block);
  }

  /** The operation {@code definition} as the user called it in Java, for messages. */
  private static String operationName(Expr definition) {
    if (definition instanceof Expr.Call call) {
      return "call of '" + call.function() + "'";
    }
    if (definition instanceof Expr.Index) {
      return "get";
    }
    if (definition instanceof Expr.If) {
      return "ifThenElse";
    }
    if (definition instanceof Expr.LetWith) {
      return "with";
    }
    if (definition instanceof Expr.ArrayLit) {
      return "array";
    }
    if (definition instanceof Expr.TupleLit) {
      return "tuple";
    }
    if (definition instanceof Expr.Binary || definition instanceof Expr.Unary) {
      return "operator";
    }
    return definition.getClass().getSimpleName().toLowerCase(Locale.ROOT);
  }

  /**
   * Whether {@code operation}, one staged operation, may consume an array (thesis ch. 3): a call of
   * a function with a unique parameter, or a SOAC whose function has one; a function not defined
   * yet (called by name before its definition, or recursively) may have one, a built-in has none; a
   * branch where either branch updates in place, loops or holds such an operation.
   */
  private boolean mayConsume(Expr operation) {
    if (operation instanceof Expr.If branch) {
      List<Expr> pending = new ArrayList<>(List.of(branch.thenBranch(), branch.elseBranch()));
      while (!pending.isEmpty()) {
        Expr e = pending.remove(pending.size() - 1);
        if (e instanceof Expr.LetWith
            || e instanceof Expr.Loop
            || !(e instanceof Expr.If) && mayConsume(e)) {
          return true;
        }
        pending.addAll(e.children());
      }
      return false;
    }
    if (operation instanceof Expr.Call call) {
      return mayConsume(call.function());
    }
    FunArg function = operation.soacFunction().orElse(null);
    if (function instanceof FunArg.FunctionRef ref) {
      return mayConsume(ref.name());
    }
    return function instanceof FunArg.Lambda lambda
        && lambda.params().stream().anyMatch(p -> p.type().hasUniquePart());
  }

  private boolean mayConsume(String function) {
    return defined(function)
        .map(f -> f.params().stream().anyMatch(p -> p.type().hasUniquePart()))
        .orElse(Builtin.byName(function).isEmpty());
  }

  /** Adds a binding statement to the current block. */
  void bind(Statement statement) {
    currentBlock(statement.pos()).add(statement);
  }

  /** The block now being staged, or null between function bodies. */
  Block innermost() {
    return current;
  }

  Block currentBlock(SourcePos pos) {
    if (current == null) {
      throw new L0CompileError(
          pos, "L0 values can only be staged inside the body of a function defined with fun(...)");
    }
    return current;
  }

  /** Defines a top-level function; {@code body} receives one handle per parameter. */
  <R extends Val> ValType<R> defineFunction(
      String name, SourcePos pos, List<ValType<?>> paramTypes, Function<List<Val>, R> body) {
    if (defined(name).isPresent()) {
      throw new L0CompileError(pos, "function " + name + " is defined twice");
    }
    StagedFunction<R> staged =
        function(pos, "p", "'" + name + "'", paramTypes, Block.functionBody(this, name), body);
    functions.add(
        new FunDef(name, staged.resultType().l0Type(), staged.params(), staged.body(), pos));
    return staged.resultType();
  }

  /** Where the function {@code name}, defined in this program, was defined. */
  SourcePos definitionOf(String name) {
    return defined(name).orElseThrow().pos();
  }

  /** The result type of the function {@code name} defined so far, if any. */
  Optional<Type> resultTypeOf(String name) {
    return defined(name).map(FunDef::returnType);
  }

  /** The function {@code name} defined so far, if any. */
  private Optional<FunDef> defined(String name) {
    return functions.stream().filter(f -> f.name().equals(name)).findFirst();
  }

  /** Stages an anonymous function nested in the current block. */
  <R extends Val> StagedFunction<R> lambda(
      SourcePos pos, List<ValType<?>> paramTypes, Function<List<Val>, R> body) {
    return function(
        pos, "x", "the lambda at " + pos, paramTypes, Block.nestedIn(currentBlock(pos)), body);
  }

  /**
   * Stages {@code body} on parameters named as their types say ({@link ValType#named}) or else
   * fresh, {@code paramBase_N}; errors name each unnamed parameter as the user knows it, by its
   * position and type in {@code owner} (a function's quoted name, or the lambda at its Java line).
   */
  private <R extends Val> StagedFunction<R> function(
      SourcePos pos,
      String paramBase,
      String owner,
      List<ValType<?>> paramTypes,
      Block block,
      Function<List<Val>, R> body) {
    for (ValType<?> type : paramTypes) {
      type.parameterName().ifPresent(namesGiven::add);
    }
    List<Param> params = new ArrayList<>();
    List<Val> handles = new ArrayList<>();
    for (int i = 0; i < paramTypes.size(); i++) {
      ValType<?> type = paramTypes.get(i);
      Optional<String> given = type.parameterName();
      if (given.isPresent() && params.stream().anyMatch(p -> p.name().equals(given.get()))) {
        throw new L0CompileError(pos, owner + " has two parameters named '" + given.get() + "'");
      }
      String name = given.orElseGet(() -> fresh(paramBase));
      Optional<String> description =
          given.isPresent()
              ? Optional.empty()
              : Optional.of(
                  "the "
                      + ordinal(i + 1)
                      + " parameter ("
                      + L0Printer.print(type.l0Type())
                      + ") of "
                      + owner);
      description.ifPresent(d -> descriptions.put(name, d));
      params.add(new Param(type.l0Type(), name, pos, description));
      handles.add(type.unnamed().wrap(new Expr.Var(name, pos), block));
    }
    Staged<R> staged = inBlock(block, pos, () -> body.apply(handles));
    return new StagedFunction<>(params, staged.expr(), staged.type());
  }

  /** {@code 1st}, {@code 2nd}, {@code 3rd}, {@code 4th}, ..., {@code 11th}, ..., {@code 21st}. */
  private static String ordinal(int n) {
    int lastTwo = n % 100;
    String suffix =
        lastTwo >= 11 && lastTwo <= 13
            ? "th"
            : switch (n % 10) {
              case 1 -> "st";
              case 2 -> "nd";
              case 3 -> "rd";
              default -> "th";
            };
    return n + suffix;
  }

  /** Stages {@code body} in a new block nested in the current one (an if branch). */
  <R extends Val> Staged<R> nested(SourcePos pos, Supplier<R> body) {
    return inBlock(Block.nestedIn(currentBlock(pos)), pos, body);
  }

  /** Stages {@code body} with {@code block} current and reifies the block around its result. */
  private <R extends Val> Staged<R> inBlock(Block block, SourcePos pos, Supplier<R> body) {
    Block enclosing = current;
    current = block;
    try {
      R result = body.get();
      if (result == null) {
        throw new L0CompileError(
            pos, "a staged function or branch returned null instead of an L0 value");
      }
      return new Staged<>(block.reify(result.use(pos)), Val.typeOf(result));
    } finally {
      block.end();
      current = enclosing;
    }
  }

  /**
   * Stages {@code loop (acc = init) = for i < count do step(acc, i)} in the current block and
   * returns the handle of the loop's result, bound to the same names as {@code acc}.
   */
  <V extends Val> V loop(SourcePos pos, V init, I32 count, BiFunction<V, I32, V> step) {
    ValType<V> type = Val.typeOf(init);
    Expr initExpr = init.use(pos);
    Expr bound = count.use(pos);
    Pattern pattern =
        freshPattern(type, "acc", pos, Optional.of("the accumulator of the loop at " + pos));
    String counter = fresh("i");
    Block body = Block.nestedIn(currentBlock(pos));
    V accumulator = handleOf(pattern, type, body);
    I32 index = I32.TYPE.wrap(new Expr.Var(counter, pos), body);
    Staged<V> next = inBlock(body, pos, () -> step.apply(accumulator, index));
    bind(new Statement.LoopBinding(pattern, initExpr, counter, bound, next.expr(), pos));
    return handleOf(pattern, type, currentBlock(pos));
  }

  /**
   * A pattern of fresh names shaped like {@code type}: nested tuple patterns for tuples. {@code
   * description} says how messages name the value bound (its components "component i of" it); empty
   * for a value the user named.
   */
  Pattern freshPattern(ValType<?> type, String base, SourcePos pos, Optional<String> description) {
    if (type.isTuple()) {
      List<Pattern> components = new ArrayList<>();
      for (int i = 0; i < type.components().size(); i++) {
        String ordinal = "component " + (i + 1) + " of ";
        components.add(
            freshPattern(type.components().get(i), base, pos, description.map(d -> ordinal + d)));
      }
      return new Pattern.Tuple(components, pos);
    }
    String name = fresh(base);
    description.ifPresent(d -> descriptions.put(name, d));
    return new Pattern.Name(name, pos, description);
  }

  /** The handle for the variables {@code pattern} binds, valid in {@code scope}. */
  static <V extends Val> V handleOf(Pattern pattern, ValType<V> type, Block scope) {
    if (pattern instanceof Pattern.Tuple tuple) {
      List<Val> parts = new ArrayList<>();
      for (int i = 0; i < tuple.elements().size(); i++) {
        parts.add(handleOf(tuple.elements().get(i), type.components().get(i), scope));
      }
      return type.assemble(parts, pattern.pos());
    }
    Pattern.Name name = (Pattern.Name) pattern;
    return type.wrap(new Expr.Var(name.name(), name.pos()), scope);
  }

  /**
   * The components of a tuple known only as a whole (a parameter, a call's result): L0 reaches them
   * only through a pattern, so the first access binds {@code let {c1, ..., cn} = tuple} in the
   * block that staged the tuple, and later accesses reuse those names.
   */
  List<Val> destructure(Val tuple, SourcePos pos) {
    Expr whole = tuple.use(pos);
    String variable = ((Expr.Var) whole).name();
    List<Val> known = destructured.get(variable);
    if (known != null) {
      return known;
    }
    Pattern pattern =
        freshPattern(
            tuple.type,
            "c",
            pos,
            Optional.of(descriptions.getOrDefault(variable, "'" + variable + "'")));
    tuple.scope().add(new Statement.Binding(pattern, whole, pos));
    List<Val> components = handleOf(pattern, tuple.type, tuple.scope()).components.orElseThrow();
    destructured.put(variable, components);
    return components;
  }
}
