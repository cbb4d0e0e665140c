package dev.l0.spark.pipeline;

import dev.l0.ir.FunDef;
import dev.l0.ir.Param;
import dev.l0.ir.ScalarType;
import dev.l0.ir.Type;
import dev.l0.syntax.L0Printer;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import org.apache.spark.sql.types.ArrayType;
import org.apache.spark.sql.types.DataType;
import org.apache.spark.sql.types.DataTypes;
import org.apache.spark.sql.types.StructField;
import org.apache.spark.sql.types.StructType;

/**
 * Binds an entry function's parameters to the child's columns. Every parameter is flattened to
 * its leaves (an array of tuples, nested tuples included, or a tuple of arrays gives one input per
 * tuple leaf, in order; an array of scalars is one input); the named columns supply inputs in
 * order, a struct column one per leaf field (nested structs recursively), an array column an inner
 * dimension; no implicit casts. Errors name the column, its Spark type and the L0 type.
 */
final class ColumnBinder {

  /** One leaf of a named column, before it meets its parameter. */
  private record Leaf(String path, List<Integer> fieldPath, DataType type) {}

  /** Input {@code index} (of {@code count}) of parameter {@code param}: a leaf of its type, of L0 type {@code type}. */
  private record ParamLeaf(Param param, Type type, int index, int count) {}

  private final String callSite;

  ColumnBinder(String callSite) {
    this.callSite = callSite;
  }

  /** The bindings of the leaves of {@code entry}'s parameters to {@code columns} of {@code schema}, with {@code nullReplacements} by column path. */
  List<InputBinding> bind(FunDef entry, List<String> columns, StructType schema, Map<String, Object> nullReplacements) {
    if (columns.isEmpty()) {
      throw error("on(...) names no columns; name the columns that feed " + signature(entry));
    }
    List<Leaf> leaves = new ArrayList<>();
    for (String column : columns) {
      addLeaves(resolve(column, schema), leaves);
    }
    List<ParamLeaf> inputs = paramLeaves(entry);
    if (leaves.size() != inputs.size()) {
      throw error("the columns " + columns + " supply " + leaves.size() + " input(s) ("
          + leaves.stream().map(l -> l.path() + " " + l.type().simpleString()).collect(Collectors.joining(", "))
          + "), but " + signature(entry) + " takes " + inputs.size() + " input(s), one per leaf of its parameters ("
          + entry.params().stream().map(p -> p.name() + ": " + TupleLeaves.types(p.type()).stream()
              .map(L0Printer::print).collect(Collectors.joining(", "))).collect(Collectors.joining("; ")) + ")");
    }
    Map<String, Object> unused = new LinkedHashMap<>(nullReplacements);
    List<InputBinding> bindings = new ArrayList<>();
    for (int k = 0; k < leaves.size(); k++) {
      Leaf leaf = leaves.get(k);
      ParamLeaf input = inputs.get(k);
      ScalarType element = checkType(leaf, input, entry);
      Object replacement = unused.containsKey(leaf.path())
          ? replacement(leaf.path(), unused.remove(leaf.path()), element) : null;
      bindings.add(new InputBinding(leaf.path(), leaf.fieldPath(), leaf.type(), element, input.type().rank(), replacement));
    }
    if (!unused.isEmpty()) {
      throw error("nullAs(...) names " + String.join(", ", unused.keySet()) + ", which the pipeline does not read; "
          + "it reads " + leaves.stream().map(Leaf::path).collect(Collectors.joining(", ")));
    }
    return bindings;
  }

  /** The leaves of {@code entry}'s parameters, parameter by parameter, each parameter's in order. */
  private static List<ParamLeaf> paramLeaves(FunDef entry) {
    List<ParamLeaf> out = new ArrayList<>();
    for (Param param : entry.params()) {
      List<Type> types = TupleLeaves.types(param.type());
      for (int k = 0; k < types.size(); k++) {
        out.add(new ParamLeaf(param, types.get(k), k, types.size()));
      }
    }
    return out;
  }

  /** The child's top-level columns {@code bindings} read, distinct, in first-use order. */
  static List<String> readColumns(List<InputBinding> bindings) {
    LinkedHashSet<String> names = new LinkedHashSet<>();
    bindings.forEach(b -> names.add(topLevel(b.columnPath())));
    return List.copyOf(names);
  }

  private static String topLevel(String path) {
    int dot = path.indexOf('.');
    return dot < 0 ? path : path.substring(0, dot);
  }

  /** The column (or struct field, written {@code col.field}) named {@code name}. */
  private Leaf resolve(String name, StructType schema) {
    List<String> names = List.of(schema.fieldNames());
    if (names.contains(name)) {
      int ordinal = names.indexOf(name);
      return new Leaf(name, List.of(ordinal), schema.fields()[ordinal].dataType());
    }
    List<Integer> fieldPath = new ArrayList<>();
    DataType current = schema;
    for (String part : name.split("\\.", -1)) {
      if (!(current instanceof StructType) || !List.of(((StructType) current).fieldNames()).contains(part)) {
        throw error("the input has no column '" + name + "'; its columns are " + describe(schema));
      }
      StructType struct = (StructType) current;
      int ordinal = List.of(struct.fieldNames()).indexOf(part);
      fieldPath.add(ordinal);
      current = struct.fields()[ordinal].dataType();
    }
    return new Leaf(name, fieldPath, current);
  }

  private static void addLeaves(Leaf column, List<Leaf> out) {
    if (column.type() instanceof StructType struct) {
      StructField[] fields = struct.fields();
      for (int k = 0; k < fields.length; k++) {
        List<Integer> fieldPath = new ArrayList<>(column.fieldPath());
        fieldPath.add(k);
        addLeaves(new Leaf(column.path() + "." + fields[k].name(), fieldPath, fields[k].dataType()), out);
      }
    } else {
      out.add(column);
    }
  }

  /** The element type of {@code input}, checked against {@code leaf}'s Spark type. */
  private ScalarType checkType(Leaf leaf, ParamLeaf input, FunDef entry) {
    Type type = input.type();
    if (!(type instanceof Type.Array)) {
      throw error(subject(input, entry) + " has type " + L0Printer.print(type) + ", but every input of a pipeline must "
          + "be an array over the rows (a parameter may be an array of scalars, an array of tuples or a tuple of arrays, "
          + "one input per leaf; fed by column '" + leaf.path() + "')");
    }
    ScalarType element = (ScalarType) type.baseElement();
    DataType expected = sparkType(element, type.rank() - 1, true);
    if (!sameIgnoringNulls(leaf.type(), expected)) {
      throw error("column '" + leaf.path() + "' has Spark type " + leaf.type().simpleString() + ", but "
          + subject(input, entry) + " is " + L0Printer.print(type) + ", which needs a column of "
          + expected.simpleString() + " (no implicit casts)");
    }
    return element;
  }

  /** How messages name {@code input}: the parameter itself, or which of its leaves. */
  private static String subject(ParamLeaf input, FunDef entry) {
    String parameter = "parameter '" + input.param().name() + "' of " + signature(entry);
    return input.count() == 1 ? parameter : "input " + (input.index() + 1) + " of " + input.count() + " of " + parameter;
  }

  private static boolean sameIgnoringNulls(DataType actual, DataType expected) {
    if (actual instanceof ArrayType && expected instanceof ArrayType) {
      return sameIgnoringNulls(((ArrayType) actual).elementType(), ((ArrayType) expected).elementType());
    }
    return actual.equals(expected);
  }

  /** The Spark type of {@code element} under {@code arrayDepth} arrays. */
  static DataType sparkType(ScalarType element, int arrayDepth, boolean containsNull) {
    DataType type = switch (element) {
      case BOOL -> DataTypes.BooleanType;
      case I32 -> DataTypes.IntegerType;
      case I64 -> DataTypes.LongType;
      case F32 -> DataTypes.FloatType;
      case F64 -> DataTypes.DoubleType;
    };
    for (int d = 0; d < arrayDepth; d++) {
      type = DataTypes.createArrayType(type, containsNull);
    }
    return type;
  }

  /** {@code value}, the replacement for nulls of column {@code path}, as the boxed type of {@code element}. */
  private Object replacement(String path, Object value, ScalarType element) {
    if (element == ScalarType.BOOL && value instanceof Boolean) {
      return value;
    }
    if (element != ScalarType.BOOL && value instanceof Number) {
      Number number = (Number) value;
      if (element == ScalarType.F64) {
        return number.doubleValue();
      }
      if (element == ScalarType.F32) {
        return number.floatValue();
      }
      long whole = number.longValue();
      boolean integral = number instanceof Long || number instanceof Integer || number instanceof Short
          || number instanceof Byte || number.doubleValue() == whole;
      if (integral && element == ScalarType.I64) {
        return whole;
      }
      if (integral && whole == (int) whole) {
        return (int) whole;
      }
    }
    throw error("nullAs(\"" + path + "\", " + value + ") does not fit column '" + path + "', whose elements are "
        + element.keyword() + " (Spark " + sparkType(element, 0, false).simpleString() + ")");
  }

  private static String signature(FunDef entry) {
    return "'" + entry.name() + "(" + entry.params().stream().map(p -> L0Printer.print(p.type()) + " " + p.name())
        .collect(Collectors.joining(", ")) + ")'";
  }

  private static String describe(StructType schema) {
    return List.of(schema.fields()).stream().map(f -> f.name() + " " + f.dataType().simpleString())
        .collect(Collectors.joining(", "));
  }

  private PipelinePlanningException error(String problem) {
    return new PipelinePlanningException(callSite, problem);
  }
}
