package dev.l0.kernels.sim;

import dev.l0.ir.Type;
import dev.l0.ir.Value;
import java.util.ArrayList;
import java.util.List;
import java.util.function.IntFunction;

/** Input values built element by element, for the tests that run kernels on made-up arrays. */
public final class TestValues {
  private TestValues() {}

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
