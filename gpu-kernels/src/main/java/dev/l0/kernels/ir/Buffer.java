package dev.l0.kernels.ir;

import dev.l0.ir.ScalarType;

/**
 * A buffer of a kernel group: a flat array of {@code elementType} (multi-dimensional L0 arrays are
 * stored row-major), in the memory {@code space} names. Kernels name the buffers they use as
 * parameters; a launch binds each to the group's buffer of the same name.
 */
public record Buffer(String name, ScalarType elementType, Space space) {

  /** Where a buffer's elements live and who indexes them how. */
  public enum Space {
    /**
     * Global memory, one array for the whole launch: every thread indexes the same elements, {@code
     * 0 <= index < elements} of its {@link HostStep.Allocate}.
     */
    GLOBAL,
    /**
     * Thread-private memory: every thread of a launch has an array of its own of the {@link
     * HostStep.Allocate}'s elements, indexed from 0 whatever the thread, which no other thread
     * reads or writes (so accesses to it cannot race). Its contents are undefined when the thread
     * starts. A backend lays the threads' arrays out as it likes (interleaved on a GPU, so that
     * neighbouring threads' elements are adjacent; one array per worker, reused by its threads, on
     * the JVM).
     */
    THREAD_PRIVATE
  }

  /** A global buffer. */
  public Buffer(String name, ScalarType elementType) {
    this(name, elementType, Space.GLOBAL);
  }

  /** Whether every thread has its own array of this buffer ({@link Space#THREAD_PRIVATE}). */
  public boolean isThreadPrivate() {
    return space == Space.THREAD_PRIVATE;
  }
}
