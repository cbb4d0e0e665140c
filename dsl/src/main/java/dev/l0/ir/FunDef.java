package dev.l0.ir;

import java.util.List;

/** A top-level function definition {@code fun t name(t1 v1, ..., tn vn) = body}. */
public record FunDef(String name, Type returnType, List<Param> params, Expr body, SourcePos pos) {
  public FunDef {
    params = List.copyOf(params);
  }

  public FunDef withBody(Expr newBody) {
    return new FunDef(name, returnType, params, newBody, pos);
  }
}
