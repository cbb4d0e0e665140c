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
 * What one executor JVM knows about running pipelines: whether CUDA works here (probed once), the
 * executor's settings (among them the bound of its compiled-program cache), and the semaphore that
 * limits how many of its tasks use the GPU at once. The executor plugin starts it; without the
 * plugin the first task starts it from the Spark configuration. Probing never throws: any failure
 * means the JVM.
 */
public final class ExecutorRuntime {
  private static final Logger LOG = LoggerFactory.getLogger(ExecutorRuntime.class);
  private static final String GPU_RESOURCE = "gpu";

  private static volatile ExecutorRuntime started;

  private final Availability<CudaDevice> cuda;
  private final Semaphore gpuSlots;

  private ExecutorRuntime(Availability<CudaDevice> cuda, int gpuConcurrentTasks) {
    this.cuda = cuda;
    this.gpuSlots = new Semaphore(gpuConcurrentTasks, true);
  }

  /**
   * Starts this executor's runtime once (later calls keep the first): points the kernel cache at
   * the configured folder, probes CUDA and logs one line with the result and the executor's GPU
   * resources.
   */
  public static synchronized ExecutorRuntime start(
      L0Settings settings, String executorId, Map<String, ResourceInformation> resources) {
    if (started == null) {
      settings.applyKernelCacheDirectory();
      ProgramCache.limit(settings.programCacheSize());
      Availability<CudaDevice> cuda =
          settings.device() == DeviceKind.JVM
              ? Availability.unavailable("not probed: " + L0Settings.DEVICE + "=jvm")
              : probeCuda();
      started = new ExecutorRuntime(cuda, settings.gpuConcurrentTasks());
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
   * This executor's runtime, started from the Spark configuration if the plugin did not start it.
   */
  static ExecutorRuntime get() {
    ExecutorRuntime runtime = started;
    if (runtime != null) {
      return runtime;
    }
    SparkEnv env = SparkEnv.get();
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

  private static Availability<CudaDevice> probeCuda() {
    try {
      return CudaProbe.probe();
    } catch (Throwable t) {
      return Availability.unavailable("probe failed (" + t + ")");
    }
  }
}
