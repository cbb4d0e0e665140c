package dev.l0.jobs;

import dev.l0.cli.BlackScholesReference;
import dev.l0.cli.BlackScholesReference.OptionRecord;
import dev.l0.spark.L0;
import dev.l0.spark.L0Pipeline;
import java.io.IOException;
import java.io.PrintStream;
import java.util.List;
import java.util.Optional;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.RowFactory;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.types.DataTypes;
import org.apache.spark.sql.types.StructType;

/**
 * The main job of this release: prices the PARSEC Black-Scholes reference options with the thesis's
 * P0 as an L0 pipeline on Spark ({@code df.transform(L0.pipeline(P0))}), prints one line per option
 * and the verdict as {@code bin/l0 demo} does, and exits with 1 if a price is further than 1e-4
 * from its reference. Usage: {@code BlackScholesSparkJob [SPARK_MASTER]} (default: the master
 * {@code spark-submit} was given, else {@code local[2]}).
 */
public final class BlackScholesSparkJob {
  static final int EXIT_FAIL = 1;
  static final int EXIT_USAGE = 2;

  /**
   * P0's option element {call, price, strike, years, r, v}, one column per field, in that order.
   */
  static final StructType OPTION_COLUMNS =
      new StructType()
          .add("call", DataTypes.BooleanType, false)
          .add("spot", DataTypes.DoubleType, false)
          .add("strike", DataTypes.DoubleType, false)
          .add("years", DataTypes.DoubleType, false)
          .add("rate", DataTypes.DoubleType, false)
          .add("volatility", DataTypes.DoubleType, false);

  private BlackScholesSparkJob() {}

  public static void main(String[] args) throws IOException {
    System.exit(run(args, System.out, System.err));
  }

  /**
   * Runs the job with {@code args} ({@code [SPARK_MASTER]}), printing to {@code out} and {@code
   * err}; returns the exit code.
   */
  public static int run(String[] args, PrintStream out, PrintStream err) throws IOException {
    if (args.length > 1) {
      err.println("usage: BlackScholesSparkJob [SPARK_MASTER]");
      return EXIT_USAGE;
    }
    List<OptionRecord> options = BlackScholesReference.referenceOptions();
    SparkSession spark;
    try {
      spark =
          JobSessions.start(
              "L0 Black-Scholes", args.length == 1 ? Optional.of(args[0]) : Optional.empty());
    } catch (JobSessions.UnknownMasterException e) {
      err.println("BlackScholesSparkJob: SPARK_MASTER " + e.getMessage());
      return EXIT_USAGE;
    }
    boolean pass;
    try {
      Dataset<Row> priced = optionFrame(spark, options).transform(pricingPipeline());
      out.printf(
          "P0 (%s) on Spark %s, master %s, %d partition(s): %s%n",
          BlackScholesReference.PROGRAM_RESOURCE,
          spark.version(),
          spark.sparkContext().master(),
          priced.rdd().getNumPartitions(),
          PipelinePlans.pipelineNode(priced));
      pass = BlackScholesReference.printReport(options, prices(priced.collectAsList()), out);
    } finally {
      spark.stop();
    }
    return pass ? 0 : EXIT_FAIL;
  }

  /** P0 as a pipeline from the {@link #OPTION_COLUMNS} to one column, {@code price}. */
  static L0Pipeline pricingPipeline() throws IOException {
    return L0.pipeline(BlackScholesReference.programText())
        .entry(BlackScholesReference.ENTRY)
        .on(OPTION_COLUMNS.fieldNames())
        .as("price");
  }

  static Dataset<Row> optionFrame(SparkSession spark, List<OptionRecord> options) {
    List<Row> rows =
        options.stream()
            .map(
                o ->
                    RowFactory.create(
                        o.call(), o.spot(), o.strike(), o.years(), o.rate(), o.volatility()))
            .toList();
    return spark.createDataFrame(rows, OPTION_COLUMNS);
  }

  private static double[] prices(List<Row> rows) {
    return rows.stream().mapToDouble(row -> row.getDouble(0)).toArray();
  }
}
