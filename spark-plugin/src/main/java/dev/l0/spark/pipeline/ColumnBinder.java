package dev.l0.spark.pipeline;

import dev.l0.ir.FunDef;
import dev.l0.ir.Param;
import dev.l0.ir.ScalarType;
import dev.l0.ir.Type;
import dev.l0.syntax.L0Printer;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.stream.Collectors;
import org.apache.spark.sql.catalyst.util.AttributeNameParser$;
import org.apache.spark.sql.types.ArrayType;
import org.apache.spark.sql.types.DataType;
import org.apache.spark.sql.types.DataTypes;
import org.apache.spark.sql.types.StructField;
import org.apache.spark.sql.types.StructType;
import scala.jdk.javaapi.CollectionConverters;

/**
 * Binds an entry function's parameters to the child's columns. Every parameter is flattened to its
 * leaves (an array of tuples, nested tuples included, or a tuple of arrays gives one input per
 * tuple leaf, in order; an array of scalars is one input); the named columns supply inputs in
 * order, a struct column one per leaf field (nested structs recursively), an array column an inner
 * dimension; no implicit casts. Errors name the column, its Spark type and the L0 type.
 *
 * <p>Names resolve as Spark resolves {@code df.col(name)}, in one place ({@link #find}): a
 * top-level column whose whole name matches (dots included) first; else the name is split into
 * parts by Spark's own parser (a backticked part is literal: {@code `a.b`}), the first part a
 * top-level column and the rest struct fields. Parts match exactly when {@code
 * spark.sql.caseSensitive} is true and ignoring case otherwise (Spark's default); a name that
 * matches two columns or fields is ambiguous, as in Spark ({@code [AMBIGUOUS_REFERENCE]}). A
 * binding's column path is written with the schema's own names, backticked where a name holds a dot
 * or a backtick, so the top-level column can be read back from it ({@link #topLevelColumn}).
 */
final class ColumnBinder {

  /** One leaf of a named column, before it meets its parameter. */
  private record Leaf(String path, List<Integer> fieldPath, DataType type) {}

  /**
   * Input {@code index} (of {@code count}) of parameter {@code param}: a leaf of its type, of L0
   * type {@code type}.
   */
  private record ParamLeaf(Param param, Type type, int index, int count) {}

  /**
   * Where the columns supply another number of inputs than {@code inputs}: the entry's scalar
   * parameters, which only {@code with(...)} can bind (forgetting it is the usual cause), where it
   * has any; else, where they supply fewer, the parameters that get no column and the two ways to
   * feed them; else nothing.
   */
  private static String unfedParameters(List<ParamLeaf> inputs, int supplied) {
    List<Param> scalars =
        inputs.stream()
            .map(ParamLeaf::param)
            .filter(param -> param.type() instanceof ScalarType)
            .toList();
    if (!scalars.isEmpty()) {
      // A scalar parameter is never fed by a column, so naming more columns cannot help.
      return "; "
          + scalars.stream()
              .map(param -> "'" + param.name() + "' (" + L0Printer.print(param.type()) + ")")
              .collect(Collectors.joining(" and "))
          + (scalars.size() == 1
              ? " is a scalar, which no column can feed; a driver-side value binds it: "
              : " are scalars, which no column can feed; driver-side values bind them: ")
          + scalars.stream()
              .map(param -> "with(\"" + param.name() + "\", value)")
              .collect(Collectors.joining(", "));
    }
    if (supplied >= inputs.size()) {
      return "";
    }
    List<String> unfed =
        inputs.subList(supplied, inputs.size()).stream()
            .map(input -> input.param().name())
            .distinct()
            .toList();
    return "; with the columns fed to the parameters' leaves in order, '"
        + String.join("', '", unfed)
        + "' "
        + (unfed.size() == 1 ? "is" : "are")
        + " not fully fed: name more columns in on(...), or bind a parameter to a driver-side value"
        + " with with(\"name\", value)";
  }

  private final String callSite;
  private final boolean caseSensitive;

  /**
   * A binder whose errors name {@code callSite}; names match exactly only when {@code
   * caseSensitive}.
   */
  ColumnBinder(String callSite, boolean caseSensitive) {
    this.callSite = callSite;
    this.caseSensitive = caseSensitive;
  }

  /**
   * The bindings of the leaves of {@code entry}'s parameters to {@code columns} of {@code schema},
   * with {@code nullReplacements} by column name (resolved as column names are).
   */
  List<InputBinding> bind(
      FunDef entry, List<String> columns, StructType schema, Map<String, Object> nullReplacements) {
    if (entry.params().isEmpty()) {
      throw error(
          "every parameter of '"
              + entry.name()
              + "' is bound by with(...), so no column feeds it; a pipeline needs at least one"
              + " parameter that is an array over the rows, fed by a column named in on(...)");
    }
    if (columns.isEmpty()) {
      throw error("on(...) names no columns; name the columns that feed " + signature(entry));
    }
    List<Leaf> leaves = new ArrayList<>();
    for (String column : columns) {
      addLeaves(resolve(column, schema), leaves);
    }
    List<ParamLeaf> inputs = paramLeaves(entry);
    if (leaves.size() != inputs.size()) {
      throw error(
          "the columns "
              + columns
              + " supply "
              + leaves.size()
              + " input(s) ("
              + leaves.stream()
                  .map(l -> l.path() + " " + l.type().simpleString())
                  .collect(Collectors.joining(", "))
              + "), but "
              + signature(entry)
              + " takes "
              + inputs.size()
              + " input(s), one per leaf of its parameters ("
              + entry.params().stream()
                  .map(
                      p ->
                          p.name()
                              + ": "
                              + TupleLeaves.types(p.type()).stream()
                                  .map(L0Printer::print)
                                  .collect(Collectors.joining(", ")))
                  .collect(Collectors.joining("; "))
              + ")"
              + unfedParameters(inputs, leaves.size()));
    }
    Map<List<Integer>, String> nullKeys = nullReplacementKeys(nullReplacements, leaves, schema);
    List<InputBinding> bindings = new ArrayList<>();
    for (int k = 0; k < leaves.size(); k++) {
      Leaf leaf = leaves.get(k);
      ParamLeaf input = inputs.get(k);
      ScalarType element = checkType(leaf, input, entry);
      String nullKey = nullKeys.get(leaf.fieldPath());
      Object replacement =
          nullKey == null ? null : replacement(nullKey, nullReplacements.get(nullKey), element);
      bindings.add(
          new InputBinding(
              leaf.path(),
              leaf.fieldPath(),
              leaf.type(),
              element,
              input.type().rank(),
              replacement));
    }
    return bindings;
  }

  /**
   * The leaves of {@code entry}'s parameters, parameter by parameter, each parameter's in order.
   */
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

  /**
   * The key of {@code nullReplacements} naming each leaf it replaces nulls of, by the leaf's field
   * path; a key resolves as a column name does and must name a leaf the pipeline reads.
   */
  private Map<List<Integer>, String> nullReplacementKeys(
      Map<String, Object> nullReplacements, List<Leaf> leaves, StructType schema) {
    Map<List<Integer>, String> keys = new LinkedHashMap<>();
    List<String> unread = new ArrayList<>();
    for (String key : nullReplacements.keySet()) {
      Optional<Leaf> named = find(key, schema);
      Optional<Leaf> read =
          named.flatMap(
              n -> leaves.stream().filter(l -> l.fieldPath().equals(n.fieldPath())).findFirst());
      if (named.isPresent() && named.get().type() instanceof StructType struct) {
        List<Leaf> fields = new ArrayList<>();
        addLeaves(named.get(), fields);
        throw error(
            "nullAs(...) names "
                + key
                + ", a struct column ("
                + struct.simpleString()
                + "); a replacement stands for one scalar field's nulls (a null struct included):"
                + " name its fields, e.g. nullAs(\""
                + fields.get(0).path()
                + "\", value)");
      }
      if (read.isEmpty()) {
        unread.add(key);
      } else if (keys.containsKey(read.get().fieldPath())) {
        throw error(
            "nullAs(...) names column '"
                + read.get().path()
                + "' twice, as "
                + keys.get(read.get().fieldPath())
                + " and "
                + key);
      } else {
        keys.put(read.get().fieldPath(), key);
      }
    }
    if (!unread.isEmpty()) {
      throw error(
          "nullAs(...) names "
              + String.join(", ", unread)
              + ", which the pipeline does not read; "
              + "it reads "
              + leaves.stream().map(Leaf::path).collect(Collectors.joining(", ")));
    }
    return keys;
  }

  /**
   * The top-level {@code columns} of {@code schema} that {@code carry(...)} names, in order,
   * resolved as {@link #bind} resolves names: their ordinals, their names in {@code schema}, and
   * their names as written (a whole name as given, else its one part without backticks, as Spark's
   * {@code select} names them); an error naming the column where one is missing, names a struct
   * field or is named twice.
   */
  PipelineSpec.Carried carried(List<String> columns, StructType schema) {
    List<Integer> ordinals = new ArrayList<>();
    List<String> spellings = new ArrayList<>();
    for (String column : columns) {
      Leaf leaf =
          find(column, schema)
              .orElseThrow(
                  () ->
                      error(
                          "carry(...) names the column '"
                              + column
                              + "', but the input has no such column; its columns are "
                              + describe(schema)));
      if (leaf.fieldPath().size() != 1) {
        throw error(
            "carry(...) names '"
                + column
                + "', a field of the struct column '"
                + schema.fields()[leaf.fieldPath().get(0)].name()
                + "'; carry takes whole columns: carry the struct column, or select the field as"
                + " a column of its own first");
      }
      int ordinal = leaf.fieldPath().get(0);
      if (ordinals.contains(ordinal)) {
        throw error("carry(...) names the column '" + schema.fields()[ordinal].name() + "' twice");
      }
      ordinals.add(ordinal);
      spellings.add(matching(schema, column).isEmpty() ? userNameParts(column).get(0) : column);
    }
    return new PipelineSpec.Carried(
        ordinals, ordinals.stream().map(o -> schema.fields()[o].name()).toList(), spellings);
  }

  /** The child's top-level columns {@code bindings} read, distinct, in first-use order. */
  static List<String> readColumns(List<InputBinding> bindings) {
    LinkedHashSet<String> names = new LinkedHashSet<>();
    bindings.forEach(b -> names.add(topLevelColumn(b)));
    return List.copyOf(names);
  }

  /**
   * The name of the child's top-level column that {@code binding} reads (the first part of its
   * column path).
   */
  static String topLevelColumn(InputBinding binding) {
    return nameParts(binding.columnPath()).get(0);
  }

  /**
   * The column (or struct field) named {@code name}; an error listing the columns when there is
   * none.
   */
  private Leaf resolve(String name, StructType schema) {
    return find(name, schema)
        .orElseThrow(
            () ->
                error(
                    "the input has no column '" + name + "'; its columns are " + describe(schema)));
  }

  /**
   * The column or struct field {@code name} denotes, Spark's way (see the class comment); empty
   * when there is none; an error when it is ambiguous.
   */
  private Optional<Leaf> find(String name, StructType schema) {
    List<Integer> whole = matching(schema, name);
    if (!whole.isEmpty()) {
      int ordinal = single(whole, schema, name, name, "of the input's columns");
      StructField column = schema.fields()[ordinal];
      return Optional.of(new Leaf(quoted(column.name()), List.of(ordinal), column.dataType()));
    }
    String path = null;
    List<Integer> fieldPath = new ArrayList<>();
    DataType current = schema;
    for (String part : userNameParts(name)) {
      if (!(current instanceof StructType)) {
        return Optional.empty();
      }
      StructType struct = (StructType) current;
      List<Integer> found = matching(struct, part);
      if (found.isEmpty()) {
        return Optional.empty();
      }
      int ordinal =
          single(
              found,
              struct,
              name,
              part,
              path == null ? "of the input's columns" : "fields of struct column '" + path + "'");
      StructField field = struct.fields()[ordinal];
      path = path == null ? quoted(field.name()) : path + "." + quoted(field.name());
      fieldPath.add(ordinal);
      current = field.dataType();
    }
    return Optional.of(new Leaf(path, fieldPath, current));
  }

  /**
   * The ordinals of {@code struct}'s fields named {@code name} under this binder's case
   * sensitivity.
   */
  private List<Integer> matching(StructType struct, String name) {
    StructField[] fields = struct.fields();
    List<Integer> ordinals = new ArrayList<>();
    for (int k = 0; k < fields.length; k++) {
      if (caseSensitive ? fields[k].name().equals(name) : fields[k].name().equalsIgnoreCase(name)) {
        ordinals.add(k);
      }
    }
    return ordinals;
  }

  /**
   * The one ordinal of {@code matches}, the fields of {@code struct} ({@code which} says what they
   * are) that match {@code part} of {@code name}; an ambiguity error when there are more.
   */
  private int single(
      List<Integer> matches, StructType struct, String name, String part, String which) {
    if (matches.size() == 1) {
      return matches.get(0);
    }
    String candidates =
        matches.stream()
            .map(
                k ->
                    struct.fields()[k].name()
                        + " "
                        + struct.fields()[k].dataType().simpleString()
                        + " (position "
                        + (k + 1)
                        + ")")
            .collect(Collectors.joining(", "));
    throw error(
        "column '"
            + name
            + "' is ambiguous: "
            + matches.size()
            + " "
            + which
            + " match '"
            + part
            + "'"
            + (caseSensitive ? "" : " ignoring case (spark.sql.caseSensitive is false)")
            + ": "
            + candidates
            + " (Spark's [AMBIGUOUS_REFERENCE]); select or alias the one you mean under a unique name first, e.g. "
            + "df.select(other.col(\"x\").as(\"x_other\")) or withColumnRenamed before a join");
  }

  /**
   * The parts of a name as the user wrote it, as Spark's parser splits it; an error naming it where
   * it cannot.
   */
  private List<String> userNameParts(String name) {
    try {
      return nameParts(name);
    } catch (Exception e) {
      throw new PipelinePlanningException(
          callSite,
          "the column name '"
              + name
              + "' is not valid: "
              + String.valueOf(e.getMessage()).lines().findFirst().orElse(""),
          e);
    }
  }

  /**
   * The parts of {@code name} split at dots outside backticks, as Spark splits {@code
   * df.col(name)}.
   */
  static List<String> nameParts(String name) {
    return CollectionConverters.asJava(AttributeNameParser$.MODULE$.parseAttributeName(name));
  }

  /**
   * {@code name} as a part of a column path: backticked (inner backticks doubled) when it holds a
   * dot or a backtick.
   */
  static String quoted(String name) {
    return name.isEmpty() || name.contains(".") || name.contains("`")
        ? "`" + name.replace("`", "``") + "`"
        : name;
  }

  private static void addLeaves(Leaf column, List<Leaf> out) {
    if (column.type() instanceof StructType struct) {
      StructField[] fields = struct.fields();
      for (int k = 0; k < fields.length; k++) {
        List<Integer> fieldPath = new ArrayList<>(column.fieldPath());
        fieldPath.add(k);
        addLeaves(
            new Leaf(
                column.path() + "." + quoted(fields[k].name()), fieldPath, fields[k].dataType()),
            out);
      }
    } else {
      out.add(column);
    }
  }

  /** The element type of {@code input}, checked against {@code leaf}'s Spark type. */
  private ScalarType checkType(Leaf leaf, ParamLeaf input, FunDef entry) {
    Type type = input.type();
    if (!(type instanceof Type.Array)) {
      throw error(
          subject(input, entry)
              + " has type "
              + L0Printer.print(type)
              + ", but every input of a pipeline must "
              + "be an array over the rows (a parameter may be an array of scalars, an array of tuples or a tuple of arrays, "
              + "one input per leaf; fed by column '"
              + leaf.path()
              + "')"
              + (input.count() == 1
                  ? "; a driver-side value binds it: with(\"" + input.param().name() + "\", value)"
                  : ""));
    }
    ScalarType element = (ScalarType) type.baseElement();
    DataType expected = sparkType(element, type.rank() - 1, true);
    if (!sameIgnoringNulls(leaf.type(), expected)) {
      throw error(
          "column '"
              + leaf.path()
              + "' has Spark type "
              + leaf.type().simpleString()
              + ", but "
              + subject(input, entry)
              + " is "
              + L0Printer.print(type)
              + ", which needs a column of "
              + expected.simpleString()
              + " (no implicit casts)");
    }
    return element;
  }

  /** How messages name {@code input}: the parameter itself, or which of its leaves. */
  private static String subject(ParamLeaf input, FunDef entry) {
    String parameter = "parameter '" + input.param().name() + "' of " + signature(entry);
    return input.count() == 1
        ? parameter
        : "input " + (input.index() + 1) + " of " + input.count() + " of " + parameter;
  }

  private static boolean sameIgnoringNulls(DataType actual, DataType expected) {
    if (actual instanceof ArrayType && expected instanceof ArrayType) {
      return sameIgnoringNulls(
          ((ArrayType) actual).elementType(), ((ArrayType) expected).elementType());
    }
    return actual.equals(expected);
  }

  /** The Spark type of {@code element} under {@code arrayDepth} arrays. */
  static DataType sparkType(ScalarType element, int arrayDepth, boolean containsNull) {
    DataType type =
        switch (element) {
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

  /**
   * {@code value}, the replacement for nulls of column {@code path}, as the boxed type of {@code
   * element}.
   */
  private Object replacement(String path, Object value, ScalarType element) {
    if (element == ScalarType.BOOL && value instanceof Boolean) {
      return value;
    }
    if (element != ScalarType.BOOL && value instanceof Number) {
      Number number = (Number) value;
      double real = number.doubleValue();
      // A float column takes the nearest value of its type (0.1f for 0.1), but a finite value
      // beyond the type's range, which would round to an infinity, does not fit it.
      boolean asked = !Double.isFinite(real) && !isFinite(number);
      if (element == ScalarType.F64 && (Double.isFinite(real) || asked)) {
        return real;
      }
      if (element == ScalarType.F32 && (Float.isFinite((float) real) || asked)) {
        return (float) real;
      }
      OptionalLong whole = wholeValue(number);
      if (whole.isPresent() && element == ScalarType.I64) {
        return whole.getAsLong();
      }
      if (whole.isPresent()
          && element == ScalarType.I32
          && whole.getAsLong() == (int) whole.getAsLong()) {
        return (int) whole.getAsLong();
      }
    }
    throw error(
        "nullAs(\""
            + path
            + "\", "
            + value
            + ") does not fit column '"
            + path
            + "', whose elements are "
            + element.keyword()
            + " (Spark "
            + sparkType(element, 0, false).simpleString()
            + ")");
  }

  /** Whether {@code number} is finite: every number but a {@code Double} or {@code Float} is. */
  private static boolean isFinite(Number number) {
    return !(number instanceof Double || number instanceof Float)
        || Double.isFinite(number.doubleValue());
  }

  /** {@code number}'s value where it is a whole number that a {@code long} holds exactly. */
  private static OptionalLong wholeValue(Number number) {
    if (number instanceof Long
        || number instanceof Integer
        || number instanceof Short
        || number instanceof Byte) {
      return OptionalLong.of(number.longValue());
    }
    if (number instanceof BigInteger big) {
      return big.bitLength() < Long.SIZE ? OptionalLong.of(big.longValue()) : OptionalLong.empty();
    }
    if (number instanceof BigDecimal decimal) {
      try {
        return OptionalLong.of(decimal.longValueExact());
      } catch (ArithmeticException notWhole) {
        return OptionalLong.empty();
      }
    }
    double real = number.doubleValue();
    return real == Math.rint(real) && real >= -0x1p63 && real < 0x1p63
        ? OptionalLong.of((long) real)
        : OptionalLong.empty();
  }

  private static String signature(FunDef entry) {
    return "'"
        + entry.name()
        + "("
        + entry.params().stream()
            .map(p -> L0Printer.print(p.type()) + " " + p.name())
            .collect(Collectors.joining(", "))
        + ")'";
  }

  private static String describe(StructType schema) {
    return List.of(schema.fields()).stream()
        .map(f -> f.name() + " " + f.dataType().simpleString())
        .collect(Collectors.joining(", "));
  }

  private PipelinePlanningException error(String problem) {
    return new PipelinePlanningException(callSite, problem);
  }
}
