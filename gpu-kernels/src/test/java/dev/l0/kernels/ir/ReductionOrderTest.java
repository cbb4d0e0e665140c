package dev.l0.kernels.ir;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.l0.ir.ScalarType;
import dev.l0.ir.ScalarValue;
import dev.l0.ir.SourcePos;
import dev.l0.semantics.ScalarOperations;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.IntStream;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.IntRange;
import net.jqwik.api.constraints.LongRange;
import org.junit.jupiter.api.Test;

/**
 * The reduction-order contract: the chunking formula, its host expression, and the reference tree
 * and scan.
 */
class ReductionOrderTest {

  @Test
  void chunkCountGrowsWithTheSizeBetweenOneAndTheCap() {
    assertEquals(1, ReductionOrder.chunkCount(0));
    assertEquals(1, ReductionOrder.chunkCount(1));
    assertEquals(1, ReductionOrder.chunkCount(16));
    assertEquals(2, ReductionOrder.chunkCount(17));
    assertEquals(65_536, ReductionOrder.chunkCount(10_000_000));
    assertEquals(153, ReductionOrder.chunkSize(10_000_000));
    assertEquals(0, ReductionOrder.chunkSize(0));
  }

  @Property
  void theHostExpressionComputesTheSameChunkCount(
      @ForAll @LongRange(min = 0, max = 1L << 40) long n) {
    KernelExpr.Var size = new KernelExpr.Var("n", ScalarType.I64);
    ScalarValue value = evaluate(ReductionOrder.chunkCountExpr(size), ScalarValue.i64(n));
    assertEquals(ScalarValue.i64(ReductionOrder.chunkCount(n)), value);
  }

  @Property
  void chunksCoverEveryElementOnceInOrder(@ForAll @LongRange(min = 0, max = 2_000_000) long n) {
    long next = 0;
    long size = ReductionOrder.chunkSize(n);
    for (long c = 0; c < ReductionOrder.chunkCount(n); c++) {
      long start = c * size;
      long end = Math.min((c + 1) * size, n);
      if (start < end) {
        assertEquals(next, start, "chunk " + c + " starts where the previous one ended");
        next = end;
      }
    }
    assertEquals(n, next);
  }

  @Test
  void theTreeCombinesNeighboursLevelByLevelPassingAnOddLastUp() {
    List<String> leaves = List.of("0", "1", "2", "3", "4");
    assertEquals("(((01)(23))4)", ReductionOrder.combineTree(leaves, (a, b) -> "(" + a + b + ")"));
  }

  /**
   * What a GPU computes: aligned blocks of {@code blockSize} leaves reduced first, then the tree
   * over the block results.
   */
  @Property
  void blockTreesThenATreeOverBlocksIsTheSameTree(
      @ForAll @IntRange(min = 1, max = 300) int leaves,
      @ForAll @IntRange(min = 0, max = 6) int log2BlockSize) {
    int blockSize = 1 << log2BlockSize;
    List<String> all = IntStream.range(0, leaves).mapToObj(Integer::toString).toList();
    List<String> blockResults = new ArrayList<>();
    for (int start = 0; start < leaves; start += blockSize) {
      blockResults.add(
          ReductionOrder.combineTree(
              all.subList(start, Math.min(start + blockSize, leaves)), ReductionOrderTest::pair));
    }
    assertEquals(
        ReductionOrder.combineTree(all, ReductionOrderTest::pair),
        ReductionOrder.combineTree(blockResults, ReductionOrderTest::pair));
  }

  @Property
  void integerReductionAndScanEqualTheLeftFold(@ForAll @IntRange(min = 0, max = 5000) int n) {
    long expected = 0;
    List<Long> prefixes = new ArrayList<>();
    for (int i = 0; i < n; i++) {
      expected += (long) i * i;
      prefixes.add(expected);
    }
    assertEquals(expected, ReductionOrder.reduce(n, 0L, (acc, i) -> acc + i * i, Long::sum));
    assertEquals(prefixes, ReductionOrder.scan(n, 0L, (acc, i) -> acc + i * i, Long::sum));
  }

  @Test
  void aFloatReductionFollowsTheChunksNotTheLeftFold() {
    int n = 40;
    double[] xs = new double[n];
    for (int i = 0; i < n; i++) {
      xs[i] = i % 2 == 0 ? 1e16 : 1.0;
    }
    // Chunks of 14, 14 and 12 elements: each chunk's left fold, then (c0 + c1) + c2.
    double[] chunks = new double[3];
    for (int i = 0; i < n; i++) {
      chunks[i / 14] += xs[i];
    }
    double expected = (chunks[0] + chunks[1]) + chunks[2];
    assertEquals(
        expected, ReductionOrder.reduce(n, 0.0, (acc, i) -> acc + xs[(int) i], Double::sum));
  }

  private static String pair(String a, String b) {
    return "(" + a + b + ")";
  }

  /**
   * A host expression over the one variable {@code n}, with the scalar semantics the IR is defined
   * by.
   */
  private static ScalarValue evaluate(KernelExpr e, ScalarValue n) {
    if (e instanceof KernelExpr.Constant c) {
      return c.value();
    }
    if (e instanceof KernelExpr.Var) {
      return n;
    }
    if (e instanceof KernelExpr.Binary b) {
      return ScalarOperations.binary(
          b.op(), evaluate(b.left(), n), evaluate(b.right(), n), SourcePos.NONE);
    }
    KernelExpr.Call call = (KernelExpr.Call) e;
    return ScalarOperations.builtin(
        call.function(), call.args().stream().map(a -> evaluate(a, n)).toList(), SourcePos.NONE);
  }
}
