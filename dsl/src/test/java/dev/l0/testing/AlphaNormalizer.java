package dev.l0.testing;

import dev.l0.ir.Dim;
import dev.l0.ir.Expr;
import dev.l0.ir.FunArg;
import dev.l0.ir.FunDef;
import dev.l0.ir.Param;
import dev.l0.ir.Pattern;
import dev.l0.ir.Program;
import dev.l0.ir.Type;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Renames every bound variable canonically, {@code v0, v1, ...} in binding order, numbering each
 * function afresh: function and lambda parameters, {@code let} and {@code loop} patterns, loop
 * counters and the destinations of {@code let ... with}. Function names, free variables and
 * positions stay. Two programs that differ only in the names of their variables normalise to equal
 * programs (compare with {@link SourcePositions#erase} for positions too). Array sizes in types
 * that name a bound variable are renamed with it.
 */
public final class AlphaNormalizer {
  private int bound;

  private AlphaNormalizer() {}

  public static Program normalize(Program program) {
    return new Program(program.functions().stream().map(AlphaNormalizer::normalize).toList());
  }

  public static FunDef normalize(FunDef function) {
    return new AlphaNormalizer().function(function);
  }

  /** {@code e} with its bound variables renamed; its free variables keep their names. */
  public static Expr normalize(Expr e) {
    return new AlphaNormalizer().expr(e, Map.of());
  }

  private FunDef function(FunDef f) {
    Map<String, String> scope = new HashMap<>();
    List<Param> params = bindParams(f.params(), scope);
    return new FunDef(
        f.name(), type(f.returnType(), scope), params, expr(f.body(), scope), f.pos());
  }

  private Expr expr(Expr e, Map<String, String> scope) {
    if (e instanceof Expr.Var v) {
      return new Expr.Var(scope.getOrDefault(v.name(), v.name()), v.pos());
    } else if (e instanceof Expr.Let let) {
      Expr value = expr(let.value(), scope);
      Map<String, String> inner = new HashMap<>(scope);
      Pattern pattern = bindPattern(let.pattern(), inner);
      return new Expr.Let(pattern, value, expr(let.body(), inner), let.pos());
    } else if (e instanceof Expr.LetWith update) {
      List<Expr> indices = exprs(update.indices(), scope);
      Expr value = expr(update.value(), scope);
      String source = scope.getOrDefault(update.source(), update.source());
      Map<String, String> inner = new HashMap<>(scope);
      String dest = bind(update.dest(), inner);
      return new Expr.LetWith(
          dest, source, indices, value, expr(update.body(), inner), update.pos());
    } else if (e instanceof Expr.Loop loop) {
      Expr init = expr(loop.init(), scope);
      Expr bound = expr(loop.bound(), scope);
      Map<String, String> afterLoop = new HashMap<>(scope);
      Pattern pattern = bindPattern(loop.pattern(), afterLoop);
      Map<String, String> inLoop = new HashMap<>(afterLoop);
      String counter = bind(loop.counter(), inLoop);
      Expr loopBody = expr(loop.loopBody(), inLoop);
      return new Expr.Loop(
          pattern, init, counter, bound, loopBody, expr(loop.body(), afterLoop), loop.pos());
    } else if (e instanceof Expr.Map m) {
      FunArg f = funArg(m.function(), scope);
      return new Expr.Map(f, expr(m.array(), scope), m.pos());
    } else if (e instanceof Expr.Filter m) {
      FunArg f = funArg(m.function(), scope);
      return new Expr.Filter(f, expr(m.array(), scope), m.pos());
    } else if (e instanceof Expr.Reduce r) {
      FunArg f = funArg(r.function(), scope);
      Expr neutral = expr(r.neutral(), scope);
      return new Expr.Reduce(f, neutral, expr(r.array(), scope), r.pos());
    } else if (e instanceof Expr.Scan s) {
      FunArg f = funArg(s.function(), scope);
      Expr neutral = expr(s.neutral(), scope);
      return new Expr.Scan(f, neutral, expr(s.array(), scope), s.pos());
    }
    return e.mapChildren(child -> expr(child, scope));
  }

  private List<Expr> exprs(List<Expr> es, Map<String, String> scope) {
    List<Expr> renamed = new ArrayList<>();
    for (Expr e : es) {
      renamed.add(expr(e, scope));
    }
    return renamed;
  }

  private FunArg funArg(FunArg f, Map<String, String> scope) {
    if (f instanceof FunArg.Lambda lambda) {
      Map<String, String> inner = new HashMap<>(scope);
      List<Param> params = bindParams(lambda.params(), inner);
      Type returnType = type(lambda.returnType(), inner);
      return new FunArg.Lambda(returnType, params, expr(lambda.body(), inner), lambda.pos());
    } else if (f instanceof FunArg.FunctionRef ref) {
      return new FunArg.FunctionRef(ref.name(), exprs(ref.curried(), scope), ref.pos());
    }
    FunArg.OperatorRef section = (FunArg.OperatorRef) f;
    return new FunArg.OperatorRef(
        section.operator(), exprs(section.curried(), scope), section.pos());
  }

  /** Binds the parameters left to right; a parameter's type may name the ones before it. */
  private List<Param> bindParams(List<Param> params, Map<String, String> scope) {
    List<Param> renamed = new ArrayList<>();
    for (Param p : params) {
      Type t = type(p.type(), scope);
      renamed.add(new Param(t, bind(p.name(), scope), p.pos()));
    }
    return renamed;
  }

  private Pattern bindPattern(Pattern pattern, Map<String, String> scope) {
    if (pattern instanceof Pattern.Tuple tuple) {
      List<Pattern> elements = new ArrayList<>();
      for (Pattern element : tuple.elements()) {
        elements.add(bindPattern(element, scope));
      }
      return new Pattern.Tuple(elements, tuple.pos());
    }
    Pattern.Name name = (Pattern.Name) pattern;
    return new Pattern.Name(bind(name.name(), scope), name.pos());
  }

  private String bind(String name, Map<String, String> scope) {
    String canonical = "v" + bound++;
    scope.put(name, canonical);
    return canonical;
  }

  private static Type type(Type t, Map<String, String> scope) {
    if (t instanceof Type.Array array) {
      return new Type.Array(type(array.element(), scope), dim(array.size(), scope), array.unique());
    } else if (t instanceof Type.Tuple tuple) {
      return new Type.Tuple(tuple.elements().stream().map(e -> type(e, scope)).toList());
    }
    return t;
  }

  private static Dim dim(Dim d, Map<String, String> scope) {
    if (d instanceof Dim.Named named) {
      return new Dim.Named(scope.getOrDefault(named.variable(), named.variable()));
    }
    return d;
  }
}
