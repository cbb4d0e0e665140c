package dev.l0.dsl;

import dev.l0.ir.L0CompileError;
import dev.l0.syntax.L0Printer;
import java.util.List;
import java.util.Optional;

/**
 * The parameter handles of a function defined with {@link ProgramBuilder#fun(String, List,
 * java.util.function.Function)}, read by position or by the name {@link ValType#named} gave, and
 * declared type. Immutable.
 */
public final class Params {
  private final String function;
  private final List<ValType<?>> types;
  private final List<Val> handles;

  Params(String function, List<ValType<?>> types, List<Val> handles) {
    this.function = function;
    this.types = List.copyOf(types);
    this.handles = List.copyOf(handles);
  }

  /** How many parameters the function has. */
  public int size() {
    return handles.size();
  }

  /**
   * Parameter {@code index} (from 0) as a {@code type} handle; an index out of range or a type
   * other than the declared one is an error at the Java line that reads it.
   */
  public <V extends Val> V get(int index, ValType<V> type) {
    CallSite.nonNull("get(index, type)", index, type);
    if (index < 0 || index >= handles.size()) {
      throw new L0CompileError(
          CallSite.current(),
          function + " has " + handles.size() + " parameters; there is no parameter " + index);
    }
    if (!types.get(index).l0Type().equals(type.l0Type())) {
      throw new L0CompileError(
          CallSite.current(),
          "parameter "
              + index
              + " of "
              + function
              + " is declared "
              + L0Printer.print(types.get(index).l0Type())
              + ", read as "
              + L0Printer.print(type.l0Type()));
    }
    return Val.narrow(handles.get(index));
  }

  /**
   * The parameter named {@code name} ({@link ValType#named}) as a {@code type} handle; a name no
   * parameter has or a type other than the declared one is an error at the Java line that reads it.
   */
  public <V extends Val> V get(String name, ValType<V> type) {
    CallSite.nonNull("get(name, type)", name, type);
    for (int i = 0; i < types.size(); i++) {
      if (types.get(i).parameterName().equals(Optional.of(name))) {
        return get(i, type);
      }
    }
    List<String> names =
        types.stream().flatMap(t -> t.parameterName().stream()).map(n -> "'" + n + "'").toList();
    throw new L0CompileError(
        CallSite.current(),
        function
            + " has no parameter named '"
            + name
            + "'"
            + (names.isEmpty()
                ? "; none of its parameters is named"
                : "; its named parameters: " + String.join(", ", names)));
  }
}
