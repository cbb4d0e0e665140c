package dev.l0.cli;

import dev.l0.kernels.cuda.CudaPrinter;
import dev.l0.kernels.lower.KernelLowering;
import dev.l0.kernels.lower.UnsupportedKernelException;
import dev.l0.opt.KernelPlan;
import dev.l0.opt.OptimizedProgram;
import dev.l0.opt.Optimizer;
import java.io.IOException;
import java.io.InputStream;
import java.io.PrintStream;
import java.util.Set;

/**
 * {@code l0 explain FILE.l0 [--cuda]}: the optimised internal program, its kernels, and
 * {@code kernels: N}; with {@code --cuda}, then each kernel's CUDA C (or why it is not lowered).
 */
final class ExplainCommand implements Command {
  @Override
  public Set<String> flags() {
    return Set.of("cuda");
  }

  @Override
  public int execute(CliArgs args, InputStream in, PrintStream out, PrintStream err) throws IOException {
    OptimizedProgram optimized = Optimizer.optimize(ProgramFiles.parseAndCheck(args.programFile()));
    out.print(optimized.explain());
    if (args.flag("cuda")) {
      KernelPlan plan = optimized.kernelPlan();
      for (int k = 0; k < plan.kernels().size(); k++) {
        out.println();
        out.println("// kernel " + (k + 1) + ": " + plan.kernels().get(k).describe());
        try {
          out.print(CudaPrinter.print(KernelLowering.lower(plan, plan.kernels().get(k))));
        } catch (UnsupportedKernelException e) {
          out.println("// not lowered to CUDA yet: " + e.getMessage());
        }
      }
    }
    out.flush();
    return Main.EXIT_OK;
  }
}
