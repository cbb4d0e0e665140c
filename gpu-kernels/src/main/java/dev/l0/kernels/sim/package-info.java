/**
 * The SIMT simulator: runs kernel-IR kernel groups on the CPU with real blocks, threads, shared
 * memory and barriers, and reports out-of-bounds accesses, data races and divergent barriers.
 *
 * <h2>Scheduling</h2>
 *
 * Blocks run one after another, in index order. Within a block a deterministic scheduler runs
 * thread 0 up to its next barrier (or its end), then thread 1, and so on; when every thread has
 * stopped, they must all wait at the same barrier statement, having run as many iterations of each
 * loop that holds a barrier (else the block's barrier is divergent and the launch stops: a GPU
 * would pair one thread's barrier with another's next one), and all of them then continue into the
 * next barrier interval. Each kernel is compiled once into a flat instruction list, so a thread's
 * state is a program counter and its local variables.
 *
 * <h2>What is checked</h2>
 *
 * Every global, shared and thread-private access is bounds-checked (the launch stops at the first
 * violation; a thread-private array is checked against the thread's own size). A thread-private
 * buffer is laid out as on the GPU (the threads' arrays interleaved), and a thread reading an
 * element of its own array that it has not written is reported, as the JVM reuses a worker's array
 * for the threads it runs. Two threads accessing one shared element in one barrier interval, at
 * least one of them writing, is a race; for global memory a thread reading or overwriting an
 * element another thread wrote without a barrier between them (or from another block of the same
 * launch) is a race, as is overwriting an element another thread of the block read in the same
 * interval. Reading a shared element no thread of the block has written (undefined on a GPU, where
 * shared memory is not cleared), an operation that fails in {@code ScalarOperations} (an unguarded
 * division by zero) and a thread that runs 2^24 instructions in one launch (a loop that does not
 * end) are reported as well.
 */
package dev.l0.kernels.sim;
