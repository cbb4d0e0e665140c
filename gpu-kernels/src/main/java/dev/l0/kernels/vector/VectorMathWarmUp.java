package dev.l0.kernels.vector;

import dev.l0.ir.L0ConfigurationError;
import java.util.concurrent.atomic.AtomicReference;

/**
 * Warms {@link VectorMath}'s lane-wise {@code exp}, {@code log}, {@code sqrt} and {@code erf} on a
 * daemon thread, once per JVM, so that a program's first run does not run them cold: until
 * HotSpot's C2 has compiled them, each Vector API operation runs interpreted or from C1's code on a
 * boxed vector. The JVM backend starts it when it is asked for an executor, so the warm-up runs
 * while the program is optimised and its kernels compiled, on a core that compilation leaves idle.
 * Measured on LocVolCalib small (2 vCPU, bench/README.md, eleventh session): its first run took
 * 2.35-2.54 s after such a warm-up against 3.02-3.94 s without. The results are the functions' own,
 * on inputs of the warm-up's own, and are discarded. The system property {@value #PROPERTY} ({@code
 * true} by default) set to {@code false} turns it off.
 */
public final class VectorMathWarmUp {
  /** The system property that turns the warm-up off when {@code false}. */
  public static final String PROPERTY = "l0.jvm.warmUpMath";

  /**
   * Calls of each function: C2 compiles a method after about 15,000 invocations and loop
   * iterations, and each call of 497 to 512 elements is one invocation and 62 to 64 iterations.
   */
  static final int CALLS = 1500;

  /** Elements per call at most; the calls vary it by up to 15, so the per-element tails run. */
  static final int ELEMENTS = 512;

  private static final AtomicReference<Thread> STARTED = new AtomicReference<>();

  private VectorMathWarmUp() {}

  /**
   * Starts the warm-up unless it has started before, the functions run per element (no {@code
   * jdk.incubator.vector}), or {@value #PROPERTY} is {@code false}.
   *
   * @throws L0ConfigurationError where {@value #PROPERTY} is neither {@code true} nor {@code false}
   */
  public static void startOnce() {
    if (!VectorMath.lanewise()
        || !L0ConfigurationError.booleanProperty(
            PROPERTY,
            true,
            "whether the JVM backend warms its lane-wise math on a daemon thread")) {
      return;
    }
    if (STARTED.get() != null) {
      return;
    }
    Thread thread = new Thread(VectorMathWarmUp::run, "l0-vector-math-warm-up");
    thread.setDaemon(true);
    if (STARTED.compareAndSet(null, thread)) {
      thread.start();
    }
  }

  /** The warm-up's thread, or null where none has started in this JVM. */
  static Thread started() {
    return STARTED.get();
  }

  /** The calls, over ordinary inputs of every function: 0.01 to 4.97 (no scalar-only lanes). */
  static void run() {
    double[] in = new double[ELEMENTS];
    double[] out = new double[ELEMENTS];
    for (int i = 0; i < ELEMENTS; i++) {
      in[i] = 0.01 + i * (4.96 / ELEMENTS);
    }
    for (int call = 0; call < CALLS; call++) {
      int count = ELEMENTS - (call & 15);
      VectorMath.exp(in, 0, out, 0, count);
      VectorMath.log(in, 0, out, 0, count);
      VectorMath.sqrt(in, 0, out, 0, count);
      VectorMath.erf(in, 0, out, 0, count);
    }
  }
}
