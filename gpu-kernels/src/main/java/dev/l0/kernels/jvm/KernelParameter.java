package dev.l0.kernels.jvm;

import dev.l0.ir.ScalarType;

/**
 * One value a JVM kernel reads, in the order {@link JvmKernel#run} takes them: the SOAC's input
 * arrays ({@link Role#ROWS}, a {@link FlatArray} of rank 1), then the variables its functions
 * read from outside ({@link Role#SCALAR}, a boxed primitive; {@link Role#ARRAY}, a {@link FlatArray}).
 */
public record KernelParameter(String name, Role role, ScalarType elementType, int rank) {
  public enum Role { ROWS, SCALAR, ARRAY }
}
