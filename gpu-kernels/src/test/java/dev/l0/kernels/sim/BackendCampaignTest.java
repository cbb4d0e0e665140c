package dev.l0.kernels.sim;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.l0.interp.Interpreter;
import dev.l0.ir.BinaryOperator;
import dev.l0.ir.L0CompileError;
import dev.l0.ir.L0ResourceError;
import dev.l0.ir.L0RuntimeError;
import dev.l0.ir.Value;
import dev.l0.kernels.exec.HostRunner;
import dev.l0.kernels.exec.KernelExecutor;
import dev.l0.kernels.jvm.JvmKernelExecutor;
import dev.l0.kernels.lower.LaunchConfiguration;
import dev.l0.opt.OptimizedProgram;
import dev.l0.opt.Optimizer;
import dev.l0.opt.ir.Body;
import dev.l0.opt.ir.Exp;
import dev.l0.opt.ir.InternalProgram;
import dev.l0.opt.ir.Stm;
import dev.l0.testing.ProgramCase;
import dev.l0.testing.RandomPrograms;
import dev.l0.types.TypeChecker;
import dev.l0.values.ValueWriter;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.LongFunction;
import org.junit.jupiter.api.Test;

/**
 * A campaign outside CI: for every seed of {@code -Dl0.backendCampaign=FROM:COUNT} and every
 * generator of {@code -Dl0.backendCampaign.generators} (default all: {@code program}, {@code
 * kernelArray}, {@code row}, {@code scalarEdge}, {@code failing}), the random program runs in the
 * interpreter and, optimised, on the JVM backend and on the simulator (with its default launch
 * configuration, and with every map of few rows forced to run a block per row where it can, at most
 * 3 blocks); the backends' outcomes must be the same, and each must be the interpreter's value bit
 * for bit (shapes included), or a run-time failure where the interpreter fails too. Skipped without
 * the property. Not counted as defects, but listed: runs past the simulator's limits, results that
 * differ only in the inner sizes of empty arrays (a map over no rows whose function fails on the
 * zero element may give its rows another shape), failures in another operation than the
 * interpreter's.
 */
class BackendCampaignTest {
  private static final String CAMPAIGN = System.getProperty("l0.backendCampaign");
  private static final long TIMEOUT_SECONDS = 30;

  private static final Map<String, LongFunction<ProgramCase>> GENERATORS = generators();

  private static Map<String, LongFunction<ProgramCase>> generators() {
    Map<String, LongFunction<ProgramCase>> all = new LinkedHashMap<>();
    all.put("program", RandomPrograms::program);
    all.put("kernelArray", RandomPrograms::kernelArrayProgram);
    all.put("row", RandomPrograms::rowProgram);
    all.put("scalarEdge", RandomPrograms::scalarEdgeProgram);
    all.put("failing", seed -> RandomPrograms.failingProgram(seed).program());
    return all;
  }

  @Test
  void everyBackendGivesTheInterpretersOutcome() throws InterruptedException {
    assumeTrue(CAMPAIGN != null, "no -Dl0.backendCampaign=FROM:COUNT");
    String[] range = CAMPAIGN.split(":");
    long from = Long.parseLong(range[0]);
    long count = Long.parseLong(range[1]);
    List<String> names =
        List.of(
            System.getProperty(
                    "l0.backendCampaign.generators", String.join(",", GENERATORS.keySet()))
                .split(","));
    List<String> defects = new ArrayList<>();
    Map<String, Integer> tally = new TreeMap<>();
    ExecutorService runs =
        Executors.newCachedThreadPool(
            r -> {
              Thread t = new Thread(r);
              t.setDaemon(true);
              return t;
            });
    for (String name : names) {
      LongFunction<ProgramCase> generator = GENERATORS.get(name);
      for (long seed = from; seed < from + count; seed++) {
        long s = seed;
        String label = name + " " + seed;
        Future<String> verdict = runs.submit(() -> verdict(generator.apply(s)));
        String v;
        try {
          v = verdict.get(TIMEOUT_SECONDS, TimeUnit.SECONDS);
        } catch (TimeoutException e) {
          verdict.cancel(true);
          v = "timeout";
        } catch (ExecutionException e) {
          v = "defect: the campaign itself failed: " + e.getCause();
        }
        String kind = v.startsWith("defect") ? "defect" : v.split(":")[0];
        tally.merge(name + " " + kind, 1, Integer::sum);
        if (!v.equals("agree")) {
          System.out.println("CAMPAIGN " + label + " " + v.replace("\n", "\n  "));
        }
        if (v.startsWith("defect")) {
          defects.add(label);
        }
      }
    }
    System.out.println("CAMPAIGN " + CAMPAIGN + " tally " + tally + " defects " + defects);
    assertEquals(List.of(), defects);
  }

  /**
   * {@code agree}, or why the backends' outcomes are not compared ({@code skip...}), or how one
   * differs from the interpreter's ({@code defect...}, {@code note...}), with the program.
   */
  private static String verdict(ProgramCase c) {
    String interpreted = outcome(() -> new Interpreter(c.program()).call(c.entry(), c.args()));
    OptimizedProgram optimized;
    try {
      optimized = Optimizer.optimize(TypeChecker.check(c.program()));
    } catch (L0CompileError e) {
      return "skip-not-optimised: " + e.getMessage();
    } catch (RuntimeException e) {
      return "defect: the optimiser crashes: " + e + "\n" + c;
    }
    List<KernelExecutor> backends =
        List.of(
            new JvmKernelExecutor(2),
            new SimulatorExecutor(4),
            new SimulatorExecutor(4, new LaunchConfiguration(3, Long.MAX_VALUE)));
    String verdict = "agree";
    String first = null;
    for (KernelExecutor backend : backends) {
      String name = backend.name() + " #" + backends.indexOf(backend);
      String ran;
      try {
        HostRunner runner = new HostRunner(optimized, backend);
        ran = outcome(() -> runner.call(c.entry(), c.args()));
      } catch (L0ResourceError limit) {
        verdict = "skip-limit";
        continue;
      } catch (L0CompileError notLowered) {
        verdict = "skip-not-lowered: " + notLowered.getMessage();
        continue;
      } catch (RuntimeException | StackOverflowError e) {
        return "defect: " + name + " crashes: " + e + "\n" + stack(e) + c;
      }
      if (first == null) {
        first = ran;
      } else if (!first.equals(ran)) {
        return "defect: " + name + " gives " + ran + ", the first backend " + first + "\n" + c;
      }
      if (ran.equals(interpreted)) {
        continue;
      }
      if (ran.startsWith("failure") && interpreted.startsWith("failure")) {
        verdict = "note-other-failure: " + name + " " + ran + ", interpreter " + interpreted;
        continue;
      }
      if (emptyShapesErased(ran).equals(emptyShapesErased(interpreted))) {
        verdict = "note-empty-shape: " + name + " " + ran + ", interpreter " + interpreted;
        continue;
      }
      if (floatSumOrProduct(optimized.internal())) {
        verdict = "note-float-order: " + name + " " + ran + ", interpreter " + interpreted;
        continue;
      }
      return "defect: " + name + " gives " + ran + ", the interpreter " + interpreted + "\n" + c;
    }
    return verdict;
  }

  /**
   * Whether a reduction or scan of {@code program} adds or multiplies floats, whose result follows
   * the reduction order ({@code ReductionOrder}), not the interpreter's left fold, once its array
   * spans several chunks.
   */
  private static boolean floatSumOrProduct(InternalProgram program) {
    return program.functions().stream().anyMatch(f -> floatSumOrProduct(f.body(), false));
  }

  private static boolean floatSumOrProduct(Body body, boolean inOperator) {
    for (Stm stm : body.stms()) {
      Exp e = stm.exp();
      if (inOperator
          && e instanceof Exp.BinOp b
          && b.operandType().isFloat()
          && (b.op() == BinaryOperator.ADD || b.op() == BinaryOperator.MUL)) {
        return true;
      }
      boolean folds = e instanceof Exp.Screma s && s.folds();
      for (int i = 0; i < e.lambdas().size(); i++) {
        if (floatSumOrProduct(e.lambdas().get(i).body(), inOperator || (folds && i == 0))) {
          return true;
        }
      }
      for (Body inner : e.bodies()) {
        if (floatSumOrProduct(inner, inOperator)) {
          return true;
        }
      }
    }
    return false;
  }

  private static String stack(Throwable e) {
    StringBuilder text = new StringBuilder();
    StackTraceElement[] frames = e.getStackTrace();
    for (int i = 0; i < Math.min(12, frames.length); i++) {
      text.append("    at ").append(frames[i]).append('\n');
    }
    return text.toString();
  }

  /** {@code text} with every {@code empty(...)} written as {@code []}. */
  private static String emptyShapesErased(String text) {
    return text.replaceAll("empty\\([^)]*\\)", "[]");
  }

  /** The value as written, or the failing operation and its position. */
  private static String outcome(java.util.function.Supplier<Value> run) {
    try {
      return "value " + ValueWriter.write(run.get());
    } catch (L0RuntimeError e) {
      return "failure in " + e.operation() + " at " + e.pos();
    }
  }
}
