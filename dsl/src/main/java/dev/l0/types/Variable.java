package dev.l0.types;

import dev.l0.ir.Param;
import dev.l0.ir.Pattern;
import dev.l0.ir.SourcePos;
import dev.l0.ir.Type;
import java.util.Optional;

/**
 * One binding of a name: a function or lambda parameter, a let/loop-bound name or a loop counter.
 * Identity matters (two bindings of the same name are different variables), so this is a class with
 * reference equality, not a record.
 */
final class Variable {
  private final String name;
  private final Type type;
  private final SourcePos declaredAt;
  private final boolean isParameter;
  private final Optional<String> description;
  private final int loopDepth;
  private final Sharing aliases;
  private final Environment scope;

  /**
   * @param isParameter whether the binding is a parameter, consumable only if declared unique
   * @param description how messages name a binding whose name the Java DSL generated ({@link
   *     Param#description}, {@link Pattern.Name#description}); empty for a name the author wrote
   * @param loopDepth how many loop bodies and anonymous functions enclose the binding
   * @param aliases the variables (other than itself) the value may share memory with, per component
   * @param scope the environment the binding was made in, for telling whether a size variable named
   *     in {@code type} still means the same binding
   */
  Variable(
      String name,
      Type type,
      SourcePos declaredAt,
      boolean isParameter,
      Optional<String> description,
      int loopDepth,
      Sharing aliases,
      Environment scope) {
    this.name = name;
    this.type = type;
    this.declaredAt = declaredAt;
    this.isParameter = isParameter;
    this.description = description;
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
    return isParameter;
  }

  /**
   * How a message names this binding: {@code noun 'name'}, or the description of a binding whose
   * name the Java DSL generated.
   */
  String named(String noun) {
    return description.orElse(noun + " '" + name + "'");
  }

  /** {@code 'name'}, or the description of a binding whose name the Java DSL generated. */
  String quoted() {
    return description.orElse("'" + name + "'");
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
