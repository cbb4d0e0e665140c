package dev.l0.kernels.sim;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.l0.interp.Interpreter;
import dev.l0.ir.L0ResourceError;
import dev.l0.ir.Value;
import dev.l0.kernels.exec.HostRunner;
import dev.l0.kernels.exec.KernelExecutor;
import dev.l0.kernels.exec.KernelScope;
import dev.l0.kernels.exec.PreparedKernel;
import dev.l0.kernels.ir.KernelGroup;
import dev.l0.kernels.lower.KernelLowering;
import dev.l0.kernels.lower.LaunchConfiguration;
import dev.l0.opt.KernelPlan;
import dev.l0.opt.OptimizedProgram;
import dev.l0.opt.Optimizer;
import dev.l0.opt.ir.Exp;
import dev.l0.testing.ProgramCase;
import dev.l0.testing.RandomPrograms;
import dev.l0.types.TypeChecker;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.Test;

/**
 * Random programs of the block per row's shape ({@link RandomPrograms#rowProgram}: a map over the
 * few rows of a matrix whose rows run a loop of maps, reductions and in-place updates of the row's
 * array) simulated with the rows forced to the blocks ({@code BlockRows}, threshold {@code
 * Long.MAX_VALUE}) and to the threads (threshold 0), at most 3 blocks (so that blocks loop over
 * rows), in blocks of 1, 4 and 32 threads: no kernel defect (a race, an out-of-bounds access or a
 * divergent barrier fails the run), all six runs give the same outcome, and that outcome is the
 * interpreter's (its value bit for bit, or a failure in the same operation at the same position:
 * some programs index out of bounds on purpose), except that a program with a float reduction or
 * scan is held to the reduction order ({@code ReductionOrder}), not to the interpreter's left fold.
 * The block form is what ran: at least half the programs with rows run a kernel by block, and none
 * runs one by block where the threads were asked for. The number of programs is the system property
 * {@code l0.rowPrograms} (default 100), from the seed {@code l0.rowProgramsFrom} (default 0) on, so
 * that a failure names its program and a campaign outside CI runs thousands.
 */
class BlockRowsRandomProgramsTest {
  private static final int PROGRAMS = Integer.getInteger("l0.rowPrograms", 100);
  private static final long FIRST_SEED = Long.getLong("l0.rowProgramsFrom", 0);
  private static final LaunchConfiguration BLOCK_PER_ROW =
      new LaunchConfiguration(3, Long.MAX_VALUE);
  private static final LaunchConfiguration THREAD_PER_ROW = new LaunchConfiguration(3, 0);
  private static final int[] BLOCK_SIZES = {1, 4, 32};

  @Test
  void rowsByBlockAndByThreadGiveTheInterpretersResults() {
    List<String> problems = new ArrayList<>();
    int withRows = 0;
    int byBlock = 0;
    int failing = 0;
    for (long seed = FIRST_SEED; seed < FIRST_SEED + PROGRAMS; seed++) {
      ProgramCase c = RandomPrograms.rowProgram(seed);
      AtomicBoolean ranByBlock = new AtomicBoolean();
      AtomicBoolean fails = new AtomicBoolean();
      try {
        problems.addAll(problems("seed " + seed, c, ranByBlock, fails));
      } catch (RuntimeException e) {
        problems.add("seed " + seed + " does not compile: " + e + "\n" + c);
      }
      if (!((Value.Array) c.args().get(0)).elements().isEmpty()) {
        withRows++;
        byBlock += ranByBlock.get() ? 1 : 0;
      }
      failing += fails.get() ? 1 : 0;
    }
    System.out.println(
        "row programs: "
            + PROGRAMS
            + " programs, "
            + withRows
            + " with rows, "
            + byBlock
            + " of them ran a kernel by block, "
            + failing
            + " fail in the interpreter, "
            + problems.size()
            + " problems");
    problems.forEach(System.out::println);
    assertEquals(List.of(), problems.stream().limit(3).toList(), problems.size() + " problems");
    assertTrue(
        2 * byBlock >= withRows, byBlock + " of " + withRows + " programs with rows ran by block");
  }

  /**
   * How {@code c} runs unlike the interpreter or unlike itself on the simulator, with the rows by
   * block and by thread, in every block size; each problem named by {@code label}. A run past the
   * simulator's limits (steps per thread, elements per buffer) is compared with nothing, but both
   * forms must pass them or neither, in each block size. Sets {@code ranByBlock} where a kernel ran
   * its rows by block, {@code fails} where the interpreter fails.
   */
  private static List<String> problems(
      String label, ProgramCase c, AtomicBoolean ranByBlock, AtomicBoolean fails) {
    List<String> problems = new ArrayList<>();
    OptimizedProgram optimized = Optimizer.optimize(TypeChecker.check(c.program()));
    String interpreted =
        RandomProgramSimulationTest.outcome(
            () -> new Interpreter(c.program()).call(c.entry(), c.args()));
    fails.set(interpreted.startsWith("failure"));
    boolean floatReduction = RandomProgramSimulationTest.hasFloatReduction(optimized.internal());
    String first = null;
    Map<Integer, Integer> limitedForms = new HashMap<>();
    for (LaunchConfiguration configuration : List.of(BLOCK_PER_ROW, THREAD_PER_ROW)) {
      boolean blocks = configuration == BLOCK_PER_ROW;
      AtomicBoolean ran = blocks ? ranByBlock : new AtomicBoolean();
      for (int blockSize : BLOCK_SIZES) {
        String name = (blocks ? "by block" : "by thread") + ", blocks of " + blockSize;
        KernelExecutor simulator =
            noting(new SimulatorExecutor(blockSize, configuration), configuration, ran);
        String simulated;
        try {
          HostRunner runner = new HostRunner(optimized, simulator);
          simulated = RandomProgramSimulationTest.outcome(() -> runner.call(c.entry(), c.args()));
        } catch (L0ResourceError beyondTheSimulator) {
          limitedForms.merge(blockSize, 1, Integer::sum);
          continue;
        } catch (RuntimeException e) {
          problems.add(label + ": " + name + " fails: " + e + "\n" + c);
          continue;
        }
        if (first == null) {
          first = simulated;
        } else if (!first.equals(simulated)) {
          problems.add(label + ": " + name + " gives " + simulated + ", not " + first + "\n" + c);
        }
        if ((!floatReduction || interpreted.startsWith("failure"))
            && !interpreted.equals(simulated)) {
          problems.add(
              label + ": " + name + " gives " + simulated + ", the interpreter " + interpreted);
        }
      }
      if (!blocks && ran.get()) {
        problems.add(label + ": a kernel ran by block where the threads were asked for\n" + c);
      }
    }
    limitedForms.forEach(
        (blockSize, forms) -> {
          if (forms == 1) {
            problems.add(
                label
                    + ": in blocks of "
                    + blockSize
                    + " one form passes the simulator's limits and the other does not\n"
                    + c);
          }
        });
    return problems;
  }

  /** {@code simulator}, setting {@code byBlock} when it runs a kernel's rows by block. */
  private static KernelExecutor noting(
      SimulatorExecutor simulator, LaunchConfiguration configuration, AtomicBoolean byBlock) {
    return new KernelExecutor() {
      @Override
      public String name() {
        return simulator.name();
      }

      @Override
      public PreparedKernel prepare(KernelPlan.Kernel kernel, KernelScope scope) {
        PreparedKernel prepared = simulator.prepare(kernel, scope);
        boolean rowsByBlock =
            runsRowsByBlock(kernel, KernelLowering.lowerIn(scope.program(), kernel, configuration));
        return environment -> {
          byBlock.compareAndSet(false, rowsByBlock);
          return prepared.run(environment);
        };
      }
    };
  }

  /**
   * Whether {@code group}, {@code kernel}'s, runs its rows by block where they are few because they
   * run a loop ({@code BlockRows}), not because each is a reduction ({@code SegmentedRows}).
   */
  private static boolean runsRowsByBlock(KernelPlan.Kernel kernel, KernelGroup group) {
    return KernelLowering.runsFewRowsByBlock(group)
        && kernel.statement().exp() instanceof Exp.Screma map
        && map.function().body().stms().stream().anyMatch(s -> s.exp() instanceof Exp.Loop);
  }
}
