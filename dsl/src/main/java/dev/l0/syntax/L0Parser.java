package dev.l0.syntax;

import static dev.l0.syntax.TokenCursor.where;

import dev.l0.ir.BinaryOperator;
import dev.l0.ir.Builtin;
import dev.l0.ir.Expr;
import dev.l0.ir.FunArg;
import dev.l0.ir.FunDef;
import dev.l0.ir.L0CompileError;
import dev.l0.ir.Param;
import dev.l0.ir.Pattern;
import dev.l0.ir.PrefixOperator;
import dev.l0.ir.Program;
import dev.l0.ir.ScalarValue;
import dev.l0.ir.Type;
import dev.l0.types.NestingLimit;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.function.Supplier;

/**
 * Recursive-descent parser for the concrete syntax of L0 (thesis §2.1-§2.3, Fig. 1 and Fig. 2, as
 * the appendix programs write it), producing the external IR of {@code dev.l0.ir}.
 *
 * <p>Grammar decisions: binary operators follow {@link BinaryOperator}'s precedences ({@code pow}
 * is right associative); prefix {@code -} and {@code not} bind tighter than every binary operator,
 * and {@code -} written before a numeric literal makes a negative literal ({@code -0.356}, {@code
 * -2 pow 2} is {@code (-2) pow 2}); {@code let}, {@code if}, {@code loop} and {@code fn} bodies
 * extend as far right as possible, as in ML, and may appear as operands; indexing {@code a[i, j]}
 * is postfix on a name, a parenthesised expression or another indexing. The shorthands {@code let
 * a[i] = v in b} and {@code loop (p) = ...} are expanded here.
 *
 * <p>Positions: every node carries the position of its first token, except a binary operation,
 * which carries the position of its operator. Errors are {@link L0CompileError}s at the offending
 * token; the first error in the text is the one reported.
 */
public final class L0Parser {
  private static final int LOWEST_PRECEDENCE = 1;

  /**
   * The tuple SOACs of the thesis's optimised listings ({@code mapT(fn ..., a)}, chapter 4), which
   * a program copied from them may call with a function argument.
   */
  private static final Set<String> THESIS_INTERNAL_SOACS =
      Set.of("mapT", "filterT", "reduceT", "scanT", "redomapT");

  private static final String CHAR_NOT_SUPPORTED =
      "the type 'char' is not supported by this implementation of L0";

  private final TokenCursor tokens;

  /** How many levels ({@link #nested}) the parser is in. */
  private int depth;

  /**
   * The first tokens of the primary expressions the parser is in, outermost first: the constructs
   * that a message about nesting too deep names ({@link #enclosing}).
   */
  private final List<Token> primaries = new ArrayList<>();

  private L0Parser(String text, String sourceName) {
    this.tokens = new TokenCursor(new Lexer(text, sourceName));
  }

  /** Parses a whole program: a sequence of function definitions. */
  public static Program parse(String text, String sourceName) {
    L0Parser parser = new L0Parser(text, sourceName);
    return parser.entire(parser::program, "program");
  }

  /** Parses one expression that makes up all of {@code text}. */
  public static Expr parseExpression(String text, String sourceName) {
    L0Parser parser = new L0Parser(text, sourceName);
    return parser.entire(parser::expression, "expression");
  }

  /** Parses one type that makes up all of {@code text}. */
  public static Type parseType(String text, String sourceName) {
    L0Parser parser = new L0Parser(text, sourceName);
    return parser.entire(parser::type, "type");
  }

  /**
   * {@code rule} over the whole text, on a stack that fits any nesting up to the limit ({@link
   * NestingLimit}).
   */
  private <T> T entire(Supplier<T> rule, String what) {
    return NestingLimit.onLargeStack(
        () -> {
          T result = rule.get();
          if (tokens.peek().kind() != Token.Kind.END) {
            throw tokens.unexpected("end of input after the " + what);
          }
          return result;
        });
  }

  /**
   * {@code rule} one level deeper: every expression (so every parenthesis and every body of a
   * {@code let}, {@code if}, {@code loop} or {@code fn}), the right operand of a binary operator,
   * the operand of a prefix operator, every type and every pattern is a level. Beyond {@link
   * NestingLimit#MAX_DEPTH} levels, an error at the next token.
   */
  private <T> T nested(String what, Supplier<T> rule) {
    if (depth >= NestingLimit.MAX_DEPTH) {
      throw new L0CompileError(tokens.peek().pos(), NestingLimit.tooDeep(what, enclosing()));
    }
    depth++;
    try {
      return rule.get();
    } finally {
      depth--;
    }
  }

  /**
   * The constructs the parser is in, outermost first, as a message names them: only a call, a
   * parenthesis, a tuple, an array literal or a keyword's expression ({@code let}, {@code if},
   * {@code map}, ...) holds other expressions, so a name among them is a call's.
   */
  private List<NestingLimit.Enclosing> enclosing() {
    List<NestingLimit.Enclosing> enclosing = new ArrayList<>();
    for (Token first : primaries) {
      String constructs =
          switch (first.kind()) {
            case IDENTIFIER -> "calls of '" + first.text() + "'";
            case KEYWORD -> "'" + first.text() + "' expressions";
            default -> first.is("(") ? "parentheses" : first.is("{") ? "tuples" : "array literals";
          };
      enclosing.add(new NestingLimit.Enclosing(constructs, first.pos()));
    }
    return enclosing;
  }

  // ---------------------------------------------------------------- functions and types

  private Program program() {
    List<FunDef> functions = new ArrayList<>();
    while (tokens.peek().kind() != Token.Kind.END) {
      if (!tokens.peek().is("fun")) {
        throw tokens.unexpected(
            functions.isEmpty()
                ? "'fun' to begin a function definition"
                : "an operator, 'fun' or end of input after the body of '"
                    + functions.get(functions.size() - 1).name()
                    + "'");
      }
      functions.add(function());
    }
    return new Program(functions);
  }

  private FunDef function() {
    Token fun = tokens.next();
    Type returnType = type();
    Token name = name("for the function");
    Token open = tokens.expect("(", "to begin the parameters of '" + name.text() + "'");
    List<Param> params = parameters(open, "the parameters of '" + name.text() + "'");
    tokens.expect("=", "before the body of '" + name.text() + "'");
    return new FunDef(name.text(), returnType, params, expression(), fun.pos());
  }

  private List<Param> parameters(Token open, String what) {
    return tokens.commaSeparated(
        open,
        ")",
        what,
        () -> {
          Token first = tokens.peek();
          Type type = type();
          if (tokens.peek().is("{")) {
            throw tokens.unexpected(
                "a parameter name (a parameter cannot be a tuple pattern; take it apart with let)");
          }
          return new Param(type, name("for the parameter").text(), first.pos());
        });
  }

  private Type type() {
    return nested("the type", this::typeAtThisDepth);
  }

  private Type typeAtThisDepth() {
    Token first = tokens.peek();
    if (first.is("*")) {
      tokens.next();
      if (!tokens.peek().is("[")) {
        throw tokens.unexpected("'[' after '*' (uniqueness marks an array type, as in *[int])");
      }
      return arrayType().withUnique(true);
    }
    if (first.is("[")) {
      return arrayType();
    }
    if (first.is("{")) {
      tokens.next();
      return new Type.Tuple(tokens.commaSeparated(first, "}", "the tuple type", this::type));
    }
    if (first.is("char")) {
      throw new L0CompileError(first.pos(), CHAR_NOT_SUPPORTED);
    }
    if (first.kind() == Token.Kind.KEYWORD && Keywords.scalarType(first.text()).isPresent()) {
      tokens.next();
      return Keywords.scalarType(first.text()).get();
    }
    throw tokens.unexpected("a type");
  }

  private Type.Array arrayType() {
    Token open = tokens.next();
    if (tokens.peek().is("*")) {
      throw new L0CompileError(
          tokens.peek().pos(),
          "uniqueness applies to the outermost array only: write *[[t]], not [*[t]]");
    }
    Type element = type();
    tokens.close("]", open, "the array type");
    return Type.array(element);
  }

  private Token name(String context) {
    if (tokens.peek().kind() == Token.Kind.IDENTIFIER) {
      return tokens.next();
    }
    throw new L0CompileError(
        tokens.peek().pos(),
        "expected a name " + context + ", found " + describeNonName(tokens.peek()));
  }

  /** How a message names a token found where a name to bind belongs, saying if it is reserved. */
  private static String describeNonName(Token found) {
    return found.describe() + (found.kind() == Token.Kind.KEYWORD ? " (a reserved word)" : "");
  }

  private Pattern pattern() {
    return nested("the pattern", this::patternAtThisDepth);
  }

  private Pattern patternAtThisDepth() {
    Token first = tokens.peek();
    if (first.is("{")) {
      tokens.next();
      return new Pattern.Tuple(
          tokens.commaSeparated(first, "}", "the tuple pattern", this::pattern), first.pos());
    }
    if (first.is(Pattern.WILDCARD)) {
      tokens.next();
      return new Pattern.Name(Pattern.WILDCARD, first.pos());
    }
    if (first.kind() != Token.Kind.IDENTIFIER) {
      throw new L0CompileError(
          first.pos(),
          "expected a name or a tuple pattern {a, b} to bind, found " + describeNonName(first));
    }
    tokens.next();
    return new Pattern.Name(first.text(), first.pos());
  }

  // ---------------------------------------------------------------- operators

  private Expr expression() {
    return nested("the expression", () -> binary(LOWEST_PRECEDENCE));
  }

  /**
   * Precedence climbing: operands joined by operators of precedence {@code minPrecedence} or
   * higher.
   */
  private Expr binary(int minPrecedence) {
    Expr left = unary();
    while (true) {
      Token operatorToken = tokens.peek();
      BinaryOperator operator = binaryOperator(operatorToken);
      if (operator == null || operator.precedence() < minPrecedence) {
        return left;
      }
      tokens.next();
      int rightPrecedence =
          operator.rightAssociative() ? operator.precedence() : operator.precedence() + 1;
      left =
          new Expr.Binary(
              operator,
              left,
              nested("the expression", () -> binary(rightPrecedence)),
              operatorToken.pos());
    }
  }

  /**
   * The binary operator {@code token} writes, or {@code null}; {@code ==} is an error with a hint.
   */
  private static BinaryOperator binaryOperator(Token token) {
    if (token.is("==")) {
      throw new L0CompileError(token.pos(), "'==' is not an L0 operator: equality is written '='");
    }
    boolean candidate = token.kind() == Token.Kind.SYMBOL || token.is("pow");
    return candidate ? BinaryOperator.bySymbol(token.text()) : null;
  }

  private Expr unary() {
    Token first = tokens.peek();
    if (first.is("-")) {
      tokens.next();
      if (tokens.peek().kind() == Token.Kind.NUMBER) {
        return new Expr.Literal(
            LiteralSyntax.number(tokens.next().text(), true, first.pos()), first.pos());
      }
      return new Expr.Unary(PrefixOperator.NEG, nested("the expression", this::unary), first.pos());
    }
    if (first.is("not")) {
      tokens.next();
      return new Expr.Unary(PrefixOperator.NOT, nested("the expression", this::unary), first.pos());
    }
    return postfix();
  }

  private Expr postfix() {
    Token first = tokens.peek();
    Expr result = primary();
    boolean indexable = first.is("(") || result instanceof Expr.Var;
    while (indexable && tokens.peek().is("[")) {
      result = new Expr.Index(result, indices("the index"), first.pos());
    }
    if (tokens.peek().is("[")) {
      throw new L0CompileError(
          tokens.peek().pos(),
          "only a name or a parenthesised expression can be indexed: bind the value with let, or"
              + " write (...)[...]");
    }
    return result;
  }

  /** A non-empty index list {@code [e1, ..., en]}. */
  private List<Expr> indices(String what) {
    Token open = tokens.expect("[", "to begin " + what);
    if (tokens.peek().is("]")) {
      throw new L0CompileError(tokens.peek().pos(), what + " needs at least one index");
    }
    return tokens.commaSeparated(open, "]", what, this::expression);
  }

  // ---------------------------------------------------------------- primary expressions

  private Expr primary() {
    Token first = tokens.peek();
    primaries.add(first);
    try {
      return primaryAt(first);
    } finally {
      primaries.remove(primaries.size() - 1);
    }
  }

  private Expr primaryAt(Token first) {
    switch (first.kind()) {
      case NUMBER:
        tokens.next();
        return new Expr.Literal(
            LiteralSyntax.number(first.text(), false, first.pos()), first.pos());
      case IDENTIFIER:
        tokens.next();
        return tokens.peek().is("(") ? call(first) : new Expr.Var(first.text(), first.pos());
      case KEYWORD:
        return keywordExpression(first);
      case SYMBOL:
        if (first.is("(")) {
          return parenthesised();
        }
        if (first.is("{")) {
          tokens.next();
          return new Expr.TupleLit(
              tokens.commaSeparated(first, "}", "the tuple", this::expression), first.pos());
        }
        if (first.is("[")) {
          return arrayLiteral();
        }
        if (first.is(Pattern.WILDCARD)) {
          throw new L0CompileError(
              first.pos(), "'_' is a pattern that binds nothing; it cannot be used as a value");
        }
        throw tokens.unexpected("an expression");
      default:
        throw tokens.unexpected("an expression");
    }
  }

  private Expr keywordExpression(Token keyword) {
    String word = keyword.text();
    if (LiteralSyntax.isBoolean(word)) {
      tokens.next();
      return new Expr.Literal(ScalarValue.bool(word.equalsIgnoreCase("true")), keyword.pos());
    }
    switch (word) {
      case "let":
        return let(tokens.next());
      case "if":
        return conditional(tokens.next());
      case "loop":
        return loop(tokens.next());
      case "char":
        throw new L0CompileError(keyword.pos(), CHAR_NOT_SUPPORTED);
      case "pow":
        throw new L0CompileError(
            keyword.pos(),
            "'pow' is L0's infix power operator (thesis §2.3): write x pow y, not pow(x, y)");
      case "fn":
      case "op":
        throw new L0CompileError(
            keyword.pos(),
            "'"
                + word
                + "' makes a function argument, which may appear only as the first argument of map, filter, reduce or scan");
      case "redomap":
        throw new L0CompileError(
            keyword.pos(),
            "'redomap' is internal to the compiler and cannot be written in a program; write reduce(f, ne, map(g, a))");
      default:
        break;
    }
    if (Builtin.byName(word).isPresent()) {
      tokens.next();
      if (!tokens.peek().is("(")) {
        throw tokens.unexpected("'(' after the conversion '" + word + "'");
      }
      return call(keyword);
    }
    Construct construct = Construct.byKeyword(word);
    if (construct == null) {
      throw tokens.unexpected("an expression");
    }
    tokens.next();
    return construct(keyword, construct);
  }

  private Expr call(Token function) {
    Token open = tokens.next();
    if (THESIS_INTERNAL_SOACS.contains(function.text())
        && (tokens.peek().is("fn") || tokens.peek().is("op"))) {
      String soac = function.text().substring(0, function.text().length() - 1);
      throw new L0CompileError(
          function.pos(),
          "'"
              + function.text()
              + "' is the thesis's internal form of "
              + soac
              + " (its optimised listings, chapter 4), which a program cannot write; write "
              + (soac.equals("redomap") ? "reduce(f, ne, map(g, a))" : soac + "(...)"));
    }
    if (tokens.peek().is("fn") || tokens.peek().is("op")) {
      // e.g. Futhark's internal scanomap or screma, or a function of the program given a lambda
      throw new L0CompileError(
          function.pos(),
          "'"
              + function.text()
              + "' is given a function argument ('"
              + tokens.peek().text()
              + "'), which only map, filter, reduce and scan take; L0 has no other higher-order"
              + " functions (the optimiser's fused forms such as redomap cannot be written)");
    }
    List<Expr> args =
        tokens.commaSeparated(
            open, ")", "the argument list of '" + function.text() + "'", this::expression);
    return new Expr.Call(function.text(), args, function.pos());
  }

  private Expr parenthesised() {
    Token open = tokens.next();
    Expr inner = expression();
    if (tokens.peek().is(",")) {
      throw tokens.unexpected(
          "')' to close the parenthesis opened at " + where(open) + " (tuples are written {a, b})");
    }
    tokens.close(")", open, "the parenthesis");
    return inner;
  }

  private Expr arrayLiteral() {
    Token open = tokens.next();
    if (tokens.peek().is("]")) {
      throw new L0CompileError(
          open.pos(),
          "an empty array literal [] is not allowed, as its element type is unknown; use iota(0) or replicate(0, v)");
    }
    return new Expr.ArrayLit(
        tokens.commaSeparated(open, "]", "the array literal", this::expression), open.pos());
  }

  // ---------------------------------------------------------------- binding constructs

  private Expr let(Token let) {
    Token first = tokens.peek();
    if (first.kind() == Token.Kind.IDENTIFIER && tokens.peek(1).is("[")) {
      tokens.next();
      List<Expr> indices = indices("the indices of the in-place update");
      tokens.expect("=", "after the indices of the in-place update at " + where(let));
      Expr value = expression();
      return new Expr.LetWith(
          first.text(), first.text(), indices, value, letBody(let), let.pos(), first.pos());
    }
    Pattern pattern = pattern();
    tokens.expect("=", "after the pattern of the 'let' at " + where(let));
    if (pattern instanceof Pattern.Name dest
        && tokens.peek().kind() == Token.Kind.IDENTIFIER
        && tokens.peek(1).is("with")) {
      Token source = tokens.next();
      tokens.next();
      List<Expr> indices = indices("the indices of the in-place update");
      expectUpdateArrow(let);
      Expr value = expression();
      return new Expr.LetWith(
          dest.name(), source.text(), indices, value, letBody(let), let.pos(), source.pos());
    }
    Expr value = expression();
    return new Expr.Let(pattern, value, letBody(let), let.pos());
  }

  private Expr letBody(Token let) {
    tokens.expect("in", "after the bound value of the 'let' at " + where(let));
    return expression();
  }

  /**
   * {@code <-}, written as {@code <} directly followed by {@code -} so that {@code x<-1} still
   * means {@code x < -1}.
   */
  private void expectUpdateArrow(Token let) {
    Token less = tokens.peek();
    Token minus = tokens.peek(1);
    boolean adjacent =
        less.pos().line() == minus.pos().line() && less.pos().column() + 1 == minus.pos().column();
    if (!less.is("<") || !minus.is("-") || !adjacent) {
      throw tokens.unexpected("'<-' after the indices of the in-place update at " + where(let));
    }
    tokens.next();
    tokens.next();
  }

  private Expr conditional(Token ifToken) {
    Expr condition = expression();
    tokens.expect("then", "after the condition of the 'if' at " + where(ifToken));
    Expr thenBranch = expression();
    tokens.expect(
        "else",
        "after the 'then' branch of the 'if' at " + where(ifToken) + " (every 'if' has an 'else')");
    return new Expr.If(condition, thenBranch, expression(), ifToken.pos());
  }

  /**
   * {@code loop (p = init) = for i < n do body in e}; {@code loop (p) = ...} takes the pattern's
   * own variables as {@code init}.
   */
  private Expr loop(Token loop) {
    Token open = tokens.expect("(", "after 'loop'");
    Pattern pattern = pattern();
    Expr init = tokens.accept("=") ? expression() : variablesOf(pattern);
    tokens.close(")", open, "the pattern of the 'loop'");
    tokens.expect("=", "after the pattern of the 'loop' at " + where(loop));
    tokens.expect(
        "for",
        "in the 'loop' at "
            + where(loop)
            + " (loops are written loop (p = init) = for i < n do body in e)");
    Token counter = name("for the loop counter");
    tokens.expect(
        "<", "after the loop counter '" + counter.text() + "' (loops are written for i < n)");
    Expr bound = expression();
    tokens.expect("do", "after the bound of the 'loop' at " + where(loop));
    Expr loopBody = expression();
    tokens.expect("in", "after the body of the 'loop' at " + where(loop));
    return new Expr.Loop(pattern, init, counter.text(), bound, loopBody, expression(), loop.pos());
  }

  private static Expr variablesOf(Pattern pattern) {
    if (pattern instanceof Pattern.Tuple tuple) {
      return new Expr.TupleLit(
          tuple.elements().stream().map(L0Parser::variablesOf).toList(), tuple.pos());
    }
    Pattern.Name name = (Pattern.Name) pattern;
    if (name.isWildcard()) {
      throw new L0CompileError(
          name.pos(),
          "'_' binds nothing, so 'loop (p) = ...' has no variable to start from here;"
              + " write 'loop (p = initial) = ...'");
    }
    return new Expr.Var(name.name(), name.pos());
  }

  // ---------------------------------------------------------------- built-in constructs and SOACs

  /**
   * {@code zip(...)}, {@code map(f, a)}, ...: the keyword is consumed, the argument list is next.
   */
  private Expr construct(Token keyword, Construct construct) {
    Token open = tokens.expect("(", "after '" + keyword.text() + "'");
    String what = "the argument list of '" + keyword.text() + "'";
    if (tokens.peek().is(")")) {
      tokens.next();
      throw construct.arityError(keyword, 0);
    }
    if (construct.takesFunction()) {
      FunArg function = functionArgument(keyword);
      List<Expr> rest = remainingArguments(open, what);
      construct.checkArity(keyword, rest.size() + 1);
      return soac(construct, function, rest, keyword);
    }
    if (construct == Construct.RESHAPE) {
      Token shapeOpen = tokens.expect("(", "to begin the shape of reshape((d1, ..., dn), a)");
      List<Expr> shape =
          tokens.commaSeparated(shapeOpen, ")", "the shape of 'reshape'", this::expression);
      List<Expr> rest = remainingArguments(open, what);
      construct.checkArity(keyword, rest.size() + 1);
      return new Expr.Reshape(shape, rest.get(0), keyword.pos());
    }
    List<Expr> args = new ArrayList<>();
    args.add(expression());
    args.addAll(remainingArguments(open, what));
    construct.checkArity(keyword, args.size());
    return arrayOperation(construct, args, keyword);
  }

  /** The arguments after the first, each preceded by a comma, and the closing parenthesis. */
  private List<Expr> remainingArguments(Token open, String what) {
    List<Expr> rest = new ArrayList<>();
    while (tokens.accept(",")) {
      rest.add(expression());
    }
    tokens.close(")", open, what);
    return rest;
  }

  private static Expr soac(Construct construct, FunArg function, List<Expr> args, Token keyword) {
    return switch (construct) {
      case MAP -> new Expr.Map(function, args.get(0), keyword.pos());
      case FILTER -> new Expr.Filter(function, args.get(0), keyword.pos());
      case REDUCE -> new Expr.Reduce(function, args.get(0), args.get(1), keyword.pos());
      case SCAN -> new Expr.Scan(function, args.get(0), args.get(1), keyword.pos());
      default -> throw new IllegalStateException(construct + " takes no function");
    };
  }

  private static Expr arrayOperation(Construct construct, List<Expr> args, Token keyword) {
    return switch (construct) {
      case ZIP -> new Expr.Zip(args, keyword.pos());
      case UNZIP -> new Expr.Unzip(args.get(0), keyword.pos());
      case IOTA -> new Expr.Iota(args.get(0), keyword.pos());
      case REPLICATE -> new Expr.Replicate(args.get(0), args.get(1), keyword.pos());
      case SIZE ->
          args.size() == 1
              ? new Expr.Size(0, args.get(0), keyword.pos())
              : new Expr.Size(
                  staticInteger(args.get(0), "the dimension k of size(k, a)", false),
                  args.get(1),
                  keyword.pos());
      case TRANSPOSE ->
          args.size() == 1
              ? new Expr.Transpose(0, 1, args.get(0), keyword.pos())
              : new Expr.Transpose(
                  staticInteger(args.get(0), "k in transpose(k, n, a)", true),
                  staticInteger(args.get(1), "n in transpose(k, n, a)", true),
                  args.get(2),
                  keyword.pos());
      case SPLIT -> new Expr.Split(args.get(0), args.get(1), keyword.pos());
      case CONCAT -> new Expr.Concat(args.get(0), args.get(1), keyword.pos());
      case COPY -> new Expr.Copy(args.get(0), keyword.pos());
      default -> throw new IllegalStateException(construct + " is parsed elsewhere");
    };
  }

  /**
   * The value of an integer literal argument that must be static (thesis §2.3: size's k,
   * transpose's k and n).
   */
  private static int staticInteger(Expr arg, String what, boolean negativeAllowed) {
    if (arg instanceof Expr.Literal literal
        && literal.value() instanceof ScalarValue.Int value
        && value.value() == (int) value.value()
        && (negativeAllowed || value.value() >= 0)) {
      return (int) value.value();
    }
    String kind = negativeAllowed ? "an integer literal" : "a non-negative integer literal";
    throw new L0CompileError(arg.pos(), what + " must be " + kind);
  }

  /**
   * The function argument of a SOAC: {@code fn t (params) => e}, {@code f}, {@code f(a, ...)},
   * {@code op +} or {@code op +(c)}.
   */
  private FunArg functionArgument(Token soac) {
    Token first = tokens.peek();
    if (first.is("fn")) {
      return lambda(tokens.next());
    }
    if (first.is("op")) {
      tokens.next();
      Token symbol = tokens.peek();
      BinaryOperator operator = binaryOperator(symbol);
      if (operator == null) {
        throw tokens.unexpected("an operator after 'op', as in op + or op pow");
      }
      tokens.next();
      return new FunArg.OperatorRef(operator, curriedArguments("op " + symbol.text()), first.pos());
    }
    boolean conversion =
        first.kind() == Token.Kind.KEYWORD && Builtin.byName(first.text()).isPresent();
    if (first.kind() == Token.Kind.IDENTIFIER || conversion) {
      tokens.next();
      return new FunArg.FunctionRef(first.text(), curriedArguments(first.text()), first.pos());
    }
    throw tokens.unexpected(
        "a function as the first argument of '"
            + soac.text()
            + "' (fn t (params) => e, a function name, or op followed by an operator)");
  }

  private List<Expr> curriedArguments(String function) {
    if (!tokens.peek().is("(")) {
      return List.of();
    }
    Token open = tokens.next();
    return tokens.commaSeparated(
        open, ")", "the curried arguments of '" + function + "'", this::expression);
  }

  private FunArg lambda(Token fn) {
    Type returnType = type();
    Token open =
        tokens.expect("(", "to begin the parameters of the anonymous function at " + where(fn));
    List<Param> params = parameters(open, "the parameters of the anonymous function");
    tokens.expect("=>", "before the body of the anonymous function at " + where(fn));
    return new FunArg.Lambda(returnType, params, expression(), fn.pos());
  }

  /** The built-in array constructs written like calls, with the argument counts they accept. */
  private enum Construct {
    ZIP("zip", "zip(a1, ..., an)", 1, Integer.MAX_VALUE),
    UNZIP("unzip", "unzip(a)", 1),
    IOTA("iota", "iota(n)", 1),
    REPLICATE("replicate", "replicate(n, v)", 2),
    SIZE("size", "size(a) or size(k, a)", 1, 2),
    RESHAPE("reshape", "reshape((d1, ..., dn), a)", 2),
    TRANSPOSE("transpose", "transpose(a) or transpose(k, n, a)", 1, 3),
    SPLIT("split", "split(n, a)", 2),
    CONCAT("concat", "concat(a, b)", 2),
    COPY("copy", "copy(e)", 1),
    MAP("map", "map(f, a)", 2),
    FILTER("filter", "filter(f, a)", 2),
    REDUCE("reduce", "reduce(f, ne, a)", 3),
    SCAN("scan", "scan(f, ne, a)", 3);

    private final String keyword;
    private final String usage;
    private final int fewest;
    private final int most;

    Construct(String keyword, String usage, int arity) {
      this(keyword, usage, arity, arity);
    }

    /**
     * Accepts {@code fewest} or {@code most} arguments, or any number from {@code fewest} if {@code
     * most} is {@link Integer#MAX_VALUE}.
     */
    Construct(String keyword, String usage, int fewest, int most) {
      this.keyword = keyword;
      this.usage = usage;
      this.fewest = fewest;
      this.most = most;
    }

    static Construct byKeyword(String word) {
      for (Construct c : values()) {
        if (c.keyword.equals(word)) {
          return c;
        }
      }
      return null;
    }

    boolean takesFunction() {
      return this == MAP || this == FILTER || this == REDUCE || this == SCAN;
    }

    void checkArity(Token at, int count) {
      boolean accepted =
          count == fewest || count == most || (most == Integer.MAX_VALUE && count > fewest);
      if (!accepted) {
        throw arityError(at, count);
      }
    }

    L0CompileError arityError(Token at, int count) {
      String expected =
          fewest == most
              ? Integer.toString(fewest)
              : most == Integer.MAX_VALUE ? "at least " + fewest : fewest + " or " + most;
      String noun = fewest == 1 && most == 1 ? "argument" : "arguments";
      return new L0CompileError(
          at.pos(),
          "'"
              + keyword
              + "' expects "
              + expected
              + " "
              + noun
              + ", as in "
              + usage
              + ", but got "
              + count);
    }
  }
}
