package dev.l0.opt.ir;

import dev.l0.ir.Type;
import java.util.List;

/** A tupleless anonymous function: scalar or array parameters, several results (thesis §4.1). */
public record Lambda(List<Ident> params, Body body, List<Type> returnTypes) {
  public Lambda {
    params = List.copyOf(params);
    returnTypes = List.copyOf(returnTypes);
  }

  public Lambda withBody(Body newBody) {
    return new Lambda(params, newBody, returnTypes);
  }
}
