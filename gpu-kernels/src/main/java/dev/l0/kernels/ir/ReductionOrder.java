package dev.l0.kernels.ir;

import dev.l0.ir.BinaryOperator;
import dev.l0.ir.Builtin;
import dev.l0.ir.ScalarType;
import dev.l0.ir.ScalarValue;
import java.util.ArrayList;
import java.util.List;

/**
 * The deterministic order in which every backend (CUDA kernels, SIMT simulator, JVM backend)
 * reduces and scans, so that results do not depend on block size, thread count or core count
 * (package documentation, "Reduction order"). The chunking formula lives here only: all backends
 * call {@link #chunkCount} or emit {@link #chunkCountExpr}.
 */
public final class ReductionOrder {
  /** The fewest elements a chunk gets before the chunk count grows. */
  public static final long MIN_CHUNK_ELEMENTS = 16;

  /** The most chunks a reduction or scan is split into. */
  public static final long MAX_CHUNKS = 65536;

  private ReductionOrder() {}

  /** {@code C = clamp(ceil(n / 16), 1, 65536)}: the number of chunks for {@code n} elements. */
  public static long chunkCount(long n) {
    return Math.min(Math.max(ceilDiv(n, MIN_CHUNK_ELEMENTS), 1), MAX_CHUNKS);
  }

  /** {@code S = ceil(n / C)}: the elements of every chunk but a shorter (or empty) last one. */
  public static long chunkSize(long n) {
    return ceilDiv(n, chunkCount(n));
  }

  /** {@link #chunkCount} as a host expression of the {@code i64} expression {@code n}. */
  public static KernelExpr chunkCountExpr(KernelExpr n) {
    KernelExpr chunks = ceilDivExpr(n, i64(MIN_CHUNK_ELEMENTS));
    KernelExpr atLeastOne = new KernelExpr.Call(Builtin.MAX, List.of(chunks, i64(1)));
    return new KernelExpr.Call(Builtin.MIN, List.of(atLeastOne, i64(MAX_CHUNKS)));
  }

  /** {@code ceil(a / b)} of non-negative {@code i64} expressions, {@code b > 0}. */
  public static KernelExpr ceilDivExpr(KernelExpr a, KernelExpr b) {
    KernelExpr sum =
        new KernelExpr.Binary(
            BinaryOperator.ADD,
            ScalarType.I64,
            a,
            new KernelExpr.Binary(BinaryOperator.SUB, ScalarType.I64, b, i64(1)));
    return new KernelExpr.Binary(BinaryOperator.DIV, ScalarType.I64, sum, b);
  }

  private static KernelExpr i64(long v) {
    return new KernelExpr.Constant(ScalarValue.i64(v));
  }

  private static long ceilDiv(long a, long b) {
    return (a + b - 1) / b;
  }

  /** Folds element {@code index} into accumulator {@code acc}. */
  @FunctionalInterface
  public interface FoldStep<A> {
    A apply(A acc, long index);
  }

  /**
   * The reference reduction of {@code n} elements: each chunk folded from {@code neutral}, the
   * partials combined by the pairwise tree.
   */
  public static <A> A reduce(
      long n, A neutral, FoldStep<A> fold, java.util.function.BinaryOperator<A> combine) {
    return combineTree(chunkPartials(n, neutral, fold), combine);
  }

  /**
   * The reference inclusive scan of {@code n} elements: chunk totals, carries scanned sequentially,
   * each chunk refolded from its carry.
   */
  public static <A> List<A> scan(
      long n, A neutral, FoldStep<A> fold, java.util.function.BinaryOperator<A> combine) {
    List<A> totals = chunkPartials(n, neutral, fold);
    long size = chunkSize(n);
    List<A> out = new ArrayList<>();
    A carry = neutral;
    for (int c = 0; c < totals.size(); c++) {
      A acc = carry;
      for (long i = c * size; i < Math.min((c + 1) * size, n); i++) {
        acc = fold.apply(acc, i);
        out.add(acc);
      }
      carry = combine.apply(carry, totals.get(c));
    }
    return out;
  }

  /**
   * The chunk partials: chunk {@code c} covers {@code [c*S, min((c+1)*S, n))}, folded from {@code
   * neutral}.
   */
  public static <A> List<A> chunkPartials(long n, A neutral, FoldStep<A> fold) {
    long chunks = chunkCount(n);
    long size = chunkSize(n);
    List<A> partials = new ArrayList<>();
    for (long c = 0; c < chunks; c++) {
      A acc = neutral;
      for (long i = c * size; i < Math.min((c + 1) * size, n); i++) {
        acc = fold.apply(acc, i);
      }
      partials.add(acc);
    }
    return partials;
  }

  /**
   * The pairwise tree: for {@code s = 1, 2, 4, ...} while {@code s < count}, every {@code j} that
   * is a multiple of {@code 2s} with {@code j + s < count} becomes {@code combine(p[j], p[j + s])};
   * the result is {@code p[0]}.
   */
  public static <A> A combineTree(List<A> partials, java.util.function.BinaryOperator<A> combine) {
    List<A> p = new ArrayList<>(partials);
    for (int s = 1; s < p.size(); s *= 2) {
      for (int j = 0; j + s < p.size(); j += 2 * s) {
        p.set(j, combine.apply(p.get(j), p.get(j + s)));
      }
    }
    return p.get(0);
  }
}
