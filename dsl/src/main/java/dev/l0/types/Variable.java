package dev.l0.types;

import dev.l0.ir.SourcePos;
import dev.l0.ir.Type;

/**
 * One binding of a name: a function or lambda parameter, a let/loop-bound name or a loop counter.
 * Identity matters (two bindings of the same name are different variables), so this is a class with
 * reference equality, not a record.
 */
final class Variable {
  /** Whether the binding is a parameter (consumable only if declared unique) or a local name. */
  enum Kind {
    PARAMETER,
    LOCAL
  }

  private final String name;
  private final Type type;
  private final SourcePos declaredAt;
  private final Kind kind;
  private final int loopDepth;
  private final Sharing aliases;
  private final Environment scope;

  /**
   * @param loopDepth how many loop bodies and anonymous functions enclose the binding
   * @param aliases the variables (other than itself) the value may share memory with, per component
   * @param scope the environment the binding was made in, for telling whether a size variable named
   *     in {@code type} still means the same binding
   */
  Variable(
      String name,
      Type type,
      SourcePos declaredAt,
      Kind kind,
      int loopDepth,
      Sharing aliases,
      Environment scope) {
    this.name = name;
    this.type = type;
    this.declaredAt = declaredAt;
    this.kind = kind;
    this.loopDepth = loopDepth;
    this.aliases = aliases;
    this.scope = scope;
  }

  String name() {
    return name;
  }

  Type type() {
    return type;
  }

  SourcePos declaredAt() {
    return declaredAt;
  }

  boolean isParameter() {
    return kind == Kind.PARAMETER;
  }

  int loopDepth() {
    return loopDepth;
  }

  Sharing aliases() {
    return aliases;
  }

  Environment scope() {
    return scope;
  }

  @Override
  public String toString() {
    return name + "@" + declaredAt;
  }
}
