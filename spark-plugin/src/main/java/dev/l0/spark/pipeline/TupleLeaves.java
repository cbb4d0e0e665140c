package dev.l0.spark.pipeline;

import dev.l0.ir.Expr;
import dev.l0.ir.ScalarType;
import dev.l0.ir.SourcePos;
import dev.l0.ir.Type;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;

/**
 * Tuple flattening at the pipeline's boundary: an L0 type as its leaves (scalars and arrays of
 * scalars; an array of tuples is one array per component, as the runtime API passes it), the
 * runtime's Java values split the same way, and L0 expressions that rebuild a value from named leaves.
 */
final class TupleLeaves {
  private TupleLeaves() {}

  /** The leaf types of {@code type}, in order. */
  static List<Type> types(Type type) {
    if (type instanceof ScalarType) {
      return List.of(type);
    }
    if (type instanceof Type.Tuple tuple) {
      return tuple.elements().stream().flatMap(t -> types(t).stream()).toList();
    }
    Type.Array array = (Type.Array) type;
    return types(array.element()).stream().map(leaf -> (Type) Type.array(leaf)).toList();
  }

  /** {@code value}, a runtime result of type {@code type} (tuples and arrays of tuples as {@code Object[]}), as its leaves. */
  static List<Object> values(Object value, Type type) {
    List<Object> out = new ArrayList<>();
    addValues(value, type, out);
    return out;
  }

  private static void addValues(Object value, Type type, List<Object> out) {
    if (type instanceof Type.Tuple tuple) {
      Object[] parts = (Object[]) value;
      for (int k = 0; k < parts.length; k++) {
        addValues(parts[k], tuple.elements().get(k), out);
      }
    } else if (type.baseElement() instanceof Type.Tuple tuple) {
      Object[] columns = (Object[]) value;
      for (int k = 0; k < columns.length; k++) {
        addValues(columns[k], withBase(type, tuple.elements().get(k)), out);
      }
    } else {
      out.add(value);
    }
  }

  /** {@code type} with its base element (under all array dimensions) replaced by {@code base}. */
  private static Type withBase(Type type, Type base) {
    return type instanceof Type.Array array ? Type.array(withBase(array.element(), base)) : base;
  }

  /** An expression of type {@code type} built from variables named by {@code leafNames}, one per leaf, which it consumes. */
  static Expr rebuild(Type type, Iterator<String> leafNames) {
    if (type instanceof Type.Tuple tuple) {
      List<Expr> parts = new ArrayList<>();
      tuple.elements().forEach(t -> parts.add(rebuild(t, leafNames)));
      return new Expr.TupleLit(parts, SourcePos.NONE);
    }
    if (type.baseElement() instanceof Type.Tuple tuple) {
      if (!(((Type.Array) type).element() instanceof Type.Tuple)) {
        throw new IllegalArgumentException("an array of arrays of tuples cannot be rebuilt from columns");
      }
      List<Expr> columns = new ArrayList<>();
      tuple.elements().forEach(t -> columns.add(rebuild(Type.array(t), leafNames)));
      return new Expr.Zip(columns, SourcePos.NONE);
    }
    return new Expr.Var(leafNames.next(), SourcePos.NONE);
  }

  /** {@code type}'s components as expressions from {@code leafNames}: a tuple's elements, or the value itself. */
  static List<Expr> components(Type type, Iterator<String> leafNames) {
    Expr whole = rebuild(type, leafNames);
    return whole instanceof Expr.TupleLit tuple ? tuple.elements() : List.of(whole);
  }
}
