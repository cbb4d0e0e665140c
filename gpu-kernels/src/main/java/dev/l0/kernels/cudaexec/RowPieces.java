package dev.l0.kernels.cudaexec;

import dev.l0.ir.Type;
import dev.l0.ir.Value;
import dev.l0.kernels.runtime.OutOfDeviceMemoryException;
import dev.l0.kernels.runtime.SplitAndRetry;
import dev.l0.opt.KernelPlan;
import dev.l0.opt.ir.Ident;
import dev.l0.opt.ir.SubExp;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Function;

/**
 * A map kernel computed over consecutive pieces of its rows (ARCHITECTURE.md, "Runtime": what
 * does not fit in device memory is split, and out-of-memory means split and retry, by
 * {@link SplitAndRetry}). Row {@code i} of a map's results depends on row {@code i} of its input
 * arrays only (thesis §2.2, {@code map}), so running the kernel on rows {@code [start, start + count)}
 * of its inputs, everything else whole, gives those rows of its results; the pieces' rows are
 * concatenated in order. The first piece is all rows; a piece that runs out of device memory is
 * retried at half the size, down to one row. A map without rows, or whose arrays differ in length
 * (a program that fails in the kernel), runs as one piece.
 */
final class RowPieces {
  private RowPieces() {}

  /** Whether {@code kernel} is a map, whose rows can be computed in pieces. */
  static boolean splits(KernelPlan.Kernel kernel) {
    return kernel.kind().equals("map");
  }

  /**
   * The results of map {@code kernel} in {@code environment}, each piece computed by
   * {@code runPiece} from an environment whose mapped arrays hold only the piece's rows.
   *
   * @throws OutOfDeviceMemoryException where even one row does not fit
   */
  static List<Value> run(KernelPlan.Kernel kernel, Map<String, Value> environment,
      Function<Map<String, Value>, List<Value>> runPiece) {
    List<String> mapped = kernel.inputs().stream()
        .filter(SubExp.Var.class::isInstance).map(input -> ((SubExp.Var) input).name()).toList();
    long distinctLengths = mapped.stream().map(name -> ((Value.Array) environment.get(name)).length()).distinct().count();
    if (distinctLengths != 1 || ((Value.Array) environment.get(mapped.get(0))).length() == 0) {
      return runPiece.apply(environment);
    }
    int rows = ((Value.Array) environment.get(mapped.get(0))).length();
    List<Ident> outputs = kernel.outputs();
    List<List<Value>> resultRows = new ArrayList<>();
    outputs.forEach(output -> resultRows.add(new ArrayList<>()));
    SplitAndRetry.run(rows, rows, 1, (start, count) -> {
      Map<String, Value> piece = new HashMap<>(environment);
      for (String name : mapped) {
        Value.Array whole = (Value.Array) environment.get(name);
        piece.put(name, new Value.Array(whole.elementType(), whole.elements().subList((int) start, (int) (start + count))));
      }
      List<Value> results = runPiece.apply(piece);
      for (int k = 0; k < outputs.size(); k++) {
        resultRows.get(k).addAll(((Value.Array) results.get(k)).elements());
      }
    });
    List<Value> results = new ArrayList<>();
    for (int k = 0; k < outputs.size(); k++) {
      results.add(new Value.Array(((Type.Array) outputs.get(k).type()).element(), resultRows.get(k)));
    }
    return results;
  }
}
