package dev.l0.types;

import dev.l0.ir.Type;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.stream.IntStream;

/**
 * Sharing information of a value (thesis §3.1): the variables an array value may share memory with,
 * or, for a tuple, one such piece per component. Scalars share nothing.
 */
sealed interface Sharing {

  /** The sharing of a value that is not a tuple. */
  record Of(Set<Variable> variables) implements Sharing {
    public Of {
      variables = Collections.unmodifiableSet(new LinkedHashSet<>(variables));
    }
  }

  /** The sharing of a tuple, component by component. */
  record Components(List<Sharing> components) implements Sharing {
    public Components {
      components = List.copyOf(components);
    }
  }

  /**
   * Sharing of shape {@code type} in which every array component may alias {@code variables}
   * (tuples are spread; scalars share nothing).
   */
  static Sharing spread(Type type, Set<Variable> variables) {
    if (type instanceof Type.Tuple t) {
      return new Components(t.elements().stream().map(e -> spread(e, variables)).toList());
    }
    return new Of(type instanceof Type.Array ? variables : Set.of());
  }

  /** A fresh value of {@code type}: aliases nothing. */
  static Sharing none(Type type) {
    return spread(type, Set.of());
  }

  /**
   * The result of a call (thesis §3.1, final rule, applied per tuple component): unique components
   * alias nothing, the others may alias {@code variables}.
   */
  static Sharing callResult(Type type, Set<Variable> variables) {
    if (type instanceof Type.Tuple t) {
      return new Components(t.elements().stream().map(e -> callResult(e, variables)).toList());
    }
    return new Of(type instanceof Type.Array && !type.isUnique() ? variables : Set.of());
  }

  /** The thesis's {@code s1 ⊕ s2}: union, component by component. */
  default Sharing combine(Sharing other) {
    if (this instanceof Components mine
        && other instanceof Components theirs
        && mine.components().size() == theirs.components().size()) {
      return new Components(
          IntStream.range(0, mine.components().size())
              .mapToObj(i -> mine.components().get(i).combine(theirs.components().get(i)))
              .toList());
    }
    Set<Variable> union = new LinkedHashSet<>(all());
    union.addAll(other.all());
    return new Of(union);
  }

  /** Every variable mentioned anywhere in this sharing. */
  default Set<Variable> all() {
    if (this instanceof Components c) {
      Set<Variable> union = new LinkedHashSet<>();
      c.components().forEach(s -> union.addAll(s.all()));
      return union;
    }
    return ((Of) this).variables();
  }

  /** The sharing of component {@code i} of a tuple. */
  default Sharing component(int i) {
    return this instanceof Components c ? c.components().get(i) : this;
  }

  /** This sharing with {@code variable} added to every array component of {@code type}. */
  default Sharing plus(Variable variable, Type type) {
    if (type instanceof Type.Tuple t) {
      List<Sharing> parts = new ArrayList<>();
      for (int i = 0; i < t.elements().size(); i++) {
        parts.add(component(i).plus(variable, t.elements().get(i)));
      }
      return new Components(parts);
    }
    if (!(type instanceof Type.Array)) {
      return this;
    }
    Set<Variable> more = new LinkedHashSet<>(all());
    more.add(variable);
    return new Of(more);
  }
}
