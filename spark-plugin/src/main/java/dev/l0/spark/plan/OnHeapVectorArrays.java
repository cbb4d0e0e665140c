package dev.l0.spark.plan;

import dev.l0.ir.ScalarType;
import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.MethodType;
import java.lang.reflect.Field;
import java.util.EnumMap;
import java.util.Map;
import org.apache.spark.sql.execution.vectorized.OnHeapColumnVector;
import org.apache.spark.sql.types.DataType;
import org.apache.spark.sql.types.DataTypes;
import org.apache.spark.sql.vectorized.ColumnVector;

/**
 * The value array of Spark's {@link OnHeapColumnVector} (the vector its Parquet and ORC readers and
 * {@code RowToColumnar} fill on the heap), read directly: the array is a private field, found once
 * per JVM by reflection, so that a reader copies from it with one {@code arraycopy} (or, where a
 * batch lines up with Spark's, hands it to the kernel as is) instead of Spark's bulk getter, which
 * copies into a new array first. A vector of another class (off-heap, Arrow, constant), one whose
 * values are dictionary ids, one whose Spark type is not the element type's own, or a Spark whose
 * class has no such field gives {@code null}: the caller then uses the getters.
 */
final class OnHeapVectorArrays {
  /**
   * The getter of each element type's value field ({@code doubleData}, ...); booleans are bytes (0
   * or 1) in {@code byteData}. Empty where the class is not as expected.
   */
  private static final Map<ScalarType, MethodHandle> FIELDS = resolveFields();

  private static final Map<ScalarType, DataType> SPARK_TYPES =
      Map.of(
          ScalarType.F64, DataTypes.DoubleType,
          ScalarType.F32, DataTypes.FloatType,
          ScalarType.I64, DataTypes.LongType,
          ScalarType.I32, DataTypes.IntegerType,
          ScalarType.BOOL, DataTypes.BooleanType);

  private OnHeapVectorArrays() {}

  /**
   * The array holding {@code vector}'s values of element type {@code type} from row 0 ({@code
   * double[]} for F64, ..., {@code byte[]} for BOOL; as long as Spark's capacity, at least its
   * rows), or {@code null} where it cannot be read directly. Nulls are not in it: the caller checks
   * {@link ColumnVector#isNullAt}.
   */
  static Object valuesOf(ColumnVector vector, ScalarType type) {
    MethodHandle field = FIELDS.get(type);
    if (field == null
        || !(vector instanceof OnHeapColumnVector onHeap)
        || onHeap.hasDictionary()
        || !onHeap.dataType().equals(SPARK_TYPES.get(type))) {
      return null;
    }
    try {
      return (Object) field.invokeExact(onHeap);
    } catch (Throwable unexpected) {
      throw new IllegalStateException("reading an OnHeapColumnVector's values", unexpected);
    }
  }

  private static Map<ScalarType, MethodHandle> resolveFields() {
    Map<ScalarType, String> names = new EnumMap<>(ScalarType.class);
    names.put(ScalarType.F64, "doubleData");
    names.put(ScalarType.F32, "floatData");
    names.put(ScalarType.I64, "longData");
    names.put(ScalarType.I32, "intData");
    names.put(ScalarType.BOOL, "byteData");
    Map<ScalarType, Class<?>> arrays = new EnumMap<>(ScalarType.class);
    arrays.put(ScalarType.F64, double[].class);
    arrays.put(ScalarType.F32, float[].class);
    arrays.put(ScalarType.I64, long[].class);
    arrays.put(ScalarType.I32, int[].class);
    arrays.put(ScalarType.BOOL, byte[].class);
    Map<ScalarType, MethodHandle> fields = new EnumMap<>(ScalarType.class);
    try {
      for (Map.Entry<ScalarType, String> name : names.entrySet()) {
        Field field = OnHeapColumnVector.class.getDeclaredField(name.getValue());
        if (field.getType() != arrays.get(name.getKey())) {
          return Map.of();
        }
        field.setAccessible(true);
        fields.put(
            name.getKey(),
            MethodHandles.lookup()
                .unreflectGetter(field)
                .asType(MethodType.methodType(Object.class, OnHeapColumnVector.class)));
      }
    } catch (ReflectiveOperationException | RuntimeException notAsExpected) {
      return Map.of();
    }
    return fields;
  }
}
