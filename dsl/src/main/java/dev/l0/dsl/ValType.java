package dev.l0.dsl;

import dev.l0.ir.Expr;
import dev.l0.ir.SourcePos;
import dev.l0.ir.Type;
import dev.l0.syntax.L0Printer;
import java.util.List;
import java.util.Optional;

/**
 * The L0 type of a staged value together with the Java handle class that stands for it, as LMS's
 * {@code Typ[T]} manifests do: {@code F64.TYPE}, {@code Arr.of(F64.TYPE)}, {@code
 * Tup2.of(Bool.TYPE, F64.TYPE)}. Function parameters are declared with these ({@link #named} gives
 * a parameter its name); the DSL also uses them to make the handle of each value it stages.
 * Immutable.
 *
 * @param <V> the handle class
 */
public final class ValType<V extends Val> {
  /** Builds a handle of this type from its parts. */
  @FunctionalInterface
  interface HandleMaker<V extends Val> {
    V make(Val.Parts parts);
  }

  private final Type type;
  private final List<ValType<?>> components;
  private final HandleMaker<V> maker;

  /** The name of the parameter this type declares ({@link #named}); empty for a plain type. */
  private final Optional<String> parameterName;

  ValType(Type type, List<ValType<?>> components, HandleMaker<V> maker) {
    this(type, components, maker, Optional.empty());
    components.forEach(c -> c.requireUnnamed("a tuple's component"));
  }

  private ValType(
      Type type, List<ValType<?>> components, HandleMaker<V> maker, Optional<String> name) {
    this.type = type;
    this.components = List.copyOf(components);
    this.maker = maker;
    this.parameterName = name;
  }

  /** The L0 type (array sizes unknown, as in program text). */
  public Type l0Type() {
    return type;
  }

  /**
   * This array type marked unique ({@code *[t]}, thesis ch. 3), for parameters that are updated in
   * place.
   */
  public ValType<V> unique() {
    if (!(type instanceof Type.Array array)) {
      throw CallSite.error("only array types can be unique, not " + L0Printer.print(type));
    }
    return new ValType<>(array.withUnique(true), components, maker, parameterName);
  }

  /** Whether this is a unique array type. */
  boolean isUnique() {
    return type instanceof Type.Array array && array.unique();
  }

  /** This type, not unique. */
  ValType<V> nonUnique() {
    return isUnique()
        ? new ValType<>(((Type.Array) type).withUnique(false), components, maker, parameterName)
        : this;
  }

  /**
   * This type as the type of a parameter named {@code name} in a function defined with {@code
   * prog.fun}: {@code prog.fun("main", Arr.of(F64.TYPE).named("grid"), F64.TYPE.named("scale"),
   * ...)} stages {@code fun ... main([f64] grid, f64 scale)}, so that errors, the printed program
   * and a Spark pipeline's {@code with("grid", value)} call the parameter by that name. The name is
   * letters, digits and underscores, starting with a letter, and not an L0 keyword; two parameters
   * of one function have different names. Names mean something only on a function's parameters: an
   * array's element or a tuple's component type with a name is an error where it is built.
   */
  public ValType<V> named(String name) {
    CallSite.nonNull("named(name)", name);
    if (!Names.isFunctionName(name)) {
      throw CallSite.error(
          "a parameter name must be letters, digits and underscores, starting with a letter, and"
              + " not an L0 keyword: "
              + name);
    }
    return new ValType<>(type, components, maker, Optional.of(name));
  }

  /** The parameter name {@link #named} gave this type, if any. */
  Optional<String> parameterName() {
    return parameterName;
  }

  /** This type without a parameter name: the type of the values of a parameter. */
  ValType<V> unnamed() {
    return parameterName.isEmpty() ? this : new ValType<>(type, components, maker);
  }

  /**
   * Throws at the user's call where this type names a parameter but is used as {@code role}, where
   * a name would mean nothing.
   */
  void requireUnnamed(String role) {
    if (parameterName.isPresent()) {
      throw CallSite.error(
          "the type named '"
              + parameterName.get()
              + "' is used as "
              + role
              + "; only a function's parameter types take names (named)");
    }
  }

  /** The component types of a tuple type; empty for other types. */
  List<ValType<?>> components() {
    return components;
  }

  /** Component {@code index} of a tuple type, as the class its {@code TupN.of} declared. */
  @SuppressWarnings("unchecked")
  <C extends Val> ValType<C> component(int index) {
    return (ValType<C>) components.get(index);
  }

  boolean isTuple() {
    return type instanceof Type.Tuple;
  }

  /** The handle for {@code expr}, an expression valid while {@code scope} is open. */
  V wrap(Expr expr, Block scope) {
    return maker.make(new Val.Parts(this, expr, scope, Optional.empty()));
  }

  /** The handle for the tuple of the given component handles. */
  V assemble(List<Val> parts, SourcePos pos) {
    Expr literal = new Expr.TupleLit(parts.stream().map(p -> p.expr).toList(), pos);
    return maker.make(new Val.Parts(this, literal, null, Optional.of(List.copyOf(parts))));
  }

  @Override
  public String toString() {
    return type.toString();
  }
}
