package dev.l0.kernels.cudaexec;

import dev.l0.ir.L0ConfigurationError;
import dev.l0.ir.L0RuntimeError;
import dev.l0.kernels.cuda.CudaPrinter;
import dev.l0.kernels.exec.HostEnvironment;
import dev.l0.kernels.exec.HostValue;
import dev.l0.kernels.exec.KernelExecutor;
import dev.l0.kernels.exec.KernelScope;
import dev.l0.kernels.exec.Memoized;
import dev.l0.kernels.exec.PreparedKernel;
import dev.l0.kernels.exec.RunMeter;
import dev.l0.kernels.ir.KernelGroup;
import dev.l0.kernels.jvm.JvmKernelExecutor;
import dev.l0.kernels.lower.KernelLowering;
import dev.l0.kernels.lower.LaunchConfiguration;
import dev.l0.kernels.lower.UnsupportedKernelException;
import dev.l0.kernels.runtime.Availability;
import dev.l0.kernels.runtime.CudaContext;
import dev.l0.kernels.runtime.CudaDevice;
import dev.l0.kernels.runtime.CudaModule;
import dev.l0.kernels.runtime.CudaProbe;
import dev.l0.kernels.runtime.CudaUnavailableException;
import dev.l0.kernels.runtime.JvmFallback;
import dev.l0.kernels.runtime.KernelCache;
import dev.l0.kernels.runtime.Ptx;
import dev.l0.kernels.runtime.PtxCompiler;
import dev.l0.kernels.runtime.PtxCompilers;
import dev.l0.opt.KernelPlan;
import dev.l0.opt.ir.Ident;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Function;
import java.util.function.IntFunction;
import java.util.function.Supplier;

/**
 * Runs a host runner's kernels on a CUDA GPU (ARCHITECTURE.md, "Runtime"). Each kernel of the plan
 * is lowered to a kernel group once (a kernel the lowering rejects is rejected with its {@link
 * UnsupportedKernelException}, which the host runner reports as a compile error), its CUDA C
 * compiled to PTX through the kernel cache for the GPU's compute capability, and loaded; every call
 * then runs the group on the GPU ({@link DeviceGroupRunner}).
 *
 * <p>A failure for a GPU reason goes to the JVM backend with one logged line saying why ({@link
 * JvmFallback}): CUDA or a PTX compiler missing on this machine (decided once, at the first kernel,
 * for the whole executor), a kernel that does not compile or load (for that kernel), and a driver
 * error while running (for that call). A map that runs out of device memory is run again in pieces
 * of its rows ({@link RowPieces}); any other kernel, or a map of which not even one row fits, runs
 * that call on the JVM. A launch with too few parallel rows to fill a block of threads runs on the
 * JVM too ({@link NarrowLaunches}, {@code l0.cuda.minRows}). A call whose kernels raise a failure
 * of the program itself (the kernels' error word) runs again on the JVM backend, whose {@code
 * L0RuntimeError} is the first failing row's, as the interpreter reports it: on the GPU, whichever
 * failing thread comes first records its error. Closing the executor unloads its modules and
 * releases the GPU's context.
 *
 * <p>An executor runs on one GPU, named by its device ordinal ({@link #onThisMachine(int)}; GPU
 * {@value CudaProbe#DEFAULT_ORDINAL} by default), in that GPU's primary context. Prepared kernels
 * may run on several threads at once (one compiled program shared by a Spark executor's tasks):
 * each call uploads from and downloads into its own environment's flat arrays, and the group runs
 * on its GPU one call at a time, under a lock per GPU that every executor of the process on that
 * GPU shares: calls on different GPUs run side by side, calls on one GPU take turns (the time a
 * call waits for its turn is not kernel time).
 */
public final class CudaKernelExecutor implements KernelExecutor, AutoCloseable {
  /**
   * Threads per block of every launch but narrow ones ({@link NarrowLaunches#blockSize}) unless
   * {@link #BLOCK_SIZE_PROPERTY} says otherwise.
   */
  public static final int DEFAULT_BLOCK_SIZE = 256;

  /**
   * The system property of the threads per block: a power of two from a warp (32) to CUDA's limit
   * (1024), {@value #DEFAULT_BLOCK_SIZE} where unset.
   */
  static final String BLOCK_SIZE_PROPERTY = "l0.cuda.blockSize";

  /**
   * The system property of the outer size below which a map whose rows run a loop and maps of their
   * own runs a block per row ({@link LaunchConfiguration#blockRowsBelow}): 0 never, unset four rows
   * per resident block ({@link LaunchConfiguration#fourRowsPerResidentBlock}).
   */
  static final String BLOCK_ROWS_BELOW_PROPERTY = "l0.cuda.blockRowsBelow";

  private static final int MOST_THREADS_PER_BLOCK = CudaPrinter.MOST_THREADS_PER_BLOCK;

  /**
   * One lock per GPU, by device ordinal, held while a kernel group runs on that GPU: every executor
   * of the process on a GPU shares its primary context, whose default stream and synchronisation
   * would otherwise mix concurrent calls' launches, copies and timings.
   */
  private static final ConcurrentHashMap<Integer, GpuLock> GPU_LOCKS = new ConcurrentHashMap<>();

  private final GpuLock gpuLock;
  private final Availability<CudaDevice> device;
  private final Availability<KernelCache> kernelCache;
  private final IntFunction<CudaContext> contextOpener;
  private final int blockSize;
  private final LaunchConfiguration launchConfiguration;
  private final int minRows = NarrowLaunches.minRows();
  private final JvmKernelExecutor jvm;
  private final List<CudaModule> modules = new ArrayList<>();
  private Optional<GroupCompiler> compiler;
  private CudaContext context;

  /**
   * Compiles for {@code device}, GPU {@code gpuOrdinal}, through {@code kernelCache} (either may be
   * unavailable, with the reason), opening that GPU's context with {@code contextOpener} (given the
   * ordinal) when the first kernel has compiled, and launches blocks of {@code blockSize} threads
   * (a power of two; fewer for narrow launches, {@link NarrowLaunches#blockSize}); kernels are
   * lowered for the device's multiprocessors ({@link #launchConfiguration(CudaDevice, int)}).
   */
  CudaKernelExecutor(
      int gpuOrdinal,
      Availability<CudaDevice> device,
      Availability<KernelCache> kernelCache,
      IntFunction<CudaContext> contextOpener,
      int blockSize) {
    this(
        gpuOrdinal,
        device,
        kernelCache,
        contextOpener,
        blockSize,
        JvmKernelExecutor.defaultParallelism());
  }

  /**
   * As above, the kernels that run on the JVM backend (narrow launches, and launches that fail on
   * the GPU) running on at most {@code jvmThreads} threads.
   */
  private CudaKernelExecutor(
      int gpuOrdinal,
      Availability<CudaDevice> device,
      Availability<KernelCache> kernelCache,
      IntFunction<CudaContext> contextOpener,
      int blockSize,
      int jvmThreads) {
    this.jvm = new JvmKernelExecutor(jvmThreads);
    if (blockSize < 1 || Integer.bitCount(blockSize) != 1) {
      throw new IllegalArgumentException("the block size must be a power of two, not " + blockSize);
    }
    this.gpuLock = GPU_LOCKS.computeIfAbsent(gpuOrdinal, GpuLock::new);
    this.device = device;
    this.kernelCache = kernelCache;
    this.contextOpener = contextOpener;
    this.blockSize = blockSize;
    this.launchConfiguration =
        device
            .value()
            .map(d -> launchConfiguration(d, blockSize))
            .orElse(LaunchConfiguration.DEFAULT);
  }

  /**
   * The lowering's configuration for {@code device} launching blocks of {@code blockSize} threads:
   * its multiprocessors, each holding as many blocks as its resident threads allow, within the
   * blocks it keeps resident (at least one); a block per row for rows that run loops below {@code
   * l0.cuda.blockRowsBelow} rows where that is set.
   *
   * @throws L0ConfigurationError for an {@code l0.cuda.blockRowsBelow} that is not a whole number
   *     of rows
   */
  static LaunchConfiguration launchConfiguration(CudaDevice device, int blockSize) {
    int byThreads = device.maxThreadsPerMultiprocessor() / blockSize;
    LaunchConfiguration resident =
        LaunchConfiguration.forDevice(
            device.multiprocessors(),
            Math.max(1, Math.min(byThreads, device.maxBlocksPerMultiprocessor())));
    return resident.withBlockRowsBelow(
        L0ConfigurationError.longProperty(
            BLOCK_ROWS_BELOW_PROPERTY,
            resident.blockRowsBelow(),
            0,
            "the rows below which a map whose rows run loops runs a block per row"));
  }

  /**
   * The outer size below which a map whose rows run loops runs a block per row ({@code
   * l0.cuda.blockRowsBelow}, or the device's default).
   */
  public long blockRowsBelow() {
    return launchConfiguration.blockRowsBelow();
  }

  /**
   * The configuration this executor lowers its kernels with: its device's, or the default without
   * one.
   */
  LaunchConfiguration launchConfiguration() {
    return launchConfiguration;
  }

  /** {@link #onThisMachine(int)} for GPU {@value CudaProbe#DEFAULT_ORDINAL}. */
  public static CudaKernelExecutor onThisMachine() {
    return onThisMachine(CudaProbe.DEFAULT_ORDINAL);
  }

  /**
   * This machine's GPU {@code gpuOrdinal} ({@link CudaProbe#probe(int)}; where the machine lacks
   * it, every kernel runs on the JVM with the probe's reason), PTX compiler ({@link PtxCompilers})
   * and kernel cache folder, launching blocks of {@code l0.cuda.blockSize} threads ({@link
   * #blockSizeSetting}).
   *
   * @throws IllegalArgumentException for a negative ordinal
   * @throws L0ConfigurationError for an {@code l0.cuda.blockSize} that is not a power of two from
   *     32 to 1024
   */
  public static CudaKernelExecutor onThisMachine(int gpuOrdinal) {
    return onThisMachine(gpuOrdinal, JvmKernelExecutor.defaultParallelism());
  }

  /**
   * {@link #onThisMachine(int)}, the kernels that run on the JVM backend running on at most {@code
   * jvmThreads} threads (a Spark task's cores).
   */
  public static CudaKernelExecutor onThisMachine(int gpuOrdinal, int jvmThreads) {
    Availability<CudaDevice> gpu = CudaProbe.probe(gpuOrdinal);
    Availability<PtxCompiler> ptx = PtxCompilers.onThisMachine();
    Availability<KernelCache> cache =
        ptx.value()
            .map(c -> Availability.available(KernelCache.inDefaultDirectory(c), ptx.description()))
            .orElseGet(() -> Availability.unavailable(ptx.description()));
    return new CudaKernelExecutor(
        gpuOrdinal, gpu, cache, CudaContext::open, blockSizeSetting(), jvmThreads);
  }

  @Override
  public String name() {
    return "cuda";
  }

  /**
   * Where CUDA is missing, the JVM backend's kernel; else the kernel on the GPU, or on the JVM
   * backend where it does not compile or load. A kernel the lowering (or, on the JVM, the JVM
   * backend) rejects is rejected.
   */
  @Override
  public PreparedKernel prepare(KernelPlan.Kernel kernel, KernelScope scope) {
    Optional<GroupCompiler> available = compiler();
    if (available.isEmpty()) {
      return jvm.prepare(kernel, scope);
    }
    KernelGroup group = KernelLowering.lowerIn(scope.program(), kernel, launchConfiguration);
    return JvmFallback.run(
        kernel.describe(),
        () -> onDevice(group, available.get(), kernel, scope),
        () -> jvm.prepare(kernel, scope));
  }

  /**
   * The fewest parallel rows a launch runs on the GPU with ({@code l0.cuda.minRows}, {@link
   * NarrowLaunches}); fewer run on the JVM backend.
   */
  public int minRows() {
    return minRows;
  }

  /** The threads per block of every launch but narrow ones ({@code l0.cuda.blockSize}). */
  public int blockSize() {
    return blockSize;
  }

  /**
   * The threads per block the system property {@link #BLOCK_SIZE_PROPERTY} sets, validated.
   *
   * @throws L0ConfigurationError where it is not a power of two from 32 to 1024
   */
  static int blockSizeSetting() {
    String meaning = "the threads per block of a kernel launch, a power of two";
    int size =
        L0ConfigurationError.intProperty(
            BLOCK_SIZE_PROPERTY, DEFAULT_BLOCK_SIZE, NarrowLaunches.WARP, meaning);
    if (size > MOST_THREADS_PER_BLOCK || Integer.bitCount(size) != 1) {
      throw new L0ConfigurationError(
          "the system property "
              + BLOCK_SIZE_PROPERTY
              + " must be a power of two from "
              + NarrowLaunches.WARP
              + " to "
              + MOST_THREADS_PER_BLOCK
              + " ("
              + meaning
              + "), not '"
              + System.getProperty(BLOCK_SIZE_PROPERTY)
              + "'");
    }
    return size;
  }

  /** The PTX kernel cache's hits so far: kernels prepared from PTX compiled by an earlier run. */
  @Override
  public long kernelCacheHits() {
    return kernelCache.value().map(cache -> cache.statistics().hits()).orElse(0L);
  }

  /**
   * The compiler for this machine's GPU, or empty (logged once) where CUDA or a PTX compiler is
   * missing.
   */
  private synchronized Optional<GroupCompiler> compiler() {
    if (compiler == null) {
      compiler =
          JvmFallback.run(
              "the CUDA executor",
              () ->
                  Optional.of(
                      new GroupCompiler(
                          kernelCache
                              .value()
                              .orElseThrow(
                                  () -> new CudaUnavailableException(kernelCache.description())),
                          device
                              .value()
                              .orElseThrow(() -> new CudaUnavailableException(device.description()))
                              .computeCapability(),
                          blockSize)),
              Optional::empty);
    }
    return compiler;
  }

  private synchronized CudaContext context() {
    if (context == null) {
      context = contextOpener.apply(gpuLock.ordinal());
    }
    return context;
  }

  private PreparedKernel onDevice(
      KernelGroup group, GroupCompiler compiler, KernelPlan.Kernel kernel, KernelScope scope) {
    CudaModule module = loaded(compiler, group);
    DeviceGroupRunner runner = new DeviceGroupRunner(group, context(), module);
    Supplier<PreparedKernel> jvmKernel = new Memoized<>(() -> onHost(kernel, scope));
    List<Ident> outputs = kernel.outputs();
    int multiprocessors = device.value().orElseThrow().multiprocessors();
    Function<HostEnvironment, List<HostValue>> onGpu =
        environment ->
            run(
                runner,
                group,
                outputs,
                environment,
                NarrowLaunches.blockSize(kernel, group, environment, multiprocessors, blockSize));
    Function<HostEnvironment, List<HostValue>> inPieces =
        RowPieces.splits(kernel) ? environment -> RowPieces.run(kernel, environment, onGpu) : onGpu;
    PreparedKernel gpuKernel =
        environment -> {
          try {
            return JvmFallback.run(
                kernel.describe(),
                () -> inPieces.apply(environment),
                () -> jvmKernel.get().run(environment));
          } catch (L0RuntimeError raced) {
            // the GPU's threads race to record their errors: the JVM backend's run reports the
            // first failing row's, the interpreter's (the inputs are intact: kernels write only
            // into arrays they allocated)
            return jvmKernel.get().run(environment);
          }
        };
    return NarrowLaunches.placed(kernel, group, minRows, gpuKernel, jvmKernel);
  }

  /**
   * Compiles {@code group}, then loads it; the context is opened only for a kernel that compiled.
   */
  private synchronized CudaModule loaded(GroupCompiler compiler, KernelGroup group) {
    Ptx ptx = compiler.compile(group);
    CudaModule module = context().loadModule(ptx);
    modules.add(module);
    return module;
  }

  /**
   * Runs {@code group} in blocks of {@code groupBlockSize} threads when no other call is using this
   * executor's GPU, reporting the wait to the call's meter.
   */
  private List<HostValue> run(
      DeviceGroupRunner runner,
      KernelGroup group,
      List<Ident> outputs,
      HostEnvironment environment,
      int groupBlockSize) {
    Map<String, HostValue> results =
        onGpuInTurn(environment.meter(), () -> runner.run(environment, groupBlockSize));
    return outputs.stream()
        .map(
            id -> {
              HostValue value = results.get(id.name());
              if (value == null) {
                throw new IllegalStateException(group.name() + " has no output " + id.name());
              }
              return value;
            })
        .toList();
  }

  /**
   * Runs {@code work} holding the lock of this executor's GPU, which every executor on that GPU
   * shares and no executor on another GPU takes, and reports the time waited for it to {@code
   * meter}.
   */
  <T> T onGpuInTurn(RunMeter meter, Supplier<T> work) {
    long waitStart = System.nanoTime();
    synchronized (gpuLock) {
      meter.addWait(System.nanoTime() - waitStart);
      return work.get();
    }
  }

  /**
   * For a call that fails on the GPU: the kernel on the JVM backend (the same lowering, so it
   * accepts what CUDA did).
   */
  private PreparedKernel onHost(KernelPlan.Kernel kernel, KernelScope scope) {
    return jvm.prepare(kernel, scope);
  }

  @Override
  public synchronized void close() {
    modules.forEach(CudaModule::close);
    modules.clear();
    if (context != null) {
      context.close();
      context = null;
    }
  }

  /** The lock of one GPU, naming its device ordinal. */
  private record GpuLock(int ordinal) {}
}
