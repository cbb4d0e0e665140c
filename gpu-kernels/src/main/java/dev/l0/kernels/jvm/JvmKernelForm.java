package dev.l0.kernels.jvm;

import dev.l0.kernels.ir.Kernel;
import dev.l0.kernels.vector.VectorMath;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * How the JVM backend's Java runs one lowered kernel, in words for {@code explain}: per row (one
 * call of the per-row code per row), or staged ({@link StagedMap}: chunks of rows, one loop per
 * stage), lane-wise with the Vector API in this JVM (where it has f64 arithmetic or math functions)
 * or as plain loops, and the math functions it applies to whole chunks ({@code VectorMath}); and
 * the loops inside its threads that run lane-wise ({@link InnerLoopStages}).
 */
public final class JvmKernelForm {
  private JvmKernelForm() {}

  /**
   * For example {@code staged in chunks of 512 rows, lane-wise (8 doubles a step); VectorMath:
   * sqrt, log, exp x3}, for a redomap's chunk kernel {@code map part staged, fold per row in the
   * reduction order, in chunks of 1024 rows, ...}, or {@code per row}.
   */
  public static String describe(Kernel kernel) {
    return rows(kernel) + innerLoops(kernel);
  }

  /**
   * For example {@code ; inner loops lane-wise: 1 (VectorMath per iteration: log, erf x4; runs of
   * 32 iterations or more)} (with {@code , with a region 4096 evaluations or more} before the
   * parenthesis where one has a region) where loops inside the kernel's threads run lane-wise
   * ({@link InnerLoopStages}), else empty.
   */
  private static String innerLoops(Kernel kernel) {
    if (!VectorMath.lanewise()) {
      return "";
    }
    List<InnerLoopStages> loops =
        InnerLoopStages.inside(kernel.body(), JavaKernelIrPrinter.methodBudget());
    if (loops.isEmpty()) {
      return "";
    }
    List<String> functions = new ArrayList<>();
    loops.forEach(loop -> functions.addAll(loop.functions()));
    return "; inner loops lane-wise: "
        + loops.size()
        + " (VectorMath per iteration: "
        + counted(functions)
        + "; runs of "
        + InnerLoopStages.MIN_ITERATIONS
        + " iterations or more"
        + (loops.stream().anyMatch(InnerLoopStages::hasWholeRegion)
            ? ", with a region " + InnerLoopStages.REGION_MIN_EVALUATIONS + " evaluations or more"
            : "")
        + ")";
  }

  /** How the kernel's rows run. */
  private static String rows(Kernel kernel) {
    Optional<StagedMap> staged = StagedMap.of(kernel);
    String what = "staged";
    int rows = StagedMapPrinter.CHUNK;
    StagedMapPrinter printer;
    if (staged.isEmpty()) {
      Optional<StagedRedomap> redomap = StagedRedomap.of(kernel);
      if (redomap.isEmpty()) {
        return "per row";
      }
      staged = Optional.of(redomap.get().map());
      what = "map part staged, fold per row in the reduction order,";
      rows = StagedMapPrinter.REDOMAP_CHUNK;
      printer = new StagedMapPrinter(redomap.get(), new JavaScalarSyntax(), VectorMath.lanewise());
    } else {
      printer =
          new StagedMapPrinter(kernel, staged.get(), new JavaScalarSyntax(), VectorMath.lanewise());
    }
    String form =
        what
            + " in chunks of "
            + rows
            + " rows, "
            + (!VectorMath.lanewise()
                ? "plain loops (no jdk.incubator.vector in this JVM)"
                : printer.runsLaneWise()
                    ? "lane-wise (" + VectorMath.lanes() + " doubles a step)"
                    : "plain loops (no f64 arithmetic to run lane-wise)");
    List<String> calls = new ArrayList<>();
    for (StagedMap.Op op : staged.get().ops()) {
      if (op instanceof StagedMap.MathCall call) {
        calls.add(call.function());
      }
    }
    return calls.isEmpty() ? form : form + "; VectorMath: " + counted(calls);
  }

  /** The functions with how often each comes, in first-come order: {@code sqrt, log, exp x3}. */
  private static String counted(List<String> functions) {
    Map<String, Integer> counts = new LinkedHashMap<>();
    functions.forEach(function -> counts.merge(function, 1, Integer::sum));
    List<String> described = new ArrayList<>();
    counts.forEach(
        (function, count) -> described.add(count == 1 ? function : function + " x" + count));
    return String.join(", ", described);
  }
}
