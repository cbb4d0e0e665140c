package dev.l0.kernels.sim;

import dev.l0.ir.ScalarValue;
import dev.l0.kernels.ir.ThreadIndex;

/**
 * What a compiled expression reads: the scalars in its slots, and, in a kernel thread, the index
 * registers and memory.
 */
interface Frame {
  ScalarValue local(int slot);

  ScalarValue register(ThreadIndex index);

  /** Element {@code index} of the kernel's {@code buffer}-th global buffer. */
  ScalarValue load(int buffer, long index);

  /** Element {@code index} of the kernel's {@code array}-th shared array. */
  ScalarValue sharedLoad(int array, long index);
}
