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

  public InternalProgram mapBodies(UnaryOperator<Body> rewrite) {
    return new InternalProgram(functions.stream().map(f -> f.withBody(rewrite.apply(f.body()))).toList());
  }
}
