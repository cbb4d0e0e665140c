package dev.l0.kernels.lower;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.l0.ir.BinaryOperator;
import dev.l0.ir.Program;
import dev.l0.ir.ScalarType;
import dev.l0.ir.ScalarValue;
import dev.l0.kernels.ir.Buffer;
import dev.l0.kernels.ir.GroupInput;
import dev.l0.kernels.ir.GroupOutput;
import dev.l0.kernels.ir.HostStep;
import dev.l0.kernels.ir.Kernel;
import dev.l0.kernels.ir.KernelExpr;
import dev.l0.kernels.ir.KernelGroup;
import dev.l0.kernels.ir.KernelStmt;
import dev.l0.kernels.ir.SharedArray;
import dev.l0.kernels.lower.UncoalescedReads.Pattern;
import dev.l0.kernels.lower.UncoalescedReads.Read;
import dev.l0.opt.KernelPlan;
import dev.l0.opt.Optimizer;
import dev.l0.syntax.L0Parser;
import dev.l0.testing.TestPrograms;
import dev.l0.types.TypeChecker;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

/**
 * The coalescing analysis on lowered groups: it fires for inputs that threads read along rows, a
 * row per thread, and for nothing else; where it fires, the lowering reads a transposed copy made
 * by a tiled transpose launched first, and the consumer's reads of it are coalesced.
 */
class UncoalescedReadsTest {
  private static final String ROW_SUMS =
      "fun [f64] main([[f64]] m) = map(fn f64 ([f64] row) => reduce(op +, 0.0, row), m)";

  private static KernelPlan plan(Program program) {
    KernelPlan plan = Optimizer.optimize(TypeChecker.check(program)).kernelPlan();
    assertEquals(1, plan.kernels().size(), "kernels of " + program);
    return plan;
  }

  private static KernelPlan plan(String source) {
    return plan(L0Parser.parse(source, "test.l0"));
  }

  /** The group as lowered before the analysis: every input read as stored. */
  private static KernelGroup direct(KernelPlan plan) {
    return KernelLowering.lowerReading(
        plan, plan.kernels().get(0), LaunchConfiguration.DEFAULT, Set.of());
  }

  private static KernelGroup direct(String source) {
    return direct(plan(source));
  }

  private static KernelGroup lowered(String source) {
    KernelPlan plan = plan(source);
    return KernelLowering.lower(plan, plan.kernels().get(0));
  }

  /** The patterns of the loads from each input's buffer, by the input's program name. */
  private static Map<String, Set<Pattern>> inputPatterns(KernelGroup group) {
    Map<String, String> inputOfBuffer =
        group.inputs().stream()
            .filter(GroupInput.Array.class::isInstance)
            .map(GroupInput.Array.class::cast)
            .collect(Collectors.toMap(a -> a.buffer().name(), GroupInput::name));
    return UncoalescedReads.reads(group).stream()
        .filter(read -> inputOfBuffer.containsKey(read.buffer()))
        .collect(
            Collectors.groupingBy(
                read -> inputOfBuffer.get(read.buffer()),
                Collectors.mapping(Read::pattern, Collectors.toSet())));
  }

  private static String onlyArrayInput(KernelGroup group) {
    List<String> arrays =
        group.inputs().stream()
            .filter(GroupInput.Array.class::isInstance)
            .map(GroupInput::name)
            .toList();
    assertEquals(1, arrays.size(), "array inputs of " + group.name());
    return arrays.get(0);
  }

  @Test
  void aThreadPerRowSumReadsAlongRowsAndIsTransposed() {
    KernelGroup direct = direct(ROW_SUMS);
    String m = onlyArrayInput(direct);
    assertEquals(Map.of(m, Set.of(Pattern.ALONG_ROW_PER_THREAD)), inputPatterns(direct));
    assertEquals(Set.of(m), UncoalescedReads.toTranspose(direct));
  }

  @Test
  void theTransposedGroupLaunchesATiledTransposeFirstAndReadsTheCopyCoalesced() {
    KernelGroup group = lowered(ROW_SUMS);
    assertEquals(2, group.kernels().size());
    Kernel transpose = group.kernels().get(0);
    Kernel rows = group.kernels().get(1);
    assertTrue(transpose.name().contains("_transpose"), transpose.name());
    List<Kernel> launched =
        group.steps().stream()
            .filter(HostStep.Launch.class::isInstance)
            .map(s -> ((HostStep.Launch) s).kernel())
            .toList();
    assertEquals(List.of(transpose, rows), launched);
    assertEquals(
        List.of(SharedArray.ofFixedSize(transpose.shared().get(0).name(), ScalarType.F64, 32 * 33)),
        transpose.shared(),
        "one padded 32 x 33 tile");
    assertEquals(
        2,
        KernelLoweringTest.count(transpose.body(), s -> s instanceof KernelStmt.Barrier),
        "a barrier after the load and one after the store");
    GroupInput.Array input = (GroupInput.Array) group.inputs().get(0);
    assertEquals(
        List.of(input.buffer()),
        transpose.buffers().subList(0, 1),
        "the transpose reads the input");
    assertTrue(
        rows.buffers().stream().noneMatch(b -> b.equals(input.buffer())),
        "the row kernel reads only the copy");
    String copy = transpose.buffers().get(1).name();
    assertTrue(
        rows.buffers().stream().anyMatch(b -> b.name().equals(copy)), rows.buffers().toString());
    Set<Pattern> copyReads =
        UncoalescedReads.reads(group).stream()
            .filter(r -> r.kernel().equals(rows.name()) && r.buffer().equals(copy))
            .map(Read::pattern)
            .collect(Collectors.toSet());
    assertEquals(
        Set.of(Pattern.NEIGHBOURS_ADJACENT),
        copyReads,
        "neighbouring threads read neighbouring elements of the copy");
    assertEquals(Set.of(), UncoalescedReads.toTranspose(group), "nothing is left to transpose");
    KernelLoweringTest.assertWellFormed(group);
  }

  @Test
  void matrixMultiplicationTransposesTheRowsOperandAndNotTheBroadcastOne() {
    KernelGroup direct = direct(plan(TestPrograms.load(TestPrograms.P1_MATMUL)));
    Map<String, Set<Pattern>> patterns = inputPatterns(direct);
    assertEquals(2, patterns.size(), patterns.toString());
    String rowsOperand =
        patterns.entrySet().stream()
            .filter(e -> e.getValue().contains(Pattern.ALONG_ROW_PER_THREAD))
            .map(Map.Entry::getKey)
            .findFirst()
            .orElseThrow(() -> new AssertionError("no read along rows: " + patterns));
    assertEquals(
        Set.of(Pattern.ALONG_ROW_PER_THREAD),
        patterns.get(rowsOperand),
        "a[i][k], i the thread's row");
    patterns.forEach(
        (input, seen) -> {
          if (!input.equals(rowsOperand)) {
            assertEquals(
                Set.of(Pattern.SAME_FOR_ALL_THREADS),
                seen,
                "b[k][j], the same for every thread: " + input);
          }
        });
    assertEquals(Set.of(rowsOperand), UncoalescedReads.toTranspose(direct));
  }

  @Test
  void aMapOverAOneDimensionalArrayReadsNeighboursAndIsNotTransposed() {
    String source = "fun [f64] main([f64] xs) = map(fn f64 (f64 x) => x * 2.0 + 1.0, xs)";
    KernelGroup direct = direct(source);
    assertEquals(
        Map.of(onlyArrayInput(direct), Set.of(Pattern.NEIGHBOURS_ADJACENT)), inputPatterns(direct));
    assertEquals(Set.of(), UncoalescedReads.toTranspose(direct));
    assertEquals(1, lowered(source).kernels().size());
  }

  /**
   * A thread per column {@code j} of {@code b}, summing it down the rows: {@code b[k][j]} at {@code
   * k * N + j}, neighbouring threads reading neighbouring elements (the access of a matrix
   * product's right operand with {@code j} across threads): coalesced, not transposed.
   */
  @Test
  void aThreadPerColumnReadsNeighboursAndIsNotTransposed() {
    KernelExpr.Var rows = new KernelExpr.Var("b_d0", ScalarType.I64);
    KernelExpr.Var columns = new KernelExpr.Var("b_d1", ScalarType.I64);
    Buffer b = new Buffer("b", ScalarType.F64);
    Buffer out = new Buffer("out", ScalarType.F64);
    KernelExpr.Var j = new KernelExpr.Var("j", ScalarType.I64);
    KernelExpr.Var k = new KernelExpr.Var("k", ScalarType.I64);
    KernelExpr.Var sum = new KernelExpr.Var("sum", ScalarType.F64);
    List<KernelStmt> column =
        List.of(
            new KernelStmt.Declare(sum, new KernelExpr.Constant(ScalarValue.f64(0))),
            new KernelStmt.For(
                k,
                KernelExprs.ZERO,
                rows,
                KernelExprs.ONE,
                List.of(
                    new KernelStmt.Assign(
                        sum,
                        new KernelExpr.Binary(
                            BinaryOperator.ADD,
                            ScalarType.F64,
                            sum,
                            new KernelExpr.Load(
                                b, KernelExprs.add(KernelExprs.mul(k, columns), j)))))),
            new KernelStmt.Store(out, j, sum));
    Kernel kernel =
        KernelAssembler.assemble(
            "column_sums",
            List.of(
                new KernelStmt.For(
                    j,
                    KernelExprs.GLOBAL_THREAD,
                    columns,
                    KernelExprs.mul(KernelExprs.BLOCK_DIM, KernelExprs.GRID_DIM),
                    column)));
    KernelGroup group =
        new KernelGroup(
            "columns",
            List.of(new GroupInput.Array("b", b, List.of(rows, columns))),
            List.of(kernel),
            List.of(
                new HostStep.Allocate(out, columns), new HostStep.Launch(kernel, KernelExprs.ONE)),
            List.of(new GroupOutput("sums", out, List.of(columns))),
            List.of());
    assertEquals(
        List.of(new Read("column_sums", "b", Pattern.NEIGHBOURS_ADJACENT)),
        UncoalescedReads.reads(group));
    assertEquals(Set.of(), UncoalescedReads.toTranspose(group));
  }

  /**
   * The host makes {@code iota(n)}, so the column {@code j} is loaded from memory: the analysis
   * does not guess.
   */
  @Test
  void aReadAtAnIndexLoadedFromMemoryIsNotAffineAndNotTransposed() {
    String source =
        "fun [f64] main([[f64]] m, i32 n) = "
            + "map(fn f64 (i32 j) => reduce(op +, 0.0, map(fn f64 ([f64] row) => row[j], m)), iota(n))";
    KernelGroup direct = direct(source);
    String m =
        direct.inputs().stream()
            .filter(in -> in instanceof GroupInput.Array a && a.shape().size() == 2)
            .map(GroupInput::name)
            .findFirst()
            .orElseThrow();
    assertEquals(
        Set.of(Pattern.NOT_AFFINE), inputPatterns(direct).get(m), "m[k][j], j read from memory");
    assertEquals(Set.of(), UncoalescedReads.toTranspose(direct));
    assertEquals(1, lowered(source).kernels().size());
  }

  @Test
  void aReductionOverRowsReadsChunksWhichACopyWouldNotCoalesce() {
    String source =
        "fun f64 main([[f64]] m) = reduce(op +, 0.0, map(fn f64 ([f64] row) => reduce(op +, 0.0, row), m))";
    KernelPlan plan = plan(source);
    LaunchConfiguration wholeFolds =
        new LaunchConfiguration(
            LaunchConfiguration.DEFAULT.maxBlocks(),
            LaunchConfiguration.DEFAULT.segmentedRowsBelow(),
            LaunchConfiguration.DEFAULT.blockRowsBelow(),
            true,
            false,
            false);
    KernelGroup fused =
        KernelLowering.lowerReading(plan, plan.kernels().get(0), wholeFolds, Set.of());
    assertTrue(
        inputPatterns(fused).get(onlyArrayInput(fused)).contains(Pattern.OTHER_STRIDE),
        inputPatterns(fused).toString());
    assertEquals(Set.of(), UncoalescedReads.toTranspose(fused));
    // split off the reduction (FoldFission), a thread per row sums its row: along the rows, so
    // from a transposed copy
    KernelGroup split = direct(source);
    assertEquals(Set.of(onlyArrayInput(split)), UncoalescedReads.toTranspose(split));
  }

  @Test
  void integerRowSumsAlsoReadBlockPerRowSlicesAndKeepTheirInput() {
    String source =
        "fun [i32] main([[i32]] m) = map(fn i32 ([i32] row) => reduce(op +, 0, row), m)";
    KernelGroup direct = direct(source);
    assertEquals(
        Map.of(onlyArrayInput(direct), Set.of(Pattern.ALONG_ROW_PER_THREAD, Pattern.OTHER_STRIDE)),
        inputPatterns(direct),
        "the thread-per-row loop and the block-per-row slices");
    assertEquals(Set.of(), UncoalescedReads.toTranspose(direct));
  }

  @Test
  void aThreeDimensionalArrayIsTransposedAsRowsOfPlanes() {
    String source =
        "fun [f64] main([[[f64]]] c) = "
            + "map(fn f64 ([[f64]] plane) => reduce(op +, 0.0, map(fn f64 ([f64] row) => reduce(op *, 1.0, row), plane)), c)";
    KernelGroup direct = direct(source);
    assertEquals(
        Map.of(onlyArrayInput(direct), Set.of(Pattern.ALONG_ROW_PER_THREAD)),
        inputPatterns(direct));
    assertEquals(2, lowered(source).kernels().size());
  }
}
