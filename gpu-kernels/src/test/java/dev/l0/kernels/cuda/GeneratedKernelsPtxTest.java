package dev.l0.kernels.cuda;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.l0.ir.Program;
import dev.l0.kernels.cudaexec.CudaKernelExecutor;
import dev.l0.kernels.ir.Kernel;
import dev.l0.kernels.ir.KernelGroup;
import dev.l0.kernels.lower.KernelLowering;
import dev.l0.kernels.lower.LaunchConfiguration;
import dev.l0.kernels.lower.LoweredPrograms;
import dev.l0.kernels.sim.FilterClustersOnEveryBackendTest;
import dev.l0.kernels.sim.GrowingArraysInKernelsTest;
import dev.l0.kernels.sim.MapOfReducesSimulationTest;
import dev.l0.kernels.sim.ReductionsAndMapsOnEveryBackendTest;
import dev.l0.opt.KernelPlan;
import dev.l0.opt.Optimizer;
import dev.l0.testing.IswimPrograms;
import dev.l0.testing.ProgramCase;
import dev.l0.testing.RandomPrograms;
import dev.l0.testing.TestPrograms;
import dev.l0.types.TypeChecker;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.regex.Pattern;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Every kernel the lowering makes of the corpus and of random programs compiles with {@code nvcc
 * -ptx} and the product's options (sm_90, no FMA contraction), and its PTX holds the kernel's entry
 * and no floating-point fused multiply-add. Kernels that compute {@code %} on floats are exempt
 * from the fused multiply-add check: CUDA's {@code fmod}/{@code fmodf} are exact (0 ulp, like
 * Java's {@code %}), and the fused multiply-adds inside their library code cannot change a result.
 * Skipped where nvcc is absent.
 */
class GeneratedKernelsPtxTest {
  private static final Pattern FMA_INSTRUCTION =
      Pattern.compile("(?m)^\\s*(fma|mad)\\.[a-z.]*f(32|64)\\b");
  private static final int RANDOM_PROGRAMS = 200;
  private static final int PROGRAMS_PER_MODULE = 50;
  private static final int ROW_PROGRAMS = 100;

  private static NvccCompiler nvcc;

  @BeforeAll
  static void findNvcc() {
    Optional<NvccCompiler> found = NvccCompiler.onThisMachine();
    assumeTrue(
        found.isPresent(),
        "nvcc is not on the PATH nor in $CUDA_HOME/bin: generated kernels are not compiled");
    nvcc = found.get();
  }

  @Test
  void corpusKernelsCompile() {
    List<Kernel> kernels = new ArrayList<>();
    for (String name :
        List.of(
            TestPrograms.P0_BLACKSCHOLES,
            TestPrograms.P1_MATMUL,
            TestPrograms.P2_SHORTEST_PATHS,
            "portfolio")) {
      kernels.addAll(renamed(name, LoweredPrograms.of(TestPrograms.load(name)).groups()));
    }
    assertCompiles(kernels, "the corpus");
  }

  /**
   * Loops inside kernel threads whose arrays grow by concats, or change their rows, or their rows
   * and inner sizes, from iteration to iteration ({@link GrowingArraysInKernelsTest}).
   */
  @Test
  void growingAndShrinkingArrayKernelsCompile() {
    List<Kernel> kernels = new ArrayList<>();
    List<List<String>> programs = GrowingArraysInKernelsTest.PROGRAMS_AND_INPUTS;
    for (int k = 0; k < programs.size(); k++) {
      kernels.addAll(renamed("grow" + k, LoweredPrograms.of(programs.get(k).get(0)).groups()));
    }
    assertCompiles(kernels, "loops whose arrays change their sizes");
  }

  /** A reduce of wide rows as a map of reduces ({@code _column_partials}, {@code _column_tree}). */
  @Test
  void mapOfReducesKernelsCompile() {
    List<Kernel> kernels =
        renamed("rows", LoweredPrograms.of(MapOfReducesSimulationTest.SUM_OF_ROWS).groups());
    assertTrue(
        kernels.stream().anyMatch(k -> k.name().contains("_column_partials")), kernels::toString);
    assertCompiles(kernels, "a map of reduces");
  }

  /** The maps of scans that ISWIM makes (thesis §8.3, Figs. 35 and 36), at depths 1 to 3. */
  @Test
  void iswimKernelsCompile() {
    List<Kernel> kernels = new ArrayList<>();
    List<List<String>> programs = IswimPrograms.withInputs();
    for (int k = 0; k < programs.size(); k++) {
      kernels.addAll(renamed("iswim" + k, LoweredPrograms.of(programs.get(k).get(0)).groups()));
    }
    assertCompiles(kernels, "the ISWIM examples");
  }

  /** Seed 002's filter clusters: a filtermap's count, offsets and scatter kernels, normalize2's. */
  @Test
  void filterClusterKernelsCompile() {
    List<Kernel> kernels = new ArrayList<>();
    kernels.addAll(
        renamed(
            "mfm", LoweredPrograms.of(FilterClustersOnEveryBackendTest.MAP_FILTER_MAP).groups()));
    kernels.addAll(
        renamed("n2", LoweredPrograms.of(FilterClustersOnEveryBackendTest.NORMALIZE2).groups()));
    assertTrue(kernels.stream().anyMatch(k -> k.name().endsWith("_scatter")), kernels::toString);
    assertCompiles(kernels, "filter clusters");
  }

  /**
   * A reduction and a map of one array, or of two arrays of one size, as one screma: its chunk
   * kernel stores the map's rows, scalars or arrays of a known size; two reductions of two arrays
   * of one size as one redomap, and maps of arrays of one size as one map.
   */
  @Test
  void scremaKernelsCompile() {
    List<Kernel> kernels = new ArrayList<>();
    List<String> programs =
        List.of(
            ReductionsAndMapsOnEveryBackendTest.SUM_AND_DOUBLED,
            ReductionsAndMapsOnEveryBackendTest.OF_ONE_PRODUCER,
            ReductionsAndMapsOnEveryBackendTest.MIN_MAX_SUM_AND_SHIFTED,
            ReductionsAndMapsOnEveryBackendTest.SUM_AND_QUOTIENTS,
            ReductionsAndMapsOnEveryBackendTest.PRODUCT_AND_ROWS_OF_OTHER_TYPES,
            ReductionsAndMapsOnEveryBackendTest.SUM_AND_SCALED_ROWS,
            ReductionsAndMapsOnEveryBackendTest.MAX_AND_SCALED_MATRICES,
            ReductionsAndMapsOnEveryBackendTest.SUM_AND_QUOTIENT_ROWS,
            ReductionsAndMapsOnEveryBackendTest.MAX_OF_PREFIXES_AND_SUM,
            ReductionsAndMapsOnEveryBackendTest.SUM_AND_HALVED_OF_ZIPPED,
            ReductionsAndMapsOnEveryBackendTest.PRODUCT_AND_QUOTIENTS_OF_ZIPPED,
            ReductionsAndMapsOnEveryBackendTest.MAPS_OF_ZIPPED_AND_OF_PREFIXES);
    for (int k = 0; k < programs.size(); k++) {
      kernels.addAll(renamed("screma" + k, LoweredPrograms.of(programs.get(k)).groups()));
    }
    assertTrue(kernels.stream().anyMatch(k -> k.name().endsWith("_chunks")), kernels::toString);
    assertCompiles(kernels, "scremas");
  }

  @Test
  void randomProgramKernelsCompile() {
    assertBatchesCompile(RandomPrograms.programs().sampleStream().limit(RANDOM_PROGRAMS).toList());
  }

  /**
   * Random programs with per-thread arrays (reductions and scans of arrays, loops that filter their
   * array accumulator, in-place updates, array-valued map bodies): every kernel lowers and
   * compiles.
   */
  @Test
  void kernelArrayProgramKernelsCompile() {
    List<ProgramCase> cases = new ArrayList<>();
    for (int seed = 0; seed < RANDOM_PROGRAMS; seed++) {
      ProgramCase c = RandomPrograms.kernelArrayProgram(seed);
      List<String> rejections = LoweredPrograms.of(c.program()).rejections();
      assertTrue(rejections.isEmpty(), "seed " + seed + ": " + rejections + "\n" + c);
      cases.add(c);
    }
    assertBatchesCompile(cases);
  }

  /**
   * Random programs whose few rows run loops of maps ({@link RandomPrograms#rowProgram}), lowered
   * with the rows forced to the blocks: every kernel lowers, most with a block per row ({@code
   * BlockRows}), and compiles.
   */
  @Test
  void rowProgramKernelsCompile() {
    LaunchConfiguration blockPerRow = new LaunchConfiguration(3, Long.MAX_VALUE);
    List<Kernel> kernels = new ArrayList<>();
    int byBlock = 0;
    for (int seed = 0; seed < ROW_PROGRAMS; seed++) {
      Program program = RandomPrograms.rowProgram(seed).program();
      KernelPlan plan = Optimizer.optimize(TypeChecker.check(program)).kernelPlan();
      List<KernelGroup> groups = new ArrayList<>();
      for (KernelPlan.Kernel kernel : plan.kernels()) {
        groups.add(KernelLowering.lower(plan, kernel, blockPerRow));
      }
      byBlock += groups.stream().anyMatch(KernelLowering::runsFewRowsByBlock) ? 1 : 0;
      kernels.addAll(renamed("row" + seed, groups));
      if ((seed + 1) % PROGRAMS_PER_MODULE == 0) {
        assertCompiles(kernels, "row programs to seed " + seed);
        kernels.clear();
      }
    }
    assertTrue(2 * byBlock >= ROW_PROGRAMS, byBlock + " of " + ROW_PROGRAMS + " run rows by block");
  }

  private static void assertBatchesCompile(List<ProgramCase> cases) {
    for (int from = 0; from < cases.size(); from += PROGRAMS_PER_MODULE) {
      List<Kernel> kernels = new ArrayList<>();
      List<ProgramCase> batch =
          cases.subList(from, Math.min(from + PROGRAMS_PER_MODULE, cases.size()));
      for (int i = 0; i < batch.size(); i++) {
        kernels.addAll(
            renamed("p" + (from + i), LoweredPrograms.of(batch.get(i).program()).groups()));
      }
      assertCompiles(kernels, "random programs " + batch);
    }
  }

  /** The groups' kernels, renamed apart so that several programs share one translation unit. */
  private static List<Kernel> renamed(String prefix, List<KernelGroup> groups) {
    String stem = prefix.replaceAll("[^A-Za-z0-9_]", "_");
    return groups.stream()
        .flatMap(g -> g.kernels().stream())
        .map(k -> new Kernel(stem + "_" + k.name(), k.buffers(), k.scalars(), k.shared(), k.body()))
        .toList();
  }

  private static void assertCompiles(List<Kernel> kernels, String what) {
    List<Kernel> withFmod = kernels.stream().filter(GeneratedKernelsPtxTest::callsFmod).toList();
    List<Kernel> others = kernels.stream().filter(k -> !callsFmod(k)).toList();
    assertFalse(
        FMA_INSTRUCTION.matcher(compile(others, what)).find(), "PTX of " + what + " contains fma");
    compile(withFmod, what + " (with float %)");
  }

  private static boolean callsFmod(Kernel kernel) {
    return CudaPrinter.printModule(List.of(kernel), CudaKernelExecutor.DEFAULT_BLOCK_SIZE)
        .contains("fmod");
  }

  /**
   * The PTX of {@code kernels} in one translation unit, after checking each kernel's entry is
   * there.
   */
  private static String compile(List<Kernel> kernels, String what) {
    if (kernels.isEmpty()) {
      return "";
    }
    String ptx;
    try {
      ptx =
          nvcc.compileToPtx(
              CudaPrinter.printModule(kernels, CudaKernelExecutor.DEFAULT_BLOCK_SIZE), "generated");
    } catch (CudaCompileException e) {
      throw new AssertionError("kernels of " + what + " do not compile: " + e.getMessage(), e);
    }
    for (Kernel k : kernels) {
      assertTrue(ptx.contains(".entry " + k.name() + "("), "PTX lacks " + k.name());
    }
    return ptx;
  }
}
