package dev.l0.kernels.ir;

import dev.l0.ir.ScalarType;

/**
 * A global-memory buffer of a kernel group: a flat array of {@code elementType} (multi-dimensional
 * L0 arrays are stored row-major). Kernels name the buffers they use as parameters; a launch binds
 * each to the group's buffer of the same name.
 */
public record Buffer(String name, ScalarType elementType) {}
