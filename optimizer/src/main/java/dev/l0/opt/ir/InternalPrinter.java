package dev.l0.opt.ir;

import dev.l0.ir.Dim;
import dev.l0.ir.ScalarType;
import dev.l0.ir.ScalarValue;
import dev.l0.ir.Type;
import java.util.List;
import java.util.stream.Collectors;

/**
 * Prints internal L0 in the thesis's notation (Fig. 39 style): {@code let <c> {x, y} = e in ...},
 * tupleless SOACs with their lambdas, and shapes in types. This text is what {@code l0 explain}
 * shows.
 */
public final class InternalPrinter {
  private static final String INDENT = "  ";

  private final StringBuilder out = new StringBuilder();

  private InternalPrinter() {}

  public static String print(InternalProgram program) {
    return program.functions().stream()
        .map(InternalPrinter::print)
        .collect(Collectors.joining("\n"));
  }

  public static String print(InternalFunction function) {
    InternalPrinter p = new InternalPrinter();
    p.out
        .append("fun {")
        .append(types(function.returnTypes()))
        .append("} ")
        .append(function.name())
        .append('(')
        .append(params(function.params()))
        .append(") =\n");
    p.body(function.body(), 1);
    return p.out.toString();
  }

  public static String type(Type t) {
    if (InternalTypes.isCertificate(t)) {
      return "cert";
    }
    if (t instanceof Type.Array a) {
      String size = a.size() instanceof Dim.Unknown ? "" : a.size().toString();
      return (a.unique() ? "*" : "") + "[" + size + "]" + type(a.element());
    }
    if (t instanceof ScalarType s) {
      return s.keyword();
    }
    return t.toString();
  }

  public static String scalar(ScalarValue v) {
    if (v instanceof ScalarValue.Bool b) {
      return Boolean.toString(b.value());
    }
    if (v instanceof ScalarValue.Int i) {
      return i.type() == ScalarType.I32 ? Long.toString(i.value()) : i.value() + "i64";
    }
    ScalarValue.Float f = (ScalarValue.Float) v;
    String digits =
        f.type() == ScalarType.F32 ? Float.toString((float) f.value()) : Double.toString(f.value());
    return f.type() == ScalarType.F32 ? digits + "f32" : digits;
  }

  private static String types(List<Type> ts) {
    return ts.stream().map(InternalPrinter::type).collect(Collectors.joining(", "));
  }

  private static String params(List<Ident> ps) {
    return ps.stream().map(p -> type(p.type()) + " " + p.name()).collect(Collectors.joining(", "));
  }

  private static String operands(List<SubExp> xs) {
    return xs.stream().map(SubExp::toString).collect(Collectors.joining(", "));
  }

  private void newline(int depth) {
    out.append('\n').append(INDENT.repeat(depth));
  }

  private void body(Body body, int depth) {
    out.append(INDENT.repeat(depth));
    for (Stm stm : body.stms()) {
      out.append("let ");
      if (!stm.certificates().isEmpty()) {
        out.append('<').append(String.join(", ", stm.certificates())).append("> ");
      }
      out.append('{')
          .append(stm.pattern().stream().map(Ident::name).collect(Collectors.joining(", ")))
          .append("} = ");
      exp(stm.exp(), depth + 1);
      out.append(" in");
      newline(depth);
    }
    out.append('{').append(operands(body.result())).append('}');
  }

  private void lambda(Lambda lambda, int depth) {
    out.append("fn {")
        .append(types(lambda.returnTypes()))
        .append("} (")
        .append(params(lambda.params()))
        .append(") =>\n");
    body(lambda.body(), depth + 1);
  }

  /**
   * {@code name(fn..., {neutral}, inputs)}; the neutral elements, where there are any, are braced.
   * A filtermap of several filters names the number of values of each: {@code filtermap<2,
   * 2>(...)}; a plain filter shows its predicate, {@code filter(fn {bool} (x) => ..., a)}.
   */
  private void soac(Exp.Soac soac, int depth) {
    out.append(soac.keyword());
    if (soac instanceof Exp.FilterMap f && f.filters().size() > 1) {
      out.append('<')
          .append(String.join(", ", f.filters().stream().map(String::valueOf).toList()))
          .append('>');
    }
    out.append('(');
    List<Lambda> lambdas =
        soac instanceof Exp.FilterMap f && f.isFilter() ? List.of(f.predicate()) : soac.lambdas();
    for (Lambda l : lambdas) {
      lambda(l, depth);
      out.append(",");
      newline(depth);
    }
    List<SubExp> operands = soac.operands();
    int neutrals = operands.size() - soac.inputs().size();
    if (neutrals > 0) {
      out.append('{').append(operands(operands.subList(0, neutrals))).append("}, ");
    }
    out.append(operands(soac.inputs())).append(')');
  }

  private void exp(Exp e, int depth) {
    if (e instanceof Exp.Atom a) {
      out.append(a.value());
    } else if (e instanceof Exp.BinOp b) {
      out.append(b.left()).append(' ').append(b.op().symbol()).append(' ').append(b.right());
    } else if (e instanceof Exp.UnOp u) {
      out.append(u.op().symbol())
          .append(u.op() == dev.l0.ir.PrefixOperator.NOT ? " " : "")
          .append(u.operand());
    } else if (e instanceof Exp.BuiltinCall c) {
      out.append(c.function().functionName()).append('(').append(operands(c.args())).append(')');
    } else if (e instanceof Exp.Apply c) {
      out.append(c.function()).append('(').append(operands(c.args())).append(')');
    } else if (e instanceof Exp.If i) {
      out.append("if ").append(i.condition()).append(" then\n");
      body(i.thenBody(), depth + 1);
      newline(depth);
      out.append("else\n");
      body(i.elseBody(), depth + 1);
    } else if (e instanceof Exp.Loop l) {
      out.append("loop ({")
          .append(params(l.mergeParams()))
          .append("} = {")
          .append(operands(l.init()))
          .append("}) = for ")
          .append(l.counter().name())
          .append(" < ")
          .append(l.bound())
          .append(" do\n");
      body(l.body(), depth + 1);
    } else if (e instanceof Exp.Index x) {
      out.append(x.array()).append('[').append(operands(x.indices())).append(']');
    } else if (e instanceof Exp.Update u) {
      out.append(u.array())
          .append(" with [")
          .append(operands(u.indices()))
          .append("] <- ")
          .append(u.value());
    } else if (e instanceof Exp.ArrayLit a) {
      out.append('[').append(operands(a.elements())).append(']');
    } else if (e instanceof Exp.Iota i) {
      out.append("iota(").append(i.count()).append(')');
    } else if (e instanceof Exp.Replicate r) {
      out.append("replicate(").append(r.count()).append(", ").append(r.value()).append(')');
    } else if (e instanceof Exp.Size s) {
      out.append("size(").append(s.dimension()).append(", ").append(s.array()).append(')');
    } else if (e instanceof Exp.Reshape r) {
      out.append("reshape((")
          .append(operands(r.shape()))
          .append("), ")
          .append(r.array())
          .append(')');
    } else if (e instanceof Exp.Transpose t) {
      out.append("transpose(")
          .append(t.k())
          .append(", ")
          .append(t.n())
          .append(", ")
          .append(t.array())
          .append(')');
    } else if (e instanceof Exp.Split s) {
      out.append("split(").append(s.at()).append(", ").append(s.array()).append(')');
    } else if (e instanceof Exp.Concat c) {
      out.append("concat(").append(c.left()).append(", ").append(c.right()).append(')');
    } else if (e instanceof Exp.Copy c) {
      out.append("copy(").append(c.array()).append(')');
    } else if (e instanceof Exp.Assert a) {
      out.append("assert(").append(a.condition()).append(')');
    } else if (e instanceof Exp.Soac soac) {
      soac(soac, depth);
    }
  }
}
