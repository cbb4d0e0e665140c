package dev.l0.ir;

import java.util.List;
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

  record Name(String name, SourcePos pos) implements Pattern {
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
