package dev.l0.ir;

import java.util.List;
import java.util.stream.Stream;

/** A binding pattern: a name, or a tuple pattern {@code {p1, ..., pn}} (thesis Fig. 1). */
public sealed interface Pattern {
  SourcePos pos();

  record Name(String name, SourcePos pos) implements Pattern {}

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
