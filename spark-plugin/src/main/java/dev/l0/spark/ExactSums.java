package dev.l0.spark;

import dev.l0.kernels.exact.ExactFloatSum;
import dev.l0.kernels.exact.ExactSum;
import org.apache.spark.sql.Column;
import org.apache.spark.sql.Encoder;
import org.apache.spark.sql.Encoders;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.RowFactory;
import org.apache.spark.sql.catalyst.encoders.AgnosticEncoders;
import org.apache.spark.sql.expressions.Aggregator;
import org.apache.spark.sql.functions;
import org.apache.spark.sql.types.DataTypes;
import org.apache.spark.sql.types.StructType;

/**
 * Sums that do not depend on the partitioning: Spark aggregates over {@link ExactSum} (element-wise
 * sums over {@link ExactFloatSum}, its fixed-point accumulator), so a sum is the correctly rounded
 * sum of its values, bit-identical for any number of partitions, any row order and any {@code
 * spark.l0.batchRows} (Spark's own {@code sum} of doubles depends on the order). Use them like
 * {@code sum}: {@code df.groupBy("book").agg(exactSum(col("pv")))}. Nulls are skipped, as {@code
 * sum} skips them; a group of nulls only sums to 0.0.
 */
public final class ExactSums {
  /**
   * An {@code array<double>} read as a {@code double[]} with one copy ({@code toDoubleArray}), not
   * as a list of boxed elements; a null element reads as 0.0, which adds nothing.
   */
  @SuppressWarnings("unchecked")
  private static final Encoder<double[]> DOUBLE_ARRAY =
      (Encoder<double[]>)
          (Encoder<?>)
              new AgnosticEncoders.ArrayEncoder<>(
                  AgnosticEncoders.PrimitiveDoubleEncoder$.MODULE$, false);

  private static final StructType VECTOR_OUT =
      new StructType().add("sums", DataTypes.createArrayType(DataTypes.DoubleType, false));

  private ExactSums() {}

  /** The exact sum of a {@code double} column, rounded once. */
  public static Column exactSum(Column values) {
    return functions.udaf(new ScalarSum(), Encoders.DOUBLE()).apply(values);
  }

  /**
   * The element-wise exact sums of an {@code array<double>} column whose arrays all have the same
   * length, each element rounded once; an array of another length fails the task with a message
   * giving both lengths; null arrays and null elements are skipped.
   */
  public static Column exactSumElementWise(Column vectors) {
    return functions.udaf(new VectorSum(), DOUBLE_ARRAY).apply(vectors).getField("sums");
  }

  private static final class ScalarSum extends Aggregator<Double, ExactSum, Double> {
    private static final long serialVersionUID = 1L;

    @Override
    public ExactSum zero() {
      return new ExactSum();
    }

    @Override
    public ExactSum reduce(ExactSum sum, Double value) {
      return value == null ? sum : sum.add(value);
    }

    @Override
    public ExactSum merge(ExactSum left, ExactSum right) {
      return left.add(right);
    }

    @Override
    public Double finish(ExactSum sum) {
      return sum.value();
    }

    @Override
    public Encoder<ExactSum> bufferEncoder() {
      return Encoders.javaSerialization(ExactSum.class);
    }

    @Override
    public Encoder<Double> outputEncoder() {
      return Encoders.DOUBLE();
    }
  }

  private static final class VectorSum extends Aggregator<double[], ExactFloatSum, Row> {
    private static final long serialVersionUID = 1L;

    @Override
    public ExactFloatSum zero() {
      return new ExactFloatSum();
    }

    @Override
    public ExactFloatSum reduce(ExactFloatSum sum, double[] vector) {
      return vector == null ? sum : sum.addElementWise(vector);
    }

    @Override
    public ExactFloatSum merge(ExactFloatSum left, ExactFloatSum right) {
      return left.add(right);
    }

    @Override
    public Row finish(ExactFloatSum sum) {
      double[] values = sum.values();
      Double[] boxed = new Double[values.length];
      for (int i = 0; i < values.length; i++) {
        boxed[i] = values[i];
      }
      return RowFactory.create((Object) boxed);
    }

    @Override
    public Encoder<ExactFloatSum> bufferEncoder() {
      return Encoders.javaSerialization(ExactFloatSum.class);
    }

    @Override
    public Encoder<Row> outputEncoder() {
      return Encoders.row(VECTOR_OUT);
    }
  }
}
