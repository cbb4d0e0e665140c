package dev.l0.kernels.jvm;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;

/**
 * Runs the indices {@code [0, count)} as contiguous ranges on at most {@code parallelism} threads:
 * the calling thread and up to {@code parallelism - 1} helpers from a process-wide pool of daemon
 * threads, which take ranges in order until none is left (so a worker that finishes early takes
 * more). Each worker has its own state, made once per call ({@code newWorker}), so what a worker
 * allocates is allocated once per worker, not per range. A call uses at most {@code parallelism}
 * threads whatever other calls run at the same time.
 */
final class ParallelRanges {
  /** Ranges per worker, so that workers that finish early take more. */
  private static final int RANGES_PER_WORKER = 8;

  private static final ExecutorService HELPERS =
      Executors.newCachedThreadPool(daemonThreads("l0-jvm-kernel"));

  private ParallelRanges() {}

  /**
   * Makes the JVM backend's own threads: daemons named {@code name}, so they never keep the JVM
   * alive.
   */
  static ThreadFactory daemonThreads(String name) {
    return runnable -> {
      Thread thread = new Thread(runnable, name);
      thread.setDaemon(true);
      return thread;
    };
  }

  /** What one worker runs: ranges {@code [start, end)}, with its own state. */
  interface Worker {
    void run(int start, int end);
  }

  /** Makes the state of one worker. */
  interface WorkerFactory {
    Worker newWorker();
  }

  /**
   * Runs {@code [0, count)} on at most {@code parallelism} threads; the first failure of any worker
   * is thrown.
   */
  static void run(int count, int parallelism, WorkerFactory workers) {
    int ranges = (int) Math.min(count, (long) parallelism * RANGES_PER_WORKER);
    if (ranges <= 1 || parallelism == 1) {
      if (count > 0) {
        workers.newWorker().run(0, count);
      }
      return;
    }
    AtomicInteger next = new AtomicInteger();
    AtomicReference<Throwable> failure = new AtomicReference<>();
    Runnable work =
        () -> {
          try {
            Worker worker = null;
            for (int r = next.getAndIncrement();
                r < ranges && failure.get() == null;
                r = next.getAndIncrement()) {
              if (worker == null) {
                worker = workers.newWorker();
              }
              worker.run(
                  (int) ((long) count * r / ranges), (int) ((long) count * (r + 1) / ranges));
            }
          } catch (Throwable t) {
            failure.compareAndSet(null, t);
          }
        };
    List<Future<?>> helpers = new ArrayList<>();
    for (int h = 1; h < Math.min(parallelism, ranges); h++) {
      helpers.add(HELPERS.submit(work));
    }
    work.run();
    for (Future<?> helper : helpers) {
      try {
        helper.get();
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new IllegalStateException("interrupted while a kernel ran", e);
      } catch (java.util.concurrent.ExecutionException e) {
        failure.compareAndSet(null, e.getCause());
      }
    }
    Throwable t = failure.get();
    if (t instanceof RuntimeException r) {
      throw r;
    }
    if (t instanceof Error e) {
      throw e;
    }
    if (t != null) {
      throw new IllegalStateException(t);
    }
  }
}
