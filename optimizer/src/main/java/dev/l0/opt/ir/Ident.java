package dev.l0.opt.ir;

import dev.l0.ir.Type;

/** A binding occurrence: a globally unique name and its tupleless type (shapes included). */
public record Ident(String name, Type type) {
  public SubExp.Var var() {
    return new SubExp.Var(name);
  }

  public boolean isCertificate() {
    return InternalTypes.isCertificate(type);
  }
}
