package dev.l0.ir;

import java.util.List;
import java.util.Optional;
import java.util.stream.Stream;

/**
 * A binding pattern: a name, or a tuple pattern {@code {p1, ..., pn}} (thesis Fig. 1). A name
 * {@code _} ({@link #WILDCARD}, as the thesis's Fig. 46 writes {@code let {_, a2} = split(1, a)})
 * binds nothing: no expression can name it, and a pattern may hold it more than once.
 */
public sealed interface Pattern {
  /** The name of the pattern that binds nothing; no variable can have it. */
  String WILDCARD = "_";

  SourcePos pos();

  /**
   * A bound name. {@code description} is how an error names a variable whose name its author never
   * wrote: the Java DSL generates the names of the values it stages and describes each by the
   * operation and the Java line that made it. Empty for a name written in L0 text.
   */
  record Name(String name, SourcePos pos, Optional<String> description) implements Pattern {
    /** A name written in L0 text. */
    public Name(String name, SourcePos pos) {
      this(name, pos, Optional.empty());
    }

    public boolean isWildcard() {
      return name.equals(WILDCARD);
    }
  }

  record Tuple(List<Pattern> elements, SourcePos pos) implements Pattern {
    public Tuple {
      elements = List.copyOf(elements);
    }
  }

  /** The names this pattern binds, left to right. */
  default List<Name> names() {
    return flatten().toList();
  }

  private Stream<Name> flatten() {
    if (this instanceof Tuple t) {
      return t.elements().stream().flatMap(Pattern::flatten);
    }
    return Stream.of((Name) this);
  }
}
