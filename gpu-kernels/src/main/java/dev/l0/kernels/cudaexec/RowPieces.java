package dev.l0.kernels.cudaexec;

import dev.l0.kernels.exec.HostEnvironment;
import dev.l0.kernels.exec.HostValue;
import dev.l0.kernels.jvm.FlatArray;
import dev.l0.kernels.runtime.OutOfDeviceMemoryException;
import dev.l0.kernels.runtime.SplitAndRetry;
import dev.l0.opt.KernelKind;
import dev.l0.opt.KernelPlan;
import dev.l0.opt.ir.Ident;
import dev.l0.opt.ir.SubExp;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Function;

/**
 * A map kernel computed over consecutive pieces of its rows (ARCHITECTURE.md, "Runtime": what does
 * not fit in device memory is split, and out-of-memory means split and retry, by {@link
 * SplitAndRetry}). Row {@code i} of a map's results depends on row {@code i} of its input arrays
 * only (thesis §2.2, {@code map}), so running the kernel on rows {@code [start, start + count)} of
 * its inputs, everything else whole, gives those rows of its results; the pieces' rows are
 * concatenated in order. The first piece is all rows; a piece that runs out of device memory is
 * retried at half the size, down to one row. A map without rows, or whose arrays differ in length
 * (a program that fails in the kernel), runs as one piece.
 */
final class RowPieces {
  private RowPieces() {}

  /** Whether {@code kernel} is a map, whose rows can be computed in pieces. */
  static boolean splits(KernelPlan.Kernel kernel) {
    return kernel.kind() == KernelKind.MAP;
  }

  /**
   * The results of map {@code kernel} in {@code environment}, each piece computed by {@code
   * runPiece} from a copy of the environment whose mapped arrays hold only the piece's rows (the
   * first piece is the environment itself, all rows; later pieces copy their rows in bulk).
   *
   * @throws OutOfDeviceMemoryException where even one row does not fit
   */
  static List<HostValue> run(
      KernelPlan.Kernel kernel,
      HostEnvironment environment,
      Function<HostEnvironment, List<HostValue>> runPiece) {
    List<String> mapped =
        kernel.inputs().stream()
            .filter(SubExp.Var.class::isInstance)
            .map(input -> ((SubExp.Var) input).name())
            .toList();
    List<Integer> lengths =
        mapped.stream().map(name -> environment.size(name, 0)).distinct().toList();
    if (lengths.size() != 1 || lengths.get(0) == 0) {
      return runPiece.apply(environment);
    }
    int rows = lengths.get(0);
    List<Ident> outputs = kernel.outputs();
    List<List<FlatArray>> resultPieces = new ArrayList<>();
    outputs.forEach(output -> resultPieces.add(new ArrayList<>()));
    SplitAndRetry.run(
        rows,
        rows,
        1,
        (start, count) -> {
          HostEnvironment piece = count == rows ? environment : environment.copy();
          if (count != rows) {
            for (String name : mapped) {
              piece.bind(name, HostValue.of(environment.flat(name).rows((int) start, (int) count)));
            }
          }
          List<HostValue> results = runPiece.apply(piece);
          for (int k = 0; k < outputs.size(); k++) {
            resultPieces.get(k).add(results.get(k).flat());
          }
        });
    List<HostValue> results = new ArrayList<>();
    for (List<FlatArray> pieces : resultPieces) {
      results.add(HostValue.of(FlatArray.concatRows(pieces)));
    }
    return results;
  }
}
