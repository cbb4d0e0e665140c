package dev.l0.kernels.sim;

import dev.l0.ir.ScalarType;
import dev.l0.ir.Type;
import dev.l0.ir.Value;
import java.util.ArrayList;
import java.util.List;
import java.util.function.IntFunction;
import java.util.function.Supplier;

/** Input values built element by element, for the tests that run kernels on made-up arrays. */
public final class TestValues {
  private TestValues() {}

  /**
   * The {@code rows} x {@code columns} matrix of {@code element}s that {@code next} gives in turn.
   */
  public static Value matrix(ScalarType element, int rows, int columns, Supplier<Value> next) {
    return array(Type.array(element), rows, i -> array(element, columns, j -> next.get()));
  }

  /**
   * The array of {@code n} elements of type {@code element}, element {@code i} being {@code f(i)}.
   */
  public static Value array(Type element, int n, IntFunction<Value> f) {
    List<Value> elements = new ArrayList<>();
    for (int i = 0; i < n; i++) {
      elements.add(f.apply(i));
    }
    return new Value.Array(element, elements);
  }
}
