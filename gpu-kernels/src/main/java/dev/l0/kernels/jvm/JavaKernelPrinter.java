package dev.l0.kernels.jvm;

import dev.l0.ir.ScalarType;
import dev.l0.ir.Type;
import dev.l0.kernels.exec.KernelScope;
import dev.l0.kernels.lower.UnsupportedKernelException;
import dev.l0.opt.KernelPlan;
import dev.l0.opt.ir.Analysis;
import dev.l0.opt.ir.Exp;
import dev.l0.opt.ir.InternalTypes;
import dev.l0.opt.ir.Lambda;
import dev.l0.opt.ir.SubExp;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;

/**
 * Prints one fused SOAC of a KernelPlan (thesis ch. 7: map, filter, reduce, scan, redomap,
 * scanomap) as the Java source of a {@link KernelInstance} subclass over primitive arrays: the
 * phases {@link ChunkedExecution} runs per chunk of the reduction-order contract, with the SOAC's
 * functions inlined by {@link JavaScalarCode}. Rows of inputs of higher rank are views of the
 * input; a map's array results must be computed by inner maps, which write them in place into the
 * output (one thread per outer element); what the functions read from outside becomes fields.
 */
final class JavaKernelPrinter {
  /** The source of a kernel class, the values its constructor takes, and the objects its code indexes. */
  record KernelSource(String className, String kind, String source, List<KernelParameter> parameters, List<Object> constants) {}

  private static final String LOOP = "for (int i$ = start; i$ < end; i$++)";

  private final KernelPlan.Kernel kernel;
  private final Exp.Soac soac;
  private final List<Object> constants = new ArrayList<>();
  private final JavaScalarCode code = new JavaScalarCode(constants, 1);
  private final List<KernelParameter> parameters = new ArrayList<>();
  private final List<ScalarType> inputTypes = new ArrayList<>();
  private final List<JavaScalarCode.Stored> inputViews = new ArrayList<>();
  private final Set<String> freeArrays = new TreeSet<>();
  /** For each result of a map: the Java expression of its row length, or {@code null} for a scalar result. */
  private final List<String> rowLengths = new ArrayList<>();

  private JavaKernelPrinter(KernelPlan.Kernel kernel) {
    this.kernel = kernel;
    this.soac = (Exp.Soac) kernel.statement().exp();
  }

  static KernelSource print(KernelPlan.Kernel kernel, KernelScope scope) {
    return new JavaKernelPrinter(kernel).print(scope);
  }

  private KernelSource print(KernelScope scope) {
    String className = "Kernel_" + JavaScalarCode.local(kernel.outputs().get(0).name());
    code.line("public " + className + "(Object[] constants, Object[] args, int size) {");
    code.line("  super(constants, size);");
    List<String> constructor = new ArrayList<>();
    List<String> fields = new ArrayList<>();
    declareParameters(scope, constructor, fields);
    String body = phases(constructor, fields);
    StringBuilder source = new StringBuilder();
    source.append("public final class ").append(className).append(" extends dev.l0.kernels.jvm.KernelInstance {\n");
    source.append(code.constantFields());
    fields.forEach(f -> source.append("  ").append(f).append('\n'));
    source.append(body).append("}\n");
    return new KernelSource(className, kernel.kind(), source.toString(), parameters, constants);
  }

  private void declareParameters(KernelScope scope, List<String> constructor, List<String> fields) {
    List<SubExp> inputs = soac.inputs();
    for (int k = 0; k < inputs.size(); k++) {
      String name = inputs.get(k).varName();
      Type t = scope.typeOf(name);
      ScalarType element = FlatArray.elementType(t);
      inputTypes.add(element);
      parameters.add(new KernelParameter(name, KernelParameter.Role.ROWS, element, t.rank()));
      fields.add("private final " + JavaScalarCode.javaType(element) + "[] in$" + k + ";");
      fields.add("private final int[] in$" + k + "$shape;");
      constructor.add("in$" + k + " = (" + JavaScalarCode.javaType(element) + "[]) ((dev.l0.kernels.jvm.FlatArray) args["
          + k + "]).data();");
      constructor.add("in$" + k + "$shape = ((dev.l0.kernels.jvm.FlatArray) args[" + k + "]).shape();");
      inputViews.add(new JavaScalarCode.Stored("in$" + k, "0", shapeOf("in$" + k + "$shape", t.rank())));
    }
    for (String name : freeVariables(scope)) {
      Type t = scope.typeOf(name);
      int arg = parameters.size();
      if (t instanceof ScalarType s) {
        parameters.add(new KernelParameter(name, KernelParameter.Role.SCALAR, s, 0));
        code.scalar(name, s);
        fields.add("private final " + JavaScalarCode.javaType(s) + " " + JavaScalarCode.local(name) + ";");
        constructor.add(JavaScalarCode.local(name) + " = ((" + boxType(s) + ") args[" + arg + "])."
            + JavaScalarCode.javaType(s) + "Value();");
      } else if (t instanceof Type.Array) {
        ScalarType element = FlatArray.elementType(t);
        String data = JavaScalarCode.local(name);
        parameters.add(new KernelParameter(name, KernelParameter.Role.ARRAY, element, t.rank()));
        freeArrays.add(name);
        code.array(name, new JavaScalarCode.Stored(data, "0", shapeOf(data + "$shape", t.rank())));
        fields.add("private final " + JavaScalarCode.javaType(element) + "[] " + data + ";");
        fields.add("private final int[] " + data + "$shape;");
        constructor.add(data + " = (" + JavaScalarCode.javaType(element) + "[]) ((dev.l0.kernels.jvm.FlatArray) args["
            + arg + "]).data();");
        constructor.add(data + "$shape = ((dev.l0.kernels.jvm.FlatArray) args[" + arg + "]).shape();");
      }
    }
  }

  /** The visible variables the SOAC's functions and neutral elements read, certificates excluded. */
  private Set<String> freeVariables(KernelScope scope) {
    Set<String> bound = new TreeSet<>();
    Set<String> used = new TreeSet<>();
    for (Lambda f : soac.lambdas()) {
      f.params().forEach(p -> bound.add(p.name()));
      bound.addAll(Analysis.boundIn(f.body()));
      used.addAll(Analysis.useCounts(f.body()).keySet());
    }
    soac.operands().stream().filter(o -> !soac.inputs().contains(o)).forEach(o -> addVariable(o, used));
    used.removeAll(bound);
    used.removeIf(name -> !scope.types().containsKey(name) || InternalTypes.isCertificate(scope.typeOf(name)));
    return used;
  }

  private static List<String> shapeOf(String shapeField, int rank) {
    List<String> shape = new ArrayList<>();
    for (int d = 0; d < rank; d++) {
      shape.add(shapeField + "[" + d + "]");
    }
    return shape;
  }

  private static void addVariable(SubExp s, Set<String> out) {
    if (s instanceof SubExp.Var v) {
      out.add(v.name());
    }
  }

  /** The fields for the results and the constructor and phase methods of the SOAC's kind. */
  private String phases(List<String> constructor, List<String> fields) {
    List<ScalarType> resultTypes = resultTypes();
    String kind = kernel.kind();
    boolean reduction = !kind.equals("map") && !kind.equals("filter");
    boolean arrays = !kind.equals("reduce") && !kind.equals("redomap");
    for (int k = 0; k < resultTypes.size(); k++) {
      String type = JavaScalarCode.javaType(resultTypes.get(k));
      if (reduction) {
        fields.add("private final " + type + "[] part$" + k + ";");
        constructor.add("part$" + k + " = new " + type + "[chunks(size)];");
      }
      if (kind.startsWith("scan")) {
        fields.add("private final " + type + "[] carry$" + k + ";");
        constructor.add("carry$" + k + " = new " + type + "[chunks(size)];");
      }
      if (arrays) {
        fields.add("private " + type + "[] out$" + k + ";");
        String rowLength = kind.equals("map") ? rowLengths.get(k) : null;
        if (rowLength != null) {
          fields.add("private final int out$" + k + "$row;");
          constructor.add("out$" + k + "$row = " + rowLength + ";");
          constructor.add("out$" + k + " = new " + type + "[size * out$" + k + "$row];");
          code.destination(((Exp.Map) soac).function().body().result().get(k).varName(), "out$" + k, "(i$ * out$" + k + "$row)");
        } else if (!kind.equals("filter")) {
          constructor.add("out$" + k + " = new " + type + "[size];");
        }
      }
    }
    if (kind.equals("filter")) {
      fields.add("private final boolean[] flags$;");
      fields.add("private final int[] kept$;");
      fields.add("private int total$;");
      constructor.add("flags$ = new boolean[size];");
      constructor.add("kept$ = new int[chunks(size)];");
    }
    constructor.forEach(c -> code.line("  " + c));
    code.line("}");
    switch (kind) {
      case "map":
        mapPhase();
        break;
      case "filter":
        filterPhases(resultTypes);
        break;
      default:
        foldPhase("phase1", resultTypes, false);
        combinePhase();
        if (kind.startsWith("scan")) {
          carriesPhase();
          foldPhase("phase2", resultTypes, true);
        }
    }
    results(resultTypes, arrays);
    return code.text();
  }

  /** The element types of the SOAC's results: the map function's results, the accumulators, or the filtered inputs. */
  private List<ScalarType> resultTypes() {
    if (soac instanceof Exp.Filter) {
      return inputTypes;
    }
    Lambda f = soac.rowFunction();
    List<ScalarType> types = new ArrayList<>();
    if (soac instanceof Exp.Map) {
      for (int k = 0; k < f.returnTypes().size(); k++) {
        Type t = f.returnTypes().get(k);
        if (t.rank() > 1) {
          throw new UnsupportedKernelException("map result " + (k + 1) + " of rank " + t.rank() + " per row");
        }
        types.add(FlatArray.elementType(t));
        rowLengths.add(t.rank() == 0 ? null : rowLength(f, f.body().result().get(k)));
      }
      return types;
    }
    for (int k = 0; k < soac.accumulators(); k++) {
      types.add(JavaScalarCode.scalarType(f.returnTypes().get(k), "result " + (k + 1) + " of the " + soac.keyword()));
    }
    return types;
  }

  /**
   * The length of array result {@code result} of map function {@code f}, as a Java expression the
   * constructor can evaluate: the result must be bound by an inner map over a row of one of the
   * kernel's inputs or over an array read from outside, whose outer size every row shares.
   */
  private String rowLength(Lambda f, SubExp result) {
    Exp.Map inner = f.body().stms().stream()
        .filter(stm -> stm.exp() instanceof Exp.Map && stm.pattern().stream().anyMatch(id -> id.name().equals(result.varName())))
        .map(stm -> (Exp.Map) stm.exp())
        .findFirst()
        .orElseThrow(() -> new UnsupportedKernelException("map result " + result + " not computed by an inner map"));
    String input = inner.inputs().get(0).varName();
    for (int k = 0; k < f.params().size(); k++) {
      if (f.params().get(k).name().equals(input)) {
        return "in$" + k + "$shape[1]";
      }
    }
    if (freeArrays.contains(input)) {
      return JavaScalarCode.local(input) + "$shape[0]";
    }
    throw new UnsupportedKernelException("inner map over " + input + ", an array computed inside the kernel");
  }

  private List<JavaScalarCode.Arg> rows() {
    return inputViews.stream().map(v -> v.row("i$")).toList();
  }

  private static List<String> indexed(String prefix, int count, String index) {
    List<String> out = new ArrayList<>();
    for (int k = 0; k < count; k++) {
      out.add(prefix + k + "[" + index + "]");
    }
    return out;
  }

  private static List<JavaScalarCode.Arg> scalarArgs(List<String> expressions) {
    return expressions.stream().map(e -> (JavaScalarCode.Arg) new JavaScalarCode.ScalarArg(e)).toList();
  }

  private void mapPhase() {
    code.open("public void phase1(int chunk, int start, int end)");
    code.open(LOOP);
    List<String> targets = new ArrayList<>();
    for (int k = 0; k < rowLengths.size(); k++) {
      targets.add(rowLengths.get(k) == null ? "out$" + k + "[i$]" : null);
    }
    code.apply(soac.rowFunction(), rows(), targets);
    code.close();
    code.close();
  }

  private void filterPhases(List<ScalarType> types) {
    code.open("public void phase1(int chunk, int start, int end)");
    code.line("int count$ = 0;");
    code.open(LOOP);
    code.line("boolean keep$ = false;");
    code.apply(soac.rowFunction(), rows(), List.of("keep$"));
    code.line("flags$[i$] = keep$;");
    code.line("if (keep$) count$++;");
    code.close();
    code.line("kept$[chunk] = count$;");
    code.close();
    code.line("public int kept(int chunk) { return kept$[chunk]; }");
    code.open("public void allocateKept(int total)");
    code.line("total$ = total;");
    for (int k = 0; k < types.size(); k++) {
      code.line("out$" + k + " = new " + JavaScalarCode.javaType(types.get(k)) + "[total * " + inputViews.get(k).rowSize() + "];");
    }
    code.close();
    code.open("public void phase2(int chunk, int start, int end)");
    code.line("int at$ = offsets[chunk];");
    code.open(LOOP);
    code.open("if (flags$[i$])");
    for (int k = 0; k < types.size(); k++) {
      String row = inputViews.get(k).rowSize();
      code.line(inputViews.get(k).rank() == 1 ? "out$" + k + "[at$] = in$" + k + "[i$];"
          : "System.arraycopy(in$" + k + ", i$ * " + row + ", out$" + k + ", at$ * " + row + ", " + row + ");");
    }
    code.line("at$++;");
    code.close();
    code.close();
    code.close();
  }

  /**
   * A chunk folded from the neutral element ({@code phase1}: into the chunk's partial) or from the
   * chunk's carry ({@code phase2} of a scan: every accumulator is an output).
   */
  private void foldPhase(String name, List<ScalarType> types, boolean fromCarry) {
    code.open("public void " + name + "(int chunk, int start, int end)");
    List<String> accumulators = new ArrayList<>();
    for (int k = 0; k < types.size(); k++) {
      String start = fromCarry ? "carry$" + k + "[chunk]" : code.operand(neutral().get(k));
      code.line(JavaScalarCode.javaType(types.get(k)) + " acc$" + k + " = " + start + ";");
      accumulators.add("acc$" + k);
    }
    code.open(LOOP);
    List<JavaScalarCode.Arg> args = new ArrayList<>();
    accumulators.forEach(acc -> args.add(new JavaScalarCode.ScalarArg(acc)));
    args.addAll(rows());
    code.apply(soac.rowFunction(), args, accumulators);
    if (fromCarry) {
      for (int k = 0; k < types.size(); k++) {
        code.line("out$" + k + "[i$] = acc$" + k + ";");
      }
    }
    code.close();
    if (!fromCarry) {
      for (int k = 0; k < types.size(); k++) {
        code.line("part$" + k + "[chunk] = acc$" + k + ";");
      }
    }
    code.close();
  }

  private void combinePhase() {
    int count = soac.accumulators();
    code.open("public void combine(int into, int from)");
    List<JavaScalarCode.Arg> args = new ArrayList<>(scalarArgs(indexed("part$", count, "into")));
    args.addAll(scalarArgs(indexed("part$", count, "from")));
    code.apply(combineFunction(), args, indexed("part$", count, "into"));
    code.close();
  }

  /** {@code carry[0] = neutral}, {@code carry[c+1] = combine(carry[c], partial[c])}. */
  private void carriesPhase() {
    int count = soac.accumulators();
    code.open("public void carries()");
    for (int k = 0; k < count; k++) {
      code.line("carry$" + k + "[0] = " + code.operand(neutral().get(k)) + ";");
    }
    code.open("for (int c$ = 1; c$ < carry$0.length; c$++)");
    List<JavaScalarCode.Arg> args = new ArrayList<>(scalarArgs(indexed("carry$", count, "c$ - 1")));
    args.addAll(scalarArgs(indexed("part$", count, "c$ - 1")));
    code.apply(combineFunction(), args, indexed("carry$", count, "c$"));
    code.close();
    code.close();
  }

  private void results(List<ScalarType> types, boolean arrays) {
    List<String> values = new ArrayList<>();
    for (int k = 0; k < types.size(); k++) {
      String type = "dev.l0.ir.ScalarType." + types.get(k).name();
      boolean nested = k < rowLengths.size() && rowLengths.get(k) != null;
      String shape = soac instanceof Exp.Filter ? "withRows(in$" + k + "$shape, total$)"
          : "new int[] { " + (nested ? "size, out$" + k + "$row" : "out$" + k + ".length") + " }";
      values.add(arrays
          ? "new dev.l0.kernels.jvm.FlatArray(" + type + ", out$" + k + ", " + shape + ")"
          : boxType(types.get(k)) + ".valueOf(part$" + k + "[0])");
    }
    code.line("public Object[] results() { return new Object[] { " + String.join(", ", values) + " }; }");
  }

  private List<SubExp> neutral() {
    if (soac instanceof Exp.Reduce r) {
      return r.neutral();
    }
    if (soac instanceof Exp.Redomap r) {
      return r.neutral();
    }
    return soac instanceof Exp.Scan s ? s.neutral() : ((Exp.Scanomap) soac).neutral();
  }

  /** The associative operator that joins partials: reduce's and scan's operator, redomap's and scanomap's combine. */
  private Lambda combineFunction() {
    if (soac instanceof Exp.Redomap r) {
      return r.combine();
    }
    return soac instanceof Exp.Scanomap s ? s.combine() : soac.rowFunction();
  }

  private static String boxType(ScalarType t) {
    switch (t) {
      case BOOL: return "Boolean";
      case I32: return "Integer";
      case I64: return "Long";
      case F32: return "Float";
      default: return "Double";
    }
  }
}
