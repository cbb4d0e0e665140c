package dev.l0.dsl;

import dev.l0.ir.L0CompileError;
import dev.l0.ir.Type;
import dev.l0.syntax.L0Printer;
import java.util.Arrays;
import java.util.List;

/**
 * A staged tuple of any number of components, for the arities {@link Tup2} ... {@link Tup6} do not
 * cover (L0's tuples have no limit): {@code L0.tuple(...)} of seven or more values makes one, and
 * {@link #of} its type, for loop states, parameters and results. Java's type parameters cannot
 * follow an unbounded arity, so a component is read by position and declared type, as {@link
 * Params#get} reads parameters: {@code t.get(6, F64.TYPE)}.
 */
public final class TupN extends Tup {
  private TupN(Parts parts) {
    super(parts);
  }

  /** The type of tuples of the given component types (at least two). */
  public static ValType<TupN> of(List<ValType<?>> components) {
    CallSite.nonNull("TupN.of(components)", components);
    if (components.size() < 2) {
      throw new L0CompileError(
          CallSite.current(), "a tuple has at least 2 components, not " + components.size());
    }
    return new ValType<>(
        new Type.Tuple(components.stream().map(ValType::l0Type).toList()), components, TupN::new);
  }

  /** The type of tuples of the given component types (at least two). */
  public static ValType<TupN> of(ValType<?>... components) {
    CallSite.nonNull("TupN.of(components)", (Object) components);
    return of(Arrays.asList(components));
  }

  /** How many components this tuple has. */
  public int arity() {
    return type.components().size();
  }

  /**
   * Component {@code index} (from 0) as a {@code componentType} handle; an index out of range or a
   * type other than the component's is an error at the Java line that reads it.
   */
  public <C extends Val> C get(int index, ValType<C> componentType) {
    CallSite.nonNull("get(index, componentType)", index, componentType);
    List<ValType<?>> components = type.components();
    if (index < 0 || index >= components.size()) {
      throw new L0CompileError(
          CallSite.current(),
          "the tuple "
              + L0Printer.print(type.l0Type())
              + " has "
              + components.size()
              + " components; there is no component "
              + index);
    }
    if (!components.get(index).l0Type().equals(componentType.l0Type())) {
      throw new L0CompileError(
          CallSite.current(),
          "component "
              + index
              + " of the tuple "
              + L0Printer.print(type.l0Type())
              + " is "
              + L0Printer.print(components.get(index).l0Type())
              + ", read as "
              + L0Printer.print(componentType.l0Type()));
    }
    return component(index);
  }
}
