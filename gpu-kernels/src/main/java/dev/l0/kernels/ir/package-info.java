/**
 * The kernel IR: GPU kernels and the host steps that run them, what the lowering produces and what
 * the CUDA printer, the SIMT simulator and the JVM backend consume.
 *
 * <h2>Semantics</h2>
 *
 * A {@link dev.l0.kernels.ir.KernelGroup} is run by a host: it binds the group's inputs (arrays
 * copied row-major into buffers, their sizes into {@code i64} host scalars, scalars into host
 * scalars), runs its {@link dev.l0.kernels.ir.HostStep}s in order, and reads its outputs back. A
 * launch runs the kernel's body once per thread of {@code gridSize} blocks of {@code blockDim.x}
 * threads; the block size is the executor's choice, a power of two, and every kernel gives the same
 * results for every block size. Kernels refer to buffers and host scalars by name. Scalar
 * operations mean exactly what {@code dev.l0.semantics.ScalarOperations} and {@code
 * dev.l0.math.L0Math} say (integer wrap-around, Java shifts, f32 computed in float, no FMA
 * contraction); operations that could fail there are guarded by the lowering and raise a {@link
 * dev.l0.kernels.ir.KernelStmt.RaiseError} instead. Indices into buffers and shared arrays are
 * {@code i64}; the thread index registers read as {@code i64}. Kernels use no atomics. A
 * thread-private buffer ({@link dev.l0.kernels.ir.Buffer.Space#THREAD_PRIVATE}) gives every thread
 * an array of its own, indexed from 0: the arrays a thread builds (copies, in-place updates,
 * loop-carried arrays) live there, sized per thread by the host, so a backend needs memory for the
 * threads that run at once only (the JVM: one array per worker). An array a thread grows without a
 * bound the host can compute (a loop appending rows whose number depends on the data) gets a
 * capacity scaled by {@link dev.l0.kernels.ir.KernelGroup#CAPACITY_SCALE}; a thread that would
 * outgrow it raises a capacity overflow instead of writing, and the host reruns the group with a
 * larger scale ({@link dev.l0.kernels.ir.CapacityReruns}). A thread's first raised error is never
 * replaced by its own later ones, so its overflow is not hidden by what it computes after it.
 *
 * <h2>Reduction order (the contract all backends implement)</h2>
 *
 * A top-level reduction or scan over {@code n} elements (redomap, reduce, scan, scanomap, and the
 * counting of filter) splits the elements into {@code C = ReductionOrder.chunkCount(n) =
 * clamp(ceil(n / 16), 1, 65536)} chunks of {@code S = ceil(n / C)} elements: chunk {@code c} is
 * {@code [c*S, min((c+1)*S, n))}, possibly empty at the end. Each chunk is folded sequentially,
 * from the neutral element, with the fold function, giving {@code partial[c]}.
 *
 * <ul>
 *   <li>Reduction: the partials are combined by the pairwise tree: for {@code s = 1, 2, 4, ...}
 *       while {@code s < C}, every {@code j} that is a multiple of {@code 2s} with {@code j + s <
 *       C} becomes {@code combine(partial[j], partial[j + s])}; the result is {@code partial[0]}.
 *       (A GPU block of {@code B} threads, {@code B} a power of two, holding the aligned chunks
 *       {@code [bB, (b+1)B)} computes exactly the levels {@code s < B} of this tree for them, so a
 *       block tree followed by the same tree over the block results is the same computation.)
 *   <li>Scan: {@code carry[0] = neutral}, {@code carry[c+1] = combine(carry[c], partial[c])},
 *       sequentially; then chunk {@code c} is folded again from {@code carry[c]}, each element's
 *       accumulator being its output. For integer programs this equals the left-to-right scan.
 *   <li>Filter: the per-chunk counts of kept rows are scanned the same way (exclusive offsets) and
 *       each chunk writes its kept rows in order from its offset: the interpreter's result.
 * </ul>
 *
 * {@link dev.l0.kernels.ir.ReductionOrder} holds the formula and a reference implementation.
 * Accumulators that are arrays (an operator that combines arrays, such as an element-wise sum of
 * rows) follow the same order: each chunk's partial is an array, folded sequentially from a copy of
 * the neutral array, the partials are combined by the same pairwise tree (a reduction) or the same
 * sequence of carries (a scan), and every {@code combine} or {@code fold} makes a new array from
 * its arguments, so no partial is combined twice and none is skipped. A reduce of arrays is never
 * rewritten as a map of reduces (thesis §8); its kernels are named {@code _array_partials} and
 * {@code _array_tree} (a scan: {@code _array_totals}, {@code _array_carries}, {@code
 * _array_rescan}), which explain shows. SOACs nested inside a kernel thread (a redomap inside a
 * map) run sequentially in that thread: a plain left fold with the fold function, the interpreter's
 * order. A map whose body is one integer or boolean reduction or scan over its row may instead run
 * a block per row when it has few rows (segmented, {@code dev.l0.kernels.lower.SegmentedRows}):
 * each thread folds a contiguous slice of the row, and the slices are combined in order (a scan
 * refolds each slice from its carry), which for those types gives the left fold's bits.
 */
package dev.l0.kernels.ir;
