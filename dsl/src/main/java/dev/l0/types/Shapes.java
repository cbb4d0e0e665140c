package dev.l0.types;

import dev.l0.ir.Dim;
import dev.l0.ir.Expr;
import dev.l0.ir.ScalarValue;
import dev.l0.ir.Type;
import java.util.ArrayList;
import java.util.List;
import java.util.function.UnaryOperator;

/**
 * Array shapes and uniqueness flags inside types (ARCHITECTURE.md, "IR": shapes live in types): the
 * statically known sizes of iota, replicate, literals, map and transpose results, and how two types
 * of one shape combine. Array regularity is thesis §2.1.
 */
final class Shapes {
  private Shapes() {}

  /**
   * The size an {@code iota}/{@code replicate}/{@code reshape} count gives: a literal, a variable,
   * or unknown.
   */
  static Dim sizeOf(Expr count) {
    if (count instanceof Expr.Literal lit && lit.value() instanceof ScalarValue.Int n) {
      return new Dim.Const(n.value());
    }
    if (count instanceof Expr.Var v) {
      return new Dim.Named(v.name());
    }
    return Dim.UNKNOWN;
  }

  /** The outer dimensions of {@code type}, outermost first. */
  static List<Dim> dims(Type type) {
    List<Dim> dims = new ArrayList<>();
    for (Type t = type; t instanceof Type.Array a; t = a.element()) {
      dims.add(a.size());
    }
    return dims;
  }

  /** An array of {@code base} with {@code dims}, outermost first; unique if {@code unique}. */
  static Type arrayOf(Type base, List<Dim> dims, boolean unique) {
    Type result = base;
    for (int i = dims.size() - 1; i >= 0; i--) {
      result = new Type.Array(result, dims.get(i), i == 0 && unique);
    }
    return result;
  }

  /** {@code type} with every dimension rewritten by {@code f}, at every level. */
  static Type mapDims(Type type, UnaryOperator<Dim> f) {
    if (type instanceof Type.Array a) {
      return new Type.Array(mapDims(a.element(), f), f.apply(a.size()), a.unique());
    }
    if (type instanceof Type.Tuple t) {
      return new Type.Tuple(t.elements().stream().map(e -> mapDims(e, f)).toList());
    }
    return type;
  }

  /** {@code type} with all sizes unknown (uniqueness kept). */
  static Type unknownSizes(Type type) {
    return mapDims(type, d -> Dim.UNKNOWN);
  }

  /**
   * {@code type} with sizes that name one of {@code names} made unknown: those names go out of
   * scope.
   */
  static Type forget(Type type, List<String> names) {
    return mapDims(
        type, d -> d instanceof Dim.Named n && names.contains(n.variable()) ? Dim.UNKNOWN : d);
  }

  /** {@code type} made unique or not: the outermost array, or each tuple component. */
  static Type withUniqueness(Type type, boolean unique) {
    if (type instanceof Type.Array a) {
      return a.withUnique(unique);
    }
    if (type instanceof Type.Tuple t) {
      return new Type.Tuple(t.elements().stream().map(e -> withUniqueness(e, unique)).toList());
    }
    return type;
  }

  /** The type of an array element: uniqueness applies to the outermost array only. */
  static Type asElement(Type type) {
    return withUniqueness(type, false);
  }

  /**
   * {@code kept} (uniqueness kept) with each size that differs from {@code other}'s at the same
   * place made unknown; {@code other} has {@code kept}'s shape.
   */
  static Type sizesAgreeing(Type kept, Type other) {
    if (kept instanceof Type.Array x && other instanceof Type.Array y) {
      return new Type.Array(
          sizesAgreeing(x.element(), y.element()),
          x.size().equals(y.size()) ? x.size() : Dim.UNKNOWN,
          x.unique());
    }
    if (kept instanceof Type.Tuple x
        && other instanceof Type.Tuple y
        && x.elements().size() == y.elements().size()) {
      List<Type> parts = new ArrayList<>();
      for (int i = 0; i < x.elements().size(); i++) {
        parts.add(sizesAgreeing(x.elements().get(i), y.elements().get(i)));
      }
      return new Type.Tuple(parts);
    }
    return kept;
  }

  /**
   * The type of a value that is either {@code a} or {@code b} (same shape): sizes kept where they
   * agree, unique only where both are (thesis §3.1 for {@code if}).
   */
  static Type join(Type a, Type b) {
    if (a instanceof Type.Array x && b instanceof Type.Array y) {
      return new Type.Array(
          join(x.element(), y.element()),
          x.size().equals(y.size()) ? x.size() : Dim.UNKNOWN,
          x.unique() && y.unique());
    }
    if (a instanceof Type.Tuple x
        && b instanceof Type.Tuple y
        && x.elements().size() == y.elements().size()) {
      List<Type> parts = new ArrayList<>();
      for (int i = 0; i < x.elements().size(); i++) {
        parts.add(join(x.elements().get(i), y.elements().get(i)));
      }
      return new Type.Tuple(parts);
    }
    return a;
  }

  /**
   * The first dimension (outermost first, skipping {@code skipOuter} levels) at which {@code a} and
   * {@code b} have different constant sizes, described as "size 3 and 4 at dimension 1", or null.
   */
  static String constantSizeConflict(Type a, Type b, int skipOuter) {
    return constantSizeConflict(a, b, skipOuter, Integer.MAX_VALUE);
  }

  /**
   * As {@link #constantSizeConflict(Type, Type, int)}, looking only at the dimensions before {@code
   * end}.
   */
  static String constantSizeConflict(Type a, Type b, int skipOuter, int end) {
    List<Dim> x = dims(a);
    List<Dim> y = dims(b);
    for (int i = skipOuter; i < Math.min(end, Math.min(x.size(), y.size())); i++) {
      if (x.get(i) instanceof Dim.Const p
          && y.get(i) instanceof Dim.Const q
          && p.size() != q.size()) {
        return "sizes " + p.size() + " and " + q.size() + " in dimension " + i;
      }
    }
    return null;
  }

  /** The first known of {@code dims}, or unknown. */
  static Dim firstKnown(List<Dim> dims) {
    return dims.stream().filter(d -> !(d instanceof Dim.Unknown)).findFirst().orElse(Dim.UNKNOWN);
  }

  /** The outer size of an array type. */
  static Dim outer(Type arrayType) {
    return ((Type.Array) arrayType).size();
  }
}
