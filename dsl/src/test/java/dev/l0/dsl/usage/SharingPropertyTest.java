package dev.l0.dsl.usage;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.l0.dsl.F64;
import dev.l0.dsl.L0;
import dev.l0.interp.Interpreter;
import dev.l0.ir.Expr;
import dev.l0.ir.Program;
import dev.l0.ir.ScalarValue;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.concurrent.atomic.AtomicInteger;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.IntRange;

/**
 * Random computations whose Java variables are read any number of times: the staged program
 * computes what Java computes, and contains each staged arithmetic operation exactly once (nothing
 * is duplicated; nothing is dropped, even where the result does not depend on it, so its errors
 * surface as in a text program).
 */
class SharingPropertyTest {
  /** One staged step: operator {@code op} (0 +, 1 -, 2 *, 3 min) on earlier values. */
  private record Step(int op, int left, int right) {}

  @Property(tries = 200)
  void stagingSharesEveryValueAndKeepsItsMeaning(
      @ForAll @IntRange(min = 1, max = 30) int length,
      @ForAll long seed,
      @ForAll double x,
      @ForAll double y) {
    List<Step> steps = randomSteps(length, new Random(seed));

    Program staged =
        L0.program(
            prog ->
                prog.fun(
                    "f",
                    F64.TYPE,
                    F64.TYPE,
                    (a, b) -> {
                      List<F64> values = new ArrayList<>(List.of(a, b));
                      for (Step step : steps) {
                        values.add(stage(step, values.get(step.left()), values.get(step.right())));
                      }
                      return values.get(values.size() - 1);
                    }));

    double expected = evaluate(steps, x, y);
    ScalarValue result =
        (ScalarValue)
            new Interpreter(staged).call("f", List.of(ScalarValue.f64(x), ScalarValue.f64(y)));
    assertEquals(ScalarValue.f64(expected), result);
    assertEquals(steps.size(), countOperations(staged.functions().get(0).body()));
  }

  private static List<Step> randomSteps(int length, Random random) {
    List<Step> steps = new ArrayList<>();
    for (int i = 0; i < length; i++) {
      int available = 2 + i;
      steps.add(new Step(random.nextInt(4), random.nextInt(available), random.nextInt(available)));
    }
    return steps;
  }

  private static F64 stage(Step step, F64 left, F64 right) {
    switch (step.op()) {
      case 0:
        return left.add(right);
      case 1:
        return left.sub(right);
      case 2:
        return left.mul(right);
      default:
        return left.min(right);
    }
  }

  private static double evaluate(List<Step> steps, double x, double y) {
    List<Double> values = new ArrayList<>(List.of(x, y));
    for (Step step : steps) {
      double l = values.get(step.left());
      double r = values.get(step.right());
      values.add(
          switch (step.op()) {
            case 0 -> l + r;
            case 1 -> l - r;
            case 2 -> l * r;
            default -> Math.min(l, r);
          });
    }
    return values.get(values.size() - 1);
  }

  /** Binary operators and calls (min) in {@code e}. */
  private static int countOperations(Expr e) {
    AtomicInteger count = new AtomicInteger();
    e.transformUp(
        node -> {
          if (node instanceof Expr.Binary || node instanceof Expr.Call) {
            count.incrementAndGet();
          }
          return node;
        });
    return count.get();
  }
}
