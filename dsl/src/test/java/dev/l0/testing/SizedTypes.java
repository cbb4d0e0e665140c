package dev.l0.testing;

import dev.l0.ir.Dim;
import dev.l0.ir.ScalarType;
import dev.l0.ir.Type;
import java.util.ArrayList;
import java.util.List;

/**
 * The generator's static knowledge of array sizes, kept in the {@link Dim}s of IR types (and erased
 * before a type is written into a program). {@link Dim.Const}: the size is known; {@link
 * Dim.Named}: a symbolic tag for a size known only at run time (a {@code filter} result) but equal
 * for every array carrying the same tag, so they may be zipped; {@link Dim#UNKNOWN}, in a requested
 * type only: any size will do. Only an outermost dimension is ever a tag or unknown: array elements
 * always have constant shapes, which keeps every generated array regular.
 */
final class SizedTypes {
  private SizedTypes() {}

  /** Whether a value of type {@code actual} may stand where {@code request} is asked for. */
  static boolean fits(Type actual, Type request) {
    if (actual instanceof Type.Array a && request instanceof Type.Array r) {
      return (r.size() instanceof Dim.Unknown || r.size().equals(a.size()))
          && fits(a.element(), r.element());
    }
    if (actual instanceof Type.Tuple a && request instanceof Type.Tuple r) {
      if (a.elements().size() != r.elements().size()) {
        return false;
      }
      for (int i = 0; i < a.elements().size(); i++) {
        if (!fits(a.elements().get(i), r.elements().get(i))) {
          return false;
        }
      }
      return true;
    }
    return actual.equals(request);
  }

  /** Whether every array size in {@code type} is a known constant. */
  static boolean constantShaped(Type type) {
    if (type instanceof Type.Array a) {
      return a.size() instanceof Dim.Const && constantShaped(a.element());
    }
    if (type instanceof Type.Tuple t) {
      return t.elements().stream().allMatch(SizedTypes::constantShaped);
    }
    return true;
  }

  /** Whether {@code type} mentions a symbolic size tag anywhere. */
  static boolean mentionsTag(Type type) {
    if (type instanceof Type.Array a) {
      return a.size() instanceof Dim.Named || mentionsTag(a.element());
    }
    if (type instanceof Type.Tuple t) {
      return t.elements().stream().anyMatch(SizedTypes::mentionsTag);
    }
    return false;
  }

  static Type.Array arrayOf(Type element, Dim size) {
    return Type.array(element, size);
  }

  static Type.Array arrayOf(Type element, long size) {
    return Type.array(element, new Dim.Const(size));
  }

  /** The array type with the given outer-first sizes around {@code element}. */
  static Type arrayOf(Type element, List<Dim> outerFirst) {
    Type t = element;
    for (int i = outerFirst.size() - 1; i >= 0; i--) {
      t = Type.array(t, outerFirst.get(i));
    }
    return t;
  }

  /** The outer-first sizes of the array dimensions of {@code type}. */
  static List<Dim> dims(Type type) {
    List<Dim> dims = new ArrayList<>();
    Type t = type;
    while (t instanceof Type.Array a) {
      dims.add(a.size());
      t = a.element();
    }
    return dims;
  }

  /** {@code type} without its {@code count} outer array dimensions. */
  static Type strip(Type type, int count) {
    Type t = type;
    for (int i = 0; i < count; i++) {
      t = ((Type.Array) t).element();
    }
    return t;
  }

  static long constant(Dim dim) {
    return ((Dim.Const) dim).size();
  }

  static boolean isScalar(Type type, ScalarType... oneOf) {
    return type instanceof ScalarType s && List.of(oneOf).contains(s);
  }

  static boolean isNumeric(Type type) {
    return type instanceof ScalarType s && s.isNumeric();
  }

  /**
   * Whether {@code reduce} and {@code scan} can combine elements of this type with a {@link Monoid}
   * per component.
   */
  static boolean combinable(Type element) {
    return element instanceof ScalarType || isTupleOfScalars(element);
  }

  static boolean isTupleOfScalars(Type type) {
    return type instanceof Type.Tuple t
        && t.elements().stream().allMatch(e -> e instanceof ScalarType);
  }
}
