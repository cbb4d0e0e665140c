package dev.l0.opt.ir;

import dev.l0.ir.Dim;
import dev.l0.ir.ScalarValue;
import dev.l0.ir.Type;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Function;

/**
 * Facts about internal types: the certificate type {@code cert} (thesis §4.2, the empty tuple,
 * inhabited only by {@code Checked}), flattening of external types into component lists, array
 * rows, and renaming of the variables that sizes in types refer to.
 */
public final class InternalTypes {
  /** The type of certificates. Tuples never occur otherwise in internal L0. */
  public static final Type CERT = new Type.Tuple(List.of());

  private InternalTypes() {}

  public static boolean isCertificate(Type t) {
    // the empty tuple, tested without the record's equals: runtimes ask this on every call
    return t instanceof Type.Tuple tuple && tuple.elements().isEmpty();
  }

  /**
   * The tupleless component types of an external type (thesis §4.1): tuples are flattened and an
   * array of tuples becomes one array per leaf, keeping the outer sizes.
   */
  public static List<Type> components(Type external) {
    List<Type> out = new ArrayList<>();
    addComponents(external, out);
    return out;
  }

  private static void addComponents(Type t, List<Type> out) {
    if (t instanceof Type.Tuple tuple) {
      tuple.elements().forEach(e -> addComponents(e, out));
    } else if (t instanceof Type.Array array) {
      for (Type inner : components(array.element())) {
        out.add(new Type.Array(inner, array.size(), array.unique()));
      }
    } else {
      out.add(t);
    }
  }

  /** The type of one row of an array type. */
  public static Type row(Type arrayType) {
    if (arrayType instanceof Type.Array a) {
      return a.element();
    }
    throw new IllegalArgumentException("not an array type: " + arrayType);
  }

  /** An array of {@code count} rows of {@code row}. */
  public static Type arrayOf(Type row, Dim count) {
    return new Type.Array(row, count, false);
  }

  /** The outer size of an array type as an operand, or {@code null} where it is unknown. */
  public static SubExp outerSize(Type arrayType) {
    if (arrayType instanceof Type.Array a) {
      return dimOperand(a.size());
    }
    return null;
  }

  /** A dimension as an operand, or {@code null} where it is unknown. */
  public static SubExp dimOperand(Dim d) {
    if (d instanceof Dim.Const c) {
      return SubExp.constant(ScalarValue.i32((int) c.size()));
    }
    if (d instanceof Dim.Named n) {
      return SubExp.var(n.variable());
    }
    return null;
  }

  /** An operand as a dimension: constants and variables are known sizes. */
  public static Dim dimOf(SubExp size) {
    if (size instanceof SubExp.Const c && c.value() instanceof ScalarValue.Int i) {
      return new Dim.Const(i.value());
    }
    if (size instanceof SubExp.Var v) {
      return new Dim.Named(v.name());
    }
    return Dim.UNKNOWN;
  }

  /** {@code t} with every size that names a variable replaced as {@code rename} says. */
  public static Type substitute(Type t, Function<String, SubExp> rename) {
    if (t instanceof Type.Array a) {
      Dim size = a.size();
      if (size instanceof Dim.Named n) {
        SubExp replacement = rename.apply(n.variable());
        size = replacement == null ? size : dimOf(replacement);
      }
      return new Type.Array(substitute(a.element(), rename), size, a.unique());
    }
    return t;
  }

  /** Whether every size of {@code t} is known and names no variable of {@code inside}. */
  public static boolean sizesKnownOutside(Type t, java.util.Set<String> inside) {
    for (Type cur = t; cur instanceof Type.Array a; cur = a.element()) {
      if (a.size() instanceof Dim.Unknown
          || a.size() instanceof Dim.Named n && inside.contains(n.variable())) {
        return false;
      }
    }
    return true;
  }

  /** The type of {@code transpose(k, n, a)} for {@code a} of type {@code t}. */
  public static Type transposed(int k, int n, Type t) {
    List<Type.Array> levels = new ArrayList<>();
    Type element = t;
    while (element instanceof Type.Array a) {
      levels.add(a);
      element = a.element();
    }
    List<Dim> dims = new ArrayList<>(levels.stream().map(Type.Array::size).toList());
    dims.add(k + n, dims.remove(k));
    Type out = element;
    for (int d = dims.size() - 1; d >= 0; d--) {
      out = new Type.Array(out, dims.get(d), levels.get(d).unique());
    }
    return out;
  }
}
