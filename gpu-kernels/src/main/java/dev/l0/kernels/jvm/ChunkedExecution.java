package dev.l0.kernels.jvm;

import dev.l0.kernels.ir.ReductionOrder;
import java.util.stream.IntStream;

/**
 * Runs a generated kernel over its rows in the chunks of the reduction-order contract
 * ({@link ReductionOrder}): the chunk passes in parallel on the common fork-join pool (contiguous
 * runs of chunks per task; a one-chunk kernel on the calling thread), the combining steps in the contract's fixed order, so results depend
 * only on the input size. When chunks fail, the error of the first failing chunk is thrown, the
 * error a sequential run would meet first.
 */
final class ChunkedExecution {
  /** Tasks per core, so that cores that finish early take more. */
  private static final int TASKS_PER_CORE = 8;

  private final KernelInstance kernel;
  private final int size;
  private final int chunks;
  private final int chunkSize;

  ChunkedExecution(KernelInstance kernel, int size) {
    this.kernel = kernel;
    this.size = size;
    this.chunks = (int) ReductionOrder.chunkCount(size);
    this.chunkSize = (int) ReductionOrder.chunkSize(size);
  }

  /** Runs a SOAC of kind {@code kind} ({@code KernelPlan.Kernel#kind()}) and returns its results. */
  Object[] run(String kind) {
    switch (kind) {
      case "map":
        overChunks(false);
        break;
      case "reduce":
      case "redomap":
        overChunks(false);
        combineTree();
        break;
      case "scan":
      case "scanomap":
        overChunks(false);
        kernel.carries();
        overChunks(true);
        break;
      case "filter":
        overChunks(false);
        kernel.offsets = new int[chunks];
        int total = 0;
        for (int c = 0; c < chunks; c++) {
          kernel.offsets[c] = total;
          total += kernel.kept(c);
        }
        kernel.allocateKept(total);
        overChunks(true);
        break;
      default:
        throw new IllegalArgumentException("no JVM execution for SOAC " + kind);
    }
    return kernel.results();
  }

  /** The contract's pairwise tree: for s = 1, 2, 4, ... every j multiple of 2s with j + s < C. */
  private void combineTree() {
    for (int s = 1; s < chunks; s *= 2) {
      for (int j = 0; j + s < chunks; j += 2 * s) {
        kernel.combine(j, j + s);
      }
    }
  }

  private void overChunks(boolean secondPass) {
    int tasks = Math.min(chunks, TASKS_PER_CORE * Runtime.getRuntime().availableProcessors());
    RuntimeException[] failures = new RuntimeException[tasks];
    IntStream range = IntStream.range(0, tasks);
    (tasks > 1 ? range.parallel() : range).forEach(t -> {
      int firstChunk = (int) ((long) chunks * t / tasks);
      int lastChunk = (int) ((long) chunks * (t + 1) / tasks);
      try {
        for (int c = firstChunk; c < lastChunk; c++) {
          int start = (int) Math.min((long) c * chunkSize, size);
          int end = (int) Math.min((long) start + chunkSize, size);
          if (secondPass) {
            kernel.phase2(c, start, end);
          } else {
            kernel.phase1(c, start, end);
          }
        }
      } catch (RuntimeException failure) {
        failures[t] = failure;
      }
    });
    for (RuntimeException failure : failures) {
      if (failure != null) {
        throw failure;
      }
    }
  }
}
