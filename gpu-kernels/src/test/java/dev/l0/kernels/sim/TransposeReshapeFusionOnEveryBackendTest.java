package dev.l0.kernels.sim;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.l0.ir.Program;
import dev.l0.kernels.ir.GroupInput;
import dev.l0.kernels.ir.HostStep;
import dev.l0.kernels.ir.KernelGroup;
import dev.l0.kernels.lower.KernelLowering;
import dev.l0.kernels.lower.LaunchConfiguration;
import dev.l0.kernels.lower.LoweredPrograms;
import dev.l0.opt.KernelPlan;
import dev.l0.syntax.L0Parser;
import dev.l0.testing.IswimPrograms;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The kernels that fusion across transpose and reshape (thesis ch. 8) and hindrance removal (ch. 9)
 * make of the thesis's examples run on the simulator (blocks of 1 and 32 threads) and the JVM
 * backend as the kernels the rules promise, with the interpreter's results bit for bit (the sums
 * add numbers whose every partial sum is exact, so every order of the parallel reduction agrees),
 * and print as CUDA C that {@code nvcc} compiles where it is installed.
 */
class TransposeReshapeFusionOnEveryBackendTest {
  private static final String MATRIX =
      "[[1.5, -2.0, 3.25, 4.0], [0.5, 1.0, -7.0, 2.0], [8.0, 0.25, 1.0, -1.5]]";

  private static final String FIG_31 =
      """
      fun [[f64]] main([[f64]] a) =
        let b = map(fn [f64] ([f64] r) =>
                      let s = reduce(op +, 0.0, r) in map(fn f64 (f64 x) => x - s, r), a) in
        map(fn [f64] ([f64] r) => map(fn f64 (f64 x) => x * 2.0, r), transpose(b))
      """;

  @Test
  void figure31PushTransposeRunsAsOneMapKernelAndTheCopyOfItsTransposedResult() {
    assertRunsAs(List.of("map", "map"), FIG_31, MATRIX);
  }

  /**
   * The copy that materialise-transposes adds where a transposed result is read as a value (Fig.
   * 31's, and ISWIM's Fig. 35's) has rows whose sizes the host takes from the transpose's operand:
   * one launch on every launch configuration, no zero-row or compaction kernel, and the results
   * stay the interpreter's on every backend, over rows and over none.
   */
  @Test
  void theCopyOfATransposedResultIsOneLaunch() {
    for (String source : List.of(FIG_31, IswimPrograms.FIG_35)) {
      for (String input : List.of(MATRIX, "empty([0][4]f64)")) {
        EveryBackend.assertRunsAs(List.of("map", "map"), source, "copy.l0", input);
      }
      LoweredPrograms lowered = LoweredPrograms.of(L0Parser.parse(source, "copy.l0"));
      KernelPlan plan = lowered.optimized().kernelPlan();
      assertEquals(2, plan.kernels().size(), lowered.optimized().explain());
      for (LaunchConfiguration configuration :
          List.of(LaunchConfiguration.DEFAULT, LaunchConfiguration.THREAD_PER_ROW)) {
        KernelGroup copy = KernelLowering.lower(plan, plan.kernels().get(1), configuration);
        assertEquals(1, copy.kernels().size(), copy.kernels().toString());
        assertEquals(
            1,
            copy.steps().stream().filter(step -> step instanceof HostStep.Launch).count(),
            copy.steps().toString());
      }
    }
  }

  private static final String FIG_32 =
      """
      fun [f64] main([[f64]] a) =
        let b = map(fn [f64] ([f64] r) => map(fn f64 (f64 x) => x + 1.0, r), a) in
        map(fn f64 ([f64] r) => reduce(op +, 0.0, r), transpose(b))
      """;

  @Test
  void figure32PullTransposeRunsAsOneMapKernel() {
    assertRunsAs(List.of("map"), FIG_32, MATRIX);
  }

  /**
   * The transpose PULL-TRANSPOSE leaves on Fig. 32's input is a view: the kernel reads {@code a}'s
   * own buffer, a column per thread, which neighbouring threads read at neighbouring addresses, so
   * no tiled transpose copies it.
   */
  @Test
  void figure32ReadsItsTransposedInputAsAViewWithNoCopy() {
    KernelGroup group = LoweredPrograms.of(FIG_32).groups().get(0);
    assertEquals(List.of("a_1"), group.inputs().stream().map(GroupInput::name).toList());
    assertTrue(
        group.kernels().stream().noneMatch(k -> k.name().contains("transpose")),
        group.kernels().toString());
  }

  @Test
  void theReshapeExamplePullReshapeRunsAsOneMapKernel() {
    assertRunsAs(
        List.of("map"),
        """
        fun [f64] main([f64] a, i32 n, i32 m) =
          let b = map(fn f64 (f64 x) => x * 2.0, a) in
          map(fn f64 ([f64] r) => reduce(op +, 0.0, r), reshape((n, m), b))
        """,
        "[1.0, 2.5, -3.0, 0.125, 6.0, 7.0] 2 3");
  }

  @Test
  void aTransposedProducerReadBackRunsAsOneMapKernel() {
    assertRunsAs(
        List.of("map"),
        """
        fun [f64] main([[f64]] a) =
          let t = transpose(map(fn [f64] ([f64] r) =>
                                  let s = reduce(op +, 0.0, r) in map(fn f64 (f64 x) => x - s, r), a)) in
          map(fn f64 ([f64] r) => reduce(op +, 0.0, r), transpose(t))
        """,
        MATRIX);
  }

  @Test
  void section92IndexInliningRunsAsOneRedomapKernel() {
    assertRunsAs(
        List.of("redomap"),
        """
        fun f64 main([f64] a) =
          let b = map(fn f64 (f64 x) => x * 3.0 + 1.0, a) in
          reduce(fn f64 (f64 x, f64 y) => if x < y then x else y, b[0], b)
        """,
        "[2.5, -1.0, 1e300, 0.1]");
  }

  private static void assertRunsAs(List<String> kernels, String source, String input) {
    Program program = EveryBackend.assertRunsAs(kernels, source, "transposed.l0", input);
    EveryBackend.assertPrintsCompilableCuda(program, "transposed");
  }
}
