package dev.l0.testing;

import dev.l0.ir.Dim;
import dev.l0.ir.ScalarType;
import dev.l0.ir.Type;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/** The variables visible where an expression is generated, most recently bound last. Immutable. */
record Scope(List<Binding> bindings) {
  static final Scope EMPTY = new Scope(List.of());

  Scope {
    bindings = List.copyOf(bindings);
  }

  Scope with(String name, Type type) {
    List<Binding> more = new ArrayList<>(bindings);
    more.add(new Binding(name, type));
    return new Scope(more);
  }

  /** The variables whose values may stand where {@code request} is asked for, most recent first. */
  List<Binding> fitting(Type request) {
    List<Binding> found = new ArrayList<>();
    for (int i = bindings.size() - 1; i >= 0; i--) {
      if (SizedTypes.fits(bindings.get(i).type(), request)) {
        found.add(bindings.get(i));
      }
    }
    return found;
  }

  /** The array variables, most recent first. */
  List<Binding> arrays() {
    List<Binding> found = new ArrayList<>();
    for (int i = bindings.size() - 1; i >= 0; i--) {
      if (bindings.get(i).type() instanceof Type.Array) {
        found.add(bindings.get(i));
      }
    }
    return found;
  }

  /** The scalar variables, most recent first. */
  List<Binding> scalars() {
    List<Binding> found = new ArrayList<>();
    for (int i = bindings.size() - 1; i >= 0; i--) {
      if (bindings.get(i).type() instanceof ScalarType) {
        found.add(bindings.get(i));
      }
    }
    return found;
  }

  /**
   * The outer sizes of array variables that are known only as a symbolic tag (see {@link
   * SizedTypes}).
   */
  List<Dim> tags() {
    List<Dim> found = new ArrayList<>();
    for (Binding b : arrays()) {
      Dim outer = ((Type.Array) b.type()).size();
      if (outer instanceof Dim.Named && !found.contains(outer)) {
        found.add(outer);
      }
    }
    return found;
  }

  /** An array variable whose outer size is {@code tag}. */
  Optional<Binding> carrying(Dim tag) {
    return arrays().stream().filter(b -> ((Type.Array) b.type()).size().equals(tag)).findFirst();
  }
}
