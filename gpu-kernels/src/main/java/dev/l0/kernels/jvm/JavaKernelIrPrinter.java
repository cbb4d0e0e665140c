package dev.l0.kernels.jvm;

import dev.l0.ir.BinaryOperator;
import dev.l0.ir.L0ConfigurationError;
import dev.l0.ir.ScalarType;
import dev.l0.ir.ScalarValue;
import dev.l0.kernels.ir.Buffer;
import dev.l0.kernels.ir.Kernel;
import dev.l0.kernels.ir.KernelExpr;
import dev.l0.kernels.ir.KernelStmt;
import dev.l0.kernels.ir.SharedArray;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Java source for a kernel of the kernel IR: a subclass of {@link KernelThreads} whose {@code run}
 * method loops over a range of one-thread blocks and runs the kernel's body for each, with the
 * operations {@link JavaScalarSyntax} prints. With one thread per block, {@code threadIdx.x} is 0,
 * {@code blockDim.x} is 1 and a barrier is a no-op. Buffers and shared arrays are primitive arrays,
 * hoisted into locals; indices ({@code i64} in the IR) are computed in {@code int} where they index
 * (every JVM array is shorter than 2^31; {@link #index}). A {@code for} loop's bound and step are
 * evaluated once, which the IR allows; its counter is an {@code int} where it cannot leave {@code
 * int}'s range ({@link #intLoop}). The error word is a local keeping the first error raised in the
 * range (the lowest failing block's), returned at the end. Names of the IR are C identifiers
 * without {@code $}; the printer's own names contain one.
 */
public final class JavaKernelIrPrinter {
  /** The package of the generated classes. */
  static final String PACKAGE = "dev.l0.kernels.jvm.generated";

  private static final String BLOCK = "block$";
  private static final String GRID = "grid$";
  private static final String ERROR = "error$";

  /**
   * The array through which moved statements hand back the variables of their callers they assign,
   * and receive their scalars where they take many ({@link OutlinedStatements}).
   */
  private static final String SPILL = "spill$";

  private static final KernelExpr ZERO = new KernelExpr.Constant(ScalarValue.i64(0));
  private static final KernelExpr ONE = new KernelExpr.Constant(ScalarValue.i64(1));

  /**
   * The system property that sets the method budget ({@link #methodBudget()}; README.md,
   * "Configuration").
   */
  static final String METHOD_BUDGET_PROPERTY = "l0.jvm.methodBudget";

  /** The method budget where {@link #METHOD_BUDGET_PROPERTY} is not set. */
  static final int DEFAULT_METHOD_BUDGET = 3000;

  /** The smallest method budget: a budget halved below it is not tried ({@link JaninoKernels}). */
  static final int MIN_METHOD_BUDGET = 100;

  /**
   * The estimated bytecode size ({@link OutlinedStatements}) a printed method may have before
   * statements move out of it: by default {@link #DEFAULT_METHOD_BUDGET}, well below HotSpot's 8000
   * bytes, so that estimates off by half still fit and the JIT compiler gets methods it compiles
   * well; {@link #METHOD_BUDGET_PROPERTY} sets another. A larger budget moves fewer statements out
   * (fewer calls inside the threads' loops, larger methods for the JIT compiler to compile); a
   * method that is still over HotSpot's limit is printed again with half the budget ({@link
   * JaninoKernels}).
   */
  static int methodBudget() {
    return methodBudget(System.getProperty(METHOD_BUDGET_PROPERTY));
  }

  /** The method budget that the property value {@code value} sets (the default if null). */
  static int methodBudget(String value) {
    return L0ConfigurationError.intValue(
        METHOD_BUDGET_PROPERTY,
        value,
        DEFAULT_METHOD_BUDGET,
        MIN_METHOD_BUDGET,
        "estimated bytes of bytecode per method of a JVM kernel");
  }

  private final JavaScalarSyntax syntax = new JavaScalarSyntax();
  private final int methodBudget;

  /**
   * Whether loops inside kernel threads run lane-wise where they can ({@link InnerLoopStages}): so
   * when {@code VectorMath} runs lane-wise, never in the per-row reference form.
   */
  private final boolean lanewise;

  /** The stages of each loop, by identity: empty where it runs as it is. */
  private final Map<KernelStmt, java.util.Optional<InnerLoopStages>> innerStages =
      new java.util.IdentityHashMap<>();

  /** Whether the passes of a staged loop are being printed ({@link #stagedLoop}). */
  private boolean printingStages;

  /** The field holding each region kernel's code ({@link #regionClass}), by the kernel. */
  private final Map<Kernel, String> regionFields = new java.util.LinkedHashMap<>();

  /** The nested classes of the regions, and their fields, printed. */
  private final StringBuilder regionClasses = new StringBuilder();

  /** The statement whose method of its own is being printed, or null. */
  private KernelStmt movedRoot;

  private final OutlinedStatements outlining = new OutlinedStatements();

  /** The text of the method being printed. */
  private StringBuilder out = new StringBuilder();

  /** The methods that statements moved into, printed. */
  private final StringBuilder movedMethods = new StringBuilder();

  /** The statements of the method being printed that move into methods of their own. */
  private Set<KernelStmt> moved = Set.of();

  /** The {@code if}s whose {@code else} leaves their loop ({@link FixedPointLoops}). */
  private final Set<KernelStmt> loopExits =
      java.util.Collections.newSetFromMap(new java.util.IdentityHashMap<>());

  /** The Java name of each IR variable in scope, innermost scope first. */
  private Deque<Map<String, String>> scopes = new ArrayDeque<>();

  private final Set<String> javaNames = new HashSet<>();

  /** The Java names of the loop counters printed as {@code int} ({@link #intLoop}). */
  private final Set<String> intCounters = new HashSet<>();

  /** The {@code i64} locals of the kernel being printed that hold {@code int} values only. */
  private Set<String> intRanged = Set.of();

  private int indent;
  private int temporaries;

  private JavaKernelIrPrinter(int methodBudget, boolean lanewise) {
    this.methodBudget = methodBudget;
    this.lanewise = lanewise;
  }

  /**
   * The printed class of {@code kernel}; {@code staged} when its {@code run} processes rows in
   * chunks ({@link StagedMapPrinter}) wherever the launch has a thread per row.
   */
  public record KernelSource(String className, String source, boolean staged) {}

  /**
   * The Java class of {@code kernel}: staged where it is a map kernel {@link StagedMap} matches or
   * a redomap's chunk kernel {@link StagedRedomap} matches (lane-wise where {@code VectorMath} runs
   * lane-wise), else per row.
   */
  public static KernelSource print(Kernel kernel) {
    return print(kernel, dev.l0.kernels.vector.VectorMath.lanewise());
  }

  /**
   * As {@link #print(Kernel)}, a staged kernel's stages written with the Vector API if {@code
   * lanewise}, else as plain loops.
   */
  static KernelSource print(Kernel kernel, boolean lanewise) {
    return print(kernel, lanewise, methodBudget());
  }

  /**
   * As {@link #print(Kernel, boolean)}, with statements moved into methods of their own wherever a
   * method would be over {@code methodBudget} estimated bytes of bytecode ({@link
   * OutlinedStatements}), and elements a loop reads back from its previous iteration kept in locals
   * ({@link CarriedElements}).
   */
  static KernelSource print(Kernel given, boolean lanewise, int methodBudget) {
    Kernel kernel = CarriedElements.of(KernelFolding.of(given));
    JavaKernelIrPrinter printer = new JavaKernelIrPrinter(methodBudget, lanewise);
    java.util.Optional<StagedMap> staged = StagedMap.of(kernel);
    java.util.Optional<StagedRedomap> redomap =
        staged.isPresent() ? java.util.Optional.empty() : StagedRedomap.of(kernel);
    String body;
    if (staged.isPresent()) {
      body =
          printer.method(kernel, "private int " + StagedMapPrinter.SCALAR_RUN)
              + new StagedMapPrinter(kernel, staged.get(), printer.syntax, lanewise).methods();
    } else if (redomap.isPresent()) {
      body =
          printer.method(kernel, "private int " + StagedMapPrinter.SCALAR_RUN)
              + printer.method(redomap.get().fold(), "private int " + StagedMapPrinter.FOLD)
              + new StagedMapPrinter(redomap.get(), printer.syntax, lanewise).methods();
    } else {
      body = printer.method(kernel, "@Override\n  public int run");
    }
    return printer.kernelSource(kernel, body, staged.isPresent() || redomap.isPresent());
  }

  /**
   * The Java class of {@code kernel} with every row run by the per-row code, never staged: the form
   * staged kernels are measured and tested against.
   */
  static KernelSource printPerRow(Kernel kernel) {
    JavaKernelIrPrinter printer = new JavaKernelIrPrinter(methodBudget(), false);
    return printer.kernelSource(
        kernel, printer.method(kernel, "@Override\n  public int run"), false);
  }

  /**
   * The class of {@code kernel} with the methods {@code body}, the constants and the moved
   * statements' methods.
   */
  private KernelSource kernelSource(Kernel kernel, String body, boolean staged) {
    String simpleName = "Kernel$" + kernel.name();
    String source =
        "package " + PACKAGE + ";\n\n" + classText("public final class " + simpleName, body);
    return new KernelSource(PACKAGE + "." + simpleName, source, staged);
  }

  /**
   * A class declared as {@code declaration} with the methods {@code body}, the constants, the moved
   * statements' methods and the regions' classes.
   */
  private String classText(String declaration, String body) {
    return declaration
        + " extends "
        + KernelThreads.class.getName()
        + " {\n"
        + syntax.constantFields()
        + body
        + movedMethods
        + regionClasses
        + "}\n";
  }

  /** The per-row method, declared as {@code modifiersAndName} (an annotation may precede it). */
  private String method(Kernel kernel, String modifiersAndName) {
    out = new StringBuilder();
    indent = 1;
    line(
        modifiersAndName
            + "(Object[] memory$, Object[] scalars$, int firstBlock$, int endBlock$, int "
            + GRID
            + ") {");
    indent++;
    scopes.push(new HashMap<>());
    int slot = 0;
    for (Buffer b : kernel.buffers()) {
      String type = JavaScalarSyntax.javaType(b.elementType()) + "[]";
      line(
          "final "
              + type
              + " "
              + declareName(b.name())
              + " = ("
              + type
              + ") memory$["
              + slot++
              + "];");
    }
    for (SharedArray a : kernel.shared()) {
      String type = JavaScalarSyntax.javaType(a.elementType()) + "[]";
      line(
          "final "
              + type
              + " "
              + declareName(a.name())
              + " = ("
              + type
              + ") memory$["
              + slot++
              + "];");
    }
    for (int k = 0; k < kernel.scalars().size(); k++) {
      KernelExpr.Var v = kernel.scalars().get(k);
      line(
          "final "
              + JavaScalarSyntax.javaType(v.type())
              + " "
              + declareName(v.name())
              + " = (("
              + JavaScalarSyntax.boxedType(v.type())
              + ") scalars$["
              + k
              + "])."
              + JavaScalarSyntax.javaType(v.type())
              + "Value();");
    }
    intRanged = IntRangedVariables.of(kernel);
    line("int " + ERROR + " = 0;");
    line("final long[] " + SPILL + " = new long[" + OutlinedStatements.SPILL_SIZE + "];");
    line("for (int " + BLOCK + " = firstBlock$; " + BLOCK + " < endBlock$; " + BLOCK + "++) {");
    moved = outlining.choose(kernel.body(), methodBudget);
    block(kernel.body());
    line("}");
    line("return " + ERROR + ";");
    indent--;
    line("}");
    scopes.pop();
    return out.toString();
  }

  private void line(String text) {
    out.append("  ".repeat(indent)).append(text).append('\n');
  }

  private void block(List<KernelStmt> body) {
    indent++;
    scopes.push(new HashMap<>());
    body.forEach(this::statement);
    scopes.pop();
    indent--;
  }

  /**
   * A Java name for IR name {@code name}, declared in the innermost scope: the name itself unless
   * Java has it in scope already.
   */
  private String declareName(String name) {
    String javaName = name;
    while (javaNames.contains(javaName)) {
      javaName = name + "$" + temporaries++;
    }
    javaNames.add(javaName);
    scopes.peek().put(name, javaName);
    return javaName;
  }

  private String nameOf(String name) {
    for (Map<String, String> scope : scopes) {
      String javaName = scope.get(name);
      if (javaName != null) {
        return javaName;
      }
    }
    throw new IllegalArgumentException("kernel code uses " + name + ", which it does not declare");
  }

  private String temporary(String base) {
    return declareName(base + "$" + temporaries++);
  }

  private void statement(KernelStmt s) {
    if (moved.contains(s)) {
      callMoved(s);
    } else if (s != movedRoot && s instanceof KernelStmt.For f && innerStages(f).isPresent()) {
      shortOrStaged(f);
    } else if (s instanceof KernelStmt.Declare d) {
      String value = converted(d.initial(), d.variable().type());
      line(
          JavaScalarSyntax.javaType(d.variable().type())
              + " "
              + declareName(d.variable().name())
              + " = "
              + value
              + ";");
    } else if (s instanceof KernelStmt.Assign a) {
      line(nameOf(a.variable().name()) + " = " + converted(a.value(), a.variable().type()) + ";");
    } else if (s instanceof KernelStmt.Store st) {
      line(
          nameOf(st.buffer().name())
              + "["
              + index(st.index())
              + "] = "
              + converted(st.value(), st.buffer().elementType())
              + ";");
    } else if (s instanceof KernelStmt.SharedStore st) {
      line(
          nameOf(st.array().name())
              + "["
              + index(st.index())
              + "] = "
              + converted(st.value(), st.array().elementType())
              + ";");
    } else if (s instanceof KernelStmt.If i) {
      line("if (" + expr(i.condition()) + ") {");
      block(i.thenBody());
      if (loopExits.contains(i)) {
        line("} else {");
        block(i.elseBody());
        line("  break; // the loop has reached its fixed point");
      } else if (!i.elseBody().isEmpty()) {
        line("} else {");
        block(i.elseBody());
      }
      line("}");
    } else if (s instanceof KernelStmt.For f) {
      forLoop(f);
    } else if (s instanceof KernelStmt.While w) {
      line("while (" + expr(w.condition()) + ") {");
      block(w.body());
      line("}");
    } else if (s instanceof KernelStmt.Barrier) {
      line("// barrier: a no-op in a block of one thread");
    } else {
      KernelStmt.RaiseError r = (KernelStmt.RaiseError) s;
      if (r.values().isEmpty()) {
        line("if (" + ERROR + " == 0) " + ERROR + " = " + r.code() + ";");
      } else {
        line(
            ERROR
                + " = "
                + JvmSupport.class.getName()
                + ".raise("
                + ERROR
                + ", "
                + r.code()
                + ", "
                + String.join(", ", r.values().stream().map(this::expr).toList())
                + ");");
      }
    }
  }

  /**
   * A call of a new static method that runs {@code s} (one {@link OutlinedStatements} chose), its
   * parameters named as the caller names them, and that returns its first error code; the method is
   * printed into {@link #movedMethods}, statements inside it moved out in turn where it is over the
   * budget.
   */
  private void callMoved(KernelStmt s) {
    OutlinedStatements.Parameters p = outlining.parameters(s).orElseThrow();
    String name = "moved$" + temporaries++;
    List<String> declarations = new java.util.ArrayList<>(List.of("final long[] " + SPILL));
    List<String> arguments = new java.util.ArrayList<>(List.of(SPILL));
    Map<String, String> parameterScope = new HashMap<>();
    for (Buffer b : p.buffers()) {
      String javaName = nameOf(b.name());
      declarations.add("final " + JavaScalarSyntax.javaType(b.elementType()) + "[] " + javaName);
      arguments.add(javaName);
      parameterScope.put(b.name(), javaName);
    }
    for (SharedArray a : p.shared()) {
      String javaName = nameOf(a.name());
      declarations.add("final " + JavaScalarSyntax.javaType(a.elementType()) + "[] " + javaName);
      arguments.add(javaName);
      parameterScope.put(a.name(), javaName);
    }
    boolean scalarsInSpill = OutlinedStatements.scalarsInSpill(p);
    List<String> scalarDeclarations = new java.util.ArrayList<>();
    for (KernelExpr.Var v : p.scalars()) {
      String javaName = nameOf(v.name());
      String declaration =
          (p.results().contains(v) ? "" : "final ")
              + JavaScalarSyntax.javaType(v.type())
              + " "
              + javaName;
      if (scalarsInSpill) {
        line(SPILL + "[" + scalarDeclarations.size() + "] = " + toBits(v.type(), javaName) + ";");
        scalarDeclarations.add(
            declaration
                + " = "
                + fromBits(v.type(), SPILL + "[" + scalarDeclarations.size() + "]")
                + ";");
      } else {
        declarations.add(declaration);
        arguments.add(javaName);
      }
      parameterScope.put(v.name(), javaName);
    }
    if (p.block()) {
      declarations.add("final int " + BLOCK);
      arguments.add(BLOCK);
    }
    if (p.grid()) {
      declarations.add("final int " + GRID);
      arguments.add(GRID);
    }
    line(
        ERROR
            + " = firstError("
            + ERROR
            + ", "
            + name
            + "("
            + String.join(", ", arguments)
            + "));");
    for (int k = 0; k < p.results().size(); k++) {
      KernelExpr.Var v = p.results().get(k);
      line(nameOf(v.name()) + " = " + fromBits(v.type(), SPILL + "[" + k + "]") + ";");
    }

    StringBuilder callerOut = out;
    Set<KernelStmt> callerMoved = moved;
    Deque<Map<String, String>> callerScopes = scopes;
    int callerIndent = indent;
    out = new StringBuilder();
    scopes = new ArrayDeque<>();
    scopes.push(parameterScope);
    moved = outlining.chooseInside(s, methodBudget);
    KernelStmt callerRoot = movedRoot;
    movedRoot = s;
    indent = 1;
    line("private static int " + name + "(" + String.join(", ", declarations) + ") {");
    indent++;
    scalarDeclarations.forEach(this::line);
    line("int " + ERROR + " = 0;");
    statement(s);
    for (int k = 0; k < p.results().size(); k++) {
      KernelExpr.Var v = p.results().get(k);
      line(SPILL + "[" + k + "] = " + toBits(v.type(), nameOf(v.name())) + ";");
    }
    line("return " + ERROR + ";");
    indent--;
    line("}");
    movedMethods.append(out);
    movedRoot = callerRoot;
    out = callerOut;
    moved = callerMoved;
    scopes = callerScopes;
    indent = callerIndent;
  }

  /** {@code value} of {@code type} as the raw bits a spill array holds. */
  private static String toBits(ScalarType type, String value) {
    return switch (type) {
      case BOOL -> "(" + value + " ? 1L : 0L)";
      case I32, I64 -> "(long) " + value;
      case F32 -> "(long) Float.floatToRawIntBits(" + value + ")";
      case F64 -> "Double.doubleToRawLongBits(" + value + ")";
    };
  }

  /** The value of {@code type} whose raw bits {@code bits} holds. */
  private static String fromBits(ScalarType type, String bits) {
    return switch (type) {
      case BOOL -> "(" + bits + " != 0L)";
      case I32 -> "(int) " + bits;
      case I64 -> bits;
      case F32 -> "Float.intBitsToFloat((int) " + bits + ")";
      case F64 -> "Double.longBitsToDouble(" + bits + ")";
    };
  }

  /**
   * {@code for} with its bound and step in locals of the enclosing scope (they read nothing the
   * body assigns); a loop that reaches a fixed point ({@link FixedPointLoops}) is left there.
   */
  private void forLoop(KernelStmt.For f) {
    java.util.Optional<InnerLoopStages> stages = innerStages(f);
    if (stages.isPresent() && f == movedRoot) {
      plainWhereShort(f, (start, bound, step) -> stagedLoop(f, stages.get(), start, bound, step));
      return;
    }
    loopAsItIs(
        f,
        () ->
            plainLoop(f, expr(f.start()), hoisted(f.bound(), "bound"), hoisted(f.step(), "step")));
  }

  /**
   * The {@code i32} value of {@code f}'s bound where its counter never leaves {@code int}'s range:
   * an {@code i64} counter that the body never assigns, starts at a constant in {@code [0, 2^31)},
   * steps by 1, and stops below an {@code i32} value widened to {@code i64}, a constant below 2^31,
   * or a local that holds only {@code int} values ({@link IntRangedVariables}), so that every value
   * it takes is below 2^31 and an {@code int} counter takes exactly the same values.
   */
  private java.util.Optional<KernelExpr> intBound(KernelStmt.For f) {
    if (f.counter().type() != ScalarType.I64
        || !(simplified(f.start()) instanceof KernelExpr.Constant start)
        || !(simplified(f.step()) instanceof KernelExpr.Constant step)
        || !(start.value() instanceof ScalarValue.Int first)
        || !(step.value() instanceof ScalarValue.Int by)
        || first.value() < 0
        || first.value() > Integer.MAX_VALUE
        || by.value() != 1
        || KernelStmt.assigns(f.body(), f.counter().name())) {
      return java.util.Optional.empty();
    }
    KernelExpr bound = simplified(f.bound());
    if (bound instanceof KernelExpr.Constant c
        && c.value() instanceof ScalarValue.Int last
        && last.value() <= Integer.MAX_VALUE) {
      return java.util.Optional.of(new KernelExpr.Constant(ScalarValue.i32((int) last.value())));
    }
    if (bound instanceof KernelExpr.Call c
        && c.function() == dev.l0.ir.Builtin.TO_I64
        && c.args().get(0).type() == ScalarType.I32) {
      return java.util.Optional.of(c.args().get(0));
    }
    if (bound instanceof KernelExpr.Var v && intRanged.contains(v.name())) {
      return java.util.Optional.of(
          new KernelExpr.Call(dev.l0.ir.Builtin.TO_I32, java.util.List.of(bound)));
    }
    return java.util.Optional.empty();
  }

  /**
   * {@code f} with an {@code int} counter below {@code bound} (an {@code i32} expression; see
   * {@link #intBound}), so that the JIT compiler sees a counted {@code int} loop whose array
   * indices ({@link #index}) are linear in it: it then drops their range checks and can unroll and
   * vectorise. Reads of the counter widen it to {@code long}, so every expression computes what it
   * computes with a {@code long} counter.
   */
  private void intLoop(KernelStmt.For f, KernelExpr bound) {
    String last = temporary("bound");
    line("final int " + last + " = " + expr(bound) + ";");
    line("{");
    indent++;
    scopes.push(new HashMap<>());
    String counter = declareName(f.counter().name());
    intCounters.add(counter);
    FixedPointLoops.guard(f).ifPresent(loopExits::add);
    intForLine(counter, expr(f.start()), last);
    block(f.body());
    line("}");
    scopes.pop();
    indent--;
    line("}");
  }

  /**
   * {@code f} as it is where a run is short ({@link InnerLoopStages#MIN_ITERATIONS}), else a call
   * of a method of its own that runs it staged, which the JIT compiler compiles as a whole.
   */
  private void shortOrStaged(KernelStmt.For f) {
    plainWhereShort(f, (start, bound, step) -> callMoved(f));
  }

  /** How a loop's long runs print, given the locals holding its start, bound and step. */
  private interface LongRun {
    void print(String start, String bound, String step);
  }

  /**
   * {@code f} as it is where {@link JvmSupport#runsPlain} holds for a run, else as {@code longRun}
   * prints it: decided per run, or here where the trip counts are constants ({@link #plainIfKnown},
   * a form specialised to its launch's scalars), which prints only the variant that runs.
   */
  private void plainWhereShort(KernelStmt.For f, LongRun longRun) {
    String start = hoisted(f.start(), "start");
    String bound = hoisted(f.bound(), "bound");
    String step = hoisted(f.step(), "step");
    java.util.Optional<InnerLoopStages> stages = innerStages(f);
    java.util.Optional<Boolean> plain = plainIfKnown(f, stages);
    if (plain.isPresent()) {
      // decided here (a form's constant trip counts): the other variant would never run
      if (plain.get()) {
        loopAsItIs(f, () -> plainLoop(f, start, bound, step));
      } else {
        longRun.print(start, bound, step);
      }
      return;
    }
    line(
        "if ("
            + JvmSupport.class.getName()
            + ".runsPlain("
            + String.join(
                ", ",
                start,
                bound,
                step,
                stages.map(this::evaluationsPerIteration).orElse("1L"),
                String.valueOf(stages.filter(InnerLoopStages::hasWholeRegion).isPresent()))
            + ")) {");
    indent++;
    loopAsItIs(f, () -> plainLoop(f, start, bound, step));
    indent--;
    line("} else {");
    indent++;
    longRun.print(start, bound, step);
    indent--;
    line("}");
  }

  /**
   * {@link JvmSupport#runsPlain} for {@code f}, where its start, bound and step and its inner
   * loops' trip counts are constants; empty otherwise.
   */
  private static java.util.Optional<Boolean> plainIfKnown(
      KernelStmt.For f, java.util.Optional<InnerLoopStages> stages) {
    java.util.OptionalLong start = IntegerConstants.of(f.start());
    java.util.OptionalLong bound = IntegerConstants.of(f.bound());
    java.util.OptionalLong step = IntegerConstants.of(f.step());
    java.util.OptionalLong perIteration =
        stages.isPresent()
            ? evaluationsPerIterationIfKnown(stages.get())
            : java.util.OptionalLong.of(1);
    if (start.isEmpty() || bound.isEmpty() || step.isEmpty() || perIteration.isEmpty()) {
      return java.util.Optional.empty();
    }
    return java.util.Optional.of(
        JvmSupport.runsPlain(
            start.getAsLong(),
            bound.getAsLong(),
            step.getAsLong(),
            perIteration.getAsLong(),
            stages.filter(InnerLoopStages::hasWholeRegion).isPresent()));
  }

  /** {@link #evaluationsPerIteration} where every inner loop's trip count is a constant. */
  private static java.util.OptionalLong evaluationsPerIterationIfKnown(InnerLoopStages stages) {
    return mostEvaluations(
            stages,
            new Counting<Long>(
                1L,
                inner -> {
                  java.util.OptionalLong start = IntegerConstants.of(inner.start());
                  java.util.OptionalLong bound = IntegerConstants.of(inner.bound());
                  java.util.OptionalLong step = IntegerConstants.of(inner.step());
                  return start.isEmpty() || bound.isEmpty() || step.isEmpty()
                      ? java.util.Optional.empty()
                      : java.util.Optional.of(
                          JvmSupport.trips(start.getAsLong(), bound.getAsLong(), step.getAsLong()));
                },
                (a, b) -> a * b,
                Math::max))
        .map(java.util.OptionalLong::of)
        .orElse(java.util.OptionalLong.empty());
  }

  /**
   * {@code f} run as it is: with an {@code int} counter where {@link #intBound} allows (a counted
   * loop to the JIT compiler), else as {@code overLongs} prints it.
   */
  private void loopAsItIs(KernelStmt.For f, Runnable overLongs) {
    java.util.Optional<KernelExpr> intBound = intBound(f);
    if (intBound.isPresent()) {
      intLoop(f, intBound.get());
    } else {
      overLongs.run();
    }
  }

  /** {@code f} as a Java {@code for} over {@code [start, bound)} by {@code step}. */
  private void plainLoop(KernelStmt.For f, String start, String bound, String step) {
    line("{");
    indent++;
    scopes.push(new HashMap<>());
    String counter = declareName(f.counter().name());
    FixedPointLoops.guard(f).ifPresent(loopExits::add);
    longForLine(counter, start, bound, step);
    block(f.body());
    line("}");
    scopes.pop();
    indent--;
    line("}");
  }

  /** The stages of {@code f} where it runs lane-wise. */
  private java.util.Optional<InnerLoopStages> innerStages(KernelStmt.For f) {
    if (printingStages) {
      // the passes of a staged loop use the thread's scratch arrays: loops inside run as they are
      return java.util.Optional.empty();
    }
    return innerStages.computeIfAbsent(
        f,
        loop ->
            lanewise
                ? InnerLoopStages.of((KernelStmt.For) loop, methodBudget)
                : java.util.Optional.empty());
  }

  /**
   * {@code f} run lane-wise ({@link InnerLoopStages}): over chunks of its iterations, each chunk
   * running the levels' loops and units, then the loop's body. A chunk holds as many iterations as
   * {@link InnerLoopStages#CHUNK} evaluations of the unit evaluated most often per iteration allow
   * (at least one); the scratch arrays hold a chunk's evaluations.
   */
  private void stagedLoop(
      KernelStmt.For f, InnerLoopStages stages, String start, String bound, String step) {
    line("{");
    indent++;
    scopes.push(new HashMap<>());
    String perIteration = temporary("perIteration");
    line("final long " + perIteration + " = " + evaluationsPerIteration(stages) + ";");
    String iterations = temporary("iterations");
    line(
        "final long "
            + iterations
            + " = Math.max(1L, "
            + InnerLoopStages.CHUNK
            + "L / "
            + perIteration
            + ");");
    String arrays = temporary("lanes");
    line(
        "final double[][] "
            + arrays
            + " = "
            + JvmSupport.class.getName()
            + ".laneScratch("
            + stages.scratch().size()
            + ", (int) ("
            + iterations
            + " * "
            + perIteration
            + "));");
    for (int k = 0; k < stages.scratch().size(); k++) {
      line(
          "final double[] "
              + declareName(stages.scratch().get(k).name())
              + " = "
              + arrays
              + "["
              + k
              + "];");
    }
    for (InnerLoopStages.MathCall unit : stages.units()) {
      line("long " + declareName(unit.cursor().name()) + " = 0L;");
    }
    String from = temporary("from");
    String to = temporary("to");
    String chunk = "(" + step + " * " + iterations + ")";
    line("for (long " + from + " = " + start + "; " + from + " < " + bound + "; ) {");
    indent++;
    line(
        "final long "
            + to
            + " = "
            + bound
            + " - "
            + from
            + " > "
            + chunk
            + " ? "
            + from
            + " + "
            + chunk
            + " : "
            + bound
            + ";");
    boolean outerStaging = printingStages;
    printingStages = true;
    for (InnerLoopStages.Level level : stages.levels()) {
      chunkLoop(f, stages, from, to, step, level.body());
      for (InnerLoopStages.MathCall unit : level.calls()) {
        applyUnit(unit);
      }
    }
    chunkLoop(f, stages, from, to, step, stages.body());
    printingStages = outerStaging;
    line(from + " = " + to + ";");
    indent--;
    line("}");
    scopes.pop();
    indent--;
    line("}");
  }

  /**
   * The Java expression of the most evaluations of one unit in an iteration of a staged loop
   * ({@link #mostEvaluations}), with the inner loops' trip counts computed at run time.
   */
  private String evaluationsPerIteration(InnerLoopStages stages) {
    return mostEvaluations(
            stages,
            new Counting<String>(
                "1L",
                inner ->
                    java.util.Optional.of(
                        JvmSupport.class.getName()
                            + ".trips("
                            + String.join(
                                ", ", expr(inner.start()), expr(inner.bound()), expr(inner.step()))
                            + ")"),
                (a, b) -> a + " * " + b,
                (a, b) -> "Math.max(" + a + ", " + b + ")"))
        .orElseThrow();
  }

  /**
   * Counts of evaluations of type {@code T}, a number or the Java expression that computes it: one
   * evaluation, an inner loop's trip count (empty where it cannot say), a product and a maximum.
   */
  private record Counting<T>(
      T one,
      java.util.function.Function<KernelStmt.For, java.util.Optional<T>> trips,
      java.util.function.BinaryOperator<T> times,
      java.util.function.BinaryOperator<T> max) {}

  /**
   * The most evaluations of one unit in an iteration of a staged loop (at least one): the product
   * of the trip counts of the inner loops around it, which read nothing the loop changes, counted
   * with {@code counting}; empty where one of those trip counts is.
   */
  private static <T> java.util.Optional<T> mostEvaluations(
      InnerLoopStages stages, Counting<T> counting) {
    T most = counting.one();
    for (InnerLoopStages.MathCall unit : stages.units()) {
      if (unit.loops().isEmpty()) {
        continue;
      }
      T product = null;
      for (KernelStmt.For inner : unit.loops()) {
        java.util.Optional<T> trips = counting.trips().apply(inner);
        if (trips.isEmpty()) {
          return java.util.Optional.empty();
        }
        product = product == null ? trips.get() : counting.times().apply(product, trips.get());
      }
      most = counting.max().apply(most, product);
    }
    return java.util.Optional.of(most);
  }

  /** A staged unit applied to the evaluations its staging loop stored. */
  private void applyUnit(InnerLoopStages.MathCall unit) {
    String count = "(int) " + nameOf(unit.cursor().name());
    if (unit.region().isPresent()) {
      InnerLoopStages.Region region = unit.region().get();
      java.util.Optional<InnerLoopStages.Split> split = region.split();
      if (split.isPresent()) {
        // plain loops (no Vector API code to compile first), then the costly branch per row
        runRegion(unit, perRowRegionClass(split.get().cheap()), false, count);
        runRegion(unit, perRowRegionClass(split.get().costly()), false, count);
      } else {
        runRegion(unit, regionClass(region.kernel()), true, count);
      }
      return;
    }
    List<String> arguments = new java.util.ArrayList<>();
    for (Buffer argument : unit.arguments()) {
      arguments.add(nameOf(argument.name()) + ", 0");
    }
    arguments.add(nameOf(unit.results().get(0).name()) + ", 0");
    arguments.add(count);
    line(
        "dev.l0.kernels.vector.VectorMath."
            + unit.function()
            + "("
            + String.join(", ", arguments)
            + ");");
  }

  /**
   * A run of a region's code {@code region} (a field, {@link #regionClass}) over the evaluations
   * {@code count} of {@code unit}'s staging loop stored; a staged region's code gets the thread's
   * workspace for it.
   */
  private void runRegion(
      InnerLoopStages.MathCall unit, String region, boolean staged, String count) {
    List<String> memory = new java.util.ArrayList<>();
    unit.arguments().forEach(b -> memory.add(nameOf(b.name())));
    unit.results().forEach(b -> memory.add(nameOf(b.name())));
    if (staged) {
      memory.add(JvmSupport.class.getName() + ".workspace(" + region + ")");
    }
    // the region's scalars: its rows, then its invariants, as they are before the loop
    List<String> scalars = new java.util.ArrayList<>();
    scalars.add("Long.valueOf((long) " + count + ")");
    unit.region().get().invariants().forEach(v -> scalars.add("Double.valueOf(" + expr(v) + ")"));
    line(
        ERROR
            + " = firstError("
            + ERROR
            + ", "
            + region
            + ".run(new Object[] {"
            + String.join(", ", memory)
            + "}, new Object[] {"
            + String.join(", ", scalars)
            + "}, 0, "
            + count
            + ", "
            + count
            + "));");
  }

  /**
   * The name of the static field holding the compiled code of a region staged whole ({@link
   * InnerLoopStages.Region#kernel}): a nested class of the kernel's, the region's kernel printed
   * staged (lane-wise where this printer's kernels are), made on first use.
   */
  private String regionClass(Kernel kernel) {
    JavaKernelIrPrinter printer = new JavaKernelIrPrinter(methodBudget, lanewise);
    return regionField(
        kernel,
        () ->
            printer.method(kernel, "private int " + StagedMapPrinter.SCALAR_RUN)
                + StagedMapPrinter.forRegion(
                        kernel, StagedMap.of(kernel).orElseThrow(), printer.syntax, lanewise)
                    .methods(),
        printer);
  }

  /** {@link #regionClass} for a part of a split region ({@link InnerLoopStages.Split}), per row. */
  private String perRowRegionClass(Kernel kernel) {
    JavaKernelIrPrinter printer = new JavaKernelIrPrinter(methodBudget, false);
    return regionField(
        kernel, () -> printer.method(kernel, "@Override\n  public int run"), printer);
  }

  /** The field of {@code kernel}'s class, with the methods {@code body}, made on first use. */
  private String regionField(
      Kernel kernel, java.util.function.Supplier<String> body, JavaKernelIrPrinter printer) {
    String field = regionFields.get(kernel);
    if (field != null) {
      return field;
    }
    String simpleName = "Region$" + regionFields.size();
    field = "REGION$" + regionFields.size();
    regionFields.put(kernel, field);
    String methods = body.get();
    regionClasses
        .append("  private static final ")
        .append(simpleName)
        .append(' ')
        .append(field)
        .append(" = new ")
        .append(simpleName)
        .append("();\n")
        .append(printer.classText("  static final class " + simpleName, methods));
    return field;
  }

  /**
   * A loop of {@code f}'s counter over {@code [from, to)} by {@code step} running {@code body}, the
   * units' cursors set to 0 before it; with an {@code int} counter where {@code f} runs with one
   * ({@link #intBound}: then {@code from} and {@code to} are within {@code f}'s bound).
   */
  private void chunkLoop(
      KernelStmt.For f,
      InnerLoopStages stages,
      String from,
      String to,
      String step,
      List<KernelStmt> body) {
    for (InnerLoopStages.MathCall unit : stages.units()) {
      line(nameOf(unit.cursor().name()) + " = 0L;");
    }
    line("{");
    indent++;
    scopes.push(new HashMap<>());
    String counter = declareName(f.counter().name());
    if (intBound(f).isPresent()) {
      intCounters.add(counter);
      intForLine(counter, from, "(int) " + to);
    } else {
      longForLine(counter, from, to, step);
    }
    block(body);
    line("}");
    scopes.pop();
    indent--;
    line("}");
  }

  /**
   * The head of a loop of the {@code int} {@code counter} from {@code start} below {@code bound}.
   */
  private void intForLine(String counter, String start, String bound) {
    line(
        "for (int "
            + counter
            + " = (int) "
            + start
            + "; "
            + counter
            + " < "
            + bound
            + "; "
            + counter
            + "++) {");
  }

  /**
   * The head of a loop of the {@code long} {@code counter} over {@code [start, bound)} by {@code
   * step}.
   */
  private void longForLine(String counter, String start, String bound, String step) {
    line(
        "for (long "
            + counter
            + " = "
            + start
            + "; "
            + counter
            + " < "
            + bound
            + "; "
            + counter
            + " += "
            + step
            + ") {");
  }

  /** {@code e} as a constant, or in a fresh final local declared before the current line. */
  private String hoisted(KernelExpr e, String base) {
    String value = expr(e);
    if (simplified(e) instanceof KernelExpr.Constant) {
      return value;
    }
    String local = temporary(base);
    line("final long " + local + " = " + value + ";");
    return local;
  }

  /**
   * {@code e} stored into a place of type {@code type}: converted as C converts on assignment (and
   * the CUDA printer's code does) where the lowering gave the value another numeric type.
   */
  private String converted(KernelExpr e, ScalarType type) {
    String value = expr(e);
    return e.type() == type || type == ScalarType.BOOL
        ? value
        : "((" + JavaScalarSyntax.javaType(type) + ") " + value + ")";
  }

  /**
   * An {@code i64} index as a Java array index: its sums, differences and products computed in
   * {@code int}, which gives the low 32 bits of the {@code i64} result (wrap-around arithmetic
   * modulo 2^32 agrees with it modulo 2^64), exactly the narrowed {@code i64} value; every other
   * part is narrowed where it enters. An index linear in an {@code int} loop counter ({@link
   * #intLoop}) is then one the JIT compiler recognises.
   */
  private String index(KernelExpr e) {
    KernelExpr s = simplified(e);
    if (s instanceof KernelExpr.Binary b
        && b.operandType() == ScalarType.I64
        && (b.op() == BinaryOperator.ADD
            || b.op() == BinaryOperator.SUB
            || b.op() == BinaryOperator.MUL)) {
      return JavaScalarSyntax.binary(b.op(), ScalarType.I32, index(b.left()), index(b.right()));
    }
    if (s instanceof KernelExpr.Constant c && c.value() instanceof ScalarValue.Int i) {
      return Integer.toString((int) i.value());
    }
    if (s instanceof KernelExpr.Call c
        && c.function() == dev.l0.ir.Builtin.TO_I64
        && c.args().get(0).type() == ScalarType.I32) {
      return expr(c.args().get(0));
    }
    if (s instanceof KernelExpr.Var v) {
      return "((int) " + nameOf(v.name()) + ")";
    }
    return "((int) " + expr(s) + ")";
  }

  private String expr(KernelExpr e) {
    KernelExpr s = simplified(e);
    if (s instanceof KernelExpr.Constant c) {
      return syntax.literal(c.value());
    }
    if (s instanceof KernelExpr.Var v) {
      String name = nameOf(v.name());
      return intCounters.contains(name) ? "((long) " + name + ")" : name;
    }
    if (s instanceof KernelExpr.Thread t) {
      return switch (t.index()) {
        case BLOCK_IDX -> "((long) " + BLOCK + ")";
        case GRID_DIM -> "((long) " + GRID + ")";
        default -> throw new IllegalStateException("not simplified: " + t);
      };
    }
    if (s instanceof KernelExpr.Binary b) {
      return JavaScalarSyntax.binary(b.op(), b.operandType(), expr(b.left()), expr(b.right()));
    }
    if (s instanceof KernelExpr.Unary u) {
      return JavaScalarSyntax.unary(u.op(), expr(u.operand()));
    }
    if (s instanceof KernelExpr.Call c) {
      return JavaScalarSyntax.builtin(
          c.function(), c.args().get(0).type(), c.args().stream().map(this::expr).toList());
    }
    if (s instanceof KernelExpr.Select sel) {
      return "("
          + expr(sel.condition())
          + " ? "
          + expr(sel.ifTrue())
          + " : "
          + expr(sel.ifFalse())
          + ")";
    }
    if (s instanceof KernelExpr.Load l) {
      return nameOf(l.buffer().name()) + "[" + index(l.index()) + "]";
    }
    KernelExpr.SharedLoad l = (KernelExpr.SharedLoad) s;
    return nameOf(l.array().name()) + "[" + index(l.index()) + "]";
  }

  /**
   * {@code e} with the registers a one-thread block fixes ({@code threadIdx.x = 0}, {@code
   * blockDim.x = 1}) replaced by constants and {@code x + 0}, {@code x * 1} and {@code x * 0} of
   * {@code i64} folded (wrap-around arithmetic makes them exact), so that {@code blockIdx.x *
   * blockDim.x + threadIdx.x} is the block index.
   */
  static KernelExpr simplified(KernelExpr e) {
    if (e instanceof KernelExpr.Thread t) {
      return switch (t.index()) {
        case THREAD_IDX -> ZERO;
        case BLOCK_DIM -> ONE;
        default -> e;
      };
    }
    if (e instanceof KernelExpr.Binary b
        && b.operandType() == ScalarType.I64
        && (b.op() == BinaryOperator.ADD || b.op() == BinaryOperator.MUL)) {
      KernelExpr l = simplified(b.left());
      KernelExpr r = simplified(b.right());
      if (b.op() == BinaryOperator.ADD) {
        if (l.equals(ZERO)) {
          return r;
        }
        if (r.equals(ZERO)) {
          return l;
        }
      } else {
        if (l.equals(ONE)) {
          return r;
        }
        if (r.equals(ONE)) {
          return l;
        }
        if (l.equals(ZERO) || r.equals(ZERO)) {
          return ZERO;
        }
      }
      return new KernelExpr.Binary(b.op(), b.operandType(), l, r);
    }
    return e;
  }
}
