package dev.l0.kernels.exec;

import dev.l0.ir.Value;
import java.util.List;
import java.util.Map;

/** A kernel ready to run: reads its free variables from an environment, returns its statement's results. */
public interface PreparedKernel {
  /**
   * The values the kernel's statement binds, in pattern order, computed from the values of its
   * free variables in {@code environment}; fails only with {@code L0RuntimeError} for the program's own failures.
   */
  List<Value> run(Map<String, Value> environment);
}
