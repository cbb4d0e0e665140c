package dev.l0.kernels.api;

import dev.l0.ir.ScalarType;
import dev.l0.ir.ScalarValue;
import dev.l0.ir.Type;
import dev.l0.kernels.exec.HostValue;
import dev.l0.kernels.jvm.FlatArray;
import java.util.Iterator;
import java.util.List;

/**
 * An L0 result, given as the host runner's components of its type, as Java values in the forms
 * {@link JavaArguments} accepts: a scalar boxed, a tuple as an {@code Object[]} of its components,
 * an array of scalars as a primitive array (rank 1) or a {@link FlatArray} (rank 2 and up), an
 * array of tuples as an {@code Object[]} of its columns. Arrays a kernel computed are handed over
 * as the kernel left them, not copied.
 */
final class JavaResults {
  private JavaResults() {}

  /** The value of type {@code type} whose components are {@code components}, as Java values. */
  static Object toJava(List<HostValue> components, Type type) {
    Iterator<HostValue> next = components.iterator();
    Object result = take(next, type);
    if (next.hasNext()) {
      throw new IllegalStateException(
          "the program returned more components than its result type " + type + " has");
    }
    return result;
  }

  private static Object take(Iterator<HostValue> next, Type type) {
    if (type instanceof ScalarType) {
      return JavaScalars.box((ScalarValue) next.next().boxed());
    }
    if (type instanceof Type.Tuple tuple) {
      Object[] components = new Object[tuple.elements().size()];
      for (int k = 0; k < components.length; k++) {
        components[k] = take(next, tuple.elements().get(k));
      }
      return components;
    }
    Type.Array array = (Type.Array) type;
    if (array.baseElement() instanceof Type.Tuple tuple) {
      Object[] columns = new Object[tuple.elements().size()];
      for (int k = 0; k < columns.length; k++) {
        columns[k] = take(next, TupleColumns.columnType(array, k));
      }
      return columns;
    }
    FlatArray flat = next.next().flat();
    return array.rank() == 1 ? flat.data() : flat;
  }
}
