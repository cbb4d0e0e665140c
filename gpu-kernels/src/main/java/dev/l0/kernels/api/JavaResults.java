package dev.l0.kernels.api;

import dev.l0.ir.ScalarType;
import dev.l0.ir.ScalarValue;
import dev.l0.ir.Type;
import dev.l0.ir.Value;
import dev.l0.kernels.jvm.FlatArray;

/**
 * An L0 result as Java values, the forms {@link JavaArguments} accepts: a scalar boxed, a tuple as
 * an {@code Object[]} of its components, an array of scalars as a primitive array (rank 1) or a
 * {@link FlatArray} (rank 2 and up), an array of tuples as an {@code Object[]} of its columns.
 */
final class JavaResults {
  private JavaResults() {}

  /** {@code value}, of type {@code type}, as Java values. */
  static Object toJava(Value value, Type type) {
    if (type instanceof ScalarType) {
      return JavaScalars.box((ScalarValue) value);
    }
    if (type instanceof Type.Tuple tuple) {
      Object[] components = new Object[tuple.elements().size()];
      for (int k = 0; k < components.length; k++) {
        components[k] = toJava(((Value.Tuple) value).elements().get(k), tuple.elements().get(k));
      }
      return components;
    }
    Type.Array array = (Type.Array) type;
    if (array.baseElement() instanceof Type.Tuple tuple) {
      Object[] columns = new Object[tuple.elements().size()];
      for (int k = 0; k < columns.length; k++) {
        columns[k] = toJava(TupleColumns.unzip((Value.Array) value, array, k), TupleColumns.columnType(array, k));
      }
      return columns;
    }
    FlatArray flat = FlatArray.of((Value.Array) value, (ScalarType) array.baseElement(), array.rank());
    return array.rank() == 1 ? flat.data() : flat;
  }
}
