package dev.l0.opt.eval;

import dev.l0.ir.Shape;
import dev.l0.ir.Type;
import dev.l0.ir.Value;
import dev.l0.opt.ir.InternalTypes;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;

/**
 * Converts run-time values between external form (tuples, arrays of tuples) and the tupleless
 * components internal L0 passes around (thesis §4.1): the value-level twin of {@link
 * InternalTypes#components}.
 */
public final class ValueFlattening {
  private ValueFlattening() {}

  /** The components of {@code v}, a value of external type {@code type}. */
  public static List<Value> flatten(Value v, Type type) {
    List<Value> out = new ArrayList<>();
    addComponents(v, type, out);
    return out;
  }

  private static void addComponents(Value v, Type type, List<Value> out) {
    if (type instanceof Type.Tuple t) {
      List<Value> elements = ((Value.Tuple) v).elements();
      for (int k = 0; k < elements.size(); k++) {
        addComponents(elements.get(k), t.elements().get(k), out);
      }
    } else if (type instanceof Type.Array a) {
      List<Type> rowComponents = InternalTypes.components(a.element());
      List<Shape> rowShapes = componentShapes(((Value.Array) v).elementShape(), a.element());
      List<List<Value>> columns = new ArrayList<>();
      rowComponents.forEach(c -> columns.add(new ArrayList<>()));
      for (Value row : ((Value.Array) v).elements()) {
        List<Value> parts = flatten(row, a.element());
        for (int c = 0; c < parts.size(); c++) {
          columns.get(c).add(parts.get(c));
        }
      }
      for (int c = 0; c < rowComponents.size(); c++) {
        out.add(new Value.Array(rowComponents.get(c), columns.get(c), rowShapes.get(c)));
      }
    } else {
      out.add(v);
    }
  }

  /** The external value of type {@code type} whose components are {@code components}. */
  public static Value unflatten(List<Value> components, Type type) {
    Iterator<Value> it = components.iterator();
    Value v = take(it, type);
    if (it.hasNext()) {
      throw new IllegalArgumentException("more components than the type " + type + " has");
    }
    return v;
  }

  private static Value take(Iterator<Value> it, Type type) {
    if (type instanceof Type.Tuple t) {
      List<Value> elements = new ArrayList<>();
      t.elements().forEach(e -> elements.add(take(it, e)));
      return new Value.Tuple(elements);
    }
    if (type instanceof Type.Array a) {
      int width = InternalTypes.components(a.element()).size();
      List<Value.Array> columns = new ArrayList<>();
      for (int c = 0; c < width; c++) {
        columns.add((Value.Array) it.next());
      }
      int length = columns.isEmpty() ? 0 : columns.get(0).length();
      List<Value> rows = new ArrayList<>();
      for (int i = 0; i < length; i++) {
        int row = i;
        rows.add(unflatten(columns.stream().map(col -> col.get(row)).toList(), a.element()));
      }
      Iterator<Shape> columnShapes = columns.stream().map(Value.Array::elementShape).iterator();
      return new Value.Array(a.element(), rows, combinedShape(columnShapes, a.element()));
    }
    return it.next();
  }

  /** The shapes of the components of a value of {@code type} that has shape {@code shape}. */
  private static List<Shape> componentShapes(Shape shape, Type type) {
    List<Shape> out = new ArrayList<>();
    if (type instanceof Type.Tuple t) {
      List<Shape> elements = ((Shape.Tuple) shape).elements();
      for (int k = 0; k < elements.size(); k++) {
        out.addAll(componentShapes(elements.get(k), t.elements().get(k)));
      }
    } else if (type instanceof Type.Array a) {
      Shape.Array array = (Shape.Array) shape;
      for (Shape row : componentShapes(array.element(), a.element())) {
        out.add(new Shape.Array(array.length(), row));
      }
    } else {
      out.add(shape);
    }
    return out;
  }

  /**
   * The shape of a value of {@code type} whose components have the shapes {@code components}
   * yields.
   */
  private static Shape combinedShape(Iterator<Shape> components, Type type) {
    if (type instanceof Type.Tuple t) {
      return new Shape.Tuple(t.elements().stream().map(e -> combinedShape(components, e)).toList());
    }
    if (type instanceof Type.Array a) {
      int width = InternalTypes.components(a.element()).size();
      List<Shape.Array> columns = new ArrayList<>();
      for (int c = 0; c < width; c++) {
        columns.add((Shape.Array) components.next());
      }
      int length = columns.isEmpty() ? 0 : columns.get(0).length();
      return new Shape.Array(
          length,
          combinedShape(columns.stream().map(Shape.Array::element).iterator(), a.element()));
    }
    return components.next();
  }
}
