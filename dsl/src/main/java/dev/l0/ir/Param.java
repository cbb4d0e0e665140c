package dev.l0.ir;

import java.util.Optional;

/**
 * A typed function or lambda parameter, {@code t v}. {@code description} is how an error names a
 * parameter whose name its author never wrote: the Java DSL generates its parameters' names and
 * describes each by its position and type in the Java function or lambda that declared it. Empty
 * for a parameter written in L0 text, which errors name by its name.
 */
public record Param(Type type, String name, SourcePos pos, Optional<String> description) {
  /** A parameter named in L0 text. */
  public Param(Type type, String name, SourcePos pos) {
    this(type, name, pos, Optional.empty());
  }

  /**
   * How an error message names this parameter: its description, or {@code noun 'name'} (the noun
   * fits the sentence: "parameter", "its parameter").
   */
  public String named(String noun) {
    return description.orElse(noun + " '" + name + "'");
  }
}
