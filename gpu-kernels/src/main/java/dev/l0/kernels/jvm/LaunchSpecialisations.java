package dev.l0.kernels.jvm;

import dev.l0.ir.ScalarValue;
import dev.l0.kernels.ir.Kernel;
import dev.l0.kernels.ir.ScalarSpecialisation;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executor;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Function;

/**
 * The forms of a group's kernels specialised to the integer and boolean scalars of their launches
 * ({@link ScalarSpecialisation}): the second launch of a kernel with the same such values asks for
 * a form compiled with them as constants, so HotSpot folds what they decide (a path's loops over
 * one date, one underlying and one model in OptionPricing small run no loop code at all); the form
 * compiles in the background, and launches with those values run it once it is ready, the general
 * form until then. The results are the same bits either way: only integer and boolean values become
 * constants, and the code computes the same operations in the same order. A kernel gets at most
 * {@link #MAX_FORMS} forms, and the launches of at most {@link #MAX_COUNTED} distinct values are
 * counted, so a kernel whose values change at every launch (a host loop's counter) compiles nothing
 * more. The system property {@value #PROPERTY} ({@code true} by default) set to {@code false} keeps
 * every launch on the general form. Thread-safe.
 */
final class LaunchSpecialisations {
  /** The system property that turns specialisation off when {@code false}. */
  static final String PROPERTY = "l0.jvm.specialise";

  /** The launch with the same values that asks for a specialised form (the second). */
  static final int LAUNCHES_BEFORE_A_FORM = 2;

  /** The most specialised forms of one kernel. */
  static final int MAX_FORMS = 4;

  /** The most distinct values whose launches are counted per kernel. */
  static final int MAX_COUNTED = 64;

  /** Compiles the specialised forms of every runner, one at a time, on a daemon thread. */
  private static final ExecutorService BACKGROUND =
      Executors.newSingleThreadExecutor(
          task -> {
            Thread thread = new Thread(task, "l0-jvm-specialiser");
            thread.setDaemon(true);
            return thread;
          });

  private final Function<Kernel, KernelThreads> compiler;
  private final Executor executor;
  private final boolean enabled;
  private final Map<Kernel, Forms> forms = new IdentityHashMap<>();
  private final AtomicLong specialisedLaunches = new AtomicLong();

  /** One kernel's forms by the values they are specialised to, and its launches' counts. */
  private static final class Forms {
    final Map<List<ScalarValue>, CompletableFuture<KernelThreads>> ready = new HashMap<>();
    final Map<List<ScalarValue>, Integer> launches = new HashMap<>();
  }

  private LaunchSpecialisations(
      Function<Kernel, KernelThreads> compiler, Executor executor, boolean enabled) {
    this.compiler = compiler;
    this.executor = executor;
    this.enabled = enabled;
  }

  /**
   * Specialisations compiled by {@code compiler} in the background, on where {@value #PROPERTY} is
   * not {@code false}.
   */
  static LaunchSpecialisations inBackground(Function<Kernel, KernelThreads> compiler) {
    return new LaunchSpecialisations(
        compiler, BACKGROUND, !"false".equals(System.getProperty(PROPERTY)));
  }

  /** Specialisations compiled by {@code compiler} on {@code executor} (a test's own). */
  static LaunchSpecialisations on(Function<Kernel, KernelThreads> compiler, Executor executor) {
    return new LaunchSpecialisations(compiler, executor, true);
  }

  /** None: every launch runs the general form. */
  static LaunchSpecialisations none() {
    return new LaunchSpecialisations(kernel -> null, Runnable::run, false);
  }

  /**
   * The form a launch of {@code kernel} (compiled in general as {@code general}) with the scalar
   * values {@code values} (in the order of its parameters) runs.
   */
  KernelThreads forLaunch(Kernel kernel, KernelThreads general, List<ScalarValue> values) {
    if (!enabled) {
      return general;
    }
    Map<String, ScalarValue> fixed = new HashMap<>();
    List<ScalarValue> key = new ArrayList<>();
    for (int k = 0; k < values.size(); k++) {
      ScalarValue v = values.get(k);
      if (v instanceof ScalarValue.Int || v instanceof ScalarValue.Bool) {
        fixed.put(kernel.scalars().get(k).name(), v);
        key.add(v);
      }
    }
    if (fixed.isEmpty()) {
      return general;
    }
    CompletableFuture<KernelThreads> form;
    synchronized (forms) {
      Forms kernelForms = forms.computeIfAbsent(kernel, unused -> new Forms());
      form = kernelForms.ready.get(key);
      if (form == null) {
        askForForm(kernel, kernelForms, key, fixed);
        return general;
      }
    }
    KernelThreads specialised = form.isDone() ? form.exceptionally(e -> null).join() : null;
    if (specialised == null) {
      return general;
    }
    specialisedLaunches.incrementAndGet();
    return specialised;
  }

  /** Counts a launch with {@code key} and starts its form's compilation at the count's limit. */
  private void askForForm(
      Kernel kernel, Forms kernelForms, List<ScalarValue> key, Map<String, ScalarValue> fixed) {
    if (kernelForms.ready.size() >= MAX_FORMS) {
      return;
    }
    Integer counted = kernelForms.launches.get(key);
    if (counted == null && kernelForms.launches.size() >= MAX_COUNTED) {
      return;
    }
    int launches = counted == null ? 1 : counted + 1;
    if (launches < LAUNCHES_BEFORE_A_FORM) {
      kernelForms.launches.put(key, launches);
      return;
    }
    kernelForms.launches.remove(key);
    Kernel specialised = ScalarSpecialisation.of(kernel, fixed);
    kernelForms.ready.put(
        List.copyOf(key),
        CompletableFuture.supplyAsync(() -> compiler.apply(specialised), executor));
  }

  /** The launches so far that ran a specialised form. */
  long specialisedLaunches() {
    return specialisedLaunches.get();
  }
}
