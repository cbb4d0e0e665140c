package dev.l0.syntax;

import dev.l0.ir.BinaryOperator;
import dev.l0.ir.Expr;
import dev.l0.ir.FunArg;
import dev.l0.ir.FunDef;
import dev.l0.ir.Param;
import dev.l0.ir.Pattern;
import dev.l0.ir.PrefixOperator;
import dev.l0.ir.Program;
import dev.l0.ir.ScalarType;
import dev.l0.ir.Type;
import dev.l0.types.NestingLimit;
import java.util.List;
import java.util.function.Function;
import java.util.stream.Collectors;

/**
 * Prints the external IR as canonical L0 text (thesis ch. 2 syntax): canonical type keywords
 * ({@code i32}, {@code f64}), two-space indentation, one binding per line, and only the parentheses
 * that precedence and associativity require. {@code let}, {@code if} and {@code loop} are
 * parenthesised when they are operands. For every program whose names are L0 identifiers, {@code
 * L0Parser.parse(print(p))} equals {@code p} up to source positions and array sizes; the one
 * exception is a non-finite float constant, which has no literal and prints as the division that
 * yields it ({@code (1.0 / 0.0)}).
 */
public final class L0Printer {
  private static final int INDENT = 2;

  /** An {@code if} longer than this is printed over several lines. */
  private static final int LINE_WIDTH = 80;

  /** Prefix operators bind tighter than every binary operator. */
  private static final int UNARY_PRECEDENCE = 11;

  private static final int ATOM_PRECEDENCE = 12;

  /**
   * {@code let}, {@code if} and {@code loop} extend as far right as they can, so they need
   * parentheses as operands.
   */
  private static final int BLOCK_PRECEDENCE = 0;

  private L0Printer() {}

  /**
   * The program as text; printed on a stack that fits any nesting the checker accepts ({@link
   * NestingLimit}), as a DSL program reaches by a Java loop that builds one expression.
   */
  public static String print(Program program) {
    return NestingLimit.onLargeStack(
        () ->
            program.functions().stream()
                .map(L0Printer::function)
                .collect(Collectors.joining("\n\n", "", "\n")));
  }

  public static String print(Expr expr) {
    return NestingLimit.onLargeStack(() -> expr(expr, 0));
  }

  public static String print(Type type) {
    if (type instanceof ScalarType scalar) {
      return scalar.keyword();
    }
    if (type instanceof Type.Tuple tuple) {
      return "{" + joined(tuple.elements(), L0Printer::print) + "}";
    }
    Type.Array array = (Type.Array) type;
    return (array.unique() ? "*" : "") + "[" + print(array.element()) + "]";
  }

  private static String function(FunDef function) {
    return "fun "
        + print(function.returnType())
        + " "
        + function.name()
        + "("
        + params(function.params())
        + ") ="
        + newline(INDENT)
        + expr(function.body(), INDENT);
  }

  private static String params(List<Param> params) {
    return joined(params, p -> print(p.type()) + " " + p.name());
  }

  /** {@code e} as text whose second and later lines are indented by {@code indent}. */
  private static String expr(Expr e, int indent) {
    if (e instanceof Expr.Literal literal) {
      return LiteralSyntax.print(literal.value());
    }
    if (e instanceof Expr.Var var) {
      return var.name();
    }
    if (e instanceof Expr.TupleLit tuple) {
      return "{" + exprs(tuple.elements(), indent) + "}";
    }
    if (e instanceof Expr.ArrayLit array) {
      return "[" + exprs(array.elements(), indent) + "]";
    }
    if (e instanceof Expr.Binary binary) {
      return binary(binary, indent);
    }
    if (e instanceof Expr.Unary unary) {
      return unary(unary, indent);
    }
    if (e instanceof Expr.If conditional) {
      return conditional(conditional, indent);
    }
    if (e instanceof Expr.Index index) {
      boolean bare = index.array() instanceof Expr.Var || index.array() instanceof Expr.Index;
      String array = bare ? expr(index.array(), indent) : parenthesised(index.array(), indent);
      return array + "[" + exprs(index.indices(), indent) + "]";
    }
    if (e instanceof Expr.Call call) {
      return call.function() + "(" + exprs(call.args(), indent) + ")";
    }
    if (e instanceof Expr.Let let) {
      return binding("let " + pattern(let.pattern()) + " =", let.value(), let.body(), indent);
    }
    if (e instanceof Expr.LetWith update) {
      String indices = "[" + exprs(update.indices(), indent) + "]";
      String head =
          update.dest().equals(update.source())
              ? "let " + update.dest() + indices + " ="
              : "let " + update.dest() + " = " + update.source() + " with " + indices + " <-";
      return binding(head, update.value(), update.body(), indent);
    }
    if (e instanceof Expr.Loop loop) {
      return loop(loop, indent);
    }
    return arrayOperation(e, indent);
  }

  /** The built-in array constructs and SOACs, written like calls. */
  private static String arrayOperation(Expr e, int indent) {
    if (e instanceof Expr.Zip zip) {
      return "zip(" + exprs(zip.arrays(), indent) + ")";
    }
    if (e instanceof Expr.Unzip unzip) {
      return "unzip(" + expr(unzip.array(), indent) + ")";
    }
    if (e instanceof Expr.Iota iota) {
      return "iota(" + expr(iota.count(), indent) + ")";
    }
    if (e instanceof Expr.Replicate replicate) {
      return "replicate(" + exprs(List.of(replicate.count(), replicate.value()), indent) + ")";
    }
    if (e instanceof Expr.Size size) {
      return "size(" + size.dimension() + ", " + expr(size.array(), indent) + ")";
    }
    if (e instanceof Expr.Reshape reshape) {
      return "reshape(("
          + exprs(reshape.shape(), indent)
          + "), "
          + expr(reshape.array(), indent)
          + ")";
    }
    if (e instanceof Expr.Transpose transpose) {
      String dimensions =
          transpose.k() == 0 && transpose.n() == 1
              ? ""
              : transpose.k() + ", " + transpose.n() + ", ";
      return "transpose(" + dimensions + expr(transpose.array(), indent) + ")";
    }
    if (e instanceof Expr.Split split) {
      return "split(" + exprs(List.of(split.at(), split.array()), indent) + ")";
    }
    if (e instanceof Expr.Concat concat) {
      return "concat(" + exprs(List.of(concat.left(), concat.right()), indent) + ")";
    }
    if (e instanceof Expr.Copy copy) {
      return "copy(" + expr(copy.value(), indent) + ")";
    }
    if (e instanceof Expr.Map map) {
      return soac("map", map.function(), List.of(map.array()), indent);
    }
    if (e instanceof Expr.Filter filter) {
      return soac("filter", filter.function(), List.of(filter.array()), indent);
    }
    if (e instanceof Expr.Reduce reduce) {
      return soac("reduce", reduce.function(), List.of(reduce.neutral(), reduce.array()), indent);
    }
    Expr.Scan scan = (Expr.Scan) e;
    return soac("scan", scan.function(), List.of(scan.neutral(), scan.array()), indent);
  }

  private static String binary(Expr.Binary binary, int indent) {
    BinaryOperator op = binary.op();
    int leftNeeds = op.rightAssociative() ? op.precedence() + 1 : op.precedence();
    int rightNeeds = op.rightAssociative() ? op.precedence() : op.precedence() + 1;
    return operand(binary.left(), leftNeeds, indent)
        + " "
        + op.symbol()
        + " "
        + operand(binary.right(), rightNeeds, indent);
  }

  private static String unary(Expr.Unary unary, int indent) {
    if (unary.op() == PrefixOperator.NOT) {
      return "not " + operand(unary.operand(), UNARY_PRECEDENCE, indent);
    }
    // -3 would read back as a negative literal and --x is unclear, so both get parentheses.
    Expr operand = unary.operand();
    boolean startsWithMinus =
        operand instanceof Expr.Literal
            || (operand instanceof Expr.Unary inner && inner.op() == PrefixOperator.NEG);
    return "-"
        + (startsWithMinus
            ? parenthesised(operand, indent)
            : operand(operand, UNARY_PRECEDENCE, indent));
  }

  private static String operand(Expr e, int neededPrecedence, int indent) {
    return precedence(e) < neededPrecedence ? parenthesised(e, indent) : expr(e, indent);
  }

  private static String parenthesised(Expr e, int indent) {
    return "(" + expr(e, indent + 1) + ")";
  }

  private static int precedence(Expr e) {
    if (e instanceof Expr.Binary binary) {
      return binary.op().precedence();
    }
    if (e instanceof Expr.Unary) {
      return UNARY_PRECEDENCE;
    }
    if (e instanceof Expr.Let
        || e instanceof Expr.LetWith
        || e instanceof Expr.Loop
        || e instanceof Expr.If) {
      return BLOCK_PRECEDENCE;
    }
    return ATOM_PRECEDENCE;
  }

  /**
   * On one line if it fits and its parts do, else {@code then} and {@code else} branches on lines
   * of their own.
   */
  private static String conditional(Expr.If e, int indent) {
    int inner = indent + INDENT;
    String condition = expr(e.condition(), inner);
    String thenBranch = expr(e.thenBranch(), inner);
    String elseBranch = expr(e.elseBranch(), inner);
    String oneLine = "if " + condition + " then " + thenBranch + " else " + elseBranch;
    if (!oneLine.contains("\n") && indent + oneLine.length() <= LINE_WIDTH) {
      return oneLine;
    }
    return "if "
        + condition
        + " then"
        + newline(inner)
        + thenBranch
        + newline(indent)
        + "else"
        + newline(inner)
        + elseBranch;
  }

  /**
   * {@code head value in body}: the value on the head's line, or indented below it if it spans
   * several lines.
   */
  private static String binding(String head, Expr value, Expr body, int indent) {
    int inner = indent + INDENT;
    String printedValue = expr(value, inner);
    String rest = newline(indent) + expr(body, indent);
    if (printedValue.contains("\n")) {
      return head + newline(inner) + printedValue + newline(indent) + "in" + rest;
    }
    return head + " " + printedValue + " in" + rest;
  }

  private static String loop(Expr.Loop loop, int indent) {
    int inner = indent + INDENT;
    String init =
        initIsPatternVariables(loop.init(), loop.pattern()) ? "" : " = " + expr(loop.init(), inner);
    return "loop ("
        + pattern(loop.pattern())
        + init
        + ") = for "
        + loop.counter()
        + " < "
        + expr(loop.bound(), inner)
        + " do"
        + newline(inner)
        + expr(loop.loopBody(), inner)
        + newline(indent)
        + "in"
        + newline(indent)
        + expr(loop.body(), indent);
  }

  /**
   * Whether {@code init} is what the shorthand {@code loop (p) = ...} means: the pattern's own
   * variables.
   */
  private static boolean initIsPatternVariables(Expr init, Pattern pattern) {
    if (pattern instanceof Pattern.Name name) {
      return init instanceof Expr.Var var && var.name().equals(name.name());
    }
    List<Pattern> elements = ((Pattern.Tuple) pattern).elements();
    if (!(init instanceof Expr.TupleLit tuple) || tuple.elements().size() != elements.size()) {
      return false;
    }
    for (int i = 0; i < elements.size(); i++) {
      if (!initIsPatternVariables(tuple.elements().get(i), elements.get(i))) {
        return false;
      }
    }
    return true;
  }

  /**
   * {@code keyword(f, args)}; after a function argument over several lines, the other arguments go
   * on a line of their own, aligned with it.
   */
  private static String soac(String keyword, FunArg function, List<Expr> args, int indent) {
    int argumentColumn = indent + keyword.length() + 1;
    String printedFunction = funArg(function, argumentColumn);
    String separator = printedFunction.contains("\n") ? "," + newline(argumentColumn) : ", ";
    return keyword + "(" + printedFunction + separator + exprs(args, indent) + ")";
  }

  private static String funArg(FunArg function, int indent) {
    if (function instanceof FunArg.Lambda lambda) {
      String head = "fn " + print(lambda.returnType()) + " (" + params(lambda.params()) + ") =>";
      int inner = indent + INDENT;
      String body = expr(lambda.body(), inner);
      return head + (body.contains("\n") ? newline(inner) : " ") + body;
    }
    if (function instanceof FunArg.FunctionRef ref) {
      return ref.name() + curried(ref.curried(), indent);
    }
    FunArg.OperatorRef section = (FunArg.OperatorRef) function;
    return "op " + section.operator().symbol() + curried(section.curried(), indent);
  }

  private static String curried(List<Expr> args, int indent) {
    return args.isEmpty() ? "" : "(" + exprs(args, indent) + ")";
  }

  private static String pattern(Pattern pattern) {
    if (pattern instanceof Pattern.Tuple tuple) {
      return "{" + joined(tuple.elements(), L0Printer::pattern) + "}";
    }
    return ((Pattern.Name) pattern).name();
  }

  private static String exprs(List<Expr> exprs, int indent) {
    return joined(exprs, e -> expr(e, indent + INDENT));
  }

  private static <T> String joined(List<T> items, Function<T, String> show) {
    return items.stream().map(show).collect(Collectors.joining(", "));
  }

  private static String newline(int indent) {
    return "\n" + " ".repeat(indent);
  }
}
