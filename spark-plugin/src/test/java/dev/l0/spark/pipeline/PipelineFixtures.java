package dev.l0.spark.pipeline;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.l0.interp.Interpreter;
import dev.l0.ir.FunDef;
import dev.l0.ir.ScalarType;
import dev.l0.ir.Type;
import dev.l0.ir.Value;
import dev.l0.kernels.jvm.FlatArray;
import dev.l0.kernels.runtime.DeviceKind;
import dev.l0.syntax.L0Parser;
import java.lang.reflect.Array;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Random;
import org.apache.spark.sql.types.DataType;
import org.apache.spark.sql.types.DataTypes;
import org.apache.spark.sql.types.StructField;
import org.apache.spark.sql.types.StructType;

/** Schemas, requests, batches and the reference interpreter for the pipeline tests. */
final class PipelineFixtures {
  static final String CALL_SITE = "PipelineTest.java:1";
  static final ExecutionSettings JVM = new ExecutionSettings(DeviceKind.JVM, -1, 2);

  private PipelineFixtures() {}

  static StructField field(String name, DataType type) {
    return DataTypes.createStructField(name, type, true);
  }

  static StructType schema(StructField... fields) {
    return DataTypes.createStructType(fields);
  }

  static StructType doubles(String... names) {
    return schema(
        Arrays.stream(names).map(n -> field(n, DataTypes.DoubleType)).toArray(StructField[]::new));
  }

  static PipelineRequest request(String text, List<String> columns, List<String> outputs) {
    return request(text, "test.l0", "main", columns, outputs, Map.of());
  }

  /**
   * A request made at {@link #CALL_SITE} that binds no driver-side value, sums floats in order and
   * carries no column through.
   */
  static PipelineRequest request(
      String text,
      String sourceName,
      String entry,
      List<String> columns,
      List<String> outputs,
      Map<String, Object> nullReplacements) {
    return request(text, sourceName, entry, columns, outputs, nullReplacements, FloatSums.ORDERED);
  }

  /** As above, with the float sums {@code floatSums}. */
  static PipelineRequest request(
      String text,
      String sourceName,
      String entry,
      List<String> columns,
      List<String> outputs,
      Map<String, Object> nullReplacements,
      FloatSums floatSums) {
    return new PipelineRequest(
        text,
        sourceName,
        entry,
        columns,
        outputs,
        nullReplacements,
        CALL_SITE,
        List.of(),
        floatSums,
        List.of(),
        Map.of());
  }

  static PipelineSpec plan(String text, StructType schema, String... columns) {
    return PipelinePlanner.plan(request(text, List.of(columns), List.of()), schema);
  }

  /** The rows {@code from} (inclusive) to {@code to} (exclusive) of every column. */
  static ColumnBatch slice(List<Object> columns, int from, int to) {
    List<Object> out = new ArrayList<>();
    for (Object column : columns) {
      if (column instanceof FlatArray flat) {
        int[] shape = flat.shape();
        int stride =
            flat.size(1)
                * (shape.length > 2
                    ? Arrays.stream(shape, 2, shape.length).reduce(1, (a, b) -> a * b)
                    : 1);
        Object data = FlatArray.allocate(flat.elementType(), (to - from) * stride);
        System.arraycopy(flat.data(), from * stride, data, 0, (to - from) * stride);
        shape[0] = to - from;
        out.add(new FlatArray(flat.elementType(), data, shape));
      } else {
        Object data = Array.newInstance(column.getClass().getComponentType(), to - from);
        System.arraycopy(column, from, data, 0, to - from);
        out.add(data);
      }
    }
    return new ColumnBatch(to - from, out);
  }

  /** {@code rows} rows split at random into batches of 0 to 2*average rows. */
  static List<ColumnBatch> batches(List<Object> columns, int rows, int average, Random random) {
    List<ColumnBatch> out = new ArrayList<>();
    int at = 0;
    while (at < rows) {
      int size = Math.min(rows - at, random.nextInt(2 * average + 1));
      out.add(slice(columns, at, at + size));
      at += size;
    }
    return out;
  }

  /**
   * Runs a SCAN spec over {@code input} split into partitions and batches; returns the concatenated
   * output.
   */
  static List<ColumnBatch> scanInPartitions(
      PipelineSpec spec,
      List<Object> input,
      int rows,
      int partitions,
      int averageBatch,
      Random random) {
    int per = (rows + partitions - 1) / partitions;
    List<List<ColumnBatch>> parts = new ArrayList<>();
    List<PartialResult> totals = new ArrayList<>();
    for (int p = 0; p < partitions; p++) {
      int from = Math.min(rows, p * per);
      int to = Math.min(rows, from + per);
      List<ColumnBatch> batches =
          batches(slice(input, from, to).columns(), to - from, averageBatch, random);
      parts.add(batches);
      try (PartitionRunner runner = PartitionRunner.open(spec, JVM)) {
        batches.forEach(runner::fold);
        totals.add(runner.partial());
      }
    }
    List<Optional<PartialResult>> carries = PartialCombiner.scanCarries(spec, totals, JVM);
    assertEquals(partitions, carries.size());
    assertTrue(carries.get(0).isEmpty());
    List<ColumnBatch> outputs = new ArrayList<>();
    for (int p = 0; p < partitions; p++) {
      try (PartitionRunner runner = PartitionRunner.open(spec, JVM)) {
        runner.startScan(carries.get(p));
        for (ColumnBatch batch : parts.get(p)) {
          outputs.add(runner.scanRows(batch));
        }
      }
    }
    return outputs;
  }

  /** The columns of {@code batches}, concatenated. */
  static List<Object> concat(List<ColumnBatch> batches, int columnCount) {
    List<Object> out = new ArrayList<>();
    for (int c = 0; c < columnCount; c++) {
      List<Object> parts = new ArrayList<>();
      for (ColumnBatch batch : batches) {
        parts.add(data(batch.columns().get(c)));
      }
      int total = parts.stream().mapToInt(Array::getLength).sum();
      Object joined = Array.newInstance(parts.get(0).getClass().getComponentType(), total);
      int at = 0;
      for (Object part : parts) {
        System.arraycopy(part, 0, joined, at, Array.getLength(part));
        at += Array.getLength(part);
      }
      out.add(joined);
    }
    return out;
  }

  /** The row-major elements of a column. */
  static Object data(Object column) {
    return column instanceof FlatArray flat ? flat.data() : column;
  }

  /**
   * The reference interpreter's result of {@code entry} of {@code text} on {@code columns}, one per
   * leaf of the entry's parameters (a tuple parameter gets an interpreter tuple of its columns, an
   * array of tuples an interpreter array of tuples zipped row by row), as row-major leaf arrays.
   */
  static List<Object> reference(String text, String entry, List<Object> columns) {
    var program = L0Parser.parse(text, "test.l0");
    FunDef function = program.function(entry).orElseThrow();
    Iterator<Value> leaves = columns.stream().map(PipelineFixtures::toValue).iterator();
    List<Value> args = function.params().stream().map(p -> argument(p.type(), leaves)).toList();
    assertFalse(leaves.hasNext(), "more columns than the parameters of " + entry + " take");
    Value result = new Interpreter(program).call(entry, args);
    List<Object> out = new ArrayList<>();
    addLeaves(result, function.returnType(), out);
    return out;
  }

  /** The interpreter value of {@code type} from its leaf columns. */
  private static Value argument(Type type, Iterator<Value> leaves) {
    if (type instanceof Type.Tuple tuple) {
      return new Value.Tuple(tuple.elements().stream().map(t -> argument(t, leaves)).toList());
    }
    if (type.baseElement() instanceof Type.Tuple tuple) {
      return zip(
          (Type.Array) type,
          tuple.elements().stream()
              .map(t -> argument(TupleLeaves.withBase(type, t), leaves))
              .toList());
    }
    return leaves.next();
  }

  /**
   * The array of tuples of type {@code type} whose columns (one per tuple component) are {@code
   * columns}.
   */
  private static Value zip(Type.Array type, List<Value> columns) {
    Type element = type.element();
    int rows = ((Value.Array) columns.get(0)).length();
    List<Value> zipped = new ArrayList<>();
    for (int i = 0; i < rows; i++) {
      int row = i;
      List<Value> parts = columns.stream().map(c -> ((Value.Array) c).get(row)).toList();
      zipped.add(
          element instanceof Type.Tuple
              ? new Value.Tuple(parts)
              : zip((Type.Array) element, parts));
    }
    return new Value.Array(element, zipped);
  }

  private static Value toValue(Object column) {
    if (column instanceof FlatArray flat) {
      return flat.toValue();
    }
    ScalarType type = BatchColumns.elementType(column);
    return new FlatArray(type, column, new int[] {Array.getLength(column)}).toValue();
  }

  private static void addLeaves(Value value, Type type, List<Object> out) {
    if (type instanceof Type.Tuple tuple) {
      for (int k = 0; k < tuple.elements().size(); k++) {
        addLeaves(((Value.Tuple) value).elements().get(k), tuple.elements().get(k), out);
      }
    } else if (type instanceof Type.Array array && array.element() instanceof Type.Tuple tuple) {
      for (int k = 0; k < tuple.elements().size(); k++) {
        int component = k;
        List<Value> column =
            ((Value.Array) value)
                .elements().stream().map(e -> ((Value.Tuple) e).elements().get(component)).toList();
        addLeaves(
            new Value.Array(tuple.elements().get(k), column),
            Type.array(tuple.elements().get(k)),
            out);
      }
    } else if (type instanceof ScalarType scalar) {
      Object one = FlatArray.allocate(scalar, 1);
      Array.set(one, 0, boxed(value));
      out.add(one);
    } else {
      out.add(
          FlatArray.of((Value.Array) value, (ScalarType) type.baseElement(), type.rank()).data());
    }
  }

  private static Object boxed(Value scalar) {
    if (scalar instanceof dev.l0.ir.ScalarValue.Float f) {
      return f.type() == ScalarType.F32 ? (Object) (float) f.value() : (Object) f.value();
    }
    if (scalar instanceof dev.l0.ir.ScalarValue.Int i) {
      return i.type() == ScalarType.I32 ? (Object) (int) i.value() : (Object) i.value();
    }
    return ((dev.l0.ir.ScalarValue.Bool) scalar).value();
  }
}
