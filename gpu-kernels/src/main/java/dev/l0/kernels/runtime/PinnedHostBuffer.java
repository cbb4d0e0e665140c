package dev.l0.kernels.runtime;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.concurrent.atomic.AtomicBoolean;
import jcuda.Pointer;

/**
 * Page-locked host memory ({@code cuMemAllocHost}) for staging copies between the JVM and the
 * device (ARCHITECTURE.md, "Runtime": pinned host staging). Fill it through {@link
 * #asByteBuffer()}, copy it with {@link CudaContext#upload}/{@link CudaContext#download}; closing
 * it frees the memory, once.
 */
public final class PinnedHostBuffer implements AutoCloseable {
  private final CudaContext context;
  private final Pointer pointer;
  private final long bytes;
  private final AtomicBoolean freed = new AtomicBoolean();

  PinnedHostBuffer(CudaContext context, Pointer pointer, long bytes) {
    this.context = context;
    this.pointer = pointer;
    this.bytes = bytes;
  }

  public long bytes() {
    return bytes;
  }

  /** The memory as a native-order buffer (at most 2 GiB of it). */
  public ByteBuffer asByteBuffer() {
    return pointer().getByteBuffer(0, bytes).order(ByteOrder.nativeOrder());
  }

  Pointer pointer() {
    if (freed.get()) {
      throw new IllegalStateException(
          "pinned host buffer of " + bytes + " bytes was already freed");
    }
    return pointer;
  }

  @Override
  public void close() {
    if (freed.compareAndSet(false, true)) {
      context.freePinned(pointer);
    }
  }
}
