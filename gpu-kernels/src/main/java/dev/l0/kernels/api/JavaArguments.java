package dev.l0.kernels.api;

import dev.l0.ir.ScalarType;
import dev.l0.ir.Type;
import dev.l0.ir.Value;
import dev.l0.kernels.jvm.FlatArray;
import dev.l0.syntax.L0Printer;
import java.lang.reflect.Array;
import java.nio.Buffer;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * A Java argument to the L0 value of its parameter's type, checked against that type.
 * <ul>
 *   <li>a scalar: its boxed number or Boolean ({@link JavaScalars});
 *   <li>a tuple: an {@code Object[]}, one argument per component;
 *   <li>an array of scalars: a primitive array or NIO buffer (rank 1; a buffer's elements are those
 *       from its position to its limit, read without moving the position), a {@link FlatArray}
 *       (any rank: row-major data and a shape), or nested Java arrays such as {@code double[][]}
 *       whose rows are regular;
 *   <li>an array of tuples: an {@code Object[]} of its columns, one per tuple component, all of one shape.
 * </ul>
 * Every element becomes one of the host runner's values, which is a copy: buffers are read in
 * place (never first copied to a Java array), and the JVM backend then copies each kernel's input
 * arrays into primitive arrays ({@link FlatArray}). Passing buffers through without a copy needs the
 * host runner to carry flat arrays instead of values; it does not yet. A mismatch is an
 * {@link IllegalArgumentException} naming the parameter, its type and the Java argument.
 */
final class JavaArguments {
  private JavaArguments() {}

  /** {@code argument} as a value of {@code type}, for parameter {@code parameter}. */
  static Value toValue(Object argument, Type type, String parameter) {
    if (type instanceof ScalarType scalar) {
      if (!JavaScalars.boxedClass(scalar).isInstance(argument)) {
        throw mismatch(parameter, type, argument);
      }
      return JavaScalars.unbox(argument, scalar);
    }
    if (type instanceof Type.Tuple tuple) {
      List<Value> components = new ArrayList<>();
      Object[] parts = parts(argument, tuple.elements().size(), parameter, type);
      for (int k = 0; k < parts.length; k++) {
        components.add(toValue(parts[k], tuple.elements().get(k), parameter));
      }
      return new Value.Tuple(components);
    }
    Type.Array array = (Type.Array) type;
    return array.baseElement() instanceof Type.Tuple ? fromColumns(argument, array, parameter) : scalarArray(argument, array, parameter);
  }

  private static Value.Array fromColumns(Object argument, Type.Array type, String parameter) {
    int components = TupleColumns.tupleType(type).elements().size();
    Object[] parts = parts(argument, components, parameter, type);
    List<Value.Array> columns = new ArrayList<>();
    for (int k = 0; k < components; k++) {
      columns.add((Value.Array) toValue(parts[k], TupleColumns.columnType(type, k), parameter));
      List<Integer> shape = shape(columns.get(k), type.rank());
      List<Integer> first = shape(columns.get(0), type.rank());
      if (!shape.equals(first)) {
        throw new IllegalArgumentException("parameter " + parameter + ": column " + k + " has shape " + shape
            + " but column 0 has shape " + first + "; the columns of " + L0Printer.print(type) + " must have one shape");
      }
    }
    return TupleColumns.zip(columns, type);
  }

  private static Value.Array scalarArray(Object argument, Type.Array type, String parameter) {
    ScalarType element = (ScalarType) type.baseElement();
    if (argument instanceof FlatArray flat) {
      return fromFlat(flat, type, parameter);
    }
    if (type.rank() == 1 && argument != null && argument.getClass() == JavaScalars.arrayClass(element)) {
      return new FlatArray(element, argument, new int[] {Array.getLength(argument)}).toValue();
    }
    if (type.rank() == 1 && argument instanceof Buffer buffer) {
      return fromBuffer(buffer, type, parameter);
    }
    if (type.rank() > 1 && argument instanceof Object[] rows) {
      return fromRows(rows, type, parameter);
    }
    throw mismatch(parameter, type, argument);
  }

  private static Value.Array fromFlat(FlatArray flat, Type.Array type, String parameter) {
    ScalarType element = (ScalarType) type.baseElement();
    int[] shape = flat.shape();
    if (flat.elementType() != element || shape.length != type.rank() || flat.data() == null
        || flat.data().getClass() != JavaScalars.arrayClass(element)) {
      throw new IllegalArgumentException("parameter " + parameter + " of type " + L0Printer.print(type)
          + " takes a FlatArray of " + element + " with " + type.rank() + " dimensions; got one of "
          + flat.elementType() + " with shape " + Arrays.toString(shape) + " and " + describe(flat.data()) + " data");
    }
    long elements = 1;
    boolean negative = false;
    for (int size : shape) {
      negative |= size < 0;
      elements *= size;
    }
    int length = Array.getLength(flat.data());
    if (negative || elements != length) {
      throw new IllegalArgumentException("parameter " + parameter + ": a FlatArray of shape " + Arrays.toString(shape)
          + " does not fit its data of " + length + " elements");
    }
    return flat.toValue();
  }

  private static Value.Array fromBuffer(Buffer buffer, Type.Array type, String parameter) {
    ScalarType element = (ScalarType) type.baseElement();
    int count = buffer.remaining();
    if (buffer instanceof ByteBuffer) {
      int width = JavaScalars.byteWidth(element);
      if (count % width != 0) {
        throw new IllegalArgumentException("parameter " + parameter + " of type " + L0Printer.print(type) + ": a ByteBuffer of "
            + count + " bytes does not hold whole " + element + " elements of " + width + " bytes");
      }
      count /= width;
    } else if (!JavaScalars.bufferClass(element).isInstance(buffer)) {
      throw mismatch(parameter, type, buffer);
    }
    List<Value> elements = new ArrayList<>(count);
    for (int i = 0; i < count; i++) {
      elements.add(JavaScalars.read(buffer, element, i));
    }
    return new Value.Array(element, elements);
  }

  private static Value.Array fromRows(Object[] rows, Type.Array type, String parameter) {
    List<Value> elements = new ArrayList<>();
    for (int i = 0; i < rows.length; i++) {
      Value.Array row = (Value.Array) toValue(rows[i], type.element(), parameter);
      List<Integer> shape = shape(row, type.rank() - 1);
      List<Integer> first = elements.isEmpty() ? shape : shape((Value.Array) elements.get(0), type.rank() - 1);
      if (!shape.equals(first)) {
        throw new IllegalArgumentException("parameter " + parameter + ": ragged array: row " + i + " has shape " + shape
            + " but row 0 has shape " + first);
      }
      elements.add(row);
    }
    return new Value.Array(type.element(), elements);
  }

  /** The sizes of the first {@code rank} dimensions of regular {@code array}, as far as they are not behind an empty dimension. */
  private static List<Integer> shape(Value.Array array, int rank) {
    List<Integer> sizes = new ArrayList<>();
    Value level = array;
    for (int d = 0; d < rank && level instanceof Value.Array a; d++) {
      sizes.add(a.length());
      level = a.length() == 0 ? null : a.get(0);
    }
    return sizes;
  }

  private static Object[] parts(Object argument, int count, String parameter, Type type) {
    if (argument instanceof Object[] parts && parts.length == count && argument.getClass() == Object[].class) {
      return parts;
    }
    throw mismatch(parameter, type, argument);
  }

  private static IllegalArgumentException mismatch(String parameter, Type type, Object argument) {
    return new IllegalArgumentException("parameter " + parameter + " of type " + L0Printer.print(type) + " takes "
        + accepted(type) + "; got " + describe(argument));
  }

  /** The Java forms a value of {@code type} is given in. */
  private static String accepted(Type type) {
    if (type instanceof ScalarType scalar) {
      return "a " + JavaScalars.boxedClass(scalar).getSimpleName();
    }
    if (type instanceof Type.Tuple tuple) {
      return "an Object[] of its " + tuple.elements().size() + " components";
    }
    Type.Array array = (Type.Array) type;
    if (array.baseElement() instanceof Type.Tuple tuple) {
      return "an Object[] of its " + tuple.elements().size() + " columns";
    }
    ScalarType element = (ScalarType) array.baseElement();
    if (array.rank() == 1) {
      String buffers = element == ScalarType.BOOL ? "a ByteBuffer" : "a " + JavaScalars.bufferClass(element).getSimpleName() + " or ByteBuffer";
      return "a " + JavaScalars.arrayClass(element).getSimpleName() + ", " + buffers + ", or a FlatArray of " + element;
    }
    return "a FlatArray of " + element + " with " + array.rank() + " dimensions, or nested arrays (" + nestedArrayName(array) + ")";
  }

  private static String nestedArrayName(Type.Array array) {
    return JavaScalars.arrayClass((ScalarType) array.baseElement()).getSimpleName() + "[]".repeat(array.rank() - 1);
  }

  private static String describe(Object argument) {
    if (argument == null) {
      return "null";
    }
    if (argument instanceof Object[] parts) {
      return argument.getClass().getSimpleName() + " of length " + parts.length;
    }
    return argument.getClass().getSimpleName();
  }
}
