package dev.l0.jobs;

import dev.l0.cli.FinparBenchmark;
import dev.l0.ir.Value;
import dev.l0.types.TypedProgram;
import java.lang.management.*;
import java.nio.file.Path;
import java.util.*;
import java.util.concurrent.*;
import org.apache.spark.scheduler.*;
import org.apache.spark.sql.SparkSession;

/**
 * The thirtieth session's probe of FinPar OptionPricing on Spark (bench/README.md, "Thirtieth
 * session"): runs FinparSparkJob.prices RUNS times in one session and prints per run the wall time,
 * the process's CPU time, the CPU time of the JVM's threads by kind (main: the driver; task: Spark's
 * task threads; l0-compiler: where the kernels run, the large-stack threads; l0-spec: the
 * specialiser), the JIT's compilation time, and Spark's jobs, stages, tasks and task metrics from a
 * listener, then the timeline of the run's jobs, stages and tasks (ms after the run began). Usage:
 * Probe MASTER PARTITIONS RUNS [SIZE], or Probe cli THREADS RUNS [SIZE] for the single-JVM run of
 * main (as bin/l0 finpar) on THREADS threads. Not part of the build: bench/spark-finpar-probe/probe
 * compiles and runs it.
 */
public final class Probe {
  static final List<String> events = Collections.synchronizedList(new ArrayList<>());
  static volatile long jobs, stages, tasks, runMs, deserMs, taskCpuNs, resultBytes;

  static Map<String, Long> cpuByGroup() {
    ThreadMXBean mx = ManagementFactory.getThreadMXBean();
    Map<String, Long> m = new TreeMap<>();
    for (ThreadInfo ti : mx.getThreadInfo(mx.getAllThreadIds())) {
      if (ti == null) continue;
      long c = mx.getThreadCpuTime(ti.getThreadId());
      if (c < 0) continue;
      String n = ti.getThreadName();
      String g = n.startsWith("Executor task launch") ? "task" : n.startsWith("l0-compiler") ? "l0-compiler"
          : n.startsWith("l0-jvm-kernel") ? "l0-kernel" : n.startsWith("l0-jvm-spec") ? "l0-spec" : n.equals("main") ? "main" : "otherjava";
      m.merge(g, c, Long::sum);
    }
    return m;
  }

  static long processCpu() {
    return ((com.sun.management.OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean()).getProcessCpuTime();
  }

  static long jitMs() { return ManagementFactory.getCompilationMXBean().getTotalCompilationTime(); }
  static long gcMs() { long s = 0; for (GarbageCollectorMXBean g : ManagementFactory.getGarbageCollectorMXBeans()) s += g.getCollectionTime(); return s; }

  public static void main(String[] args) throws Exception {
    String master = args[0];
    int partitions = Integer.parseInt(args[1]);
    int runs = Integer.parseInt(args[2]);
    String size = args.length > 3 ? args[3] : "medium";
    if (master.equals("cli")) { cli(partitions, runs, size); return; }
    SparkSession spark = JobSessions.start("probe", Optional.of(master));
    spark.sparkContext().addSparkListener(new SparkListener() {
      @Override public void onJobStart(SparkListenerJobStart e) { jobs++; events.add("jobStart " + e.time()); }
      @Override public void onJobEnd(SparkListenerJobEnd e) { events.add("jobEnd " + e.time()); }
      @Override public void onStageSubmitted(SparkListenerStageSubmitted e) { stages++; events.add("stageSub " + e.stageInfo().stageId() + " " + e.stageInfo().submissionTime().get()); }
      @Override public void onStageCompleted(SparkListenerStageCompleted e) { events.add("stageDone " + e.stageInfo().stageId() + " " + e.stageInfo().completionTime().get()); }
      @Override public void onTaskEnd(SparkListenerTaskEnd e) {
        tasks++;
        var m = e.taskMetrics();
        runMs += m.executorRunTime(); deserMs += m.executorDeserializeTime(); taskCpuNs += m.executorCpuTime(); resultBytes += m.resultSize();
        events.add("task st" + e.stageId() + " launch " + e.taskInfo().launchTime() + " finish " + e.taskInfo().finishTime() + " deser " + m.executorDeserializeTime() + " run " + m.executorRunTime() + " res " + m.resultSize());
      }
    });
    FinparBenchmark bench = FinparBenchmark.OPTION_PRICING;
    Path dataset = bench.dataset(dataRoot(), size);
    TypedProgram program = bench.program();
    List<Value> inputs = bench.readInput(program, dataset);
    double[] first = null;
    for (int r = 0; r < runs; r++) {
      events.clear();
      if (Integer.getInteger("probe.profFrom", -1) == r) {
        Class<?> ap = Class.forName("one.profiler.AsyncProfiler");
        Object prof = ap.getMethod("getInstance", String.class).invoke(null, "/tmp/ap/linux-x64/libasyncProfiler.so");
        ap.getMethod("execute", String.class).invoke(prof, System.getProperty("probe.profArgs", "start,event=itimer,interval=1ms,threads"));
      }
      Map<String, Long> c0 = cpuByGroup();
      long p0 = processCpu(), j0 = jitMs(), g0 = gcMs(), jb0 = jobs, st0 = stages, tk0 = tasks, rm0 = runMs, tc0 = taskCpuNs, rb0 = resultBytes;
      long t0 = System.currentTimeMillis(); long n0 = System.nanoTime();
      double[] prices = FinparSparkJob.prices(spark, bench, program, inputs, partitions);
      long n1 = System.nanoTime(); long t1 = System.currentTimeMillis();
      Thread.sleep(300); // let listener events arrive
      long p1 = processCpu();
      Map<String, Long> c1 = cpuByGroup();
      StringBuilder sb = new StringBuilder();
      sb.append(String.format("run %d t0abs " + t0 + " wall %.3f procCpu %.3f jit+%dms gc+%dms jobs %d stages %d tasks %d taskRun %dms taskCpu %.0fms resBytes %d same %s%n",
          r, (n1 - n0) / 1e9, (p1 - p0) / 1e9, jitMs() - j0, gcMs() - g0, jobs - jb0, stages - st0, tasks - tk0, runMs - rm0, (taskCpuNs - tc0) / 1e6, resultBytes - rb0,
          first == null ? "-" : Arrays.equals(first, prices)));
      sb.append("   cpu by group (ms):");
      for (var e : c1.entrySet()) sb.append(" ").append(e.getKey()).append("=").append((e.getValue() - c0.getOrDefault(e.getKey(), 0L)) / 1000000);
      sb.append("\n");
      synchronized (events) { for (String e : events) { String[] w = e.split(" "); sb.append("   ").append(rel(e, t0)).append("\n"); } }
      sb.append("   end ").append(t1 - t0).append("\n");
      System.out.print(sb);
      if (first == null) first = prices;
    }
    System.out.println("prices " + Arrays.toString(first));
    if (Integer.getInteger("probe.profFrom", -1) >= 0) {
      Class<?> ap = Class.forName("one.profiler.AsyncProfiler");
      Object prof = ap.getMethod("getInstance", String.class).invoke(null, "/tmp/ap/linux-x64/libasyncProfiler.so");
      ap.getMethod("execute", String.class).invoke(prof, "stop,collapsed,threads,file=" + System.getProperty("probe.profFile"));
    }
    spark.stop();
  }

  static void cli(int threads, int runs, String size) throws Exception {
    FinparBenchmark bench = FinparBenchmark.OPTION_PRICING;
    Path dataset = bench.dataset(dataRoot(), size);
    TypedProgram program = bench.program();
    List<Value> inputs = bench.readInput(program, dataset);
    var runner = new dev.l0.kernels.exec.HostRunner(
        dev.l0.opt.Optimizer.optimize(dev.l0.types.TypeChecker.check(program.program().reachableFrom(FinparBenchmark.ENTRY))),
        new dev.l0.kernels.jvm.JvmKernelExecutor(threads));
    for (int r = 0; r < runs; r++) {
      Map<String, Long> c0 = cpuByGroup();
      long p0 = processCpu(), j0 = jitMs(), n0 = System.nanoTime();
      Value v = runner.call(FinparBenchmark.ENTRY, inputs);
      long n1 = System.nanoTime(), p1 = processCpu();
      Map<String, Long> c1 = cpuByGroup();
      StringBuilder sb = new StringBuilder(String.format("cli run %d wall %.3f procCpu %.3f jit+%dms%n   cpu by group (ms):", r, (n1 - n0) / 1e9, (p1 - p0) / 1e9, jitMs() - j0));
      for (var e : c1.entrySet()) sb.append(" ").append(e.getKey()).append("=").append((e.getValue() - c0.getOrDefault(e.getKey(), 0L)) / 1000000);
      System.out.println(sb);
      if (r == runs - 1) System.out.println(v);
    }
  }

  /** -Dprobe.data=DIR, else ../shared/data/finpar beside $L0_HOME (as bin/l0-job finpar). */
  static Path dataRoot() {
    String home = System.getenv("L0_HOME");
    return Path.of(System.getProperty("probe.data", (home == null ? "." : home) + "/../shared/data/finpar")).normalize();
  }

  static String rel(String e, long t0) {
    StringBuilder b = new StringBuilder();
    for (String w : e.split(" ")) {
      if (w.matches("\\d{13}")) b.append(Long.parseLong(w) - t0); else b.append(w);
      b.append(' ');
    }
    return b.toString();
  }
}
