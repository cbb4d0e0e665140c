/**
 * The JVM backend: each kernel of a KernelPlan lowered to a kernel group by the one lowering every
 * backend shares ({@code dev.l0.kernels.lower}), its kernels printed as Java over primitive arrays
 * ({@link dev.l0.kernels.jvm.JavaKernelIrPrinter}; what a kernel's constants and loop ranges decide
 * folded first, {@link dev.l0.kernels.jvm.KernelFolding}; a map kernel of straight-line per-row
 * code staged over chunks of rows, lane-wise with the Vector API where it is present, {@link
 * dev.l0.kernels.jvm.StagedMap}, and a loop inside a thread with costly math calls or branchy
 * regions staged over chunks of its iterations, {@link dev.l0.kernels.jvm.InnerLoopStages}, and an
 * element a loop reads back from its previous iteration kept in a local, {@link
 * dev.l0.kernels.jvm.CarriedElements}) and compiled with Janino, and the group's host steps run
 * with blocks of one thread, each launch's blocks in parallel ranges ({@link
 * dev.l0.kernels.jvm.JvmGroupRunner}); the reduction order is the kernel IR's contract, so results
 * do not depend on the number of threads. Also the runtime API's array type ({@link
 * dev.l0.kernels.jvm.FlatArray}) and the Black-Scholes benchmark.
 */
package dev.l0.kernels.jvm;
