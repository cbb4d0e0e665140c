package dev.l0.opt;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.l0.ir.BinaryOperator;
import dev.l0.opt.ir.Exp;
import dev.l0.opt.ir.Stm;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Each rule of the fusion algebra (thesis §7.1.1–7.3) on its own example, the multi-consumer cases
 * of Fig. 24 and Fig. 25, and each "must not fuse" case of §7.1.2–7.1.3. Every example also checks
 * that the optimised program computes what the interpreter computes.
 */
class FusionAlgebraTest {
  private static final String REALS = "[1.5, -2.0, 3.25, 12.0, 0.0, 7.5]";

  private static long count(Compiled c, BinaryOperator op) {
    return c.allStatements().stream()
        .filter(s -> s.exp() instanceof Exp.BinOp b && b.op() == op)
        .count();
  }

  @Test
  void mapIntoMap() {
    Compiled c =
        Compiled.of(
            """
        fun [real] main([real] a) =
          map(fn real (real y) => y * 2.0, map(fn real (real x) => x + 1.0, a))
        """);
    assertEquals(List.of("map"), c.kernelStructures());
    c.assertSameResult("main", REALS);
  }

  @Test
  void mapIntoReduceBecomesRedomap() {
    Compiled c =
        Compiled.of(
            """
        fun real main([real] a) = reduce(op +, 0.0, map(fn real (real x) => x * x, a))
        """);
    assertEquals(List.of("redomap"), c.kernelStructures());
    c.assertSameResult("main", REALS);
  }

  @Test
  void mapIntoRedomap() {
    Compiled c =
        Compiled.of(
            """
        fun real main([real] a) =
          reduce(op +, 0.0, map(fn real (real x) => x * 3.0, map(fn real (real x) => x + 1.0, a)))
        """);
    assertEquals(List.of("redomap"), c.kernelStructures());
    c.assertSameResult("main", REALS);
  }

  @Test
  void mapIntoScanBecomesScanomap() {
    Compiled c =
        Compiled.of(
            """
        fun [real] main([real] a) = scan(op +, 0.0, map(fn real (real x) => x * 0.5, map(fn real (real x) => x - 1.0, a)))
        """);
    assertEquals(List.of("scanomap"), c.kernelStructures());
    c.assertSameResult("main", REALS);
  }

  @Test
  void filterIntoFilter() {
    Compiled c =
        Compiled.of(
            """
        fun [real] main([real] a) =
          filter(fn bool (real x) => x < 10.0, filter(fn bool (real x) => 0.0 < x, a))
        """);
    assertEquals(List.of("filter"), c.kernelStructures());
    c.assertSameResult("main", REALS);
  }

  @Test
  void filterIntoFilterNeverRunsTheSecondPredicateOnRejectedRows() {
    Compiled c =
        Compiled.of(
            """
        fun [int] main([int] a, [int] b) =
          filter(fn bool (int i) => b[i] > 0, filter(fn bool (int i) => i < size(0, b), a))
        """);
    assertEquals(List.of("filter"), c.kernelStructures());
    c.assertSameResult("main", "[0, 5, 1, 9, 2] [3, -1, 4]");
  }

  @Test
  void filterIntoReduceBecomesRedomapThatSkipsRejectedRows() {
    Compiled c =
        Compiled.of(
            """
        fun real main([real] a) = reduce(op +, -0.0, filter(fn bool (real x) => 0.0 < x, a))
        """);
    assertEquals(List.of("redomap"), c.kernelStructures());
    c.assertSameResult("main", REALS);
    c.assertSameResult("main", "[-1.0, -0.0]");
  }

  @Test
  void filterIntoRedomap() {
    Compiled c =
        Compiled.of(
            """
        fun real main([real] a) =
          reduce(op +, 0.0, map(fn real (real x) => x * x, filter(fn bool (real x) => 0.0 < x, a)))
        """);
    assertEquals(List.of("redomap"), c.kernelStructures());
    c.assertSameResult("main", REALS);
  }

  @Test
  void replicatedInputBecomesAFreeVariable() {
    Compiled c =
        Compiled.of(
            """
        fun [real] main([real] a, real s) =
          map(fn real (real x, real y) => x * y, zip(a, replicate(size(0, a), s)))
        """);
    assertEquals(List.of("map"), c.kernelStructures());
    assertTrue(c.allStatements().stream().noneMatch(s -> s.exp() instanceof Exp.Replicate));
    c.assertSameResult("main", REALS + " 2.5");
  }

  @Test
  void partialFusionKeepsTheConsumersOtherInputs() {
    Compiled c =
        Compiled.of(
            """
        fun [real] main([real] a, [real] b) =
          let x = map(fn real (real v) => v + 1.0, a) in
          map(fn real (real u, real v) => u * v, zip(x, b))
        """);
    assertEquals(List.of("map"), c.kernelStructures());
    assertEquals(2, c.optimized().kernelPlan().kernels().get(0).inputs().size());
    c.assertSameResult("main", REALS + " " + REALS);
  }

  /**
   * Thesis Fig. 24: y feeds two SOACs that both feed the root; all fuse, and y's work is done once
   * per element.
   */
  @Test
  void oneProducerOfSeveralConsumersFusesWithoutDuplication() {
    Compiled c =
        Compiled.of(
            """
        fun [real] main([real] a) =
          let y = map(fn real (real x) => x + 1.0, a) in
          let z = map(fn real (real x) => x * 2.0, y) in
          let q = map(fn real (real x) => x - 3.0, y) in
          map(fn real (real u, real v) => u * v, zip(z, q))
        """);
    assertEquals(List.of("map"), c.kernelStructures());
    assertEquals(
        1, count(c, BinaryOperator.ADD), "the producer's x + 1.0 must appear exactly once");
    c.assertSameResult("main", REALS);
  }

  /**
   * Thesis Fig. 25: consumers on the two control-flow paths of an if each fuse with the producer.
   */
  @Test
  void producerFusesIntoConsumersInBothBranches() {
    Compiled c =
        Compiled.of(
            """
        fun real main(bool c, [real] a) =
          let b = map(fn real (real x) => x * 2.0, a) in
          if c then reduce(op +, 0.0, b) else reduce(op *, 1.0, b)
        """);
    assertEquals(List.of("redomap", "redomap"), c.kernelStructures());
    c.assertSameResult("main", "true " + REALS);
    c.assertSameResult("main", "false " + REALS);
  }

  /** §7.1.2: the producer reads a, which is updated in place before the consumer runs. */
  @Test
  void noFusionAcrossAConsumedInput() {
    Compiled c =
        Compiled.of(
            """
        fun [real] main(*[real] a) =
          let b = map(fn real (real x) => x + 1.0, a) in
          let a2 = a with [0] <- 100.0 in
          map(fn real (real x, real y) => x + y, zip(b, a2))
        """);
    assertEquals(List.of("map", "map"), c.kernelStructures());
    c.assertSameResult("main", REALS);
  }

  /**
   * §7.1.3: fusing into two consumers that both run would compute the producer twice; only a cheap
   * one is duplicated (CheapProducerDuplicationTest), and a loop is not cheap. (The map here reads
   * the reduction's result, so the two consumers cannot join into one pass.)
   */
  @Test
  void noFusionOfAProducerUsedTwice() {
    Compiled c =
        Compiled.of(
            """
        fun {[real], real} main([real] a) =
          let b = map(fn real (real x) => loop (s = x) = for i < 3 do s * 0.5 in s, a) in
          let t = reduce(op +, 0.0, b) in
          {map(fn real (real x) => x * t, b), t}
        """);
    assertEquals(List.of("map", "reduce", "map"), c.kernelStructures());
    c.assertSameResult("main", REALS);
  }

  /**
   * A producer that is not cheap, read by a reduction and a map that do not read each other: the
   * two join into one screma ({@code FUSE-HORIZONTAL-MAP}), the producer's only consumer, into
   * which it fuses, computed once per row; 3 kernels become 1.
   */
  @Test
  void aProducerOfAReductionAndAMapFusesIntoTheirOnePass() {
    Compiled c =
        Compiled.of(
            """
        fun {[real], real} main([real] a) =
          let b = map(fn real (real x) => loop (s = x) = for i < 3 do s * 0.5 in s, a) in
          {map(fn real (real x) => x * 2.0, b), reduce(op +, 0.0, b)}
        """);
    assertEquals(List.of("screma"), c.kernelStructures(), c.optimized()::explain);
    assertEquals(
        1,
        c.allStatements().stream().filter(s -> s.exp() instanceof Exp.Loop).count(),
        "the producer's loop once");
    c.assertSameResult("main", REALS);
    c.assertSameResult("main", "[]");
  }

  /**
   * §7.1.3: fusing into a consumer inside a loop would recompute the producer in every iteration.
   */
  @Test
  void noFusionIntoAConsumerInsideALoop() {
    Compiled c =
        Compiled.of(
            """
        fun real main([real] a, int n) =
          let b = map(fn real (real x) => x + 1.0, a) in
          loop (acc = 0.0) = for i < n do reduce(op +, acc, b) in acc
        """);
    assertEquals(List.of("map", "reduce"), c.kernelStructures());
    assertEquals(1, c.optimized().kernelPlan().kernels().get(1).loopDepth());
    c.assertSameResult("main", REALS + " 3");
  }

  @Test
  void explainListsEveryKernelAndTheCount() {
    Compiled c =
        Compiled.of(
            """
        fun {[real], real} main([real] a) =
          let b = map(fn real (real x) => loop (s = x) = for i < 3 do s * 0.5 in s, a) in
          let t = reduce(op +, 0.0, b) in
          {map(fn real (real x) => x * t, b), t}
        """);
    String explain = c.optimized().explain();
    assertTrue(explain.startsWith("fun {"), explain);
    assertTrue(explain.contains("kernel 2: reduce in main"), explain);
    assertTrue(explain.endsWith("kernels: 3\n"), explain);
    List<Stm> all = c.allStatements();
    assertTrue(all.stream().anyMatch(s -> s.exp().isReduce()));
  }
}
