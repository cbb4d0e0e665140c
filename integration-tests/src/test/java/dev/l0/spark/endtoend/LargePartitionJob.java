package dev.l0.spark.endtoend;

import static org.apache.spark.sql.functions.col;
import static org.apache.spark.sql.functions.expr;

import dev.l0.spark.L0;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;

/**
 * The child JVM of {@link LargePartitionMemoryTest}: a filter, map and reduce pipeline over {@code
 * args[0]} rows in one partition on {@code local[1]}, with eight columns that all feed the result.
 * Prints its heap limit, the bytes its input would take as primitive arrays, and the sum.
 */
public final class LargePartitionJob {
  static final String MAX_HEAP = "max heap bytes: ";
  static final String INPUT_BYTES = "input bytes as primitive arrays: ";
  static final String SUM = "sum over the kept rows: ";

  /** One i64, one i32 and six f64 columns. */
  static final long INPUT_BYTES_PER_ROW = 8 + 4 + 6 * 8;

  /**
   * Keeps the rows whose id is a multiple of 3 and adds 2 * id for each, computed through every
   * column: (h + t) = 2i, q * 4 = i, e * 8 + n = 0, and d = i is never negative.
   */
  private static final String PROGRAM =
      """
      fun i64 main([i64] ids, [int] ks, [real] hs, [real] ts, [real] qs, [real] ds, [real] es, [real] ns) =
        let kept = filter(fn bool (i64 i, int k, real h, real t, real q, real d, real e, real n) => k = 0 && 0.0 <= d,
                          zip(ids, ks, hs, ts, qs, ds, es, ns)) in
        reduce(op +, 0i64,
               map(fn i64 (i64 i, int k, real h, real t, real q, real d, real e, real n) =>
                     i64(h + t) + i64(q * 4.0) - i + i64(e * 8.0 + n),
                   kept))
      """;

  private LargePartitionJob() {}

  public static void main(String[] args) {
    long rows = Long.parseLong(args[0]);
    SparkSession spark =
        LocalSpark.builder(LargePartitionJob.class, 1)
            .config("spark.plugins", LocalSpark.L0_PLUGIN)
            .getOrCreate();
    try {
      Dataset<Row> table =
          spark
              .range(0, rows, 1, 1)
              .select(
                  col("id"),
                  expr("cast(id % 3 as int)").as("k"),
                  expr("id * 0.5D").as("half"),
                  expr("id * 1.5D").as("three_halves"),
                  expr("id * 0.25D").as("quarter"),
                  expr("cast(id as double)").as("as_double"),
                  expr("id * 0.125D").as("eighth"),
                  expr("-cast(id as double)").as("negated"));
      long sum =
          table
              .transform(
                  L0.pipeline(PROGRAM)
                      .on(
                          "id",
                          "k",
                          "half",
                          "three_halves",
                          "quarter",
                          "as_double",
                          "eighth",
                          "negated")
                      .as("total"))
              .first()
              .getLong(0);
      System.out.println(MAX_HEAP + Runtime.getRuntime().maxMemory());
      System.out.println(INPUT_BYTES + rows * INPUT_BYTES_PER_ROW);
      System.out.println(SUM + sum);
    } finally {
      spark.stop();
    }
  }
}
