package dev.l0.spark.pipeline;

import dev.l0.ir.Expr;
import dev.l0.ir.FunArg;
import dev.l0.ir.Param;
import dev.l0.ir.ScalarType;
import dev.l0.ir.SourcePos;
import dev.l0.ir.Type;
import dev.l0.syntax.L0Printer;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;

/**
 * Tuple flattening at the pipeline's boundary: an L0 type as its leaves (scalars and arrays of
 * scalars; an array of tuples is one array per component, as the runtime API passes it), the
 * runtime's Java values split into leaves and assembled from them, and L0 expressions that rebuild
 * a value from named leaves.
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

  /**
   * {@code value}, a runtime result of type {@code type} (tuples and arrays of tuples as {@code
   * Object[]}), as its leaves.
   */
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

  /**
   * The runtime arguments of parameters of {@code types} from {@code leaves}, one per leaf of those
   * types in order (the inverse of {@link #values}): a tuple or an array of tuples becomes the
   * {@code Object[]} of its components or columns, every other leaf is passed as it is.
   */
  static Object[] arguments(List<Type> types, List<Object> leaves) {
    // loops, not streams: a task runs this once per batch
    int expected = 0;
    for (Type type : types) {
      expected += leafCount(type);
    }
    if (expected != leaves.size()) {
      throw new IllegalArgumentException(
          "parameters of types "
              + types.stream().map(L0Printer::print).toList()
              + " take "
              + expected
              + " leaves, given "
              + leaves.size());
    }
    Iterator<Object> next = leaves.iterator();
    Object[] arguments = new Object[types.size()];
    for (int k = 0; k < arguments.length; k++) {
      arguments[k] = assemble(types.get(k), next);
    }
    return arguments;
  }

  /** How many leaves {@code type} has: {@code types(type).size()}. */
  private static int leafCount(Type type) {
    if (type instanceof Type.Tuple tuple) {
      int count = 0;
      for (Type element : tuple.elements()) {
        count += leafCount(element);
      }
      return count;
    }
    return type instanceof Type.Array array ? leafCount(array.element()) : 1;
  }

  private static Object assemble(Type type, Iterator<Object> leaves) {
    if (type instanceof Type.Tuple tuple) {
      Object[] parts = new Object[tuple.elements().size()];
      for (int k = 0; k < parts.length; k++) {
        parts[k] = assemble(tuple.elements().get(k), leaves);
      }
      return parts;
    }
    if (type.baseElement() instanceof Type.Tuple tuple) {
      Object[] columns = new Object[tuple.elements().size()];
      for (int k = 0; k < columns.length; k++) {
        columns[k] = assemble(withBase(type, tuple.elements().get(k)), leaves);
      }
      return columns;
    }
    return leaves.next();
  }

  /** {@code type} with its base element (under all array dimensions) replaced by {@code base}. */
  static Type withBase(Type type, Type base) {
    return type instanceof Type.Array array ? Type.array(withBase(array.element(), base)) : base;
  }

  /**
   * An expression of type {@code type} built from variables named by {@code leafNames}, one per
   * leaf, which it consumes: a tuple literal of its parts, a zip of the columns of an array of
   * tuples, and for an array of arrays of tuples a map that rebuilds each row from the rows of its
   * leaf columns.
   */
  static Expr rebuild(Type type, Iterator<String> leafNames) {
    if (type instanceof Type.Tuple tuple) {
      List<Expr> parts = new ArrayList<>();
      tuple.elements().forEach(t -> parts.add(rebuild(t, leafNames)));
      return new Expr.TupleLit(parts, SourcePos.NONE);
    }
    if (!(type.baseElement() instanceof Type.Tuple tuple)) {
      return new Expr.Var(leafNames.next(), SourcePos.NONE);
    }
    Type element = ((Type.Array) type).element();
    if (element instanceof Type.Tuple) {
      List<Expr> columns = new ArrayList<>();
      tuple.elements().forEach(t -> columns.add(rebuild(Type.array(t), leafNames)));
      return new Expr.Zip(columns, SourcePos.NONE);
    }
    List<Type> rowLeaves = types(element);
    List<Param> rowParams = new ArrayList<>();
    List<Expr> columns = new ArrayList<>();
    for (int k = 0; k < rowLeaves.size(); k++) {
      rowParams.add(new Param(rowLeaves.get(k), "l0_row" + type.rank() + "_" + k, SourcePos.NONE));
      columns.add(new Expr.Var(leafNames.next(), SourcePos.NONE));
    }
    Expr row = rebuild(element, rowParams.stream().map(Param::name).iterator());
    Expr rows = columns.size() == 1 ? columns.get(0) : new Expr.Zip(columns, SourcePos.NONE);
    return new Expr.Map(
        new FunArg.Lambda(element, rowParams, row, SourcePos.NONE), rows, SourcePos.NONE);
  }

  /**
   * {@code type}'s components as expressions from {@code leafNames}: a tuple's elements, or the
   * value itself.
   */
  static List<Expr> components(Type type, Iterator<String> leafNames) {
    Expr whole = rebuild(type, leafNames);
    return whole instanceof Expr.TupleLit tuple ? tuple.elements() : List.of(whole);
  }
}
