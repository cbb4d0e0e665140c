package dev.l0.opt;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.l0.ir.L0RuntimeError;
import dev.l0.opt.fusion.FusionRule;
import dev.l0.opt.fusion.IndexFunctionFusion;
import dev.l0.opt.ir.Body;
import dev.l0.opt.ir.Exp;
import dev.l0.opt.ir.InternalProgram;
import dev.l0.opt.ir.IrChecker;
import dev.l0.opt.ir.Stm;
import dev.l0.opt.pass.Simplifier;
import dev.l0.opt.pass.SizeHindrances;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/**
 * Fusion across transpose and reshape (thesis ch. 8) on the thesis's own examples: each rule alone
 * on the flattened program (it fuses the pair into a well-formed program; the other rules of ch. 8
 * do not match), then the whole optimiser (kernel count and shape, the rules {@code explain} names,
 * the transposes and reshapes left as statements of their own, not kernels, and results
 * bit-identical to the reference interpreter's).
 */
class TransposeReshapeFusionTest {
  private static final String MATRIX = "[[1.5, -2.0, 3.25], [0.1, 1e300, -7.0]]";

  /**
   * Fig. 31: {@code let b = map(f, a) in map²(g, transpose(b))}; {@code f} is no map nest (it
   * divides a row by its sum), so only pushing the transposition past the consumer fuses.
   */
  private static final String FIG_31 =
      """
      fun [[real]] main([[real]] a) =
        let b = map(fn [real] ([real] r) =>
                      let s = reduce(op +, 0.0, r) in map(fn real (real x) => x / s, r), a) in
        map(fn [real] ([real] r) => map(fn real (real x) => x * 2.0, r), transpose(b))
      """;

  /**
   * Fig. 32: {@code let b = map²(f, a) in map(g, transpose(b))}; the consumer sums each column, so
   * only pulling the transposition before the producer fuses.
   */
  private static final String FIG_32 =
      """
      fun [real] main([[real]] a) =
        let b = map(fn [real] ([real] r) => map(fn real (real x) => x + 1.0, r), a) in
        map(fn real ([real] r) => reduce(op +, 0.0, r), transpose(b))
      """;

  /** §8.2: {@code let b = map(f, a) in reduceT(g, reshape((n, m), b))}, {@code a} of rank 1. */
  private static final String RESHAPE =
      """
      fun [real] main([real] a, int n, int m) =
        let b = map(fn real (real x) => x * 2.0, a) in
        map(fn real ([real] r) => reduce(op +, 0.0, r), reshape((n, m), b))
      """;

  /**
   * §8.4: a transposed producer (as ISWIM leaves one) whose consumer transposes it back: the
   * transpositions cancel.
   */
  private static final String TRANSPOSED_PRODUCER =
      """
      fun [real] main([[real]] a) =
        let t = transpose(map(fn [real] ([real] r) =>
                                let s = reduce(op +, 0.0, r) in map(fn real (real x) => x - s, r), a)) in
        map(fn real ([real] r) => reduce(op +, 0.0, r), transpose(t))
      """;

  private static final String TRANSPOSED_CONSUMER =
      """
      fun [[real]] main([[real]] a) =
        transpose(map(fn [real] ([real] r) => map(fn real (real x) => x * 2.0, r),
                      map(fn [real] ([real] r) => map(fn real (real x) => x + 1.0, r), a)))
      """;

  private static final String RESHAPED_CONSUMER =
      """
      fun [[real]] main([real] a, int n, int m) =
        reshape((n, m), map(fn real (real x) => x * 2.0, map(fn real (real x) => x + 1.0, a)))
      """;

  /** The program of {@code source} with {@code rule} alone applied to {@code main}'s top level. */
  private static Optional<InternalProgram> alone(FusionRule rule, String source) {
    Internal p = Internal.of(source).after(new SizeHindrances(), new Simplifier());
    return IndexFunctionFusion.applyAlone(rule, p.main().body(), p.names())
        .map((Body b) -> new InternalProgram(List.of(p.main().withBody(b))));
  }

  private static List<Stm> topLevelSoacs(InternalProgram p) {
    return p.functions().get(0).body().stms().stream()
        .filter(s -> s.exp() instanceof Exp.Soac)
        .toList();
  }

  private static void assertOnlyRuleFuses(FusionRule rule, String source) {
    InternalProgram fused =
        alone(rule, source)
            .orElseThrow(() -> new AssertionError(rule.ruleName() + " does not fuse " + source));
    assertEquals(Optional.empty(), IrChecker.problem(fused));
    assertEquals(1, topLevelSoacs(fused).size(), () -> fused.toString());
    for (FusionRule other :
        List.of(
            FusionRule.PUSH_TRANSPOSE,
            FusionRule.PULL_TRANSPOSE,
            FusionRule.PULL_RESHAPE,
            FusionRule.FUSE_TRANSPOSED_PRODUCER,
            FusionRule.FUSE_TRANSPOSED_CONSUMER,
            FusionRule.FUSE_RESHAPED_CONSUMER)) {
      if (other != rule) {
        assertEquals(
            Optional.empty(), alone(other, source), other.ruleName() + " should not match");
      }
    }
  }

  /** The line of the first kernel; any other is the copy of a transposed result. */
  private static String kernelLine(Compiled c) {
    List<String> lines =
        c.optimized()
            .explain()
            .lines()
            .filter(l -> l.startsWith("kernel ") && !l.startsWith("kernels:"))
            .toList();
    for (String copy : lines.subList(1, lines.size())) {
      assertTrue(
          copy.matches(
              "kernel [0-9]+: map in main: \\(main_res_[0-9]+\\) -> .*"
                  + "; shaped by MATERIALISE-TRANSPOSE"),
          copy);
    }
    return lines.get(0);
  }

  private static long count(Compiled c, Class<? extends Exp> kind) {
    return c.allStatements().stream().filter(s -> kind.isInstance(s.exp())).count();
  }

  @Test
  void pushTransposeAloneFusesFigure31() {
    assertOnlyRuleFuses(FusionRule.PUSH_TRANSPOSE, FIG_31);
  }

  @Test
  void pullTransposeAloneFusesFigure32() {
    assertOnlyRuleFuses(FusionRule.PULL_TRANSPOSE, FIG_32);
  }

  @Test
  void pullReshapeAloneFusesTheReshapeExample() {
    assertOnlyRuleFuses(FusionRule.PULL_RESHAPE, RESHAPE);
  }

  @Test
  void fuseTransposedProducerAloneFusesThroughTwoInverseTranspositions() {
    assertOnlyRuleFuses(FusionRule.FUSE_TRANSPOSED_PRODUCER, TRANSPOSED_PRODUCER);
  }

  @Test
  void fuseTransposedConsumerAloneKeepsTheTransposeOnTheResult() {
    assertOnlyRuleFuses(FusionRule.FUSE_TRANSPOSED_CONSUMER, TRANSPOSED_CONSUMER);
  }

  @Test
  void fuseReshapedConsumerAloneKeepsTheReshapeOnTheResult() {
    assertOnlyRuleFuses(FusionRule.FUSE_RESHAPED_CONSUMER, RESHAPED_CONSUMER);
  }

  @Test
  void figure31IsOneKernelWithTheTransposeOnItsResultCopiedByASecond() {
    Compiled c = Compiled.of(FIG_31);
    assertEquals(List.of("map{reduce, map}", "map"), c.kernelStructures());
    assertTrue(
        kernelLine(c)
            .endsWith(
                "; fused by PUSH-TRANSPOSE, FUSE-TRANSPOSED-CONSUMER, FUSE-MAP-MAP;"
                    + " shaped by REMOVE-SIZE-HINDRANCE"),
        kernelLine(c));
    assertEquals(1, count(c, Exp.Transpose.class), "the transpose stays, as an index function");
    c.assertRowsSized(1);
    c.assertSameResult("main", MATRIX);
    c.assertSameResult("main", "[]");
  }

  @Test
  void figure32IsOneKernelReadingTheTransposedInput() {
    Compiled c = Compiled.of(FIG_32);
    assertEquals(List.of("map{redomap}"), c.kernelStructures());
    assertTrue(
        kernelLine(c)
            .endsWith(
                "; fused by PULL-TRANSPOSE, FUSE-MAP-MAP, FUSE-MAP-REDOMAP;"
                    + " shaped by REMOVE-SIZE-HINDRANCE"),
        kernelLine(c));
    assertEquals(1, count(c, Exp.Transpose.class));
    c.assertSameResult("main", MATRIX);
  }

  @Test
  void theReshapeExampleIsOneKernelOverTheReshapedInput() {
    Compiled c = Compiled.of(RESHAPE);
    assertEquals(List.of("map{redomap}"), c.kernelStructures());
    assertTrue(
        kernelLine(c).endsWith("; fused by PULL-RESHAPE, FUSE-MAP-MAP, FUSE-MAP-REDOMAP"),
        kernelLine(c));
    assertEquals(1, count(c, Exp.Reshape.class));
    String six = "[1.0, 2.5, -3.0, 0.125, 1e300, 7.0]";
    c.assertSameResult("main", six + " 2 3");
    c.assertSameResult("main", six + " 3 2");
    L0RuntimeError wrongShape =
        assertThrows(L0RuntimeError.class, () -> c.assertSameResult("main", six + " 4 2"));
    assertEquals("reshape", wrongShape.operation());
  }

  @Test
  void theTransposedProducerAndItsInverseAreOneKernelWithNoTranspose() {
    Compiled c = Compiled.of(TRANSPOSED_PRODUCER);
    assertEquals(1, c.kernelStructures().size(), c.optimized().explain());
    assertTrue(kernelLine(c).contains("FUSE-TRANSPOSED-PRODUCER"), kernelLine(c));
    assertEquals(0, count(c, Exp.Transpose.class));
    c.assertSameResult("main", MATRIX);
  }

  @Test
  void consumersWithTransposedOrReshapedResultsFuse() {
    Compiled transposed = Compiled.of(TRANSPOSED_CONSUMER);
    assertEquals(List.of("map{map}", "map"), transposed.kernelStructures());
    assertTrue(kernelLine(transposed).contains("FUSE-TRANSPOSED-CONSUMER"));
    transposed.assertRowsSized(1);
    transposed.assertSameResult("main", MATRIX);
    Compiled reshaped = Compiled.of(RESHAPED_CONSUMER);
    assertEquals(List.of("map"), reshaped.kernelStructures());
    assertTrue(kernelLine(reshaped).contains("FUSE-RESHAPED-CONSUMER"));
    reshaped.assertSameResult("main", "[1.0, 2.0, 3.0, 4.0] 2 2");
  }

  /**
   * Negative: a transposition deeper than either map nest (the producer is no nest, the consumer
   * one map deep) blocks fusion; the two kernels stay and agree with the interpreter.
   */
  @Test
  void aTranspositionDeeperThanBothNestsBlocksFusion() {
    Compiled c =
        Compiled.of(
            """
            fun [real] main([[real]] a) =
              let b = map(fn [real] ([real] r) =>
                            let s = reduce(op +, 0.0, r) in map(fn real (real x) => x / s, r), a) in
              map(fn real ([real] r) => reduce(op +, 0.0, r), transpose(b))
            """);
    assertEquals(2, c.kernelStructures().size(), c.optimized().explain());
    c.assertSameResult("main", MATRIX);
  }
}
