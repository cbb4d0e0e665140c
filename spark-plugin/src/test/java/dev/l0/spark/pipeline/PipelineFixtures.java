package dev.l0.spark.pipeline;

import dev.l0.interp.Interpreter;
import dev.l0.ir.ScalarType;
import dev.l0.ir.Type;
import dev.l0.ir.Value;
import dev.l0.kernels.jvm.FlatArray;
import dev.l0.kernels.runtime.DeviceKind;
import dev.l0.syntax.L0Parser;
import java.lang.reflect.Array;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import org.apache.spark.sql.types.DataType;
import org.apache.spark.sql.types.DataTypes;
import org.apache.spark.sql.types.StructField;
import org.apache.spark.sql.types.StructType;

/** Schemas, requests, batches and the reference interpreter for the pipeline tests. */
final class PipelineFixtures {
  static final String CALL_SITE = "PipelineTest.java:1";
  static final ExecutionSettings JVM = new ExecutionSettings(DeviceKind.JVM, -1);

  private PipelineFixtures() {}

  static StructField field(String name, DataType type) {
    return DataTypes.createStructField(name, type, true);
  }

  static StructType schema(StructField... fields) {
    return DataTypes.createStructType(fields);
  }

  static StructType doubles(String... names) {
    return schema(Arrays.stream(names).map(n -> field(n, DataTypes.DoubleType)).toArray(StructField[]::new));
  }

  static PipelineRequest request(String text, List<String> columns, List<String> outputs) {
    return new PipelineRequest(text, "test.l0", "main", columns, outputs, Map.of(), CALL_SITE);
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
        int stride = flat.size(1) * (shape.length > 2 ? Arrays.stream(shape, 2, shape.length).reduce(1, (a, b) -> a * b) : 1);
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

  /** The reference interpreter's result of {@code entry} of {@code text} on {@code columns}, as row-major leaf arrays. */
  static List<Object> reference(String text, String entry, List<Object> columns) {
    var program = L0Parser.parse(text, "test.l0");
    List<Value> args = columns.stream().map(PipelineFixtures::toValue).toList();
    Value result = new Interpreter(program).call(entry, args);
    Type type = program.function(entry).orElseThrow().returnType();
    List<Object> leaves = new ArrayList<>();
    addLeaves(result, type, leaves);
    return leaves;
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
        List<Value> column = ((Value.Array) value).elements().stream()
            .map(e -> ((Value.Tuple) e).elements().get(component)).toList();
        addLeaves(new Value.Array(tuple.elements().get(k), column), Type.array(tuple.elements().get(k)), out);
      }
    } else if (type instanceof ScalarType scalar) {
      Object one = FlatArray.allocate(scalar, 1);
      Array.set(one, 0, boxed(value));
      out.add(one);
    } else {
      out.add(FlatArray.of((Value.Array) value, (ScalarType) type.baseElement(), type.rank()).data());
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
