package dev.l0.spark.endtoend;

import java.util.Collections;
import java.util.List;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.types.StructType;

/**
 * A DataFrame's rows collected to the driver in the order Spark returns them (partition by
 * partition, each in its physical order), read back one column at a time as a primitive array.
 */
final class CollectedColumns {
  private final List<Row> rows;
  private final StructType schema;

  private CollectedColumns(List<Row> rows, StructType schema) {
    this.rows = Collections.unmodifiableList(rows);
    this.schema = schema;
  }

  static CollectedColumns of(Dataset<Row> frame) {
    return new CollectedColumns(frame.collectAsList(), frame.schema());
  }

  int size() {
    return rows.size();
  }

  double[] doubles(String column) {
    int index = schema.fieldIndex(column);
    double[] values = new double[rows.size()];
    for (int row = 0; row < values.length; row++) {
      values[row] = rows.get(row).getDouble(index);
    }
    return values;
  }

  long[] longs(String column) {
    int index = schema.fieldIndex(column);
    long[] values = new long[rows.size()];
    for (int row = 0; row < values.length; row++) {
      values[row] = rows.get(row).getLong(index);
    }
    return values;
  }

  int[] ints(String column) {
    int index = schema.fieldIndex(column);
    int[] values = new int[rows.size()];
    for (int row = 0; row < values.length; row++) {
      values[row] = rows.get(row).getInt(index);
    }
    return values;
  }

  boolean[] booleans(String column) {
    int index = schema.fieldIndex(column);
    boolean[] values = new boolean[rows.size()];
    for (int row = 0; row < values.length; row++) {
      values[row] = rows.get(row).getBoolean(index);
    }
    return values;
  }
}
