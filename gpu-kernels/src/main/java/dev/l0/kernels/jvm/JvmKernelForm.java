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
 * stage), lane-wise with the Vector API in this JVM or as plain loops, and the math functions it
 * applies to whole chunks ({@code VectorMath}).
 */
public final class JvmKernelForm {
  private JvmKernelForm() {}

  /**
   * For example {@code staged in chunks of 512 rows, lane-wise (8 doubles a step); VectorMath:
   * sqrt, log, exp x3}, for a redomap's chunk kernel {@code map part staged, fold per row in the
   * reduction order, in chunks of 1024 rows, ...}, or {@code per row}.
   */
  public static String describe(Kernel kernel) {
    Optional<StagedMap> staged = StagedMap.of(kernel);
    String what = "staged";
    int rows = StagedMapPrinter.CHUNK;
    if (staged.isEmpty()) {
      Optional<StagedRedomap> redomap = StagedRedomap.of(kernel);
      if (redomap.isEmpty()) {
        return "per row";
      }
      staged = Optional.of(redomap.get().map());
      what = "map part staged, fold per row in the reduction order,";
      rows = StagedMapPrinter.REDOMAP_CHUNK;
    }
    String form =
        what
            + " in chunks of "
            + rows
            + " rows, "
            + (VectorMath.lanewise()
                ? "lane-wise (" + VectorMath.lanes() + " doubles a step)"
                : "plain loops (no jdk.incubator.vector in this JVM)");
    Map<String, Integer> calls = new LinkedHashMap<>();
    for (StagedMap.Op op : staged.get().ops()) {
      if (op instanceof StagedMap.MathCall call) {
        calls.merge(call.function(), 1, Integer::sum);
      }
    }
    if (calls.isEmpty()) {
      return form;
    }
    List<String> functions = new ArrayList<>();
    calls.forEach(
        (function, count) -> functions.add(count == 1 ? function : function + " x" + count));
    return form + "; VectorMath: " + String.join(", ", functions);
  }
}
