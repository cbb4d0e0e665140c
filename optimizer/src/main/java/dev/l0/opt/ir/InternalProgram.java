package dev.l0.opt.ir;

import java.util.List;
import java.util.Optional;
import java.util.function.UnaryOperator;

/** An internal L0 program: its functions, in the order of the external program. */
public record InternalProgram(List<InternalFunction> functions) {
  public InternalProgram {
    functions = List.copyOf(functions);
  }

  public Optional<InternalFunction> function(String name) {
    return functions.stream().filter(f -> f.name().equals(name)).findFirst();
  }

  /**
   * This program with {@code rewrite} applied to each function's body; this program itself where it
   * changes none.
   */
  public InternalProgram mapBodies(UnaryOperator<Body> rewrite) {
    List<InternalFunction> out =
        functions.stream()
            .map(
                f -> {
                  Body b = rewrite.apply(f.body());
                  return b == f.body() ? f : f.withBody(b);
                })
            .toList();
    for (int k = 0; k < out.size(); k++) {
      if (out.get(k) != functions.get(k)) {
        return new InternalProgram(out);
      }
    }
    return this;
  }
}
