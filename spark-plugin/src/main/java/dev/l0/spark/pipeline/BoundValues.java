package dev.l0.spark.pipeline;

import dev.l0.ir.FunDef;
import dev.l0.ir.Param;
import dev.l0.ir.ScalarType;
import dev.l0.ir.Type;
import dev.l0.kernels.api.JavaScalars;
import dev.l0.kernels.api.LostSizes;
import dev.l0.kernels.jvm.FlatArray;
import dev.l0.syntax.Article;
import dev.l0.syntax.L0Printer;
import dev.l0.types.TypedProgram;
import java.io.IOException;
import java.io.ObjectOutputStream;
import java.io.OutputStream;
import java.io.Serializable;
import java.io.UncheckedIOException;
import java.lang.reflect.Array;
import java.security.DigestOutputStream;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.HashSet;
import java.util.HexFormat;
import java.util.IdentityHashMap;
import java.util.Iterator;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.stream.Collectors;
import org.apache.spark.api.java.JavaSparkContext;
import org.apache.spark.broadcast.Broadcast;
import org.apache.spark.sql.SparkSession;

/**
 * The driver-side values bound to entry parameters with {@code with(...)}: checked against the
 * entry when planning, then shipped to executors once as a Spark broadcast ({@link #broadcast}),
 * which each executor fetches and keeps once, whatever its number of tasks and batches. The
 * compiled programs do not depend on the values (they are arguments of every run), so the program
 * cache stays keyed by the program alone; {@link #digest()} tells bound values apart where specs
 * are compared. Immutable and serializable; before {@link #broadcast} the values travel inside it,
 * after it only the broadcast's handle does (the broadcast's value is the instance that holds
 * them). With Kryo it travels by Java serialization ({@code L0KryoRegistrator} registers it).
 */
public final class BoundValues implements Serializable {
  private static final long serialVersionUID = 1L;

  /** The most elements of one Java array (a few less than {@link Integer#MAX_VALUE}). */
  private static final int MAX_ELEMENTS = Integer.MAX_VALUE - 8;

  private static final BoundValues NONE =
      new BoundValues(List.of(), List.of(), digestOf(List.of()), null);

  private final List<String> parameters;
  private final List<Integer> positions;
  private final String digest;
  private final List<BoundValue> held;
  private final Broadcast<BoundValues> broadcast;

  private BoundValues(
      List<String> parameters,
      List<Integer> positions,
      String digest,
      List<BoundValue> held,
      Broadcast<BoundValues> broadcast) {
    this.parameters = List.copyOf(parameters);
    this.positions = List.copyOf(positions);
    this.digest = digest;
    this.held = held == null ? null : List.copyOf(held);
    this.broadcast = broadcast;
  }

  private BoundValues(
      List<String> parameters, List<Integer> positions, String digest, List<BoundValue> held) {
    this(parameters, positions, digest, held, null);
  }

  /** No bound values. */
  static BoundValues none() {
    return NONE;
  }

  /**
   * {@code arguments} checked against {@code entry}: each names a parameter once, and its Java
   * value fits that parameter's type (a scalar, or an array of scalars given as a primitive array,
   * regular nested primitive arrays or a {@link FlatArray}); throws {@link
   * PipelinePlanningException}.
   */
  static BoundValues of(
      TypedProgram typed, FunDef entry, List<BoundArgument> arguments, String callSite) {
    List<BoundValue> values = new ArrayList<>();
    Set<String> seen = new HashSet<>();
    for (BoundArgument argument : arguments) {
      if (!seen.add(argument.parameter())) {
        throw new PipelinePlanningException(
            callSite,
            "with(\""
                + argument.parameter()
                + "\", ...) binds the parameter '"
                + argument.parameter()
                + "' of '"
                + entry.name()
                + "' twice");
      }
      values.add(checked(typed, entry, argument, callSite));
    }
    values.sort((a, b) -> Integer.compare(a.position(), b.position()));
    return new BoundValues(
        values.stream().map(BoundValue::parameter).toList(),
        values.stream().map(BoundValue::position).toList(),
        digestOf(values),
        values);
  }

  /**
   * These values as one Spark broadcast of {@code session}'s context, fetched once per executor;
   * itself where there are none.
   */
  BoundValues broadcast(SparkSession session) {
    if (parameters.isEmpty() || broadcast != null) {
      return this;
    }
    Broadcast<BoundValues> shipped =
        JavaSparkContext.fromSparkContext(session.sparkContext()).broadcast(this);
    return new BoundValues(parameters, positions, digest, null, shipped);
  }

  /** Whether no parameter is bound. */
  boolean isEmpty() {
    return parameters.isEmpty();
  }

  /** Whether the entry's parameter {@code name} is bound. */
  boolean binds(String name) {
    return parameters.contains(name);
  }

  /** Hex SHA-256 of the bound names, types, shapes and values. */
  String digest() {
    return digest;
  }

  /** Whether these values travel as a Spark broadcast. */
  boolean broadcasted() {
    return broadcast != null;
  }

  /**
   * The runtime arguments of an entry with parameters of {@code parameterTypes}: the bound values
   * at their positions, the others assembled from {@code columnLeaves} in order.
   */
  Object[] arguments(List<Type> parameterTypes, List<Object> columnLeaves) {
    if (parameters.isEmpty()) {
      return TupleLeaves.arguments(parameterTypes, columnLeaves);
    }
    List<BoundValue> values = values();
    List<Type> columnTypes = new ArrayList<>();
    for (int k = 0; k < parameterTypes.size(); k++) {
      if (!positions.contains(k)) {
        columnTypes.add(parameterTypes.get(k));
      }
    }
    Iterator<Object> fromColumns =
        Arrays.asList(TupleLeaves.arguments(columnTypes, columnLeaves)).iterator();
    Object[] arguments = new Object[parameterTypes.size()];
    int next = 0;
    for (int k = 0; k < arguments.length; k++) {
      if (next < values.size() && values.get(next).position() == k) {
        arguments[k] = values.get(next++).argument();
      } else {
        arguments[k] = fromColumns.next();
      }
    }
    return arguments;
  }

  /** One line per bound value, e.g. {@code " grid [f64] of shape [100]"}. */
  String explain() {
    return values().stream().map(v -> "  " + v.describe()).collect(Collectors.joining("\n"));
  }

  private List<BoundValue> values() {
    return held != null ? held : broadcast.value().held;
  }

  private static BoundValue checked(
      TypedProgram typed, FunDef entry, BoundArgument argument, String callSite) {
    List<Param> params = entry.params();
    for (int position = 0; position < params.size(); position++) {
      Param param = params.get(position);
      if (param.name().equals(argument.parameter())) {
        BoundValue value = flattened(param, position, argument.value(), callSite);
        if (!(argument.value() instanceof FlatArray)) {
          checkSizesUnderEmptyDimension(typed, entry, value, callSite);
        }
        return value;
      }
    }
    throw new PipelinePlanningException(
        callSite,
        "with(\""
            + argument.parameter()
            + "\", ...) names no parameter of '"
            + entry.name()
            + "'; its parameters are "
            + params.stream()
                .map(p -> L0Printer.print(p.type()) + " " + p.name())
                .collect(Collectors.joining(", ")));
  }

  /**
   * Nested Java arrays with an empty dimension above their last have no row below it to give the
   * sizes of the dimensions there, so those sizes read as 0; an error naming the parameter and the
   * use where the entry could see them ({@link LostSizes}).
   */
  private static void checkSizesUnderEmptyDimension(
      TypedProgram typed, FunDef entry, BoundValue value, String callSite) {
    int[] shape = value.shape();
    int empty = 0;
    while (empty < shape.length && shape[empty] != 0) {
      empty++;
    }
    Optional<String> problem =
        new LostSizes(typed, entry)
            .problem(value.parameter(), value.elementType(), shape, empty + 1);
    if (problem.isPresent()) {
      throw new PipelinePlanningException(
          callSite, "with(\"" + value.parameter() + "\", ...): " + problem.get());
    }
  }

  private static BoundValue flattened(Param param, int position, Object value, String callSite) {
    Type type = param.type();
    if (!(type.baseElement() instanceof ScalarType element)) {
      throw new PipelinePlanningException(
          callSite,
          "with(\""
              + param.name()
              + "\", ...): the parameter has L0 type "
              + L0Printer.print(type)
              + "; with(...) binds only scalars and arrays of scalars");
    }
    int rank = type.rank();
    String problem =
        "with(\""
            + param.name()
            + "\", ...): the parameter has L0 type "
            + L0Printer.print(type)
            + ", which takes "
            + accepted(element, rank)
            + ", but the value is "
            + describe(value);
    if (rank == 0) {
      if (!JavaScalars.boxedClass(element).isInstance(value)) {
        throw new PipelinePlanningException(callSite, problem);
      }
      return new BoundValue(param.name(), position, element, new int[0], value);
    }
    if (value instanceof FlatArray flat) {
      if (flat.elementType() != element || flat.shape().length != rank) {
        throw new PipelinePlanningException(callSite, problem);
      }
      // Copied, as nested arrays are below: later changes to the caller's data must not reach the
      // job (in local mode the broadcast's value is this very object).
      int length = Array.getLength(flat.data());
      Object data = FlatArray.allocate(element, length);
      System.arraycopy(flat.data(), 0, data, 0, length);
      return new BoundValue(param.name(), position, element, flat.shape(), data);
    }
    if (value == null || value.getClass() != JavaScalars.nestedArrayClass(element, rank)) {
      throw new PipelinePlanningException(callSite, problem);
    }
    int[] shape = new int[rank];
    Object first = value;
    for (int d = 0; d < rank; d++) {
      shape[d] = first == null ? 0 : Array.getLength(first);
      first = d + 1 < rank && shape[d] > 0 ? Array.get(first, 0) : null;
    }
    int count = elementCount(param.name(), shape, callSite);
    checkRegular(
        value,
        0,
        shape,
        new int[rank],
        Collections.newSetFromMap(new IdentityHashMap<>()),
        param.name(),
        callSite);
    Object data = FlatArray.allocate(element, count);
    if (count > 0) {
      flatten(value, 0, rank, data, new int[] {0});
    }
    return new BoundValue(param.name(), position, element, shape, data);
  }

  /**
   * The number of elements of a value of {@code shape} (none where a dimension is empty); an error
   * naming {@code parameter} where it is more than one Java array holds (nested arrays that share
   * their rows can have such a shape).
   */
  private static int elementCount(String parameter, int[] shape, String callSite) {
    if (Arrays.stream(shape).anyMatch(size -> size == 0)) {
      return 0;
    }
    long count = 1;
    for (int size : shape) {
      count *= size;
      if (count > MAX_ELEMENTS) {
        throw new PipelinePlanningException(
            callSite,
            "with(\""
                + parameter
                + "\", ...): the value has shape "
                + Arrays.toString(shape)
                + ", more than "
                + MAX_ELEMENTS
                + " elements, the most one Java array holds");
      }
    }
    return (int) count;
  }

  /**
   * Throws where {@code array}, at depth {@code depth} of a value of {@code shape}, or a row inside
   * it is null or has another length than {@code shape} says. Rows that hold rows are checked once
   * each ({@code checked} holds them by identity), so nested arrays that share their rows cost
   * their distinct rows, not the product of their shape; the errors name the first flawed row in
   * row-major order, by its path from {@code index} (the indices down to {@code depth}), built only
   * when one is thrown.
   */
  private static void checkRegular(
      Object array,
      int depth,
      int[] shape,
      int[] index,
      Set<Object> checked,
      String parameter,
      String callSite) {
    if (array == null) {
      throw new PipelinePlanningException(
          callSite,
          "with(\""
              + parameter
              + "\", ...): "
              + path(parameter, index, depth)
              + " is null; a bound array must be regular");
    }
    int length = Array.getLength(array);
    if (length != shape[depth]) {
      throw new PipelinePlanningException(
          callSite,
          "with(\""
              + parameter
              + "\", ...): the nested array is irregular: "
              + path(parameter, index, depth)
              + " has length "
              + length
              + ", but "
              + path(parameter, new int[depth], depth)
              + " has length "
              + shape[depth]
              + "; a bound array must be regular");
    }
    if (depth == shape.length - 1 || !checked.add(array)) {
      return;
    }
    Object[] rows = (Object[]) array;
    for (int i = 0; i < rows.length; i++) {
      index[depth] = i;
      checkRegular(rows[i], depth + 1, shape, index, checked, parameter, callSite);
    }
  }

  /** {@code parameter} indexed by the first {@code depth} of {@code index}, e.g. grid[2][0]. */
  private static String path(String parameter, int[] index, int depth) {
    StringBuilder path = new StringBuilder(parameter);
    for (int d = 0; d < depth; d++) {
      path.append('[').append(index[d]).append(']');
    }
    return path.toString();
  }

  /**
   * Appends the elements of the regular {@code array}, at depth {@code depth} of a value of {@code
   * rank} dimensions, to {@code data} from {@code offset[0]}, in row-major order.
   */
  private static void flatten(Object array, int depth, int rank, Object data, int[] offset) {
    if (depth == rank - 1) {
      int length = Array.getLength(array);
      System.arraycopy(array, 0, data, offset[0], length);
      offset[0] += length;
      return;
    }
    for (Object row : (Object[]) array) {
      flatten(row, depth + 1, rank, data, offset);
    }
  }

  private static String accepted(ScalarType element, int rank) {
    if (rank == 0) {
      return Article.before(JavaScalars.boxedClass(element).getName());
    }
    String nested = JavaScalars.nestedArrayClass(element, rank).getTypeName();
    return (rank == 1 ? Article.before(nested) : "regular nested arrays " + nested)
        + " or a FlatArray of "
        + element.keyword()
        + " with "
        + rank
        + (rank == 1 ? " dimension" : " dimensions");
  }

  private static String describe(Object value) {
    if (value == null) {
      return "null";
    }
    if (value instanceof FlatArray flat) {
      return "a FlatArray of "
          + flat.elementType().keyword()
          + " with shape "
          + Arrays.toString(flat.shape());
    }
    return Article.before(value.getClass().getTypeName());
  }

  private static String digestOf(List<BoundValue> values) {
    try {
      MessageDigest sha = MessageDigest.getInstance("SHA-256");
      try (ObjectOutputStream out =
          new ObjectOutputStream(new DigestOutputStream(OutputStream.nullOutputStream(), sha))) {
        out.writeObject(new ArrayList<>(values));
      }
      return HexFormat.of().formatHex(sha.digest());
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException("this JVM has no SHA-256", e);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
