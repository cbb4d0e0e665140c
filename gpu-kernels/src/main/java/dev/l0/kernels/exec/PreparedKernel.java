package dev.l0.kernels.exec;

import java.util.List;

/**
 * A kernel ready to run: reads its free variables from a call's environment, returns its
 * statement's results.
 */
public interface PreparedKernel {
  /**
   * The values the kernel's statement binds, in pattern order, computed from the values of its free
   * variables in {@code environment} (arrays of scalars flat where the executor can, see {@link
   * HostValue}); copies between host and device go to {@code environment}'s meter. Fails only with
   * {@code L0RuntimeError} for the program's own failures. May run on several threads at once, each
   * with its own environment.
   */
  List<HostValue> run(HostEnvironment environment);
}
