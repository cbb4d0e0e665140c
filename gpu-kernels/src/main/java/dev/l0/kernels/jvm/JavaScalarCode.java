package dev.l0.kernels.jvm;

import dev.l0.ir.BinaryOperator;
import dev.l0.ir.Builtin;
import dev.l0.ir.ScalarType;
import dev.l0.ir.ScalarValue;
import dev.l0.ir.SourcePos;
import dev.l0.ir.Type;
import dev.l0.ir.PrefixOperator;
import dev.l0.kernels.lower.UnsupportedKernelException;
import dev.l0.opt.ir.Body;
import dev.l0.opt.ir.Exp;
import dev.l0.opt.ir.Ident;
import dev.l0.opt.ir.Lambda;
import dev.l0.opt.ir.Stm;
import dev.l0.opt.ir.SubExp;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Prints the scalar code of SOAC functions (internal L0, thesis ch. 4) as Java statements over
 * primitive locals: operators, built-ins, branches, sequential loops (thesis §2.1.1), assertions
 * and indexing of arrays the kernel reads, each with {@link dev.l0.semantics.ScalarOperations}'s
 * meaning (integer wrap-around, Java shifts, f32 in float, {@link dev.l0.math.L0Math}). Arrays are
 * views of the kernel's inputs and of arrays read from outside, never copied; a reduce or redomap
 * inside a function is a sequential fold in the thread, and an inner map may write the kernel's
 * output rows in place. Anything else (other nested SOACs, arrays built inside a function, calls)
 * is rejected with {@link UnsupportedKernelException}. L0 names become {@code v_name}; generated
 * helper names contain {@code $}.
 */
final class JavaScalarCode {
  /** What a function parameter is bound to: a scalar Java expression, or a view of an array. */
  sealed interface Arg permits ScalarArg, View {}

  record ScalarArg(String expression) implements Arg {}

  /** An array the generated code reads without building it: its dimension sizes ({@code int} Java expressions) and its rows. */
  sealed interface View extends Arg permits Stored, Replicated, Iota {
    List<String> shape();

    default int rank() {
      return shape().size();
    }

    /** Row {@code j} (a Java expression known to be in bounds): an element, or a view of one rank less. */
    Arg row(String j);
  }

  /**
   * Elements stored in a primitive Java array {@code data} from index {@code offset}, row-major:
   * a kernel input, an array read from outside, or a slice of one; never copied.
   */
  record Stored(String data, String offset, List<String> shape) implements View {
    public Stored {
      shape = List.copyOf(shape);
    }

    /** The number of elements of one row. */
    String rowSize() {
      return shape.size() == 1 ? "1" : "(" + String.join(" * ", shape.subList(1, shape.size())) + ")";
    }

    @Override
    public Arg row(String j) {
      if (rank() == 1) {
        return new ScalarArg(data + "[" + offset + " + " + j + "]");
      }
      return new Stored(data, "(" + offset + " + " + j + " * " + rowSize() + ")", shape.subList(1, rank()));
    }
  }

  /** {@code replicate(count, row)}: every row is {@code row}, nothing is allocated. */
  record Replicated(String count, Arg row) implements View {
    @Override
    public List<String> shape() {
      List<String> shape = new ArrayList<>();
      shape.add(count);
      if (row instanceof View inner) {
        shape.addAll(inner.shape());
      }
      return shape;
    }

    @Override
    public Arg row(String j) {
      return row;
    }
  }

  /** {@code iota(count)}: row {@code j} is {@code j}, of integer type {@code type}. */
  record Iota(String count, ScalarType type) implements View {
    @Override
    public List<String> shape() {
      return List.of(count);
    }

    @Override
    public Arg row(String j) {
      return new ScalarArg("((" + javaType(type) + ") " + j + ")");
    }
  }

  /** Where an inner map writes its results in place: row {@code rowOffset} of the kernel's output {@code data}. */
  private record Destination(String data, String rowOffset) {}

  private final StringBuilder out = new StringBuilder();
  private final Map<String, ScalarType> scalars = new HashMap<>();
  private final Map<String, View> views = new HashMap<>();
  private final Map<String, Destination> destinations = new HashMap<>();
  private final List<Object> constants;
  private final Map<String, String> floatFields = new LinkedHashMap<>();
  private final Map<String, String> fieldTypes = new HashMap<>();
  private int indent;
  private int temporaries;

  JavaScalarCode(List<Object> constants, int indent) {
    this.constants = constants;
    this.indent = indent;
  }

  String text() {
    return out.toString();
  }

  /** Makes scalar variable {@code name} (Java name {@link #local}) visible. */
  void scalar(String name, ScalarType type) {
    scalars.put(name, type);
  }

  void array(String name, View view) {
    views.put(name, view);
  }

  /**
   * Makes the inner map that binds array {@code name} write its rows in place into Java array
   * {@code data} from element {@code rowOffset}; the array itself is never materialised.
   */
  void destination(String name, String data, String rowOffset) {
    if (destinations.containsKey(name)) {
      throw new UnsupportedKernelException("array " + name + " returned twice by a map's function");
    }
    destinations.put(name, new Destination(data, rowOffset));
  }

  /** The Java name of L0 variable {@code name}. */
  static String local(String name) {
    return "v_" + name.replaceAll("[^A-Za-z0-9_]", "_");
  }

  static String javaType(ScalarType t) {
    switch (t) {
      case BOOL: return "boolean";
      case I32: return "int";
      case I64: return "long";
      case F32: return "float";
      default: return "double";
    }
  }

  static ScalarType scalarType(Type t, String what) {
    if (t instanceof ScalarType s) {
      return s;
    }
    throw new UnsupportedKernelException(what + " of non-scalar type " + t);
  }

  void line(String text) {
    out.append("  ".repeat(indent)).append(text).append('\n');
  }

  void open(String text) {
    line(text + " {");
    indent++;
  }

  void close() {
    indent--;
    line("}");
  }

  /**
   * Applies {@code f} to {@code args} and assigns its results to the Java lvalues
   * {@code targets}, in a block of its own so that one function can be applied twice. A
   * {@code null} target is a result an inner map writes in place (see {@link #destination}).
   */
  void apply(Lambda f, List<? extends Arg> args, List<String> targets) {
    open("");
    for (int k = 0; k < f.params().size(); k++) {
      Ident p = f.params().get(k);
      Arg arg = args.get(k);
      if (arg instanceof View view) {
        if (p.type().rank() != view.rank()) {
          throw new UnsupportedKernelException("parameter " + p.name() + " of rank " + p.type().rank() + " bound to rank " + view.rank());
        }
        views.put(p.name(), view);
      } else {
        ScalarType t = scalarType(p.type(), "parameter " + p.name());
        scalars.put(p.name(), t);
        line("final " + javaType(t) + " " + local(p.name()) + " = " + ((ScalarArg) arg).expression() + ";");
      }
    }
    body(f.body(), targets);
    close();
  }

  /** The statements of {@code body}, then its results assigned to {@code targets} (all results computed first). */
  void body(Body body, List<String> targets) {
    body.stms().forEach(this::statement);
    List<String> temps = new ArrayList<>();
    for (int k = 0; k < targets.size(); k++) {
      SubExp result = body.result().get(k);
      if (targets.get(k) == null) {
        if (!destinations.containsKey(result.varName())) {
          throw new UnsupportedKernelException("array result " + result + " not computed by an inner map");
        }
        temps.add(null);
      } else {
        String temp = "r$" + temporaries++;
        line("final " + javaType(typeOf(result)) + " " + temp + " = " + operand(result) + ";");
        temps.add(temp);
      }
    }
    for (int k = 0; k < targets.size(); k++) {
      if (targets.get(k) != null) {
        line(targets.get(k) + " = " + temps.get(k) + ";");
      }
    }
  }

  private void statement(Stm stm) {
    Exp e = stm.exp();
    if (e instanceof Exp.Assert a) {
      line("if (!" + operand(a.condition()) + ") throw new dev.l0.ir.L0RuntimeError(" + quote(a.operation()) + ", "
          + position(a.pos()) + ", " + quote(a.detail()) + ");");
      return;
    }
    List<Ident> pattern = stm.pattern();
    if (e instanceof Exp.Map inner && pattern.stream().allMatch(id -> destinations.containsKey(id.name()))) {
      innerMap(inner, pattern);
      return;
    }
    if ((e instanceof Exp.Atom || e instanceof Exp.Copy) && pattern.get(0).type().rank() > 0) {
      views.put(pattern.get(0).name(), view(e.operands().get(0))); // read-only, so a copy can share
      return;
    }
    if (e instanceof Exp.Index x && pattern.get(0).type().rank() > 0) {
      slice(x, pattern.get(0));
      return;
    }
    if (e instanceof Exp.Iota || e instanceof Exp.Replicate) {
      virtualArray(e, pattern.get(0));
      return;
    }
    for (Ident id : pattern) {
      scalars.put(id.name(), scalarType(id.type(), "binding " + id.name()));
    }
    if (e instanceof Exp.Reduce || e instanceof Exp.Redomap) {
      innerFold((Exp.Soac) e, pattern);
    } else if (e instanceof Exp.If i) {
      pattern.forEach(id -> line(javaType(scalars.get(id.name())) + " " + local(id.name()) + ";"));
      List<String> targets = pattern.stream().map(id -> local(id.name())).toList();
      open("if (" + operand(i.condition()) + ")");
      body(i.thenBody(), targets);
      indent--;
      open("} else");
      body(i.elseBody(), targets);
      close();
    } else if (e instanceof Exp.Loop l) {
      loop(l, pattern);
    } else {
      Ident id = pattern.get(0);
      line("final " + javaType(scalars.get(id.name())) + " " + local(id.name()) + " = " + expression(e, id) + ";");
    }
  }

  /** A reduce or redomap inside a kernel's function: a sequential left fold in the thread (the contract's nested order). */
  private void innerFold(Exp.Soac soac, List<Ident> pattern) {
    List<View> inputs = inputViews(soac);
    int id = temporaries++;
    List<SubExp> neutral = soac instanceof Exp.Reduce r ? r.neutral() : ((Exp.Redomap) soac).neutral();
    List<String> accumulators = new ArrayList<>();
    List<Arg> args = new ArrayList<>();
    for (int k = 0; k < neutral.size(); k++) {
      String acc = "acc$" + id + "_" + k;
      line(javaType(scalars.get(pattern.get(k).name())) + " " + acc + " = " + operand(neutral.get(k)) + ";");
      accumulators.add(acc);
      args.add(new ScalarArg(acc));
    }
    String j = "j$" + id;
    open("for (int " + j + " = 0; " + j + " < " + inputs.get(0).shape().get(0) + "; " + j + "++)");
    inputs.forEach(v -> args.add(v.row(j)));
    apply(soac.rowFunction(), args, accumulators);
    close();
    for (int k = 0; k < pattern.size(); k++) {
      line("final " + javaType(scalars.get(pattern.get(k).name())) + " " + local(pattern.get(k).name()) + " = " + accumulators.get(k) + ";");
    }
  }

  /** A map inside a kernel's function whose results are the kernel's results: it writes them in place. */
  private void innerMap(Exp.Map map, List<Ident> pattern) {
    List<View> inputs = inputViews(map);
    String j = "j$" + temporaries++;
    open("for (int " + j + " = 0; " + j + " < " + inputs.get(0).shape().get(0) + "; " + j + "++)");
    List<String> targets = pattern.stream()
        .map(id -> destinations.get(id.name()))
        .map(d -> d.data() + "[" + d.rowOffset() + " + " + j + "]")
        .toList();
    apply(map.function(), inputs.stream().map(v -> v.row(j)).toList(), targets);
    close();
  }

  private List<View> inputViews(Exp.Soac soac) {
    if (soac.inputs().isEmpty()) {
      throw new UnsupportedKernelException(soac.keyword() + " without inputs inside a kernel");
    }
    return soac.inputs().stream().map(this::view).toList();
  }

  /** {@code a[i1, ..., ik]} with fewer indices than the rank: a view of the slice, bounds-checked here. */
  private void slice(Exp.Index x, Ident bound) {
    views.put(bound.name(), (View) indexed(x));
  }

  /** {@code replicate} or {@code iota} inside a function: a view, its size checked as the interpreter checks it. */
  private void virtualArray(Exp e, Ident bound) {
    boolean iota = e instanceof Exp.Iota;
    SubExp count = e.operands().get(0);
    String length = local(bound.name()) + "$length";
    SourcePos pos = iota ? ((Exp.Iota) e).pos() : ((Exp.Replicate) e).pos();
    line("final int " + length + " = dev.l0.kernels.jvm.JvmSupport." + (iota ? "iotaSize(" : "replicateSize(")
        + operand(count) + ", " + position(pos) + ");");
    if (iota) {
      // the element type the optimiser's types give, which the code reading the elements declares
      views.put(bound.name(), new Iota(length, FlatArray.elementType(bound.type())));
    } else {
      SubExp value = ((Exp.Replicate) e).value();
      Arg row = value instanceof SubExp.Var v && views.containsKey(v.name()) ? views.get(v.name()) : new ScalarArg(operand(value));
      views.put(bound.name(), new Replicated(length, row));
    }
  }

  /**
   * The element or slice {@code x} selects: every index is checked against its dimension, in
   * order, as the interpreter checks it, before anything is read.
   */
  private Arg indexed(Exp.Index x) {
    View a = view(x.array());
    if (x.indices().size() > a.rank()) {
      throw new UnsupportedKernelException("index of rank " + x.indices().size() + " into an array of rank " + a.rank());
    }
    String pos = position(x.pos());
    Arg current = a;
    for (int d = 0; d < x.indices().size(); d++) {
      String checked = "ix$" + temporaries++;
      line("final int " + checked + " = dev.l0.kernels.jvm.JvmSupport.index(" + operand(x.indices().get(d)) + ", " + d + ", "
          + ((View) current).shape().get(0) + ", " + pos + ");");
      current = ((View) current).row(checked);
    }
    return current;
  }

  private void loop(Exp.Loop l, List<Ident> pattern) {
    List<String> merge = new ArrayList<>();
    for (int k = 0; k < l.mergeParams().size(); k++) {
      Ident p = l.mergeParams().get(k);
      ScalarType t = scalarType(p.type(), "loop variable " + p.name());
      scalars.put(p.name(), t);
      line(javaType(t) + " " + local(p.name()) + " = " + operand(l.init().get(k)) + ";");
      merge.add(local(p.name()));
    }
    ScalarType counterType = scalarType(l.counter().type(), "loop counter");
    scalars.put(l.counter().name(), counterType);
    String counter = local(l.counter().name());
    open("for (" + javaType(counterType) + " " + counter + " = 0; " + counter + " < " + operand(l.bound()) + "; "
        + counter + "++)");
    body(l.body(), merge);
    close();
    for (int k = 0; k < pattern.size(); k++) {
      Ident id = pattern.get(k);
      line("final " + javaType(scalars.get(id.name())) + " " + local(id.name()) + " = " + merge.get(k) + ";");
    }
  }

  private String expression(Exp e, Ident bound) {
    if (e instanceof Exp.Atom a) {
      return operand(a.value());
    }
    if (e instanceof Exp.BinOp b) {
      return binary(b);
    }
    if (e instanceof Exp.UnOp u) {
      return u.op() == PrefixOperator.NOT ? "(!" + operand(u.operand()) + ")" : "(-" + operand(u.operand()) + ")";
    }
    if (e instanceof Exp.BuiltinCall c) {
      return builtin(c);
    }
    if (e instanceof Exp.Index x) {
      return ((ScalarArg) indexed(x)).expression();
    }
    if (e instanceof Exp.Size s) {
      return "((" + javaType(scalars.get(bound.name())) + ") " + view(s.array()).shape().get(s.dimension()) + ")";
    }
    if (e instanceof Exp.Soac soac) {
      throw new UnsupportedKernelException("nested " + soac.keyword() + " inside a kernel's function");
    }
    if (e instanceof Exp.Apply a) {
      throw new UnsupportedKernelException("call of function " + a.function() + " inside a kernel");
    }
    throw new UnsupportedKernelException(e.getClass().getSimpleName().toLowerCase() + " inside a kernel");
  }

  private String binary(Exp.BinOp b) {
    String l = operand(b.left());
    String r = operand(b.right());
    ScalarType t = b.operandType();
    BinaryOperator op = b.op();
    switch (op) {
      case DIV:
      case MOD:
        if (t.isInteger()) {
          return "dev.l0.kernels.jvm.JvmSupport." + (op == BinaryOperator.DIV ? "divide" : "remainder")
              + "(" + l + ", " + r + ", " + position(b.pos()) + ")";
        }
        return "(" + l + (op == BinaryOperator.DIV ? " / " : " % ") + r + ")";
      case POW:
        if (t.isInteger()) {
          return "dev.l0.kernels.jvm.JvmSupport.power(" + l + ", " + r + ", " + position(b.pos()) + ")";
        }
        return "dev.l0.math.L0Math." + (t == ScalarType.F32 ? "powf(" : "pow(") + l + ", " + r + ")";
      case EQ:
        return "(" + l + " == " + r + ")";
      case NEQ:
        return "(" + l + " != " + r + ")";
      case LT:
      case LEQ:
      case GT:
      case GEQ:
        if (t == ScalarType.BOOL) {
          // false < true, as ScalarOperations compares booleans
          return "((" + l + " ? 1 : 0) " + comparison(op) + " (" + r + " ? 1 : 0))";
        }
        return "(" + l + " " + comparison(op) + " " + r + ")";
      case AND:
        return "(" + l + " && " + r + ")";
      case OR:
        return "(" + l + " || " + r + ")";
      case XOR:
        return "(" + l + " ^ " + r + ")";
      case BAND:
        return "(" + l + " & " + r + ")";
      case BOR:
        return "(" + l + " | " + r + ")";
      case SHL:
        return "(" + l + " << " + r + ")";
      case SHR:
        return "(" + l + " >> " + r + ")";
      case ADD:
        return "(" + l + " + " + r + ")";
      case SUB:
        return "(" + l + " - " + r + ")";
      default:
        return "(" + l + " * " + r + ")";
    }
  }

  private static String comparison(BinaryOperator op) {
    switch (op) {
      case LT: return "<";
      case LEQ: return "<=";
      case GT: return ">";
      default: return ">=";
    }
  }

  private String builtin(Exp.BuiltinCall c) {
    String x = operand(c.args().get(0));
    Builtin f = c.function();
    switch (f.kind()) {
      case CONVERSION:
        return "((" + javaType(f.conversionTarget()) + ") " + x + ")";
      case FLOAT_MATH:
        return "dev.l0.math.L0Math." + f.functionName() + (c.argType() == ScalarType.F32 ? "f(" : "(") + x + ")";
      default:
        return f == Builtin.ABS ? "Math.abs(" + x + ")"
            : "Math." + f.functionName() + "(" + x + ", " + operand(c.args().get(1)) + ")";
    }
  }

  private View view(SubExp array) {
    View a = array instanceof SubExp.Var v ? views.get(v.name()) : null;
    if (a == null) {
      throw new UnsupportedKernelException("array " + array + " computed inside a kernel");
    }
    return a;
  }

  /** A Java expression for an operand: a literal or a visible scalar. */
  String operand(SubExp s) {
    if (s instanceof SubExp.Const c) {
      return literal(c.value());
    }
    String name = ((SubExp.Var) s).name();
    if (!scalars.containsKey(name)) {
      throw new UnsupportedKernelException("use of array or unknown variable " + name + " as a scalar inside a kernel");
    }
    return local(name);
  }

  ScalarType typeOf(SubExp s) {
    if (s instanceof SubExp.Const c) {
      return c.value().type();
    }
    ScalarType t = scalars.get(((SubExp.Var) s).name());
    if (t == null) {
      throw new UnsupportedKernelException("array result " + s + " of a kernel's function");
    }
    return t;
  }

  /**
   * A Java expression with exactly the bits of {@code v}: booleans and integers as literals, floats
   * as {@code static final} fields of the kernel class (see {@link #constantFields}) built from their bits.
   */
  String literal(ScalarValue v) {
    if (v instanceof ScalarValue.Bool b) {
      return Boolean.toString(b.value());
    }
    if (v instanceof ScalarValue.Int i) {
      String bits = "0x" + Long.toHexString(i.value()) + "L";
      return i.type() == ScalarType.I32 ? "((int) " + bits + ")" : bits;
    }
    ScalarValue.Float f = (ScalarValue.Float) v;
    String init = f.type() == ScalarType.F32
        ? "Float.intBitsToFloat(" + Float.floatToRawIntBits((float) f.value()) + ")"
        : "Double.longBitsToDouble(0x" + Long.toHexString(Double.doubleToRawLongBits(f.value())) + "L)";
    String field = floatFields.get(init);
    if (field == null) {
      field = "c$" + floatFields.size();
      floatFields.put(init, field);
      fieldTypes.put(field, javaType(f.type()));
    }
    return field;
  }

  /** The declarations of the float constants {@link #literal} used. */
  String constantFields() {
    StringBuilder fields = new StringBuilder();
    floatFields.forEach((init, field) ->
        fields.append("  private static final ").append(fieldTypes.get(field)).append(' ').append(field)
            .append(" = ").append(init).append(";\n"));
    return fields.toString();
  }

  private String position(SourcePos pos) {
    constants.add(pos);
    return "((dev.l0.ir.SourcePos) constants[" + (constants.size() - 1) + "])";
  }

  private static String quote(String text) {
    StringBuilder q = new StringBuilder("\"");
    for (char ch : text.toCharArray()) {
      if (ch == '"' || ch == '\\') {
        q.append('\\').append(ch);
      } else if (ch < 0x20 || ch > 0x7e) {
        q.append(String.format("\\u%04x", (int) ch));
      } else {
        q.append(ch);
      }
    }
    return q.append('"').toString();
  }
}
