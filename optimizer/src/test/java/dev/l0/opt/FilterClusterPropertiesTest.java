package dev.l0.opt;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.l0.interp.Interpreter;
import dev.l0.ir.L0RuntimeError;
import dev.l0.ir.Program;
import dev.l0.ir.Value;
import dev.l0.opt.ir.IrChecker;
import dev.l0.syntax.L0Parser;
import dev.l0.types.TypeChecker;
import dev.l0.values.ValueReader;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.statistics.Statistics;

/**
 * Random chains of maps, filters and reductions over one array, with sibling maps, scalars read by
 * later maps (fusion-preventing edges) and divisions that fail: the optimised program, whose filter
 * clusters and joined maps seed 002's rules made, gives the reference interpreter's result or fails
 * in the same operation at the same position, and is well formed.
 */
class FilterClusterPropertiesTest {
  private static final List<String> OPERATORS = List.of("+", "-", "*", "/", "%");
  private static final List<String> COMPARISONS = List.of("<", ">", "=", "!=");

  /** One stage: its kind (map, filter, reduce), operator, operand and which array it reads. */
  private record Stage(int kind, int operator, int operand, int source) {}

  /** A program and the arguments it runs on. */
  record Case(String source, String args) {
    @Override
    public String toString() {
      return source + "\nargs: " + args;
    }
  }

  @Provide
  Arbitrary<Case> chains() {
    Arbitrary<Stage> stage =
        Combinators.combine(
                Arbitraries.integers().between(0, 3),
                Arbitraries.integers().between(0, 4),
                Arbitraries.integers().between(-3, 4),
                Arbitraries.integers().between(0, 9))
            .as(Stage::new);
    Arbitrary<String> xs =
        Arbitraries.integers().between(-6, 6).list().ofMaxSize(24).map(List::toString);
    Arbitrary<Integer> d = Arbitraries.integers().between(-2, 2);
    return Combinators.combine(stage.list().ofMinSize(1).ofMaxSize(7), xs, d)
        .as((stages, array, scalar) -> new Case(program(stages), array + " " + scalar));
  }

  /** The program of {@code stages}: each reads an earlier array (or {@code xs}). */
  private static String program(List<Stage> stages) {
    List<String> arrays = new ArrayList<>(List.of("xs"));
    List<String> scalars = new ArrayList<>(List.of("d"));
    StringBuilder body = new StringBuilder();
    for (int k = 0; k < stages.size(); k++) {
      Stage s = stages.get(k);
      String source = arrays.get(arrays.size() - 1 - s.source() % Math.min(arrays.size(), 2));
      String operand =
          s.operand() == 4 ? scalars.get(k % scalars.size()) : Integer.toString(s.operand());
      switch (s.kind()) {
        case 0, 3 -> {
          String name = "a" + k;
          body.append(
              "  let %s = map(fn int (int x) => x %s %s, %s) in\n"
                  .formatted(name, OPERATORS.get(s.operator()), operand, source));
          arrays.add(name);
        }
        case 1 -> {
          String name = "a" + k;
          body.append(
              "  let %s = filter(fn bool (int x) => x %% 3 %s %s, %s) in\n"
                  .formatted(name, COMPARISONS.get(s.operator() % 4), operand, source));
          arrays.add(name);
        }
        default -> {
          String name = "s" + k;
          body.append("  let %s = reduce(op +, 0, %s) in\n".formatted(name, source));
          scalars.add(name);
        }
      }
    }
    String last = arrays.get(arrays.size() - 1);
    String other = arrays.get(Math.max(0, arrays.size() - 2));
    String sum = String.join(" + ", scalars);
    return "fun {[int], [int], int} main([int] xs, int d) =\n"
        + body
        + "  {%s, %s, %s}\n".formatted(last, other, sum);
  }

  @Property(tries = 400, seed = "20261126")
  void optimisedChainsKeepEveryResultAndFailure(@ForAll("chains") Case c) {
    Program program = L0Parser.parse(c.source(), "chain.l0");
    List<Value> args =
        ValueReader.read(
            c.args(),
            program.function("main").orElseThrow().params().stream().map(p -> p.type()).toList(),
            "args");
    String expected;
    try {
      expected = new Interpreter(program).call("main", args).toString();
    } catch (L0RuntimeError e) {
      expected = "fails in " + e.operation() + " at " + e.pos();
    }
    OptimizedProgram optimized = Optimizer.optimize(TypeChecker.check(program));
    String actual;
    try {
      actual = optimized.call("main", args).toString();
    } catch (L0RuntimeError e) {
      actual = "fails in " + e.operation() + " at " + e.pos();
    }
    Statistics.label("kernels")
        .collect(
            optimized.kernelPlan().kernels().stream()
                .map(k -> k.kind().keyword())
                .sorted()
                .distinct()
                .toList());
    assertEquals(expected, actual, () -> c + "\n" + optimized.explain());
    assertEquals(Optional.empty(), IrChecker.problem(optimized.internal()), optimized::explain);
  }
}
