package dev.l0.testing;

import dev.l0.ir.FunDef;
import dev.l0.ir.Type;
import java.util.List;

/**
 * A generated top-level function that the entry (or a later helper) calls or passes to a SOAC.
 * {@code parameterTypes} and {@code resultType} carry the sizes the body was generated for: every
 * call passes arguments of exactly those sizes.
 */
record Helper(FunDef definition, List<Type> parameterTypes, Type resultType) {
  Helper {
    parameterTypes = List.copyOf(parameterTypes);
  }

  String name() {
    return definition.name();
  }
}
