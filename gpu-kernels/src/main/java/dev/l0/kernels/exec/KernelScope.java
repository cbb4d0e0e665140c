package dev.l0.kernels.exec;

import dev.l0.ir.Type;
import dev.l0.opt.ir.InternalFunction;
import dev.l0.opt.ir.InternalProgram;
import java.util.HashMap;
import java.util.Map;

/**
 * What an executor may know about a kernel's surroundings: the internal program (for the functions
 * a kernel calls) and the types of the variables visible where the kernel runs.
 */
public record KernelScope(InternalProgram program, Map<String, Type> types) {
  public KernelScope {
    types = Map.copyOf(types);
  }

  /**
   * The scope of a kernel at the top level of {@code function}: its parameters and every name its
   * body binds at the top level.
   */
  public static KernelScope topLevel(InternalProgram program, InternalFunction function) {
    Map<String, Type> types = new HashMap<>();
    function.params().forEach(p -> types.put(p.name(), p.type()));
    function
        .body()
        .stms()
        .forEach(stm -> stm.pattern().forEach(id -> types.put(id.name(), id.type())));
    return new KernelScope(program, types);
  }

  /** The type of visible variable {@code name}. */
  public Type typeOf(String name) {
    Type t = types.get(name);
    if (t == null) {
      throw new IllegalArgumentException("no visible variable " + name);
    }
    return t;
  }
}
