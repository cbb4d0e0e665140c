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
 * Binds an entry function's parameters to the child's columns: each named column in order, a
 * struct column one parameter per leaf field (nested structs recursively), an array column an
 * inner dimension; no implicit casts. Errors name the column, its Spark type and the L0 type.
 */
final class ColumnBinder {

  /** One leaf of a named column, before it meets its parameter. */
  private record Leaf(String path, List<Integer> fieldPath, DataType type) {}

  private final String callSite;

  ColumnBinder(String callSite) {
    this.callSite = callSite;
  }

  /** The bindings of {@code entry}'s parameters to {@code columns} of {@code schema}, with {@code nullReplacements} by column path. */
  List<InputBinding> bind(FunDef entry, List<String> columns, StructType schema, Map<String, Object> nullReplacements) {
    if (columns.isEmpty()) {
      throw error("on(...) names no columns; name the columns that feed " + signature(entry));
    }
    List<Leaf> leaves = new ArrayList<>();
    for (String column : columns) {
      addLeaves(resolve(column, schema), leaves);
    }
    if (leaves.size() != entry.params().size()) {
      throw error("the columns " + columns + " supply " + leaves.size() + " input(s) ("
          + leaves.stream().map(Leaf::path).collect(Collectors.joining(", ")) + "), but " + signature(entry)
          + " takes " + entry.params().size() + " parameter(s)");
    }
    Map<String, Object> unused = new LinkedHashMap<>(nullReplacements);
    List<InputBinding> bindings = new ArrayList<>();
    for (int k = 0; k < leaves.size(); k++) {
      Leaf leaf = leaves.get(k);
      Param param = entry.params().get(k);
      ScalarType element = checkType(leaf, param, entry);
      Object replacement = unused.containsKey(leaf.path())
          ? replacement(leaf.path(), unused.remove(leaf.path()), element) : null;
      bindings.add(new InputBinding(leaf.path(), leaf.fieldPath(), leaf.type(), element, param.type().rank(), replacement));
    }
    if (!unused.isEmpty()) {
      throw error("nullAs(...) names " + String.join(", ", unused.keySet()) + ", which the pipeline does not read; "
          + "it reads " + leaves.stream().map(Leaf::path).collect(Collectors.joining(", ")));
    }
    return bindings;
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

  /** The element type of {@code param}, checked against {@code leaf}'s Spark type. */
  private ScalarType checkType(Leaf leaf, Param param, FunDef entry) {
    if (!(param.type() instanceof Type.Array) || !(param.type().baseElement() instanceof ScalarType)) {
      throw error("parameter '" + param.name() + "' of " + signature(entry) + " has type " + L0Printer.print(param.type())
          + ", but every parameter of a pipeline must be an array of scalars over the rows (fed by column '"
          + leaf.path() + "')");
    }
    ScalarType element = (ScalarType) param.type().baseElement();
    DataType expected = sparkType(element, param.type().rank() - 1, true);
    if (!sameIgnoringNulls(leaf.type(), expected)) {
      throw error("column '" + leaf.path() + "' has Spark type " + leaf.type().simpleString() + ", but parameter '"
          + param.name() + "' of " + signature(entry) + " is " + L0Printer.print(param.type()) + ", which needs a column of "
          + expected.simpleString() + " (no implicit casts)");
    }
    return element;
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
