package dev.l0.kernels.jvm;

import dev.l0.ir.L0ConfigurationError;
import dev.l0.ir.ScalarValue;
import dev.l0.kernels.ir.Kernel;
import dev.l0.kernels.ir.KernelExpr;
import dev.l0.kernels.ir.ScalarSpecialisation;
import dev.l0.kernels.lower.ThreadScratch;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executor;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Function;

/**
 * The forms of a group's kernels specialised to the integer and boolean scalars of their launches
 * ({@link ScalarSpecialisation}): once the launches of a kernel with the same such values have run
 * for {@link #RUN_TIME_BEFORE_A_FORM_NANOS} in all, a form compiled with them as constants is asked
 * for, so HotSpot folds what they decide (a path's loops over one date, one underlying and one
 * model in OptionPricing small run no loop code at all). The run time is counted range by range of
 * a launch's blocks ({@link ParallelRanges}) as each finishes, so a long launch asks for its form
 * while it runs and the next launch can run it (OptionPricing large's first run is one launch of
 * several seconds). The form compiles in the background, and launches with those values run it once
 * it is ready, the general form until then. The results are the same bits either way: only integer
 * and boolean values become constants, and the code computes the same operations in the same order.
 * A scalar that only counts the launch's rows stays a variable, so launches over different numbers
 * of rows (a Spark job's partitions and batches) share their form: specialised to it, the risk
 * batch's path pipelines compiled one form per partition size: seven forms of 99 to 178 KB of Java,
 * three of them another's copy but for the row count, and the kernel's limit of forms reached
 * before its third shape. Short runs compile nothing (a form costs a compilation and HotSpot's
 * warm-up of new code), nor do values that fix no loop's trip count at {@link #SHORT_LOOP} or less
 * (long loops gain nothing measurable); a kernel gets at most {@link #MAX_FORMS} forms, and the run
 * time of at most {@link #MAX_COUNTED} distinct values is counted, so a kernel whose values change
 * at every launch (a host loop's counter) compiles nothing more. The system property {@value
 * #PROPERTY} ({@code true} by default) set to {@code false} keeps every launch on the general form.
 * Thread-safe.
 */
final class LaunchSpecialisations {
  /** The system property that turns specialisation off when {@code false}. */
  static final String PROPERTY = "l0.jvm.specialise";

  /**
   * The run time of a kernel's launches with the same values (general form, all launches' ranges of
   * blocks together, on every worker) after which their specialised form is asked for: 0.2 s,
   * several times what compiling a form takes (OptionPricing's kernel, the largest of the FinPar
   * programs, compiles in well under a second).
   */
  static final long RUN_TIME_BEFORE_A_FORM_NANOS = 200_000_000L;

  /**
   * The largest trip count of a loop the values must fix ({@link
   * ScalarSpecialisation#fixesShortLoop}) for a form to be compiled: measured, OptionPricing's
   * forms (loops over 1 to 5 dates, 1 to 3 underlyings, 1 model) ran 1.4 to 2.4 times faster once
   * warm, LocVolCalib's (loops over 32 to 256 grid points and time steps) no faster, after two runs
   * slowed by HotSpot's warm-up of the new code (bench/README.md, ninth session).
   */
  static final long SHORT_LOOP = 16;

  /** The most specialised forms of one kernel. */
  static final int MAX_FORMS = 4;

  /** The most distinct values whose launches' run time is counted per kernel. */
  static final int MAX_COUNTED = 64;

  /** Compiles the specialised forms of every runner, one at a time, on a daemon thread. */
  private static final ExecutorService BACKGROUND =
      Executors.newSingleThreadExecutor(ParallelRanges.daemonThreads("l0-jvm-specialiser"));

  private final Function<Kernel, KernelThreads> compiler;
  private final Executor executor;
  private final boolean enabled;
  private final long runTimeBeforeAForm;
  private final Map<Kernel, Forms> forms = new IdentityHashMap<>();
  private final AtomicLong specialisedLaunches = new AtomicLong();

  /** One kernel's forms by the values they are specialised to, and its launches' run times. */
  private static final class Forms {
    /** The scalars of the kernel's loop bounds ({@link ScalarSpecialisation#loopBoundScalars}). */
    final List<List<String>> loopBounds;

    /**
     * The scalars that only count the launch's rows ({@link ScalarSpecialisation#rowCountScalars}):
     * they stay variables in every form and are not part of its key.
     */
    final Set<String> rowCounts;

    final Map<List<ScalarValue>, CompletableFuture<KernelThreads>> ready = new HashMap<>();
    final Map<List<ScalarValue>, Long> runNanos = new HashMap<>();

    /** Values whose launches ran long enough but fix no short loop: they get no form. */
    final Set<List<ScalarValue>> unsuited = new HashSet<>();

    Forms(Kernel kernel) {
      loopBounds = ScalarSpecialisation.loopBoundScalars(kernel);
      rowCounts = ScalarSpecialisation.rowCountScalars(kernel);
    }

    /**
     * The values a form could be specialised to: the integer and boolean ones of {@code values} (in
     * the order of {@code kernel}'s parameters) but the row counts'.
     */
    List<ScalarValue> key(Kernel kernel, List<ScalarValue> values) {
      List<ScalarValue> key = new ArrayList<>();
      for (int k = 0; k < values.size(); k++) {
        if (specialisable(kernel.scalars().get(k), values.get(k))) {
          key.add(values.get(k));
        }
      }
      return key;
    }

    boolean specialisable(KernelExpr.Var parameter, ScalarValue value) {
      return (value instanceof ScalarValue.Int || value instanceof ScalarValue.Bool)
          && !rowCounts.contains(parameter.name());
    }
  }

  /**
   * What a launch runs: {@code code}, and the integer and boolean values of its scalars ({@code
   * key}, in the order of the parameters; empty where none of them bounds a loop, as then no form
   * can serve it).
   */
  record Choice(KernelThreads code, List<ScalarValue> key) {}

  private LaunchSpecialisations(
      Function<Kernel, KernelThreads> compiler,
      Executor executor,
      boolean enabled,
      long runTimeBeforeAForm) {
    this.compiler = compiler;
    this.executor = executor;
    this.enabled = enabled;
    this.runTimeBeforeAForm = runTimeBeforeAForm;
  }

  /**
   * Specialisations compiled by {@code compiler} in the background, on unless {@value #PROPERTY} is
   * {@code false}.
   *
   * @throws L0ConfigurationError where {@value #PROPERTY} is neither {@code true} nor {@code false}
   */
  static LaunchSpecialisations inBackground(Function<Kernel, KernelThreads> compiler) {
    return new LaunchSpecialisations(
        compiler,
        BACKGROUND,
        L0ConfigurationError.booleanProperty(
            PROPERTY, true, "whether the JVM backend compiles kernels for their launches' scalars"),
        RUN_TIME_BEFORE_A_FORM_NANOS);
  }

  /**
   * Specialisations compiled by {@code compiler} on {@code executor} once launches with the same
   * values have run for {@code runTimeBeforeAForm} nanoseconds (a test's own).
   */
  static LaunchSpecialisations on(
      Function<Kernel, KernelThreads> compiler, Executor executor, long runTimeBeforeAForm) {
    return new LaunchSpecialisations(compiler, executor, true, runTimeBeforeAForm);
  }

  /** None: every launch runs the general form. */
  static LaunchSpecialisations none() {
    return new LaunchSpecialisations(kernel -> null, Runnable::run, false, Long.MAX_VALUE);
  }

  /**
   * What a launch of {@code kernel} (compiled in general as {@code general}) with the scalar values
   * {@code values} (in the order of its parameters) runs.
   */
  Choice choose(Kernel kernel, KernelThreads general, List<ScalarValue> values) {
    if (!enabled) {
      return new Choice(general, List.of());
    }
    Forms kernelForms;
    synchronized (forms) {
      kernelForms = forms.computeIfAbsent(kernel, Forms::new);
    }
    if (kernelForms.loopBounds.isEmpty()) {
      return new Choice(general, List.of());
    }
    List<ScalarValue> key = kernelForms.key(kernel, values);
    CompletableFuture<KernelThreads> form;
    synchronized (forms) {
      form = kernelForms.ready.get(key);
    }
    KernelThreads specialised =
        form != null && form.isDone() ? form.exceptionally(e -> null).join() : null;
    if (specialised == null) {
      return new Choice(general, key);
    }
    specialisedLaunches.incrementAndGet();
    return new Choice(specialised, key);
  }

  /**
   * Counts {@code nanos}, the run time of a range of blocks of a launch of {@code kernel} with the
   * scalar values {@code values} that ran {@code choice}, and asks for the form of its values where
   * their launches' ranges have run long enough.
   */
  void ran(Kernel kernel, List<ScalarValue> values, Choice choice, long nanos) {
    if (choice.key().isEmpty()) {
      return;
    }
    synchronized (forms) {
      Forms kernelForms = forms.get(kernel);
      if (kernelForms.ready.containsKey(choice.key())
          || kernelForms.unsuited.contains(choice.key())
          || kernelForms.ready.size() >= MAX_FORMS) {
        return;
      }
      Long counted = kernelForms.runNanos.get(choice.key());
      if (counted == null && kernelForms.runNanos.size() >= MAX_COUNTED) {
        return;
      }
      long runNanos = (counted == null ? 0 : counted) + nanos;
      if (runNanos < runTimeBeforeAForm) {
        kernelForms.runNanos.put(choice.key(), runNanos);
        return;
      }
      kernelForms.runNanos.remove(choice.key());
      Map<String, ScalarValue> fixed = new HashMap<>();
      for (int k = 0; k < values.size(); k++) {
        ScalarValue v = values.get(k);
        KernelExpr.Var parameter = kernel.scalars().get(k);
        if (kernelForms.specialisable(parameter, v) && !partStart(kernel, parameter)) {
          fixed.put(parameter.name(), v);
        }
      }
      if (!ScalarSpecialisation.fixesShortLoop(kernelForms.loopBounds, fixed, SHORT_LOOP)) {
        if (kernelForms.unsuited.size() < MAX_COUNTED) {
          kernelForms.unsuited.add(List.copyOf(choice.key()));
        }
        return;
      }
      Kernel specialised = ScalarSpecialisation.of(kernel, fixed);
      kernelForms.ready.put(
          List.copyOf(choice.key()),
          CompletableFuture.supplyAsync(() -> compiler.apply(specialised), executor));
    }
  }

  /**
   * Whether {@code parameter} is where a part of one of {@code kernel}'s thread-private buffers
   * begins ({@link ThreadScratch#isPartStart}). It stays a variable in a form: {@link
   * ThreadPrivateParts} tells a thread's arrays apart by their part starts, so a form with them
   * folded into constants would stage no loop that reads one of the thread's arrays and writes
   * another (OptionPricing's Black-Scholes step reads the bridged paths and writes the prices).
   */
  private static boolean partStart(Kernel kernel, KernelExpr.Var parameter) {
    return kernel.buffers().stream().anyMatch(b -> ThreadScratch.isPartStart(b, parameter));
  }

  /** The launches so far that ran a specialised form. */
  long specialisedLaunches() {
    return specialisedLaunches.get();
  }
}
