package dev.l0.kernels.sim;

import dev.l0.ir.ScalarType;
import dev.l0.ir.ScalarValue;
import dev.l0.ir.Shape;
import dev.l0.ir.Type;
import dev.l0.ir.Value;
import java.util.ArrayList;
import java.util.List;

/**
 * Regular L0 arrays of scalars to and from flat row-major storage, as a kernel group's inputs and
 * outputs are stored.
 */
final class RowMajor {
  private RowMajor() {}

  /**
   * The sizes of the {@code rank} dimensions of {@code array}, outermost first, also below an empty
   * dimension.
   */
  static List<Long> shape(Value array, int rank) {
    List<Long> shape = new ArrayList<>();
    Shape level = Shape.of(asArray(array));
    while (shape.size() < rank) {
      if (!(level instanceof Shape.Array a)) {
        throw new IllegalArgumentException(
            "expected an array of rank " + rank + ", found one of shape " + Shape.of(array));
      }
      shape.add((long) a.length());
      level = a.element();
    }
    return shape;
  }

  /** The scalars of rank-{@code rank} {@code array} in row-major order. */
  static List<ScalarValue> flatten(Value array, int rank) {
    List<ScalarValue> out = new ArrayList<>();
    addElements(array, rank, out);
    return out;
  }

  private static void addElements(Value v, int rank, List<ScalarValue> out) {
    if (rank == 0) {
      if (!(v instanceof ScalarValue s)) {
        throw new IllegalArgumentException("expected a scalar, found " + v);
      }
      out.add(s);
      return;
    }
    for (Value element : asArray(v).elements()) {
      addElements(element, rank - 1, out);
    }
  }

  private static Value.Array asArray(Value v) {
    if (!(v instanceof Value.Array a)) {
      throw new IllegalArgumentException("expected an array, found " + v);
    }
    return a;
  }

  /**
   * The array of sizes {@code shape} stored row-major in {@code data} (at least their product
   * long), or element 0 when {@code shape} is empty.
   */
  static Value unflatten(ScalarArray data, List<Long> shape) {
    return build(data, shape, 0, 0);
  }

  private static Value build(ScalarArray data, List<Long> shape, int dimension, long offset) {
    if (dimension == shape.size()) {
      return data.get(Math.toIntExact(offset));
    }
    long stride = 1;
    for (int d = dimension + 1; d < shape.size(); d++) {
      stride *= shape.get(d);
    }
    List<Value> elements = new ArrayList<>();
    for (long k = 0; k < shape.get(dimension); k++) {
      elements.add(build(data, shape, dimension + 1, offset + k * stride));
    }
    Shape elementShape = Shape.SCALAR;
    for (int d = shape.size() - 1; d > dimension; d--) {
      elementShape = new Shape.Array(Math.toIntExact(shape.get(d)), elementShape);
    }
    return new Value.Array(
        elementType(data.type(), shape.size() - dimension - 1), elements, elementShape);
  }

  private static Type elementType(ScalarType scalar, int rank) {
    Type t = scalar;
    for (int d = 0; d < rank; d++) {
      t = Type.array(t);
    }
    return t;
  }
}
