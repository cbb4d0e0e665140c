package dev.l0.kernels.jvm;

import dev.l0.ir.BinaryOperator;
import dev.l0.ir.Builtin;
import dev.l0.ir.PrefixOperator;
import dev.l0.ir.ScalarType;
import dev.l0.kernels.ir.Buffer;
import dev.l0.kernels.ir.Kernel;
import dev.l0.kernels.ir.KernelExpr;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Java source for a {@link StagedMap}: the {@code run} method of the kernel's class, which runs the
 * worker's rows in chunks of {@link #CHUNK} rows, one small static method per {@link StagedMap.Op}
 * (a loop over the chunk that the JIT compiler can vectorise, or a {@code VectorMath} call), with
 * every local an array of a chunk's rows in the worker's workspace ({@code newWorkspace}, made once
 * per worker; locals whose lives do not overlap share an array). Where the launch is not one thread
 * per row ({@code gridDim.x} below the bound) or a buffer is shorter than the rows, {@code run}
 * calls the per-row code, {@code runScalar$}, which {@link JavaKernelIrPrinter} prints.
 */
final class StagedMapPrinter {
  /**
   * Rows per chunk: a chunk's locals stay in the core's L1 cache (512 measured faster than 256,
   * 1024 and 2048 on P0, see bench/README.md).
   */
  static final int CHUNK = 512;

  /**
   * Rows per step of a staged redomap: whole chunks of the reduction order, which has up to 65536
   * chunks, so that inputs of up to 2^26 rows stay staged.
   */
  static final int REDOMAP_CHUNK = 1024;

  /** The per-row method {@code run} falls back to. */
  static final String SCALAR_RUN = "runScalar$";

  /**
   * The per-row method of a staged redomap's fold ({@link StagedRedomap#fold}) over a range of
   * blocks.
   */
  static final String FOLD = "fold$";

  /**
   * The most ops one stage's method runs: enough for a whole phase of P0 (70 ops, about 2100 bytes
   * of bytecode), well below the 8000 bytes over which HotSpot does not compile a method.
   */
  private static final int OPS_PER_STAGE = 128;

  /**
   * The most ops one stage's method runs in a region of a staged inner loop ({@link
   * InnerLoopStages.Region}): a region's long chains of vector operations in one method exceed what
   * C2 inlines, and a Vector API call that is not inlined works on boxed vectors (AS241's inverse
   * normal, about 150 ops, as one stage of 128 ran partly boxed; 64 did not in OptionPricing
   * large's profile).
   */
  private static final int REGION_OPS_PER_STAGE = 64;

  private static final String VECTOR_PACKAGE = "jdk.incubator.vector.";

  /**
   * The most parameter slots a Java method has (JVMS 4.3.3: 255, a {@code long} or {@code double}
   * taking two): a kernel whose chunk method would take more runs per row ({@link StagedMap#of}),
   * and a stage's method ends before an op that would take it past them ({@link #stages}), else
   * Janino refuses the class ("Method has too many parameters") and the kernel cannot run.
   */
  static final int MAX_PARAMETER_SLOTS = 255;

  private final Kernel kernel;
  private final StagedMap staged;

  /** The staged map's locals, each an array of the workspace. */
  private final Set<KernelExpr.Var> locals;

  /** The redomap whose map part this prints ({@link #redomapMethods}), or null for a map kernel. */
  private final StagedRedomap redomap;

  /** Where a store of row {@code k$} of the chunk goes in its array. */
  private final String storeOffset;

  private final JavaScalarSyntax syntax;

  /** The rows of a chunk: {@link #CHUNK}, or {@link #REDOMAP_CHUNK} for a redomap's map part. */
  private final int chunkRows;

  /** Whether stages use the Vector API ({@code VectorMath} runs lane-wise), or plain loops. */
  private final boolean lanewise;

  private final List<Stage> stages;

  /** The most ops one stage's method runs ({@link #OPS_PER_STAGE}, or fewer for a region). */
  private final int opsPerStage;

  /**
   * The vectors of the constants and scalars the lane-wise stage being printed uses, by their
   * literals and the scalars' names ({@code p$k}), broadcast once before the stage's loop.
   */
  private final Map<String, String> stageConstants = new LinkedHashMap<>();

  private final StringBuilder out = new StringBuilder();

  /** The workspace array of each local. */
  private final Map<KernelExpr.Var, Integer> slotOf = new HashMap<>();

  /** The element type of each workspace array. */
  private final List<ScalarType> slotTypes = new ArrayList<>();

  private final Map<Buffer, String> bufferNames = new LinkedHashMap<>();
  private final Map<KernelExpr.Var, String> scalarNames = new LinkedHashMap<>();

  StagedMapPrinter(Kernel kernel, StagedMap staged, JavaScalarSyntax syntax, boolean lanewise) {
    this(kernel, staged, null, syntax, lanewise, OPS_PER_STAGE);
  }

  /** For the kernel of a region of a staged inner loop ({@link InnerLoopStages.Region#kernel}). */
  static StagedMapPrinter forRegion(
      Kernel kernel, StagedMap staged, JavaScalarSyntax syntax, boolean lanewise) {
    return new StagedMapPrinter(kernel, staged, null, syntax, lanewise, REGION_OPS_PER_STAGE);
  }

  /**
   * For the map part of {@code redomap}: its stores go to the chunk arrays of the workspace, at the
   * row in the chunk.
   */
  StagedMapPrinter(StagedRedomap redomap, JavaScalarSyntax syntax, boolean lanewise) {
    this(redomap.mapKernel(), redomap.map(), redomap, syntax, lanewise, OPS_PER_STAGE);
  }

  private StagedMapPrinter(
      Kernel kernel,
      StagedMap staged,
      StagedRedomap redomap,
      JavaScalarSyntax syntax,
      boolean lanewise,
      int opsPerStage) {
    this.opsPerStage = opsPerStage;
    this.kernel = kernel;
    this.staged = staged;
    this.locals = Set.copyOf(staged.locals());
    this.redomap = redomap;
    this.storeOffset = redomap == null ? "base$ + k$" : "k$";
    this.chunkRows = redomap == null ? CHUNK : REDOMAP_CHUNK;
    this.syntax = syntax;
    this.lanewise = lanewise;
    for (int k = 0; k < kernel.buffers().size(); k++) {
      bufferNames.put(kernel.buffers().get(k), "b$" + k);
    }
    for (int k = 0; k < kernel.scalars().size(); k++) {
      scalarNames.put(kernel.scalars().get(k), "p$" + k);
    }
    assignSlots();
    this.stages = stages();
  }

  /**
   * Gives every local a workspace array, shared with locals whose last use comes before its first
   * definition.
   */
  private void assignSlots() {
    Map<KernelExpr.Var, Integer> lastUse = new HashMap<>();
    List<StagedMap.Op> ops = staged.ops();
    for (int j = 0; j < ops.size(); j++) {
      for (KernelExpr.Var v : StagedMap.reads(ops.get(j), locals)) {
        lastUse.put(v, j);
      }
      KernelExpr.Var target = StagedMap.target(ops.get(j));
      if (target != null) {
        lastUse.merge(target, j, Math::max);
      }
    }
    Map<Integer, KernelExpr.Var> holder = new HashMap<>();
    for (int j = 0; j < ops.size(); j++) {
      KernelExpr.Var target = StagedMap.target(ops.get(j));
      if (target == null || slotOf.containsKey(target)) {
        continue;
      }
      int slot = -1;
      for (int s = 0; s < slotTypes.size() && slot < 0; s++) {
        KernelExpr.Var previous = holder.get(s);
        if (slotTypes.get(s) == slotType(target.type()) && lastUse.get(previous) < j) {
          slot = s;
        }
      }
      if (slot < 0) {
        slot = slotTypes.size();
        slotTypes.add(slotType(target.type()));
      }
      holder.put(slot, target);
      slotOf.put(target, slot);
    }
  }

  /**
   * The element type of the workspace array of a local of {@code type}: a boolean lives in a {@code
   * double} array as 1.0 or 0.0, so that a lane-wise stage stores and loads it as a vector (JDK
   * 17's {@code VectorMask.intoArray} into a {@code boolean[]} works on a boxed mask).
   */
  private static ScalarType slotType(ScalarType type) {
    return type == ScalarType.BOOL ? ScalarType.F64 : type;
  }

  /**
   * The methods: {@code newWorkspace}, {@code run}, the chunk method and one method per stage; for
   * a redomap's map part, {@code run} stages the map part of a chunk of rows, then calls {@link
   * #FOLD} on the chunk's blocks ({@link #redomapRun}).
   */
  String methods() {
    workspace();
    if (redomap == null) {
      run();
    } else {
      redomapRun();
    }
    chunk();
    for (int g = 0; g < stages.size(); g++) {
      stage(g, stages.get(g));
    }
    return out.toString();
  }

  /**
   * The ops in stages, each one method: a {@code VectorMath} call alone, else up to {@link
   * #OPS_PER_STAGE} consecutive ops in one loop, lane-wise when {@link #lanewise} and they all can
   * be, so that the locals they define and read among themselves stay in registers, and no more
   * than the arrays and scalars that fit one method's {@link #MAX_PARAMETER_SLOTS} parameter slots
   * ({@link #parameters}: a wide kernel's op may read a dozen columns and locals).
   */
  private List<Stage> stages() {
    List<Stage> result = new ArrayList<>();
    List<StagedMap.Op> ops = staged.ops();
    int j = 0;
    while (j < ops.size()) {
      if (ops.get(j) instanceof StagedMap.MathCall) {
        result.add(new Stage(j, j + 1, false));
        j++;
        continue;
      }
      boolean vector = lanewise && laneWise(ops.get(j));
      Set<String> names = new LinkedHashSet<>();
      scalarStatement(ops.get(j), names);
      int end = j + 1;
      while (end < ops.size()
          && end - j < opsPerStage
          && !(ops.get(end) instanceof StagedMap.MathCall)
          && (lanewise && laneWise(ops.get(end))) == vector
          && fitsOneMethod(names, ops.get(end))) {
        end++;
      }
      result.add(new Stage(j, end, vector));
      j = end;
    }
    return result;
  }

  /**
   * Whether a stage whose statements name {@code names} (its arrays and scalars) still fits one
   * method's parameters with {@code op} added; where it does, {@code op}'s names join {@code
   * names}. A stage's method takes exactly the arrays and scalars its per-row loop names ({@link
   * #parameters}), the chunk's base and size.
   */
  private boolean fitsOneMethod(Set<String> names, StagedMap.Op op) {
    Set<String> with = new LinkedHashSet<>(names);
    scalarStatement(op, with);
    int slots = 2 + with.stream().mapToInt(this::parameterSlots).sum();
    if (slots > MAX_PARAMETER_SLOTS) {
      return false;
    }
    names.addAll(with);
    return true;
  }

  /** The parameter slots of the array or scalar printed as {@code name}: 2 for a long or double. */
  private int parameterSlots(String name) {
    return scalarNames.entrySet().stream()
        .filter(scalar -> scalar.getValue().equals(name))
        .findFirst()
        .map(scalar -> slots(JavaScalarSyntax.javaType(scalar.getKey().type())))
        .orElse(1);
  }

  /** The parameter slots a parameter of Java type {@code javaType} takes. */
  private static int slots(String javaType) {
    return javaType.equals("long") || javaType.equals("double") ? 2 : 1;
  }

  /**
   * The parameter slots of the chunk method of {@code kernel}'s staged code ({@link #chunk}): the
   * workspace, every buffer, every scalar, the chunk's base and size.
   */
  static int chunkParameterSlots(Kernel kernel) {
    return 1
        + kernel.buffers().size()
        + kernel.scalars().stream().mapToInt(v -> slots(JavaScalarSyntax.javaType(v.type()))).sum()
        + 2;
  }

  /**
   * Whether any of the Java runs lane-wise: a stage of f64 (or mask) ops in {@code DoubleVector}
   * loops, or a {@code VectorMath} call, where {@link #lanewise}; stages of integer ops are plain
   * loops.
   */
  boolean runsLaneWise() {
    return lanewise
        && (stages.stream().anyMatch(Stage::vector)
            || staged.ops().stream().anyMatch(op -> op instanceof StagedMap.MathCall));
  }

  /** Ops {@code [first, end)} of the staged map, printed as one method, lane-wise or not. */
  private record Stage(int first, int end, boolean vector) {}

  private void workspace() {
    out.append("  @Override\n  public Object newWorkspace() {\n    return new Object[] {");
    for (int s = 0; s < slotTypes.size(); s++) {
      out.append(s == 0 ? "" : ", ")
          .append("new ")
          .append(JavaScalarSyntax.javaType(slotTypes.get(s)))
          .append("[")
          .append(chunkRows)
          .append("]");
    }
    if (redomap != null) {
      for (Buffer b : redomap.values()) {
        out.append(", new ")
            .append(JavaScalarSyntax.javaType(b.elementType()))
            .append("[")
            .append(chunkRows)
            .append("]");
      }
      out.append(", new long[1]");
    }
    out.append("};\n  }\n");
    if (lanewise) {
      out.append("  private static final ")
          .append(VECTOR_PACKAGE)
          .append("VectorSpecies S$ = ")
          .append(VECTOR_PACKAGE)
          .append("DoubleVector.SPECIES_PREFERRED;\n");
    }
  }

  /**
   * The head of a generated {@code run}: its signature, then the first {@code buffers} of the
   * kernel's buffers and all its scalars taken out of the launch's arrays into typed locals.
   */
  private void runHeader(int buffers) {
    out.append(
        "  @Override\n  public int run(Object[] memory$, Object[] scalars$, int firstBlock$, int endBlock$, int grid$) {\n");
    for (int k = 0; k < buffers; k++) {
      Buffer b = kernel.buffers().get(k);
      String type = JavaScalarSyntax.javaType(b.elementType()) + "[]";
      out.append("    final ")
          .append(type)
          .append(' ')
          .append(bufferNames.get(b))
          .append(" = (")
          .append(type)
          .append(") memory$[")
          .append(k)
          .append("];\n");
    }
    for (int k = 0; k < kernel.scalars().size(); k++) {
      KernelExpr.Var v = kernel.scalars().get(k);
      out.append("    final ")
          .append(JavaScalarSyntax.javaType(v.type()))
          .append(' ')
          .append(scalarNames.get(v))
          .append(" = ((")
          .append(JavaScalarSyntax.boxedType(v.type()))
          .append(") scalars$[")
          .append(k)
          .append("]).")
          .append(JavaScalarSyntax.javaType(v.type()))
          .append("Value();\n");
    }
  }

  private void run() {
    runHeader(kernel.buffers().size());
    out.append("    final long bound$ = ")
        .append(expr(staged.bound(), Set.of(), new LinkedHashSet<>()))
        .append(";\n");
    out.append(
        "    final int rows$ = (int) Math.max(Math.min((long) endBlock$, bound$), (long) firstBlock$);\n");
    StringBuilder fits = new StringBuilder("(long) grid$ >= bound$");
    for (Buffer b : bufferNames.keySet()) {
      if (staged.loaded().contains(b) || staged.stored().contains(b)) {
        fits.append(" && ").append(bufferNames.get(b)).append(".length >= rows$");
      }
    }
    out.append("    if (!(").append(fits).append(")) {\n");
    out.append("      return ")
        .append(SCALAR_RUN)
        .append("(memory$, scalars$, firstBlock$, endBlock$, grid$);\n    }\n");
    out.append("    final Object[] workspace$ = (Object[]) memory$[memory$.length - 1];\n");
    out.append("    for (int base$ = firstBlock$; base$ < rows$; base$ += ")
        .append(CHUNK)
        .append(") {\n");
    out.append("      chunk$(workspace$")
        .append(commonArguments())
        .append(", base$, Math.min(")
        .append(CHUNK)
        .append(", rows$ - base$));\n    }\n    return 0;\n  }\n");
  }

  /**
   * The {@code run} of a redomap's chunk kernel: its blocks in steps of as many whole chunks of the
   * reduction order as {@link #REDOMAP_CHUNK} rows hold (at least one), each step the map part over
   * the step's rows into the workspace's value arrays, then {@link #FOLD} over the step's blocks,
   * in order. Where a chunk of the reduction order is longer than {@link #REDOMAP_CHUNK} rows or an
   * input is shorter than the rows, the per-row code runs.
   */
  private void redomapRun() {
    int inputs = kernel.buffers().size() - redomap.values().size();
    runHeader(inputs);
    out.append("    final long chunkSize$ = ")
        .append(expr(redomap.chunkSize(), Set.of(), new LinkedHashSet<>()))
        .append(";\n");
    out.append("    final long rows$ = ")
        .append(expr(redomap.rows(), Set.of(), new LinkedHashSet<>()))
        .append(";\n");
    StringBuilder fits =
        new StringBuilder("chunkSize$ >= 1L && chunkSize$ <= ").append(REDOMAP_CHUNK).append("L");
    for (Buffer b : bufferNames.keySet()) {
      if (staged.loaded().contains(b)) {
        fits.append(" && ").append(bufferNames.get(b)).append(".length >= rows$");
      }
    }
    out.append("    if (!(").append(fits).append(")) {\n");
    out.append("      return ")
        .append(SCALAR_RUN)
        .append("(memory$, scalars$, firstBlock$, endBlock$, grid$);\n    }\n");
    out.append("    final Object[] workspace$ = (Object[]) memory$[memory$.length - 1];\n");
    List<Buffer> values = redomap.values();
    for (int j = 0; j < values.size(); j++) {
      String type = JavaScalarSyntax.javaType(values.get(j).elementType()) + "[]";
      out.append("    final ")
          .append(type)
          .append(' ')
          .append(bufferNames.get(values.get(j)))
          .append(" = (")
          .append(type)
          .append(") workspace$[")
          .append(slotTypes.size() + j)
          .append("];\n");
    }
    out.append("    final long[] rowBase$ = (long[]) workspace$[")
        .append(slotTypes.size() + values.size())
        .append("];\n");
    // the fold's memory: the kernel's buffers, the value arrays, the row base, then the shared
    // arrays and the workspace
    out.append("    final Object[] foldMemory$ = new Object[memory$.length + ")
        .append(values.size() + 1)
        .append("];\n");
    out.append("    System.arraycopy(memory$, 0, foldMemory$, 0, ").append(inputs).append(");\n");
    for (int j = 0; j < values.size(); j++) {
      out.append("    foldMemory$[")
          .append(inputs + j)
          .append("] = ")
          .append(bufferNames.get(values.get(j)))
          .append(";\n");
    }
    out.append("    foldMemory$[").append(inputs + values.size()).append("] = rowBase$;\n");
    out.append("    System.arraycopy(memory$, ")
        .append(inputs)
        .append(", foldMemory$, ")
        .append(inputs + values.size() + 1)
        .append(", memory$.length - ")
        .append(inputs)
        .append(");\n");
    out.append("    final int blocksPerStep$ = (int) Math.max(1L, ")
        .append(REDOMAP_CHUNK)
        .append("L / chunkSize$);\n");
    out.append("    int error$ = 0;\n");
    out.append("    for (int block$ = firstBlock$; block$ < endBlock$;) {\n");
    out.append(
        "      final int last$ = (int) Math.min((long) block$ + blocksPerStep$, (long) endBlock$);\n");
    out.append("      final long first$ = Math.min(block$ * chunkSize$, rows$);\n");
    out.append("      rowBase$[0] = first$;\n");
    out.append("      chunk$(workspace$")
        .append(commonArguments())
        .append(", (int) first$, (int) (Math.min(last$ * chunkSize$, rows$) - first$));\n");
    out.append("      error$ = firstError(error$, ")
        .append(FOLD)
        .append("(foldMemory$, scalars$, block$, last$, grid$));\n");
    out.append("      block$ = last$;\n    }\n    return error$;\n  }\n");
  }

  private String commonArguments() {
    StringBuilder args = new StringBuilder();
    bufferNames.values().forEach(n -> args.append(", ").append(n));
    scalarNames.values().forEach(n -> args.append(", ").append(n));
    return args.toString();
  }

  private void chunk() {
    out.append("  private static void chunk$(Object[] workspace$");
    for (Map.Entry<Buffer, String> b : bufferNames.entrySet()) {
      out.append(", ")
          .append(JavaScalarSyntax.javaType(b.getKey().elementType()))
          .append("[] ")
          .append(b.getValue());
    }
    for (Map.Entry<KernelExpr.Var, String> s : scalarNames.entrySet()) {
      out.append(", ")
          .append(JavaScalarSyntax.javaType(s.getKey().type()))
          .append(' ')
          .append(s.getValue());
    }
    out.append(", int base$, int n$) {\n");
    for (int s = 0; s < slotTypes.size(); s++) {
      String type = JavaScalarSyntax.javaType(slotTypes.get(s)) + "[]";
      out.append("    final ")
          .append(type)
          .append(" w$")
          .append(s)
          .append(" = (")
          .append(type)
          .append(") workspace$[")
          .append(s)
          .append("];\n");
    }
    for (int g = 0; g < stages.size(); g++) {
      out.append("    stage$")
          .append(g)
          .append("(")
          .append(String.join(", ", parameters(stages.get(g)).keySet()))
          .append(");\n");
    }
    out.append("  }\n");
  }

  /** The parameters of a stage's method, name to Java type, in a fixed order. */
  private Map<String, String> parameters(Stage stage) {
    Set<String> used = new LinkedHashSet<>();
    body(stage, used);
    Map<String, String> params = new LinkedHashMap<>();
    for (int s = 0; s < slotTypes.size(); s++) {
      if (used.contains("w$" + s)) {
        params.put("w$" + s, JavaScalarSyntax.javaType(slotTypes.get(s)) + "[]");
      }
    }
    for (Map.Entry<Buffer, String> b : bufferNames.entrySet()) {
      if (used.contains(b.getValue())) {
        params.put(b.getValue(), JavaScalarSyntax.javaType(b.getKey().elementType()) + "[]");
      }
    }
    for (Map.Entry<KernelExpr.Var, String> s : scalarNames.entrySet()) {
      if (used.contains(s.getValue())) {
        params.put(s.getValue(), JavaScalarSyntax.javaType(s.getKey().type()));
      }
    }
    params.put("base$", "int");
    params.put("n$", "int");
    return params;
  }

  private void stage(int g, Stage stage) {
    List<String> params = new ArrayList<>();
    parameters(stage).forEach((name, type) -> params.add(type + " " + name));
    out.append("  private static void stage$")
        .append(g)
        .append("(")
        .append(String.join(", ", params))
        .append(") {\n");
    out.append(body(stage, new LinkedHashSet<>()));
    out.append("  }\n");
  }

  /** The statements of a stage's method; the names it reads are added to {@code used}. */
  private String body(Stage stage, Set<String> used) {
    List<StagedMap.Op> ops = staged.ops().subList(stage.first(), stage.end());
    if (ops.get(0) instanceof StagedMap.MathCall m) {
      StringBuilder call =
          new StringBuilder("    dev.l0.kernels.vector.VectorMath.")
              .append(m.function())
              .append("(");
      for (KernelExpr a : m.arguments()) {
        call.append(arrayAndOffset(a, used)).append(", ");
      }
      String target = "w$" + slotOf.get(m.target());
      used.add(target);
      return call.append(target).append(", 0, n$);\n").toString();
    }
    StringBuilder text = new StringBuilder("    int k$ = 0;\n");
    if (stage.vector()) {
      stageConstants.clear();
      int constantsAt = text.length();
      text.append("    for (; k$ < S$.loopBound(n$); k$ += S$.length()) {\n");
      Set<KernelExpr.Var> inRegisters = new HashSet<>();
      Set<KernelExpr.Var> readLater = readAfter(stage.end());
      for (int j = 0; j < ops.size(); j++) {
        KernelExpr.Var target = StagedMap.target(ops.get(j));
        boolean lastWrite =
            ops.subList(j + 1, ops.size()).stream()
                .noneMatch(later -> target != null && target.equals(StagedMap.target(later)));
        text.append("      ")
            .append(
                laneWiseStatement(
                    ops.get(j), lastWrite && readLater.contains(target), inRegisters, used))
            .append('\n');
      }
      text.append("    }\n");
      StringBuilder constants = new StringBuilder();
      stageConstants.forEach(
          (value, name) ->
              constants
                  .append("    final ")
                  .append(VECTOR_PACKAGE)
                  .append("DoubleVector ")
                  .append(name)
                  .append(" = ")
                  .append(VECTOR_PACKAGE)
                  .append("DoubleVector.broadcast(S$, ")
                  .append(value)
                  .append(");\n"));
      text.insert(constantsAt, constants);
    }
    text.append("    for (; k$ < n$; k$++) {\n");
    for (StagedMap.Op op : ops) {
      text.append("      ").append(scalarStatement(op, used)).append('\n');
    }
    return text.append("    }\n").toString();
  }

  /** The locals that ops from {@code from} on read. */
  private Set<KernelExpr.Var> readAfter(int from) {
    Set<KernelExpr.Var> result = new HashSet<>();
    for (int j = from; j < staged.ops().size(); j++) {
      result.addAll(StagedMap.reads(staged.ops().get(j), locals));
    }
    return result;
  }

  /** A Compute or Store for row {@code k$}. */
  private String scalarStatement(StagedMap.Op op, Set<String> used) {
    if (op instanceof StagedMap.Compute c) {
      used.add("w$" + slotOf.get(c.target()));
      String value = expr(c.value(), locals, used);
      return "w$"
          + slotOf.get(c.target())
          + "[k$] = "
          + (c.target().type() == ScalarType.BOOL ? "(" + value + " ? 1.0 : 0.0)" : value)
          + ";";
    }
    StagedMap.Store s = (StagedMap.Store) op;
    used.add(bufferNames.get(s.buffer()));
    return bufferNames.get(s.buffer())
        + "["
        + storeOffset
        + "] = "
        + expr(s.value(), locals, used)
        + ";";
  }

  /**
   * A Compute or Store for the rows {@code [k$, k$ + lanes)}: the target in a vector (or mask)
   * local, stored into its array too where {@code storeTarget} (an op after the stage reads it, and
   * no later op of the stage assigns it again).
   */
  private String laneWiseStatement(
      StagedMap.Op op, boolean storeTarget, Set<KernelExpr.Var> inRegisters, Set<String> used) {
    if (op instanceof StagedMap.Store s) {
      used.add(bufferNames.get(s.buffer()));
      return laneExpr(s.value(), inRegisters, used)
          + ".intoArray("
          + bufferNames.get(s.buffer())
          + ", "
          + storeOffset
          + ");";
    }
    StagedMap.Compute c = (StagedMap.Compute) op;
    String value = laneExpr(c.value(), inRegisters, used);
    String register = register(c.target());
    String declaration =
        inRegisters.add(c.target())
            ? VECTOR_PACKAGE
                + (c.target().type() == ScalarType.BOOL ? "VectorMask " : "DoubleVector ")
            : "";
    String statement = declaration + register + " = " + value + ";";
    if (storeTarget) {
      String slot = "w$" + slotOf.get(c.target());
      used.add(slot);
      String stored =
          c.target().type() == ScalarType.BOOL
              ? "(("
                  + VECTOR_PACKAGE
                  + "DoubleVector) "
                  + ZEROS
                  + ".blend("
                  + ONES
                  + ", "
                  + register
                  + "))"
              : register;
      statement += " " + stored + ".intoArray(" + slot + ", k$);";
    }
    return statement;
  }

  /** The vectors of 0.0 and of 1.0, a boolean local's values in its workspace array. */
  private static final String ZEROS = VECTOR_PACKAGE + "DoubleVector.broadcast(S$, 0.0)";

  private static final String ONES = VECTOR_PACKAGE + "DoubleVector.broadcast(S$, 1.0)";

  private static String register(KernelExpr.Var local) {
    return "v" + local.name();
  }

  /**
   * Whether every part of {@code op} has a lane-wise form (f64 arithmetic and comparisons, boolean
   * masks, selects).
   */
  private boolean laneWise(StagedMap.Op op) {
    if (op instanceof StagedMap.Compute c) {
      return (c.target().type() == ScalarType.F64 || c.target().type() == ScalarType.BOOL)
          && laneWise(c.value());
    }
    StagedMap.Store s = (StagedMap.Store) op;
    return (s.buffer().elementType() == ScalarType.F64
            || s.buffer().elementType() == ScalarType.BOOL)
        && laneWise(s.value());
  }

  private boolean laneWise(KernelExpr e) {
    if (e instanceof KernelExpr.Constant c) {
      return c.type() == ScalarType.F64;
    }
    if (e instanceof KernelExpr.Var v) {
      return !v.equals(staged.counter())
          && (v.type() == ScalarType.F64
              || v.type() == ScalarType.BOOL && !scalarNames.containsKey(v));
    }
    if (e instanceof KernelExpr.Load l) {
      return l.type() == ScalarType.F64 || l.type() == ScalarType.BOOL;
    }
    if (e instanceof KernelExpr.Binary b) {
      boolean operator =
          b.operandType() == ScalarType.F64
              ? LANE_OPERATORS.containsKey(b.op())
              : b.operandType() == ScalarType.BOOL
                  && (b.op() == BinaryOperator.AND || b.op() == BinaryOperator.OR);
      return operator && laneWise(b.left()) && laneWise(b.right());
    }
    if (e instanceof KernelExpr.Unary u) {
      return (u.type() == ScalarType.F64 && u.op() == PrefixOperator.NEG
              || u.type() == ScalarType.BOOL && u.op() == PrefixOperator.NOT)
          && laneWise(u.operand());
    }
    if (e instanceof KernelExpr.Select s) {
      return s.type() == ScalarType.F64
          && laneWise(s.condition())
          && laneWise(s.ifTrue())
          && laneWise(s.ifFalse());
    }
    if (e instanceof KernelExpr.Call c) {
      // Math.abs clears the sign bit (as C2 compiles it), as the lane-wise abs does
      return c.function() == Builtin.ABS && c.type() == ScalarType.F64 && laneWise(c.args().get(0));
    }
    return false;
  }

  /**
   * The Vector API's operation for each f64 operator with a lane-wise form: IEEE arithmetic and
   * ordered compares, as Java's.
   */
  private static final Map<BinaryOperator, String> LANE_OPERATORS =
      Map.of(
          BinaryOperator.ADD,
          "add",
          BinaryOperator.SUB,
          "sub",
          BinaryOperator.MUL,
          "mul",
          BinaryOperator.DIV,
          "div",
          BinaryOperator.LT,
          "LT",
          BinaryOperator.LEQ,
          "LE",
          BinaryOperator.GT,
          "GT",
          BinaryOperator.GEQ,
          "GE",
          BinaryOperator.EQ,
          "EQ",
          BinaryOperator.NEQ,
          "EQ");

  /**
   * A lane-wise expression ({@link #laneWise(KernelExpr)} holds) for the rows {@code [k$, k$ +
   * lanes)}.
   */
  private String laneExpr(KernelExpr e, Set<KernelExpr.Var> inRegisters, Set<String> used) {
    if (e instanceof KernelExpr.Constant c) {
      // broadcast once before the stage's loop: fewer calls for C2 to inline in the loop
      return stageConstants.computeIfAbsent(
          syntax.literal(c.value()), literal -> "k$" + stageConstants.size());
    }
    if (e instanceof KernelExpr.Var v) {
      if (inRegisters.contains(v)) {
        return register(v);
      }
      if (scalarNames.containsKey(v)) {
        String scalar = scalarNames.get(v);
        used.add(scalar);
        return stageConstants.computeIfAbsent(scalar, name -> "k$" + stageConstants.size());
      }
      String slot = "w$" + slotOf.get(v);
      used.add(slot);
      String loaded = fromArray(ScalarType.F64, slot, "k$");
      return v.type() == ScalarType.BOOL
          ? loaded + ".compare(" + VECTOR_PACKAGE + "VectorOperators.NE, " + ZEROS + ")"
          : loaded;
    }
    if (e instanceof KernelExpr.Load l) {
      used.add(bufferNames.get(l.buffer()));
      return fromArray(l.type(), bufferNames.get(l.buffer()), "base$ + k$");
    }
    if (e instanceof KernelExpr.Binary b) {
      String l = laneExpr(b.left(), inRegisters, used);
      String r = laneExpr(b.right(), inRegisters, used);
      if (b.operandType() == ScalarType.BOOL) {
        return l + (b.op() == BinaryOperator.AND ? ".and(" : ".or(") + r + ")";
      }
      String operation = LANE_OPERATORS.get(b.op());
      if (b.op().kind() == BinaryOperator.Kind.COMPARISON) {
        String compare =
            l + ".compare(" + VECTOR_PACKAGE + "VectorOperators." + operation + ", " + r + ")";
        return b.op() == BinaryOperator.NEQ ? compare + ".not()" : compare;
      }
      return l + "." + operation + "(" + r + ")";
    }
    if (e instanceof KernelExpr.Unary u) {
      return laneExpr(u.operand(), inRegisters, used)
          + (u.op() == PrefixOperator.NEG ? ".neg()" : ".not()");
    }
    if (e instanceof KernelExpr.Call c) {
      return laneExpr(c.args().get(0), inRegisters, used) + ".abs()";
    }
    KernelExpr.Select s = (KernelExpr.Select) e;
    // Janino resolves blend to Vector's, which returns a Vector
    return "(("
        + VECTOR_PACKAGE
        + "DoubleVector) "
        + laneExpr(s.ifFalse(), inRegisters, used)
        + ".blend("
        + laneExpr(s.ifTrue(), inRegisters, used)
        + ", "
        + laneExpr(s.condition(), inRegisters, used)
        + "))";
  }

  private static String fromArray(ScalarType type, String array, String offset) {
    return VECTOR_PACKAGE
        + (type == ScalarType.BOOL ? "VectorMask" : "DoubleVector")
        + ".fromArray(S$, "
        + array
        + ", "
        + offset
        + ")";
  }

  private String arrayAndOffset(KernelExpr a, Set<String> used) {
    if (a instanceof KernelExpr.Load l) {
      used.add(bufferNames.get(l.buffer()));
      return bufferNames.get(l.buffer()) + ", base$";
    }
    String slot = "w$" + slotOf.get((KernelExpr.Var) a);
    used.add(slot);
    return slot + ", 0";
  }

  /**
   * {@code e} for row {@code k$} of the chunk: locals are their arrays' elements, the counter the
   * row.
   */
  private String expr(KernelExpr e, Set<KernelExpr.Var> locals, Set<String> used) {
    if (e instanceof KernelExpr.Constant c) {
      return syntax.literal(c.value());
    }
    if (e instanceof KernelExpr.Var v) {
      if (locals.contains(v)) {
        String slot = "w$" + slotOf.get(v);
        used.add(slot);
        return v.type() == ScalarType.BOOL ? "(" + slot + "[k$] != 0.0)" : slot + "[k$]";
      }
      if (v.equals(staged.counter())) {
        return "((long) (base$ + k$))";
      }
      used.add(scalarNames.get(v));
      return scalarNames.get(v);
    }
    if (e instanceof KernelExpr.Binary b) {
      return JavaScalarSyntax.binary(
          b.op(), b.operandType(), expr(b.left(), locals, used), expr(b.right(), locals, used));
    }
    if (e instanceof KernelExpr.Unary u) {
      return JavaScalarSyntax.unary(u.op(), expr(u.operand(), locals, used));
    }
    if (e instanceof KernelExpr.Call c) {
      return JavaScalarSyntax.builtin(
          c.function(),
          c.args().get(0).type(),
          c.args().stream().map(a -> expr(a, locals, used)).toList());
    }
    if (e instanceof KernelExpr.Select s) {
      return "("
          + expr(s.condition(), locals, used)
          + " ? "
          + expr(s.ifTrue(), locals, used)
          + " : "
          + expr(s.ifFalse(), locals, used)
          + ")";
    }
    KernelExpr.Load l = (KernelExpr.Load) e;
    used.add(bufferNames.get(l.buffer()));
    return bufferNames.get(l.buffer()) + "[base$ + k$]";
  }
}
