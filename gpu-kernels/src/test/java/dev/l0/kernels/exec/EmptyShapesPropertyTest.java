package dev.l0.kernels.exec;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.l0.interp.Interpreter;
import dev.l0.ir.Program;
import dev.l0.ir.ScalarType;
import dev.l0.ir.Shape;
import dev.l0.ir.Type;
import dev.l0.ir.Value;
import dev.l0.kernels.jvm.JvmKernelExecutor;
import dev.l0.kernels.sim.SimulatorExecutor;
import dev.l0.opt.OptimizedProgram;
import dev.l0.opt.Optimizer;
import dev.l0.syntax.L0Parser;
import dev.l0.syntax.L0Printer;
import dev.l0.testing.RandomPrograms;
import dev.l0.testing.TypedValue;
import dev.l0.types.TypeChecker;
import dev.l0.values.ValueReader;
import dev.l0.values.ValueWriter;
import java.util.ArrayList;
import java.util.List;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.statistics.Statistics;

/**
 * Random values, many with empty dimensions over inner sizes 0 and not 0, keep their whole shape
 * through every executor: a program returns its argument, every size of it, its transpose and a map
 * over each of its scalars, and the reference interpreter, the optimised program on the evaluator,
 * the JVM backend and the simulator give equal values (shapes, and floats bit for bit); each result
 * prints and reads back equal. Coverage checks hold the share of values with an empty dimension
 * over a non-zero size, and of programs with a kernel that ran on the JVM backend.
 */
class EmptyShapesPropertyTest {
  private static final JvmKernelExecutor JVM = new JvmKernelExecutor();

  @Provide
  Arbitrary<TypedValue> values() {
    return RandomPrograms.values();
  }

  @Property(tries = 1000)
  void everyExecutorKeepsTheWholeShape(@ForAll("values") TypedValue v) {
    Program program = L0Parser.parse(programOver(v.type()), "shapes.l0");
    List<Value> args = List.of(v.value());
    Statistics.label("empty dimension over a non-zero size")
        .collect(emptyOverNonZero(Shape.of(v.value())));
    Statistics.label("empty dimension over a non-zero size")
        .coverage(check -> check.check(true).percentage(p -> p >= 5));
    Value reference = new Interpreter(program).call("main", args);
    OptimizedProgram optimized = Optimizer.optimize(TypeChecker.check(program));
    assertEquals(reference, optimized.call("main", args), "optimised, on the evaluator");
    HostRunner jvm = HostRunner.compile(program, JVM);
    assertEquals(reference, jvm.call("main", args), "JVM backend");
    HostRunner sim = HostRunner.compile(program, new SimulatorExecutor(4));
    assertEquals(reference, sim.call("main", args), "simulator");
    Statistics.label("a kernel ran on the JVM backend")
        .collect(!optimized.kernelPlan().kernels().isEmpty());
    Statistics.label("a kernel ran on the JVM backend")
        .coverage(check -> check.check(true).percentage(p -> p >= 20));
    Type resultType = program.function("main").orElseThrow().returnType();
    String printed = ValueWriter.write(reference);
    assertEquals(
        List.of(reference), ValueReader.read(printed, List.of(resultType), "printed"), printed);
  }

  /**
   * {@code main(a)}: for an array of scalars of rank r, <code>{a, [size(0, a), ..., size(r-1, a)],
   * map(... x = x ...), transpose(a)}</code> (the transpose from rank 2); otherwise {@code a}.
   */
  private static String programOver(Type type) {
    String t = L0Printer.print(type);
    if (!(type instanceof Type.Array) || !(type.baseElement() instanceof ScalarType scalar)) {
      return "fun " + t + " main(" + t + " a) = a\n";
    }
    int rank = type.rank();
    List<String> sizes = new ArrayList<>();
    for (int d = 0; d < rank; d++) {
      sizes.add("size(" + d + ", a)");
    }
    String compared = nestedBool(rank);
    String results =
        "a, [" + String.join(", ", sizes) + "], " + selfComparison(scalar.keyword(), rank, "a");
    String types = t + ", [i32], " + compared;
    if (rank >= 2) {
      results += ", transpose(a)";
      types += ", " + t;
    }
    return "fun {" + types + "} main(" + t + " a) = {" + results + "}\n";
  }

  private static String nestedBool(int rank) {
    return "[".repeat(rank) + "bool" + "]".repeat(rank);
  }

  /** {@code map}s down to the scalars of {@code array}, comparing each with itself. */
  private static String selfComparison(String scalar, int rank, String array) {
    if (rank == 1) {
      return "map(fn bool (" + scalar + " x) => x = x, " + array + ")";
    }
    String row = "[".repeat(rank - 1) + scalar + "]".repeat(rank - 1);
    return "map(fn "
        + nestedBool(rank - 1)
        + " ("
        + row
        + " r) => "
        + selfComparison(scalar, rank - 1, "r")
        + ", "
        + array
        + ")";
  }

  private static boolean emptyOverNonZero(Shape shape) {
    if (shape instanceof Shape.Array a) {
      return a.length() == 0 && a.element() instanceof Shape.Array inner && inner.length() > 0
          || emptyOverNonZero(a.element());
    }
    return shape instanceof Shape.Tuple t
        && t.elements().stream().anyMatch(EmptyShapesPropertyTest::emptyOverNonZero);
  }
}
