package dev.l0.opt.ir;

import dev.l0.ir.Type;
import java.util.List;

/** A top-level internal function: flattened parameters, a body, and flattened result types. */
public record InternalFunction(String name, List<Ident> params, Body body, List<Type> returnTypes) {
  public InternalFunction {
    params = List.copyOf(params);
    returnTypes = List.copyOf(returnTypes);
  }

  public InternalFunction withBody(Body newBody) {
    return new InternalFunction(name, params, newBody, returnTypes);
  }
}
