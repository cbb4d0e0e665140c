package dev.l0.kernels.lower;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.l0.ir.Program;
import dev.l0.kernels.ir.Kernel;
import dev.l0.kernels.ir.KernelGroup;
import dev.l0.opt.KernelPlan;
import dev.l0.opt.OptimizedProgram;
import dev.l0.opt.Optimizer;
import dev.l0.syntax.L0Parser;
import dev.l0.types.TypeChecker;
import java.util.ArrayList;
import java.util.List;

/**
 * Test support shared by the kernel tests: a program type-checked, optimised and each kernel of its
 * plan lowered, keeping the groups that lower and the reasons of those that do not; and the one
 * kernel of a one-kernel program as the JVM backend lowers it.
 */
public record LoweredPrograms(
    OptimizedProgram optimized, List<KernelGroup> groups, List<String> rejections) {
  public LoweredPrograms {
    groups = List.copyOf(groups);
    rejections = List.copyOf(rejections);
  }

  public static LoweredPrograms of(Program program) {
    OptimizedProgram optimized = Optimizer.optimize(TypeChecker.check(program));
    KernelPlan plan = optimized.kernelPlan();
    List<KernelGroup> groups = new ArrayList<>();
    List<String> rejections = new ArrayList<>();
    for (KernelPlan.Kernel kernel : plan.kernels()) {
      try {
        groups.add(KernelLowering.lower(plan, kernel));
      } catch (UnsupportedKernelException e) {
        rejections.add(kernel.structure() + ": " + e.getMessage());
      }
    }
    return new LoweredPrograms(optimized, groups, rejections);
  }

  public static LoweredPrograms of(String text) {
    return of(L0Parser.parse(text, "test.l0"));
  }

  /**
   * The JVM backend's kernels of {@code program}'s one plan kernel: the first runs its rows (a
   * reduction's or a scan's group adds kernels that combine the threads' results).
   */
  public static List<Kernel> jvmKernelsOfOnlyPlanKernel(Program program) {
    return jvmGroupOfOnlyPlanKernel(program).kernels();
  }

  /** The JVM backend's kernel group of {@code program}'s one plan kernel. */
  public static KernelGroup jvmGroupOfOnlyPlanKernel(Program program) {
    OptimizedProgram optimized = Optimizer.optimize(TypeChecker.check(program));
    List<KernelPlan.Kernel> kernels = optimized.kernelPlan().kernels();
    assertEquals(1, kernels.size(), kernels::toString);
    return KernelLowering.lower(
        optimized.kernelPlan(), kernels.get(0), LaunchConfiguration.THREAD_PER_ROW);
  }
}
