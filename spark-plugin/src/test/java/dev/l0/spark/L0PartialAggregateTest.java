package dev.l0.spark;

import static org.apache.spark.sql.functions.avg;
import static org.apache.spark.sql.functions.col;
import static org.apache.spark.sql.functions.count;
import static org.apache.spark.sql.functions.expr;
import static org.apache.spark.sql.functions.lit;
import static org.apache.spark.sql.functions.max;
import static org.apache.spark.sql.functions.sum;
import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.l0.spark.plan.L0PartialAggregateExec;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.function.Function;
import org.apache.spark.sql.Column;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.RowFactory;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.catalyst.expressions.Attribute;
import org.apache.spark.sql.catalyst.expressions.aggregate.Partial$;
import org.apache.spark.sql.execution.SparkPlan;
import org.apache.spark.sql.execution.aggregate.HashAggregateExec;
import org.apache.spark.sql.types.DataType;
import org.apache.spark.sql.types.DataTypes;
import org.apache.spark.sql.types.StructType;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import scala.jdk.javaapi.CollectionConverters;

/**
 * The partial aggregate fused onto a pipeline node ({@code spark.l0.aggregate.fused}): {@code sum},
 * {@code count} and {@code avg} over a pipeline's outputs and carried (nullable) columns give
 * Spark's own aggregate bit for bit, for 1, 2 and 4 partitions (one of them empty), -0.0 first,
 * NaN, infinities and all-null columns; the executed plan has the fused node, and Spark's partial
 * aggregate where the key is off, where there are grouping keys or an unsupported function.
 */
class L0PartialAggregateTest {
  private static final StructType INPUT =
      new StructType()
          .add("x", DataTypes.DoubleType, false)
          .add("y", DataTypes.DoubleType, true)
          .add("k", DataTypes.IntegerType, false);
  private static final String DOUBLED =
      "fun [f64] main([f64] x) = map(fn f64 (f64 a) => a * 2.0, x)";
  private static final Column[] AGGREGATES = {
    sum("v"),
    count(lit(1)),
    count("y"),
    avg("v"),
    sum("y"),
    avg("y"),
    count(col("v")),
    expr("count(v, y)")
  };

  private static SparkSession spark;

  @BeforeAll
  static void start() {
    spark =
        SparkTestSupport.startSession(
            L0PartialAggregateTest.class, Map.of(L0Settings.JVM_BATCH_ROWS, "1000"));
  }

  @AfterAll
  static void stop() {
    SparkTestSupport.stopSession(spark);
  }

  @Test
  void sumsCountsAndAveragesHaveSparksBitsInEveryPartitioning() {
    List<List<Row>> inputs =
        List.of(mixed(10_007, new Random(5)), specials(), allNullY(), negativeZeros());
    for (List<Row> rows : inputs) {
      for (int partitions : new int[] {1, 2, 4}) {
        Function<Dataset<Row>, Dataset<Row>> query =
            df -> df.transform(L0.pipeline(DOUBLED).on("x").as("v").carry("y", "k"));
        Dataset<Row> fused = query.apply(frame(rows, partitions)).agg(AGGREGATES[0], rest());
        Row fusedRow = fused.collectAsList().get(0);
        assertEquals(
            1,
            SparkTestSupport.execs(fused, L0PartialAggregateExec.class).size(),
            fused.queryExecution().executedPlan().treeString());
        assertEquals(1, SparkTestSupport.execs(fused, HashAggregateExec.class).size());

        spark.conf().set(L0Settings.AGGREGATE_FUSED, "false");
        try {
          Dataset<Row> unfused = query.apply(frame(rows, partitions)).agg(AGGREGATES[0], rest());
          Row sparkRow = unfused.collectAsList().get(0);
          assertEquals(0, SparkTestSupport.execs(unfused, L0PartialAggregateExec.class).size());
          assertEquals(2, SparkTestSupport.execs(unfused, HashAggregateExec.class).size());
          String where = rows.size() + " rows, " + partitions + " partitions";
          assertSameBits(sparkRow, fusedRow, where);
          assertEquals(
              partialBuffers(partialAggregate(unfused)),
              partialBuffers(SparkTestSupport.execs(fused, L0PartialAggregateExec.class).get(0)),
              where + ": the partitions' buffers");
        } finally {
          spark.conf().unset(L0Settings.AGGREGATE_FUSED);
        }
      }
    }
  }

  @Test
  void groupedAndUnsupportedAggregatesKeepSparksAggregate() {
    Dataset<Row> priced =
        frame(mixed(1000, new Random(9)), 2)
            .transform(L0.pipeline(DOUBLED).on("x").as("v").carry("y", "k"));
    List<Dataset<Row>> queries =
        List.of(
            priced.groupBy("k").agg(sum("v"), count(lit(1))),
            priced.agg(sum("v"), max("v")),
            priced.agg(sum(col("v").plus(1.0))),
            priced.agg(sum("k")));
    for (Dataset<Row> query : queries) {
      query.collectAsList();
      assertEquals(
          0,
          SparkTestSupport.execs(query, L0PartialAggregateExec.class).size(),
          query.queryExecution().executedPlan().treeString());
      assertEquals(2, SparkTestSupport.execs(query, HashAggregateExec.class).size());
    }
  }

  /** Spark's partial aggregate in the plan that ran. */
  private static SparkPlan partialAggregate(Dataset<Row> query) {
    return SparkTestSupport.execs(query, HashAggregateExec.class).stream()
        .filter(
            aggregate ->
                CollectionConverters.asJava(aggregate.aggregateExpressions()).stream()
                    .allMatch(function -> function.mode() == Partial$.MODULE$))
        .findFirst()
        .orElseThrow();
  }

  /**
   * The buffer row of each partition of {@code partial} run again, as the raw bits of its doubles
   * (NaN made one, see {@link #assertSameBits}), its longs and nulls: shows what the final
   * aggregate hides ({@code -0.0} against {@code 0.0} in a partition's sum, say).
   */
  private static List<List<Object>> partialBuffers(SparkPlan partial) {
    DataType[] types =
        CollectionConverters.asJava(partial.output()).stream()
            .map(Attribute::dataType)
            .toArray(DataType[]::new);
    return partial
        .execute()
        .toJavaRDD()
        .map(
            row -> {
              List<Object> values = new ArrayList<>();
              for (int i = 0; i < types.length; i++) {
                values.add(
                    row.isNullAt(i)
                        ? "null"
                        : types[i].equals(DataTypes.DoubleType)
                            ? Long.toHexString(Double.doubleToLongBits(row.getDouble(i)))
                            : row.getLong(i));
              }
              return values;
            })
        .collect();
  }

  private static Column[] rest() {
    return Arrays.copyOfRange(AGGREGATES, 1, AGGREGATES.length);
  }

  private static Dataset<Row> frame(List<Row> rows, int partitions) {
    return SparkTestSupport.frame(spark, rows, INPUT, partitions);
  }

  /**
   * {@code n} rows of values of many magnitudes (so the order of additions shows in the bits), -0.0
   * first in both columns, every seventh {@code y} null.
   */
  private static List<Row> mixed(int n, Random random) {
    List<Row> rows = new ArrayList<>();
    rows.add(RowFactory.create(-0.0, -0.0, 0));
    for (int i = 1; i < n; i++) {
      double x = random.nextGaussian() * Math.pow(10, random.nextInt(16) - 8);
      Double y = i % 7 == 0 ? null : random.nextGaussian() * Math.pow(10, random.nextInt(16) - 8);
      rows.add(RowFactory.create(x, y, i % 3));
    }
    return rows;
  }

  /** NaN and infinities, and a -0.0 first. */
  private static List<Row> specials() {
    double[] xs = {
      -0.0, 1.5, Double.POSITIVE_INFINITY, 3.0, Double.NEGATIVE_INFINITY, Double.NaN, -2.25, 7.0
    };
    Double[] ys = {
      -0.0, null, 1.0, Double.POSITIVE_INFINITY, null, 2.0, Double.NEGATIVE_INFINITY, 0.5
    };
    List<Row> rows = new ArrayList<>();
    for (int i = 0; i < xs.length; i++) {
      rows.add(RowFactory.create(xs[i], ys[i], i % 2));
    }
    return rows;
  }

  /** Three rows (so one of four partitions is empty) whose {@code y} are all null. */
  private static List<Row> allNullY() {
    return List.of(
        RowFactory.create(-0.0, null, 0),
        RowFactory.create(1e308, null, 1),
        RowFactory.create(1e308, null, 2));
  }

  /**
   * Every double with the same bits, every other value equal. A NaN counts as one value whatever
   * its sign and payload: Java leaves those open ({@code +} of two NaNs gives either operand's, and
   * the interpreter and the JIT pick differently), so Spark's own aggregate does not keep them
   * either.
   */
  /** Only -0.0 (a partition's sum is 0.0, as {@code 0.0 + -0.0}), every {@code y} -0.0 or null. */
  private static List<Row> negativeZeros() {
    return List.of(
        RowFactory.create(-0.0, -0.0, 0),
        RowFactory.create(-0.0, null, 1),
        RowFactory.create(-0.0, -0.0, 2),
        RowFactory.create(-0.0, -0.0, 0),
        RowFactory.create(-0.0, null, 1));
  }

  private static void assertSameBits(Row expected, Row actual, String where) {
    assertEquals(expected.length(), actual.length(), where);
    for (int i = 0; i < expected.length(); i++) {
      Object e = expected.get(i);
      Object a = actual.get(i);
      String field = where + ", " + expected.schema().fieldNames()[i];
      if (e instanceof Double ed && a instanceof Double ad) {
        assertEquals(
            Long.toHexString(Double.doubleToLongBits(ed)),
            Long.toHexString(Double.doubleToLongBits(ad)),
            field + ": " + e + " vs " + a);
      } else {
        assertEquals(e, a, field);
      }
    }
  }
}
