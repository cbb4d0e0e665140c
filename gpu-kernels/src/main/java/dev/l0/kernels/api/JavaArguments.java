package dev.l0.kernels.api;

import dev.l0.ir.ScalarType;
import dev.l0.ir.Type;
import dev.l0.kernels.exec.HostValue;
import dev.l0.kernels.jvm.FlatArray;
import dev.l0.syntax.Article;
import dev.l0.syntax.L0Printer;
import java.lang.reflect.Array;
import java.nio.Buffer;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;

/**
 * A Java argument as the components the host runner takes for its parameter's type (tuples and
 * arrays of tuples taken apart, in the order of {@code ValueFlattening}), checked against that
 * type.
 *
 * <ul>
 *   <li>a scalar: its boxed number or Boolean ({@link JavaScalars});
 *   <li>a tuple: an {@code Object[]}, one argument per component;
 *   <li>an array of scalars: a primitive array or NIO buffer (rank 1; a buffer's elements are those
 *       from its position to its limit, read without moving the position), a {@link FlatArray} (any
 *       rank: row-major data and a shape), or nested Java arrays such as {@code double[][]} whose
 *       rows are regular;
 *   <li>an array of tuples: an {@code Object[]} of its columns, one per tuple component, all of one
 *       shape.
 * </ul>
 *
 * Arrays of scalars become {@link HostValue.Flat} without boxing: a primitive array, a {@code
 * FlatArray} and a heap buffer whose array holds exactly its elements are passed on as they are,
 * not copied (the caller must not change them until the call returns); other buffers (direct ones,
 * slices) are copied once, in bulk; nested Java arrays are copied row by row. A mismatch is an
 * {@link IllegalArgumentException} naming the parameter, its type and the Java argument; so are
 * nested arrays with an empty dimension whose lost inner sizes the entry could see ({@link
 * LostSizes}).
 */
final class JavaArguments {
  private JavaArguments() {}

  /**
   * Adds the components of {@code argument}, a value of {@code type} for parameter {@code
   * parameter}, to {@code components}; nested arrays that lost sizes the entry could see ({@code
   * lostSizes}) are refused.
   */
  static void addComponents(
      Object argument,
      Type type,
      String parameter,
      LostSizes lostSizes,
      List<HostValue> components) {
    if (type instanceof ScalarType scalar) {
      if (!JavaScalars.boxedClass(scalar).isInstance(argument)) {
        throw mismatch(parameter, type, argument);
      }
      components.add(HostValue.of(JavaScalars.unbox(argument, scalar)));
    } else if (type instanceof Type.Tuple tuple) {
      Object[] parts = parts(argument, tuple.elements().size(), parameter, type);
      for (int k = 0; k < parts.length; k++) {
        addComponents(parts[k], tuple.elements().get(k), parameter, lostSizes, components);
      }
    } else {
      Type.Array array = (Type.Array) type;
      if (array.baseElement() instanceof Type.Tuple) {
        addColumns(argument, array, parameter, lostSizes, components);
      } else {
        FlatArray flat = scalarArray(argument, array, parameter);
        Optional<String> lost =
            lostSizes.problem(
                parameter,
                (ScalarType) array.baseElement(),
                flat.shape(),
                knownDimensions(argument, array.rank()));
        if (lost.isPresent()) {
          throw new IllegalArgumentException("parameter " + parameter + ": " + lost.get());
        }
        components.add(HostValue.of(flat));
      }
    }
  }

  private static void addColumns(
      Object argument,
      Type.Array type,
      String parameter,
      LostSizes lostSizes,
      List<HostValue> components) {
    int width = TupleColumns.tupleType(type).elements().size();
    Object[] parts = parts(argument, width, parameter, type);
    int first = components.size();
    for (int k = 0; k < width; k++) {
      int before = components.size();
      addComponents(parts[k], TupleColumns.columnType(type, k), parameter, lostSizes, components);
      int[] shape = outerShape(components.get(before).flat(), type.rank());
      int[] expected = outerShape(components.get(first).flat(), type.rank());
      if (!Arrays.equals(shape, expected)) {
        throw new IllegalArgumentException(
            "parameter "
                + parameter
                + ": column "
                + k
                + " has shape "
                + Arrays.toString(shape)
                + " but column 0 has shape "
                + Arrays.toString(expected)
                + "; the columns of "
                + L0Printer.print(type)
                + " must have one shape");
      }
    }
  }

  private static FlatArray scalarArray(Object argument, Type.Array type, String parameter) {
    ScalarType element = (ScalarType) type.baseElement();
    if (argument instanceof FlatArray flat) {
      return checkedFlat(flat, type, parameter);
    }
    if (type.rank() == 1
        && argument != null
        && argument.getClass() == JavaScalars.arrayClass(element)) {
      return new FlatArray(element, argument, new int[] {Array.getLength(argument)});
    }
    if (type.rank() == 1 && argument instanceof Buffer buffer) {
      return fromBuffer(buffer, type, parameter);
    }
    if (type.rank() > 1 && argument instanceof Object[] rows) {
      return fromRows(rows, type, parameter);
    }
    throw mismatch(parameter, type, argument);
  }

  private static FlatArray checkedFlat(FlatArray flat, Type.Array type, String parameter) {
    ScalarType element = (ScalarType) type.baseElement();
    int[] shape = flat.shape();
    if (flat.elementType() != element
        || shape.length != type.rank()
        || flat.data().getClass() != JavaScalars.arrayClass(element)) {
      throw new IllegalArgumentException(
          "parameter "
              + parameter
              + " of type "
              + L0Printer.print(type)
              + " takes a FlatArray of "
              + element
              + " with "
              + type.rank()
              + " dimensions; got one of "
              + flat.elementType()
              + " with shape "
              + Arrays.toString(shape)
              + " and "
              + describe(flat.data())
              + " data");
    }
    return flat;
  }

  private static FlatArray fromBuffer(Buffer buffer, Type.Array type, String parameter) {
    ScalarType element = (ScalarType) type.baseElement();
    int count = buffer.remaining();
    if (buffer instanceof ByteBuffer) {
      int width = JavaScalars.byteWidth(element);
      if (count % width != 0) {
        throw new IllegalArgumentException(
            "parameter "
                + parameter
                + " of type "
                + L0Printer.print(type)
                + ": a ByteBuffer of "
                + count
                + " bytes does not hold whole "
                + element
                + " elements of "
                + width
                + " bytes");
      }
      count /= width;
    } else if (!JavaScalars.bufferClass(element).isInstance(buffer)) {
      throw mismatch(parameter, type, buffer);
    }
    return new FlatArray(
        element, JavaScalars.primitiveArray(buffer, element, count), new int[] {count});
  }

  /**
   * Nested Java arrays as one flat array, each row's elements copied in bulk; the rows must have
   * one shape. A row that is not an array of the row type is named by its index ({@code a[1]}).
   */
  private static FlatArray fromRows(Object[] rows, Type.Array type, String parameter) {
    ScalarType element = (ScalarType) type.baseElement();
    Type.Array rowType = (Type.Array) type.element();
    List<FlatArray> flatRows = new ArrayList<>();
    for (int i = 0; i < rows.length; i++) {
      FlatArray row = scalarArray(rows[i], rowType, parameter + "[" + i + "]");
      int[] shape = outerShape(row, rowType.rank());
      int[] first = flatRows.isEmpty() ? shape : outerShape(flatRows.get(0), rowType.rank());
      if (!Arrays.equals(shape, first)) {
        throw new IllegalArgumentException(
            "parameter "
                + parameter
                + ": ragged array: row "
                + i
                + " has shape "
                + Arrays.toString(shape)
                + " but row 0 has shape "
                + Arrays.toString(first));
      }
      flatRows.add(row);
    }
    int[] rowShape =
        flatRows.isEmpty() ? new int[rowType.rank()] : outerShape(flatRows.get(0), rowType.rank());
    int rowElements = 1;
    for (int size : rowShape) {
      rowElements = Math.multiplyExact(rowElements, size);
    }
    Object data = FlatArray.allocate(element, Math.multiplyExact(rows.length, rowElements));
    for (int i = 0; i < rows.length; i++) {
      System.arraycopy(flatRows.get(i).data(), 0, data, i * rowElements, rowElements);
    }
    int[] shape = new int[type.rank()];
    shape[0] = rows.length;
    System.arraycopy(rowShape, 0, shape, 1, rowShape.length);
    return new FlatArray(element, data, shape);
  }

  /**
   * How many outer dimensions of {@code argument}, an array of {@code rank} dimensions, have their
   * sizes: all but for nested Java arrays with an empty dimension above their last, which have no
   * row under it to give the sizes below it ({@code new double[0][3]} keeps no 3).
   */
  private static int knownDimensions(Object argument, int rank) {
    if (rank == 1 || !(argument instanceof Object[] rows)) {
      return rank;
    }
    int known = rows.length == 0 ? 1 : rank;
    for (Object row : rows) {
      known = Math.min(known, 1 + knownDimensions(row, rank - 1));
    }
    return known;
  }

  /**
   * The sizes of the first {@code rank} dimensions of {@code array}, also those under an empty
   * dimension: an empty array keeps its inner sizes, as an interpreter value does.
   */
  private static int[] outerShape(FlatArray array, int rank) {
    return Arrays.copyOf(array.shape(), rank);
  }

  private static Object[] parts(Object argument, int count, String parameter, Type type) {
    if (argument instanceof Object[] parts
        && parts.length == count
        && argument.getClass() == Object[].class) {
      return parts;
    }
    throw mismatch(parameter, type, argument);
  }

  private static IllegalArgumentException mismatch(String parameter, Type type, Object argument) {
    return new IllegalArgumentException(
        "parameter "
            + parameter
            + " of type "
            + L0Printer.print(type)
            + " takes "
            + accepted(type)
            + "; got "
            + describe(argument));
  }

  /** The Java forms a value of {@code type} is given in. */
  private static String accepted(Type type) {
    if (type instanceof ScalarType scalar) {
      return Article.before(JavaScalars.boxedClass(scalar).getSimpleName());
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
      String buffers =
          element == ScalarType.BOOL
              ? "a ByteBuffer"
              : Article.before(JavaScalars.bufferClass(element).getSimpleName()) + " or ByteBuffer";
      return Article.before(JavaScalars.arrayClass(element).getSimpleName())
          + ", "
          + buffers
          + ", or a FlatArray of "
          + element;
    }
    return "a FlatArray of "
        + element
        + " with "
        + array.rank()
        + " dimensions, or nested arrays ("
        + nestedArrayName(array)
        + ")";
  }

  private static String nestedArrayName(Type.Array array) {
    return JavaScalars.arrayClass((ScalarType) array.baseElement()).getSimpleName()
        + "[]".repeat(array.rank() - 1);
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
