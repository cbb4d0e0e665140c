package dev.l0.spark.plan;

import dev.l0.kernels.runtime.Availability;
import dev.l0.kernels.runtime.CudaDevice;
import dev.l0.kernels.runtime.CudaProbe;
import dev.l0.kernels.runtime.DeviceKind;
import dev.l0.spark.L0Settings;
import dev.l0.spark.pipeline.ExecutionSettings;
import dev.l0.spark.pipeline.ProgramCache;
import java.util.Arrays;
import java.util.Map;
import java.util.concurrent.Semaphore;
import java.util.function.Supplier;
import org.apache.spark.SparkEnv;
import org.apache.spark.TaskContext;
import org.apache.spark.resource.ResourceInformation;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import scala.Option;

/**
 * What one executor JVM knows about running pipelines: whether CUDA works here (probed once per
 * JVM, when a session first asks for a device other than the JVM), the executor's settings (among
 * them the bound of its compiled-program cache), and the semaphore that limits how many of its
 * tasks use the GPU at once. The executor plugin starts it; without the plugin the first task of a
 * Spark context starts it from that context's configuration. A later Spark context in the same JVM
 * (local mode: a session stopped and another started) with other settings starts a new one; tasks
 * of the old context still running keep theirs. Probing never throws: any failure means the JVM.
 */
public final class ExecutorRuntime {
  private static final Logger LOG = LoggerFactory.getLogger(ExecutorRuntime.class);
  private static final String GPU_RESOURCE = "gpu";

  private static volatile ExecutorRuntime started;

  /** The Spark environment {@link #started} was last started or confirmed for. */
  private static volatile SparkEnv startedFor;

  /** What probing CUDA found, once probed. */
  private static Availability<CudaDevice> probedCuda;

  private final L0Settings settings;
  private final Availability<CudaDevice> cuda;
  private final Semaphore gpuSlots;

  private ExecutorRuntime(L0Settings settings, Availability<CudaDevice> cuda) {
    this.settings = settings;
    this.cuda = cuda;
    this.gpuSlots = new Semaphore(settings.gpuConcurrentTasks(), true);
  }

  /**
   * Starts this executor's runtime for {@code settings}, unless the one started last has the same
   * settings: points the kernel cache at the configured folder, bounds the program cache, probes
   * CUDA where not yet probed and logs one line with the result and the executor's GPU resources.
   */
  public static synchronized ExecutorRuntime start(
      L0Settings settings, String executorId, Map<String, ResourceInformation> resources) {
    startedFor = SparkEnv.get();
    if (started == null || !started.settings.equals(settings)) {
      settings.applyKernelCacheDirectory();
      ProgramCache.limit(settings.programCacheSize());
      Availability<CudaDevice> cuda =
          settings.device() == DeviceKind.JVM
              ? Availability.unavailable("not probed: " + L0Settings.DEVICE + "=jvm")
              : probedCuda();
      started = new ExecutorRuntime(settings, cuda);
      ResourceInformation gpus = resources.get(GPU_RESOURCE);
      LOG.info(
          "L0 executor {}: {}={}, CUDA {}, GPU resources {}, {} GPU task(s) at once, up to {} compiled programs",
          executorId,
          L0Settings.DEVICE,
          settings.device().label(),
          cuda,
          gpus == null ? "none" : Arrays.toString(gpus.addresses()),
          settings.gpuConcurrentTasks(),
          settings.programCacheSize());
    }
    return started;
  }

  /**
   * This executor's runtime, started from the current Spark context's configuration if neither the
   * plugin nor an earlier task started it for that context.
   */
  static ExecutorRuntime get() {
    ExecutorRuntime runtime = started;
    SparkEnv env = SparkEnv.get();
    if (runtime != null && startedFor == env) {
      return runtime;
    }
    return start(L0Settings.of(env.conf()), env.executorId(), Map.of());
  }

  /**
   * The settings for the current task: {@code device}, the task's GPU address if it has one, and
   * its CPUs ({@code spark.task.cpus}, 1 outside a task) as the JVM backend's thread cap, so that
   * an executor running several tasks is not oversubscribed.
   */
  static ExecutionSettings taskSettings(DeviceKind device) {
    TaskContext task = TaskContext.get();
    int cpus = task == null ? 1 : Math.max(1, task.cpus());
    Option<ResourceInformation> gpu =
        task == null ? Option.empty() : task.resources().get(GPU_RESOURCE);
    if (gpu.isEmpty() || gpu.get().addresses().length == 0) {
      return new ExecutionSettings(device, -1, cpus);
    }
    String address = gpu.get().addresses()[0];
    try {
      return new ExecutionSettings(device, Integer.parseInt(address.strip()), cpus);
    } catch (NumberFormatException e) {
      throw new IllegalStateException(
          "the task's GPU address '" + address + "' is not a device number", e);
    }
  }

  /**
   * Whether pipelines asking for {@code device} run on the JVM backend here: it is asked for, or
   * CUDA does not work.
   */
  boolean runsOnJvm(DeviceKind device) {
    return device == DeviceKind.JVM || !cuda.isAvailable();
  }

  /**
   * Runs {@code work}, holding one of this executor's GPU slots ({@value
   * L0Settings#GPU_CONCURRENT_TASKS}) when it may run on CUDA ({@code device} is not JVM and CUDA
   * works here).
   */
  <T> T withGpuSlot(DeviceKind device, Supplier<T> work) {
    if (runsOnJvm(device)) {
      return work.get();
    }
    gpuSlots.acquireUninterruptibly();
    try {
      return work.get();
    } finally {
      gpuSlots.release();
    }
  }

  /** CUDA's availability in this JVM, probed on the first call. */
  private static synchronized Availability<CudaDevice> probedCuda() {
    if (probedCuda == null) {
      try {
        probedCuda = CudaProbe.probe();
      } catch (Throwable t) {
        probedCuda = Availability.unavailable("probe failed (" + t + ")");
      }
    }
    return probedCuda;
  }
}
