package dev.l0.kernels.exec;

import dev.l0.opt.KernelPlan;
import dev.l0.opt.eval.InternalEvaluator;
import java.util.List;

/**
 * Test support: runs each kernel with the optimiser's {@link InternalEvaluator} (sequential, left
 * to right), the reference the backends are compared with.
 */
public final class EvaluatorExecutor implements KernelExecutor {
  @Override
  public String name() {
    return "evaluator";
  }

  @Override
  public PreparedKernel prepare(KernelPlan.Kernel kernel, KernelScope scope) {
    EvaluatedStatements statement =
        new EvaluatedStatements(
            "kernel$" + kernel.outputs().get(0).name(), List.of(kernel.statement()), scope);
    return environment -> statement.run(environment).stream().map(HostValue::of).toList();
  }
}
