package dev.l0.spark.plan;

import java.io.Serializable;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Optional;
import org.apache.spark.sql.catalyst.expressions.Attribute;
import org.apache.spark.sql.catalyst.expressions.Expression;
import org.apache.spark.sql.catalyst.expressions.Literal;
import org.apache.spark.sql.catalyst.expressions.UnsafeRow;
import org.apache.spark.sql.catalyst.expressions.aggregate.AggregateExpression;
import org.apache.spark.sql.catalyst.expressions.aggregate.AggregateFunction;
import org.apache.spark.sql.catalyst.expressions.aggregate.Average;
import org.apache.spark.sql.catalyst.expressions.aggregate.Count;
import org.apache.spark.sql.catalyst.expressions.aggregate.Partial$;
import org.apache.spark.sql.catalyst.expressions.aggregate.Sum;
import org.apache.spark.sql.catalyst.expressions.codegen.UnsafeRowWriter;
import org.apache.spark.sql.types.DataType;
import org.apache.spark.sql.types.DataTypes;
import org.apache.spark.sql.vectorized.ColumnVector;
import org.apache.spark.sql.vectorized.ColumnarBatch;
import scala.jdk.javaapi.CollectionConverters;

/**
 * Spark's partial aggregate without grouping keys, done over column batches: the aggregation buffer
 * of one partition (one value per buffer attribute, in the aggregate's order) from {@code sum} and
 * {@code avg} of double columns and {@code count}, with Spark's update expressions applied in row
 * order, so the buffer has Spark's bits. {@code sum}: null until the first non-null value {@code
 * x}, which gives {@code 0.0 + x} ({@code -0.0} becomes {@code 0.0}), then {@code sum + x}; nulls
 * skipped. {@code avg}: a sum from {@code 0.0} adding {@code x}, or {@code 0.0} for a null, and the
 * count of non-null values. {@code count}: the rows where none of its columns is null.
 */
final class PartialAggregateFold implements Serializable {
  private static final long serialVersionUID = 1L;

  /** What one buffer attribute holds. */
  private enum Buffer {
    /** Sum's buffer: a double, null until a non-null value. */
    SUM,
    /** Average's sum: a double from 0.0. */
    AVERAGE_SUM,
    /** A count (Count's, or Average's): the rows whose columns are all non-null. */
    COUNT
  }

  /** One buffer attribute: what it holds and the input column ordinals it reads. */
  private record Slot(Buffer buffer, int[] ordinals) implements Serializable {}

  private final List<Slot> slots;

  private PartialAggregateFold(List<Slot> slots) {
    this.slots = List.copyOf(slots);
  }

  /**
   * The fold of {@code aggregates} over batches of {@code input}'s columns, where every aggregate
   * is a partial {@code sum} or {@code avg} of a double column of {@code input} or a {@code count}
   * of its columns or non-null literals, none distinct or filtered; else empty (Spark's aggregate
   * stays).
   */
  static Optional<PartialAggregateFold> of(
      List<AggregateExpression> aggregates, List<Attribute> input) {
    List<Slot> slots = new ArrayList<>();
    for (AggregateExpression aggregate : aggregates) {
      if (aggregate.mode() != Partial$.MODULE$
          || aggregate.isDistinct()
          || aggregate.filter().isDefined()) {
        return Optional.empty();
      }
      Optional<List<Slot>> buffers = slotsOf(aggregate.aggregateFunction(), input);
      if (buffers.isEmpty()) {
        return Optional.empty();
      }
      slots.addAll(buffers.get());
    }
    return Optional.of(new PartialAggregateFold(slots));
  }

  /**
   * The buffer slots of one function, where supported and its buffer attributes have the types
   * those slots write.
   */
  private static Optional<List<Slot>> slotsOf(AggregateFunction function, List<Attribute> input) {
    List<Slot> slots;
    if (function instanceof Sum sum) {
      Optional<Integer> column = doubleColumn(sum.child(), input);
      if (column.isEmpty()) {
        return Optional.empty();
      }
      slots = List.of(new Slot(Buffer.SUM, new int[] {column.get()}));
    } else if (function instanceof Average average) {
      Optional<Integer> column = doubleColumn(average.child(), input);
      if (column.isEmpty()) {
        return Optional.empty();
      }
      int[] ordinal = {column.get()};
      slots = List.of(new Slot(Buffer.AVERAGE_SUM, ordinal), new Slot(Buffer.COUNT, ordinal));
    } else if (function instanceof Count count) {
      List<Integer> columns = new ArrayList<>();
      for (Expression child : CollectionConverters.asJava(count.children())) {
        if (child instanceof Literal literal && literal.value() != null) {
          continue;
        }
        Optional<Integer> column =
            child instanceof Attribute attribute ? ordinalOf(attribute, input) : Optional.empty();
        if (column.isEmpty()) {
          return Optional.empty();
        }
        columns.add(column.get());
      }
      slots = List.of(new Slot(Buffer.COUNT, columns.stream().mapToInt(c -> c).toArray()));
    } else {
      return Optional.empty();
    }
    List<DataType> bufferTypes =
        CollectionConverters.asJava(function.aggBufferAttributes()).stream()
            .map(Attribute::dataType)
            .toList();
    List<DataType> slotTypes =
        slots.stream()
            .map(slot -> slot.buffer() == Buffer.COUNT ? DataTypes.LongType : DataTypes.DoubleType)
            .toList();
    return bufferTypes.equals(slotTypes) ? Optional.of(slots) : Optional.empty();
  }

  private static Optional<Integer> doubleColumn(Expression expression, List<Attribute> input) {
    return expression instanceof Attribute attribute
            && attribute.dataType().equals(DataTypes.DoubleType)
        ? ordinalOf(attribute, input)
        : Optional.empty();
  }

  private static Optional<Integer> ordinalOf(Attribute attribute, List<Attribute> input) {
    for (int i = 0; i < input.size(); i++) {
      if (input.get(i).exprId().equals(attribute.exprId())) {
        return Optional.of(i);
      }
    }
    return Optional.empty();
  }

  /** The buffer row of one partition's batches (one row even for no batches, as Spark's). */
  UnsafeRow fold(Iterator<ColumnarBatch> batches) {
    int n = slots.size();
    double[] sums = new double[n];
    boolean[] seen = new boolean[n];
    long[] counts = new long[n];
    while (batches.hasNext()) {
      ColumnarBatch batch = batches.next();
      int rows = batch.numRows();
      for (int s = 0; s < n; s++) {
        Slot slot = slots.get(s);
        switch (slot.buffer()) {
          case SUM:
            seen[s] = addSum(batch.column(slot.ordinals()[0]), rows, sums, seen[s], s);
            break;
          case AVERAGE_SUM:
            sums[s] = addAverageSum(batch.column(slot.ordinals()[0]), rows, sums[s]);
            break;
          case COUNT:
            counts[s] += nonNullRows(batch, slot.ordinals(), rows);
            break;
          default:
            throw new IllegalStateException("unknown buffer " + slot.buffer());
        }
      }
    }
    UnsafeRowWriter writer = new UnsafeRowWriter(n);
    writer.resetRowWriter();
    for (int s = 0; s < n; s++) {
      Buffer buffer = slots.get(s).buffer();
      if (buffer == Buffer.COUNT) {
        writer.write(s, counts[s]);
      } else if (buffer == Buffer.SUM && !seen[s]) {
        writer.setNullAt(s);
      } else {
        writer.write(s, sums[s]);
      }
    }
    return writer.getRow();
  }

  /**
   * Sum's update over {@code rows} values of {@code column} into {@code sums[s]}: {@code
   * coalesce(sum, 0.0) + x} per non-null {@code x}; whether the sum is non-null after them.
   */
  private static boolean addSum(ColumnVector column, int rows, double[] sums, boolean seen, int s) {
    double sum = sums[s];
    boolean nonNull = seen;
    int row = 0;
    if (!column.hasNull()) {
      if (!nonNull && rows > 0) {
        sum = 0.0 + column.getDouble(0);
        nonNull = true;
        row = 1;
      }
      for (; row < rows; row++) {
        sum += column.getDouble(row);
      }
    } else {
      for (; row < rows; row++) {
        if (!column.isNullAt(row)) {
          sum = (nonNull ? sum : 0.0) + column.getDouble(row);
          nonNull = true;
        }
      }
    }
    sums[s] = sum;
    return nonNull;
  }

  /** Average's update of its sum: {@code sum + coalesce(x, 0.0)} per row. */
  private static double addAverageSum(ColumnVector column, int rows, double sum) {
    boolean nulls = column.hasNull();
    for (int row = 0; row < rows; row++) {
      sum += nulls && column.isNullAt(row) ? 0.0 : column.getDouble(row);
    }
    return sum;
  }

  /** The rows where none of the {@code ordinals} columns is null. */
  private static long nonNullRows(ColumnarBatch batch, int[] ordinals, int rows) {
    List<ColumnVector> withNulls = new ArrayList<>();
    for (int ordinal : ordinals) {
      if (batch.column(ordinal).hasNull()) {
        withNulls.add(batch.column(ordinal));
      }
    }
    if (withNulls.isEmpty()) {
      return rows;
    }
    long count = 0;
    for (int row = 0; row < rows; row++) {
      boolean anyNull = false;
      for (ColumnVector column : withNulls) {
        anyNull |= column.isNullAt(row);
      }
      count += anyNull ? 0 : 1;
    }
    return count;
  }
}
