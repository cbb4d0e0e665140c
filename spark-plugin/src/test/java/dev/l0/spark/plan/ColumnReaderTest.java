package dev.l0.spark.plan;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.l0.ir.ScalarType;
import dev.l0.spark.pipeline.InputBinding;
import java.util.List;
import java.util.Random;
import org.apache.spark.sql.execution.vectorized.Dictionary;
import org.apache.spark.sql.execution.vectorized.OffHeapColumnVector;
import org.apache.spark.sql.execution.vectorized.OnHeapColumnVector;
import org.apache.spark.sql.execution.vectorized.WritableColumnVector;
import org.apache.spark.sql.types.ArrayType;
import org.apache.spark.sql.types.DataType;
import org.apache.spark.sql.types.DataTypes;
import org.apache.spark.sql.types.StructType;
import org.apache.spark.sql.vectorized.ColumnVector;
import org.apache.spark.sql.vectorized.ColumnarBatch;
import org.junit.jupiter.api.Test;

/**
 * Which way a scalar slice is read out of Spark's vectors (in place, one copy from the on-heap
 * array, or Spark's getters) and that each gives the vector's values, nulls replaced or reported as
 * before.
 */
class ColumnReaderTest {
  private static final int ROWS = 8;

  @Test
  void aWholeOnHeapBatchOfTheBatchSizeIsSparksArrayItself() {
    OnHeapColumnVector vector = doubles(new OnHeapColumnVector(ROWS, DataTypes.DoubleType));
    InputPaths paths = new InputPaths();
    ColumnReader reader = reader(ScalarType.F64, DataTypes.DoubleType, null, ROWS, true, paths);

    reader.append(batch(vector, ROWS), 0, ROWS, 0);
    double[] column = (double[]) reader.drain(ROWS);

    assertArrayEquals(expectedDoubles(0, ROWS), column);
    vector.putDouble(3, -1.0);
    assertEquals(-1.0, column[3], "the column is the vector's own array");
    assertEquals(1, paths.slices(InputPaths.Path.IN_PLACE));
    assertEquals(0, paths.slices(InputPaths.Path.ARRAY_COPY));
    assertEquals(0, paths.slices(InputPaths.Path.GETTER_COPY));
  }

  @Test
  void slicesAndColumnsThatOutliveTheirBatchAreCopiedFromTheOnHeapArray() {
    OnHeapColumnVector vector = doubles(new OnHeapColumnVector(ROWS, DataTypes.DoubleType));
    InputPaths paths = new InputPaths();
    ColumnReader sliced = reader(ScalarType.F64, DataTypes.DoubleType, null, 4, true, paths);
    sliced.append(batch(vector, ROWS), 2, 4, 0);
    double[] slice = (double[]) sliced.drain(4);
    ColumnReader kept = reader(ScalarType.F64, DataTypes.DoubleType, null, ROWS, false, paths);
    kept.append(batch(vector, ROWS), 0, ROWS, 0);
    double[] whole = (double[]) kept.drain(ROWS);

    vector.putDouble(3, -1.0);
    assertArrayEquals(expectedDoubles(2, 4), slice);
    assertArrayEquals(expectedDoubles(0, ROWS), whole);
    assertEquals(0, paths.slices(InputPaths.Path.IN_PLACE));
    assertEquals(2, paths.slices(InputPaths.Path.ARRAY_COPY));
    assertEquals(0, paths.slices(InputPaths.Path.GETTER_COPY));
  }

  @Test
  void onHeapBooleansAreReadFromTheirBytes() {
    OnHeapColumnVector vector = new OnHeapColumnVector(ROWS, DataTypes.BooleanType);
    boolean[] expected = new boolean[ROWS];
    for (int i = 0; i < ROWS; i++) {
      expected[i] = i % 3 == 0;
      vector.putBoolean(i, expected[i]);
    }
    InputPaths paths = new InputPaths();
    ColumnReader reader = reader(ScalarType.BOOL, DataTypes.BooleanType, null, ROWS, true, paths);

    reader.append(batch(vector, ROWS), 0, ROWS, 0);

    assertArrayEquals(expected, (boolean[]) reader.drain(ROWS));
    assertEquals(1, paths.slices(InputPaths.Path.ARRAY_COPY));
  }

  @Test
  void booleanBytesAreCopiedAsByteEqualsOneAtAnyOffsetAndLength() {
    Random random = new Random(17);
    for (int round = 0; round < 2000; round++) {
      byte[] bytes = new byte[1 + random.nextInt(100)];
      boolean onlyZeroOrOne = round % 2 == 0;
      for (int i = 0; i < bytes.length; i++) {
        bytes[i] =
            onlyZeroOrOne || random.nextInt(10) > 0
                ? (byte) random.nextInt(2)
                : (byte) (2 + random.nextInt(254));
      }
      int from = random.nextInt(bytes.length);
      int count = random.nextInt(bytes.length - from + 1);
      boolean[] copied = new boolean[count + random.nextInt(20)];
      int offset = random.nextInt(copied.length - count + 1);
      boolean[] expected = copied.clone();
      for (int i = 0; i < count; i++) {
        expected[offset + i] = bytes[from + i] == 1;
      }

      ColumnReader.copyBooleanBytes(bytes, from, count, copied, offset);

      assertArrayEquals(expected, copied, "round " + round);
    }
    assertThrows(
        IndexOutOfBoundsException.class,
        () -> ColumnReader.copyBooleanBytes(new byte[8], 4, 8, new boolean[8], 0));
  }

  @Test
  void offHeapAndDictionaryVectorsGoThroughSparksGetters() {
    OffHeapColumnVector offHeap = doubles(new OffHeapColumnVector(ROWS, DataTypes.DoubleType));
    OnHeapColumnVector encoded = new OnHeapColumnVector(ROWS, DataTypes.DoubleType);
    encoded.setDictionary(new TenTimes());
    WritableColumnVector ids = encoded.reserveDictionaryIds(ROWS);
    for (int i = 0; i < ROWS; i++) {
      ids.putInt(i, i);
    }
    try {
      assertNull(OnHeapVectorArrays.valuesOf(offHeap, ScalarType.F64));
      assertNull(OnHeapVectorArrays.valuesOf(encoded, ScalarType.F64));
      InputPaths paths = new InputPaths();
      ColumnReader fromOffHeap =
          reader(ScalarType.F64, DataTypes.DoubleType, null, ROWS, true, paths);
      fromOffHeap.append(batch(offHeap, ROWS), 0, ROWS, 0);
      ColumnReader fromDictionary =
          reader(ScalarType.F64, DataTypes.DoubleType, null, ROWS, true, paths);
      fromDictionary.append(batch(encoded, ROWS), 0, ROWS, 0);

      assertArrayEquals(expectedDoubles(0, ROWS), (double[]) fromOffHeap.drain(ROWS));
      assertArrayEquals(expectedDoubles(0, ROWS), (double[]) fromDictionary.drain(ROWS));
      assertEquals(0, paths.slices(InputPaths.Path.IN_PLACE));
      assertEquals(0, paths.slices(InputPaths.Path.ARRAY_COPY));
      assertEquals(2, paths.slices(InputPaths.Path.GETTER_COPY));
    } finally {
      offHeap.close();
    }
  }

  @Test
  void aVectorWithNullsIsCopiedAndItsNullsReplacedOrReportedByColumnName() {
    OnHeapColumnVector vector = doubles(new OnHeapColumnVector(ROWS, DataTypes.DoubleType));
    vector.putNull(5);
    double sparksValue = vector.getDoubles(5, 1)[0];
    InputPaths paths = new InputPaths();
    ColumnReader replacing = reader(ScalarType.F64, DataTypes.DoubleType, 7.5, ROWS, true, paths);
    replacing.append(batch(vector, ROWS), 0, ROWS, 100);
    double[] column = (double[]) replacing.drain(ROWS);

    double[] expected = expectedDoubles(0, ROWS);
    expected[5] = 7.5;
    assertArrayEquals(expected, column);
    assertEquals(sparksValue, vector.getDoubles(5, 1)[0], "Spark's array is not written");
    assertEquals(1, paths.slices(InputPaths.Path.ARRAY_COPY));
    assertEquals(0, paths.slices(InputPaths.Path.IN_PLACE));

    ColumnReader strict = reader(ScalarType.F64, DataTypes.DoubleType, null, ROWS, true, paths);
    InputDataException error =
        assertThrows(
            InputDataException.class, () -> strict.append(batch(vector, ROWS), 0, ROWS, 100));
    assertEquals(
        "column 'x' has a null in partition 3, row 105; declare a replacement with"
            + " nullAs(\"x\", value)",
        error.getMessage());
  }

  @Test
  void aNullStructIsNamedAsTheStructNotAsItsField() {
    StructType inner = new StructType().add("rate", DataTypes.DoubleType, true);
    StructType outer = new StructType().add("b.c", inner, true);
    OnHeapColumnVector column = new OnHeapColumnVector(ROWS, outer);
    ColumnVector struct = column.getChild(0);
    WritableColumnVector rates = (WritableColumnVector) struct.getChild(0);
    for (int i = 0; i < ROWS; i++) {
      rates.putDouble(i, i);
    }
    // Spark marks the fields of a null struct null too, as its RowToColumnar does.
    column.putNull(2);
    ((WritableColumnVector) struct).putNull(2);
    rates.putNull(2);
    ((WritableColumnVector) struct).putNull(5);
    rates.putNull(5);
    InputBinding rate =
        new InputBinding(
            "a.`b.c`.rate", List.of(0, 0, 0), DataTypes.DoubleType, ScalarType.F64, 1, null);
    ColumnReader reader = new ColumnReader(rate, 0, 3, ROWS, true, new InputPaths());

    InputDataException topLevel =
        assertThrows(
            InputDataException.class, () -> reader.append(batch(column, ROWS), 0, ROWS, 100));
    assertEquals(
        "column 'a' has a null struct in partition 3, row 102, so its field 'a.`b.c`.rate' has no"
            + " value; drop such rows or fill the struct first (e.g."
            + " df.filter(col(\"a\").isNotNull())), or declare a replacement for the field with"
            + " nullAs(\"a.`b.c`.rate\", value)",
        topLevel.getMessage());
    InputDataException nested =
        assertThrows(InputDataException.class, () -> reader.append(batch(column, ROWS), 3, 4, 200));
    assertEquals(
        "column 'a.`b.c`' has a null struct in partition 3, row 202, so its field 'a.`b.c`.rate'"
            + " has no value; drop such rows or fill the struct first (e.g."
            + " df.filter(col(\"a.`b.c`\").isNotNull())), or declare a replacement for the field"
            + " with nullAs(\"a.`b.c`.rate\", value)",
        nested.getMessage());

    ColumnReader replacing =
        new ColumnReader(
            new InputBinding(
                "a.`b.c`.rate", List.of(0, 0, 0), DataTypes.DoubleType, ScalarType.F64, 1, -1.0),
            0,
            3,
            ROWS,
            true,
            new InputPaths());
    replacing.append(batch(column, ROWS), 0, ROWS, 0);
    assertArrayEquals(
        new double[] {0, 1, -1, 3, 4, -1, 6, 7},
        (double[]) replacing.drain(ROWS),
        "a replacement of the field stands for it where its struct is null, as Spark's a.`b.c`.rate"
            + " is null there");
  }

  @Test
  void anArrayFieldOfANullStructIsNamedAsTheStruct() {
    ArrayType paths = DataTypes.createArrayType(DataTypes.DoubleType, false);
    StructType leg = new StructType().add("path", paths, true);
    OnHeapColumnVector column = new OnHeapColumnVector(2, leg);
    WritableColumnVector path = (WritableColumnVector) column.getChild(0);
    path.getChild(0).reserve(4);
    for (int i = 0; i < 2; i++) {
      ((WritableColumnVector) path.getChild(0)).putDouble(2 * i, i);
      ((WritableColumnVector) path.getChild(0)).putDouble(2 * i + 1, i);
      path.putArray(i, 2 * i, 2);
    }
    column.putNull(1);
    path.putNull(1);
    ColumnReader reader =
        new ColumnReader(
            new InputBinding("leg.path", List.of(0, 0), paths, ScalarType.F64, 2, null),
            0,
            0,
            2,
            true,
            new InputPaths());

    InputDataException error =
        assertThrows(InputDataException.class, () -> reader.append(batch(column, 2), 0, 2, 0));
    assertEquals(
        "column 'leg' has a null struct in partition 0, row 1, so its field 'leg.path' has no"
            + " array; drop such rows or fill the struct first (e.g."
            + " df.filter(col(\"leg\").isNotNull()))",
        error.getMessage());
  }

  /**
   * Rows of 2^20 doubles (all sharing one region of Spark's child vector, so the test needs 8 MiB,
   * not the 16 GiB a full batch would take): a runtime batch takes at most 2047 of them, the most
   * whose elements one Java array holds, where concatenating 4096 of them overflowed an int.
   */
  @Test
  void aBatchOfAnArrayColumnTakesTheRowsOneJavaArrayHolds() {
    int rowSize = 1 << 20;
    int rows = 4096;
    ArrayType arrays = DataTypes.createArrayType(DataTypes.DoubleType, false);
    OnHeapColumnVector column = new OnHeapColumnVector(rows, arrays);
    column.getChild(0).reserve(rowSize);
    for (int i = 0; i < rows; i++) {
      column.putArray(i, 0, rowSize);
    }
    ColumnarBatch batch = batch(column, rows);
    ColumnReader reader =
        new ColumnReader(
            new InputBinding("paths", List.of(0), arrays, ScalarType.F64, 2, null),
            0,
            0,
            1 << 20,
            true,
            new InputPaths());

    assertEquals(2047, reader.rowsThatFit(batch, 0, rows, 0, 0));
    assertEquals(47, reader.rowsThatFit(batch, 100, rows - 100, 0, 2000));
    assertEquals(0, reader.rowsThatFit(batch, 0, rows, 0, 2047));
    ColumnReader scalars =
        reader(ScalarType.F64, DataTypes.DoubleType, null, 1 << 20, true, new InputPaths());
    assertEquals(
        rows,
        scalars.rowsThatFit(
            batch(doubles(new OnHeapColumnVector(rows, DataTypes.DoubleType)), rows),
            0,
            rows,
            0,
            5000));
  }

  @Test
  void sparksOnHeapVectorsHaveTheValueArraysReadHere() {
    for (ScalarType type : ScalarType.values()) {
      DataType sparkType =
          switch (type) {
            case BOOL -> DataTypes.BooleanType;
            case I32 -> DataTypes.IntegerType;
            case I64 -> DataTypes.LongType;
            case F32 -> DataTypes.FloatType;
            case F64 -> DataTypes.DoubleType;
          };
      assertNotNull(
          OnHeapVectorArrays.valuesOf(new OnHeapColumnVector(ROWS, sparkType), type),
          type.toString());
    }
    assertNull(
        OnHeapVectorArrays.valuesOf(
            new OnHeapColumnVector(ROWS, DataTypes.ShortType), ScalarType.I32),
        "a short column is not an int array");
  }

  private static ColumnReader reader(
      ScalarType type,
      DataType sparkType,
      Object replacement,
      int batchRows,
      boolean reuseColumns,
      InputPaths paths) {
    return new ColumnReader(
        new InputBinding("x", List.of(0), sparkType, type, 1, replacement),
        0,
        3,
        batchRows,
        reuseColumns,
        paths);
  }

  private static <V extends WritableColumnVector> V doubles(V vector) {
    for (int i = 0; i < ROWS; i++) {
      vector.putDouble(i, 10.0 * i + 0.5);
    }
    return vector;
  }

  private static double[] expectedDoubles(int from, int count) {
    double[] values = new double[count];
    for (int i = 0; i < count; i++) {
      values[i] = 10.0 * (from + i) + 0.5;
    }
    return values;
  }

  private static ColumnarBatch batch(ColumnVector vector, int rows) {
    return new ColumnarBatch(new ColumnVector[] {vector}, rows);
  }

  /** A dictionary whose id {@code i} stands for {@code 10 i + 0.5}. */
  private static final class TenTimes implements Dictionary {
    @Override
    public int decodeToInt(int id) {
      throw new UnsupportedOperationException();
    }

    @Override
    public long decodeToLong(int id) {
      throw new UnsupportedOperationException();
    }

    @Override
    public float decodeToFloat(int id) {
      throw new UnsupportedOperationException();
    }

    @Override
    public double decodeToDouble(int id) {
      return 10.0 * id + 0.5;
    }

    @Override
    public byte[] decodeToBinary(int id) {
      throw new UnsupportedOperationException();
    }
  }
}
