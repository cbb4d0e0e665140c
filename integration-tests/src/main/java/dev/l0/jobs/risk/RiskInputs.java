package dev.l0.jobs.risk;

import static org.apache.spark.sql.functions.broadcast;
import static org.apache.spark.sql.functions.coalesce;
import static org.apache.spark.sql.functions.col;
import static org.apache.spark.sql.functions.collect_list;
import static org.apache.spark.sql.functions.concat;
import static org.apache.spark.sql.functions.count;
import static org.apache.spark.sql.functions.date_add;
import static org.apache.spark.sql.functions.element_at;
import static org.apache.spark.sql.functions.first;
import static org.apache.spark.sql.functions.floor;
import static org.apache.spark.sql.functions.format_string;
import static org.apache.spark.sql.functions.greatest;
import static org.apache.spark.sql.functions.input_file_block_start;
import static org.apache.spark.sql.functions.input_file_name;
import static org.apache.spark.sql.functions.least;
import static org.apache.spark.sql.functions.lit;
import static org.apache.spark.sql.functions.lower;
import static org.apache.spark.sql.functions.lpad;
import static org.apache.spark.sql.functions.max;
import static org.apache.spark.sql.functions.min;
import static org.apache.spark.sql.functions.min_by;
import static org.apache.spark.sql.functions.monotonically_increasing_id;
import static org.apache.spark.sql.functions.not;
import static org.apache.spark.sql.functions.rint;
import static org.apache.spark.sql.functions.round;
import static org.apache.spark.sql.functions.shiftright;
import static org.apache.spark.sql.functions.trim;
import static org.apache.spark.sql.functions.typeof;
import static org.apache.spark.sql.functions.udf;
import static org.apache.spark.sql.functions.when;
import static org.apache.spark.sql.functions.xxhash64;

import java.io.IOException;
import java.io.Serializable;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.HashMap;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.stream.IntStream;
import java.util.stream.Stream;
import org.apache.spark.sql.Column;
import org.apache.spark.sql.DataFrameReader;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.RowFactory;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.api.java.UDF3;
import org.apache.spark.sql.expressions.UserDefinedFunction;
import org.apache.spark.sql.expressions.Window;
import org.apache.spark.sql.expressions.WindowSpec;
import org.apache.spark.sql.functions;
import org.apache.spark.sql.types.DataType;
import org.apache.spark.sql.types.DataTypes;
import org.apache.spark.sql.types.NumericType;
import org.apache.spark.sql.types.StructField;
import org.apache.spark.sql.types.StructType;

/**
 * The run's inputs, read (Parquet, or CSV with a header) or generated, and checked before anything
 * is written. A portfolio row is {@code id, book, instrument, underlying, quantity, strike,
 * maturity (a date after the valuation date), type}: a vanilla European option ({@code instrument}
 * vanilla, Black-Scholes) or one of FinPar OptionPricing's three contracts priced by Monte-Carlo
 * ({@link PathContracts.Kind}: european, a call or put on {@code underlying}; discrete-barrier and
 * daily-barrier, notes on {@code underlying}, {@code underlying2} and {@code underlying3} whose
 * reference levels are {@code strike}, {@code strike2} and {@code strike3}, and an empty {@code
 * type}). The columns {@code underlying2, underlying3, strike2, strike3} may be absent when no row
 * needs them. The market snapshot is a market file, a row {@code underlying, spot, volatility,
 * rate} per underlying (volatility and rate per year, continuous compounding), and a correlations
 * file, a row {@code underlying1, underlying2, correlation} per pair of underlyings (either order,
 * the correlation of their returns), which must hold every pair of a barrier contract's
 * underlyings. The first problem found is an {@link InvalidInputException} naming the file, the
 * column and the row (the n-th data row, a CSV header not counted): in each file the earliest row
 * with a problem and its first check in the order below, a repeated key or pair only where no row
 * has one. Each file's checks are one Spark aggregate ({@link Checks#failOnFirst}).
 */
final class RiskInputs {
  static final String[] PORTFOLIO_COLUMNS = {
    "id", "book", "instrument", "underlying", "quantity", "strike", "maturity", "type"
  };
  static final String[] MARKET_COLUMNS = {"underlying", "spot", "volatility", "rate"};
  static final String[] CORRELATION_COLUMNS = {"underlying1", "underlying2", "correlation"};

  /** The portfolio's columns that only the barrier contracts use, absent or null elsewhere. */
  static final String[] BARRIER_COLUMNS = {"underlying2", "underlying3", "strike2", "strike3"};

  /**
   * The validated portfolio's correlations of a barrier contract's pairs of underlyings:
   * (underlying, underlying2), (underlying, underlying3), (underlying2, underlying3); null for the
   * options.
   */
  static final String[][] CORRELATION_PAIRS = {
    {"correlation12", "underlying", "underlying2"},
    {"correlation13", "underlying", "underlying3"},
    {"correlation23", "underlying2", "underlying3"}
  };

  static final String VANILLA = "vanilla";

  /**
   * The largest volatility (per year) of a market row, and of a volatility shock: a volatility of
   * 1e200 passed as finite, and Black-Scholes' v * v overflowed to infinity, so a call was priced
   * at spot - discounted strike and a put at 0 without a word (their prices tend to the spot and
   * the discounted strike). Far above any market's, and far below where the formula overflows.
   */
  static final double MAX_VOLATILITY = 100.0;

  /**
   * How far below zero a barrier contract's correlation matrix's determinant may be and still be
   * positive semi-definite: rounding of an exactly singular matrix (an underlying repeated, or
   * correlations of +-1).
   */
  static final double PSD_TOLERANCE = 1e-12;

  /** Bad input: the message names the file, column and row. */
  static final class InvalidInputException extends Exception {
    private static final long serialVersionUID = 1L;

    InvalidInputException(String message) {
      super(message);
    }
  }

  /**
   * Validated positions {@code id, book, instrument, underlying, quantity, strike, maturity, call,
   * underlying2, underlying3, strike2, strike3, correlation12, correlation13, correlation23}
   * (instrument in lower case, call null for the barrier contracts, the correlations of their
   * underlyings' pairs from the correlations file) and market rows.
   */
  record Inputs(
      Dataset<Row> portfolio,
      Dataset<Row> market,
      String portfolioName,
      String marketName,
      String correlationsName) {}

  private RiskInputs() {}

  static Inputs load(SparkSession spark, RiskSettings settings) throws InvalidInputException {
    Dataset<Row> rawMarket;
    Dataset<Row> rawPortfolio;
    Dataset<Row> rawCorrelations;
    String marketName;
    String portfolioName;
    String correlationsName;
    if (settings.portfolio().isPresent()) {
      marketName = settings.market().orElseThrow().toString();
      portfolioName = settings.portfolio().orElseThrow().toString();
      Numbered marketFile =
          numbered(
              spark,
              read(spark, settings.market().orElseThrow()),
              marketName,
              MARKET_COLUMNS,
              new String[0]);
      rawMarket = marketFile.rows();
      if (marketFile.count() == 0) {
        // every position's underlying was then unknown, and the message named the portfolio
        throw new InvalidInputException(marketName + ": no market rows (the file has no rows)");
      }
      Dataset<Row> portfolioFile = read(spark, settings.portfolio().orElseThrow());
      if (Arrays.asList(portfolioFile.columns()).contains("correlation")) {
        throw new InvalidInputException(
            portfolioName
                + ": column 'correlation': correlations are part of the market snapshot now, a"
                + " correlations file (risk.correlations or --correlations: underlying1,"
                + " underlying2, correlation); remove the column");
      }
      Numbered positions =
          numbered(spark, portfolioFile, portfolioName, PORTFOLIO_COLUMNS, BARRIER_COLUMNS);
      rawPortfolio = positions.rows();
      if (positions.count() == 0) {
        // no scenario P&L to take a VaR of: bad input, not a run that fails at the tail risk
        throw new InvalidInputException(portfolioName + ": no positions (the file has no rows)");
      }
      if (settings.correlations().isPresent()) {
        correlationsName = settings.correlations().orElseThrow().toString();
        rawCorrelations =
            numbered(
                    spark,
                    read(spark, settings.correlations().orElseThrow()),
                    correlationsName,
                    CORRELATION_COLUMNS,
                    new String[0])
                .rows();
      } else {
        correlationsName = "no correlations file";
        rawCorrelations =
            numbered(
                    spark,
                    spark.createDataFrame(List.<Row>of(), correlationSchema()),
                    correlationsName,
                    CORRELATION_COLUMNS,
                    new String[0])
                .rows();
      }
    } else {
      marketName = "synthetic market";
      portfolioName = "synthetic portfolio";
      rawMarket =
          numbered(
                  spark,
                  syntheticMarket(spark, settings),
                  marketName,
                  MARKET_COLUMNS,
                  new String[0])
              .rows();
      rawPortfolio =
          numbered(
                  spark,
                  syntheticPortfolio(spark, settings),
                  portfolioName,
                  PORTFOLIO_COLUMNS,
                  BARRIER_COLUMNS)
              .rows();
      correlationsName = "synthetic correlations";
      rawCorrelations =
          numbered(
                  spark,
                  syntheticCorrelations(spark, settings),
                  correlationsName,
                  CORRELATION_COLUMNS,
                  new String[0])
              .rows();
    }
    Market market = checkedMarket(rawMarket, marketName, settings);
    Dataset<Row> correlations =
        checkedCorrelations(rawCorrelations, correlationsName, market, marketName);
    Dataset<Row> portfolio =
        checkedPortfolio(
            rawPortfolio,
            market,
            correlations,
            portfolioName,
            marketName,
            settings.correlations().isPresent() || settings.portfolio().isEmpty()
                ? "in " + correlationsName
                : "(no correlations file: risk.correlations or --correlations)",
            settings.valuationDate());
    return new Inputs(portfolio, market.rows(), portfolioName, marketName, correlationsName);
  }

  private static Dataset<Row> read(SparkSession spark, Path path) throws InvalidInputException {
    String name =
        path.getFileName() == null ? path.toString() : path.getFileName().toString().toLowerCase();
    if (!path.toFile().exists()) {
      throw new InvalidInputException(path + ": no such file or folder");
    }
    String location = sparkLocation(path);
    if (holdsNoDataFile(path)) {
      throw new InvalidInputException(
          path + ": an empty folder (no file in it whose name does not start with '_' or '.')");
    }
    if (name.endsWith(".csv")) {
      StructType header = csv(spark).csv(location).schema();
      return csv(spark)
          .option("mode", "PERMISSIVE")
          .option("columnNameOfCorruptRecord", MALFORMED)
          .schema(header.add(MALFORMED, DataTypes.StringType))
          .csv(location);
    }
    try {
      return spark.read().parquet(location);
    } catch (Exception e) { // Spark's SparkException, undeclared: a file that is not Parquet
      String why = innermostSparkMessage(e).lines().findFirst().orElse("");
      if (why.startsWith("[COLUMN_ALREADY_EXISTS]")) { // 'quantity' and 'Quantity'
        throw new InvalidInputException(
            path
                + ": two columns whose names differ only in case (Spark does not tell them apart;"
                + " rename or drop one): "
                + why);
      }
      throw new InvalidInputException(
          path + ": not Parquet (a name ending in .csv is read as CSV): " + why);
    }
  }

  /**
   * Spark's CSV reader with a header, reading quotes as RFC 4180 writes them (Excel, pandas,
   * Python's csv module): a quote inside a quoted field is doubled. Spark's own default escape is a
   * backslash, under which {@code "EQ, ""x"""} was read as that text, quotes and all: another book.
   * A line break inside a quoted field is a record that does not match the header (Spark's
   * multiLine reader, which would read it, takes a path with {@code [1]} in it as a glob again).
   */
  private static DataFrameReader csv(SparkSession spark) {
    return spark.read().option("header", "true").option("escape", "\"");
  }

  /**
   * Whether {@code path} is a folder without a data file: Spark skips files whose names start with
   * {@code _} or {@code .}, and then failed with its UNABLE_TO_INFER_SCHEMA (for a CSV folder, out
   * of the run as a failure with a stack trace).
   */
  private static boolean holdsNoDataFile(Path path) throws InvalidInputException {
    if (!Files.isDirectory(path)) {
      return false;
    }
    try (Stream<Path> files = Files.walk(path)) {
      return files.noneMatch(
          file -> {
            String fileName = file.getFileName().toString();
            return Files.isRegularFile(file)
                && !fileName.startsWith("_")
                && !fileName.startsWith(".");
          });
    } catch (IOException | java.io.UncheckedIOException e) {
      throw new InvalidInputException(path + ": cannot list the folder: " + e.getMessage());
    }
  }

  /**
   * {@code path} as Spark's reader takes it: the characters Hadoop reads as a glob pattern ({@code
   * \ [ ] { } * ?}) escaped, so a file named {@code market[1].csv} is that file; a path with a
   * {@code :} is refused, since Hadoop's file system reads one in a file name as a URI's scheme.
   */
  static String sparkLocation(Path path) throws InvalidInputException {
    String text = path.toAbsolutePath().toString();
    if (text.contains(":")) {
      throw new InvalidInputException(
          path
              + ": Spark's (Hadoop's) file reader cannot read a path with ':' in it; rename the"
              + " file or give a link to it without one");
    }
    return text.replaceAll("([\\\\\\[\\]{}*?])", "\\\\$1");
  }

  /**
   * The message of the innermost Spark error under {@code e} (the one that names the file Spark
   * could not read), else {@code e}'s.
   */
  private static String innermostSparkMessage(Throwable e) {
    String message = String.valueOf(e.getMessage());
    for (Throwable cause = e; cause != null; cause = cause.getCause()) {
      if (cause instanceof org.apache.spark.SparkThrowable && cause.getMessage() != null) {
        message = cause.getMessage();
      }
    }
    return message;
  }

  /**
   * The column of a CSV file's frame that holds the text of a record whose fields do not match the
   * header (null on the others): Spark's corrupt-record column, so that such a record is bad input
   * at its row instead of a failed read.
   */
  private static final String MALFORMED = "_malformed_record";

  /**
   * A frame numbered in file order ({@link #inFileOrder}), how many rows it has and its earliest
   * record whose fields do not match a CSV header: its row and text, null where it has none.
   */
  private record Numbered(Dataset<Row> rows, long count, Row malformed) {}

  /**
   * {@code frame} with its {@code required} columns checked to exist, its {@code optional} ones
   * (null where absent) and a 1-based {@code row} number in file order ({@link #inFileOrder}), and
   * its row count. A CSV record whose fields do not match the header is bad input at its row.
   */
  private static Numbered numbered(
      SparkSession spark, Dataset<Row> frame, String name, String[] required, String[] optional)
      throws InvalidInputException {
    boolean csv = Arrays.asList(frame.columns()).contains(MALFORMED);
    List<String> present =
        Arrays.stream(frame.columns()).filter(c -> !c.equals(MALFORMED)).toList();
    if (present.isEmpty()) {
      throw new InvalidInputException(
          name + ": empty (no header row; the columns are " + String.join(", ", required) + ")");
    }
    List<Column> columns = new ArrayList<>();
    for (String column : Stream.concat(Arrays.stream(required), Arrays.stream(optional)).toList()) {
      requireNoNearName(name, column, present);
    }
    for (String column : required) {
      if (!present.contains(column)) {
        requireNamedOnce(name, column, present);
        throw new InvalidInputException(
            name
                + ": missing column '"
                + column
                + "' (columns: "
                + String.join(", ", present)
                + ")");
      }
      columns.add(col(column));
    }
    for (String column : optional) {
      columns.add(present.contains(column) ? col(column) : lit(null).cast("string").as(column));
    }
    if (csv) {
      columns.add(col(MALFORMED));
    }
    Numbered rows = inFileOrder(spark, frame.select(columns.toArray(Column[]::new)), csv);
    if (rows.malformed() != null) {
      throw new InvalidInputException(
          name
              + ": row "
              + rows.malformed().getLong(0)
              + ": its fields do not match the header's "
              + present.size()
              + " columns: '"
              + rows.malformed().getString(1)
              + "'");
    }
    return csv ? new Numbered(rows.rows().drop(MALFORMED), rows.count(), null) : rows;
  }

  /**
   * {@code frame} with a 1-based {@code row} number: its rows in file order, a folder's files in
   * the order of their names (their paths) and each file's rows in theirs; a frame not read from
   * files in the order of its partitions. Spark reads a folder's file splits largest first and may
   * read a file's splits in different partitions, so each partition's rows are taken as runs of one
   * split (file, start): {@code frame} is read once, {@link #checkpointed} (the checks read it
   * several times; a cache, found again by any later query of the same plan, gave the next run of
   * the same paths, and the caches built on it, the rows of the files as they were), and one pass
   * over each partition of that, without a shuffle, counts each run's rows and finds its first
   * malformed CSV record ({@code malformed}: the frame has the column {@link #MALFORMED}); the
   * driver orders the runs (a list as long as the splits) and gives each its first row's number;
   * the numbers are then each row's position in its partition plus its run's offset, looked up by
   * the run in a map the tasks carry. No sort, no single partition: a folder's rows were numbered
   * by a window over all of them, one task sorting every row.
   */
  private static Numbered inFileOrder(SparkSession spark, Dataset<Row> frame, boolean malformed) {
    Dataset<Row> tagged =
        checkpointed(
            spark,
            frame
                .withColumn(FILE, input_file_name())
                .withColumn(START, input_file_block_start())
                .withColumn(POSITION, monotonically_increasing_id()));
    List<Column> placing = new ArrayList<>(List.of(col(FILE), col(START), col(POSITION)));
    if (malformed) {
      placing.add(col(MALFORMED));
    }
    Map<List<Object>, Row> merged = new LinkedHashMap<>();
    for (Row run :
        tagged
            .select(placing.toArray(Column[]::new))
            .javaRDD()
            .mapPartitions(RiskInputs::runsOf)
            .collect()) {
      merged.merge(Arrays.asList(run.get(0), run.get(1), run.get(2)), run, RiskInputs::joined);
    }
    List<Row> runs =
        merged.values().stream()
            .sorted(
                Comparator.<Row, byte[]>comparing(
                        run -> run.getString(0).getBytes(StandardCharsets.UTF_8),
                        Arrays::compareUnsigned) // as Spark orders strings
                    .thenComparingLong(run -> run.getLong(1))
                    .thenComparingLong(run -> run.getLong(2)))
            .toList();
    Map<RunKey, Long> offsets = new HashMap<>();
    Row firstMalformed = null;
    long before = 0;
    for (Row run : runs) {
      // row = position - the run's first position + the rows before it + 1
      long offset = before + 1 - run.getLong(3);
      offsets.put(new RunKey(run.getString(0), run.getLong(1), run.getLong(2)), offset);
      if (firstMalformed == null && !run.isNullAt(5)) {
        firstMalformed = RowFactory.create(run.getLong(5) + offset, run.getString(6));
      }
      before += run.getLong(4);
    }
    // the offsets travel with the tasks, a map looked up per row: a join with them as a local
    // frame broadcast them, and Spark runs a job to collect a local frame it broadcasts, one per
    // numbered input in the checks' query
    UserDefinedFunction offsetOf =
        udf(
                (UDF3<String, Long, Long, Long>)
                    (file, start, partition) -> offsets.get(new RunKey(file, start, partition)),
                DataTypes.LongType)
            .asNonNullable();
    // monotonically_increasing_id: the partition's index above bit 33, the row's in it below
    Column partition = shiftright(col(POSITION), 33);
    Dataset<Row> rows =
        tagged.select(
            Stream.concat(
                    Arrays.stream(frame.columns()).map(functions::col),
                    Stream.of(
                        col(POSITION)
                            .plus(offsetOf.apply(col(FILE), col(START), partition))
                            .as("row")))
                .toArray(Column[]::new));
    return new Numbered(rows, before, firstMalformed);
  }

  /**
   * The runs of one partition of {@link #inFileOrder}'s rows {@code file, start, position} (and the
   * malformed record's text where given), one row each: {@code file, start, partition, first
   * position, rows, the first malformed record's position and text} (null where none).
   */
  private static Iterator<Row> runsOf(Iterator<Row> rows) {
    Map<List<Object>, Run> runs = new LinkedHashMap<>();
    while (rows.hasNext()) {
      Row row = rows.next();
      long position = row.getLong(2);
      Run run =
          runs.computeIfAbsent(
              Arrays.asList(row.getString(0), row.getLong(1)), split -> new Run(position));
      run.rows++;
      if (run.malformedAt == null && row.size() > 3 && !row.isNullAt(3)) {
        run.malformedAt = position;
        run.malformed = row.getString(3);
      }
    }
    return runs.entrySet().stream()
        .map(
            split -> {
              Run run = split.getValue();
              return RowFactory.create(
                  split.getKey().get(0),
                  split.getKey().get(1),
                  run.first >> 33,
                  run.first,
                  run.rows,
                  run.malformedAt,
                  run.malformed);
            })
        .iterator();
  }

  /**
   * Two of {@link #runsOf}'s rows of one run as one: a frame whose positions Spark computed before
   * it split the frame into partitions (a local frame's, on the driver) has a run's rows in several
   * partitions.
   */
  private static Row joined(Row a, Row b) {
    Row first = a.getLong(3) <= b.getLong(3) ? a : b;
    Row malformed = a.isNullAt(5) || (!b.isNullAt(5) && b.getLong(5) < a.getLong(5)) ? b : a;
    return RowFactory.create(
        a.get(0),
        a.get(1),
        a.get(2),
        first.getLong(3),
        a.getLong(4) + b.getLong(4),
        malformed.get(5),
        malformed.get(6));
  }

  /** A run of {@link #runsOf}: its first position (a partition's positions rise), its rows. */
  private static final class Run {
    private final long first;
    private long rows;
    private Long malformedAt;
    private String malformed;

    Run(long first) {
      this.first = first;
    }
  }

  /** A run of {@link #inFileOrder}'s rows: its file, split start and partition. */
  private record RunKey(String file, long start, long partition) implements Serializable {}

  /**
   * {@code frame} computed once and cut from its lineage, for the checks and the run to read again:
   * where the session has a checkpoint directory ({@code spark.checkpoint.dir}, or {@code
   * SparkContext.setCheckpointDir}) a reliable checkpoint, files there that are read again where an
   * executor is lost; else a local checkpoint in the executors' block managers, quicker, but an
   * executor lost loses its part of it and the run fails.
   */
  static Dataset<Row> checkpointed(SparkSession spark, Dataset<Row> frame) {
    return spark.sparkContext().getCheckpointDir().isDefined()
        ? frame.checkpoint()
        : frame.localCheckpoint();
  }

  /** The columns that place a row in {@link #inFileOrder}: its file, split and position. */
  private static final String FILE = "_input_file";

  private static final String START = "_input_start";
  private static final String POSITION = "_position";

  /**
   * Fails where {@code column} is absent but a column of {@code present} is its name with blanks
   * around it or its letters in another case ({@code " quantity"}, {@code "Quantity"}): the run
   * said the column was missing and listed it among the columns, where its blanks did not show, and
   * an optional column so named was taken as absent.
   */
  private static void requireNoNearName(String name, String column, List<String> present)
      throws InvalidInputException {
    if (present.contains(column)) {
      return;
    }
    for (String near : present) {
      if (near.strip().equalsIgnoreCase(column)) {
        throw new InvalidInputException(
            name
                + ": column '"
                + near
                + "' is not '"
                + column
                + "': "
                + (near.strip().equals(near)
                    ? "its letters are in another case"
                    : "its name has blanks around it")
                + " (column names are matched exactly; rename it '"
                + column
                + "')");
      }
    }
  }

  /**
   * Fails where {@code column} is named more than once in a CSV header: Spark names such columns
   * after their 0-based positions ({@code strike5}, {@code strike8}), case aside, so the column
   * looked missing.
   */
  private static void requireNamedOnce(String name, String column, List<String> present)
      throws InvalidInputException {
    List<Integer> positions =
        IntStream.range(0, present.size())
            .filter(i -> present.get(i).equalsIgnoreCase(column + i))
            .boxed()
            .toList();
    if (positions.size() > 1) {
      throw new InvalidInputException(
          name
              + ": column '"
              + column
              + "' is named "
              + positions.size()
              + " times in the header (columns "
              + String.join(" and ", positions.stream().map(i -> String.valueOf(i + 1)).toList())
              + ")");
    }
  }

  /** Problems in the order they are reported; the first true condition of a row is its error. */
  private static final class Checks {
    private final String file;
    private final List<Column> conditions = new ArrayList<>();
    private final List<Column> messages = new ArrayList<>();

    /** The columns {@link #typed} and {@link #typedWhere} read as numbers or dates, and as what. */
    private final Map<String, DataType> typedColumns = new LinkedHashMap<>();

    Checks(String file) {
      this.file = file;
    }

    Checks add(String column, Column failing, Column message) {
      conditions.add(failing);
      messages.add(
          concat(
              lit(file + ": row "),
              col("row").cast("string"),
              lit(", column '" + column + "': "),
              message));
      return this;
    }

    /** Null, not of the type, then not finite where numeric. */
    Checks typed(String column, DataType type) {
      typedColumns.put(column, type);
      Column raw = col(column);
      add(column, raw.isNull(), lit("null"));
      if (type.equals(DataTypes.StringType)) {
        add(column, blank(raw), lit("blank"));
      } else {
        add(
            column,
            notOfType(raw, type),
            concat(lit("'"), raw.cast("string"), lit("' is not a " + type.simpleString())));
      }
      return this;
    }

    /** Whether {@code raw} is a name of blanks alone: trimmed, as every name is, nothing. */
    static Column blank(Column raw) {
      return trim(raw.cast("string")).equalTo("");
    }

    /**
     * Whether {@code raw} is not a value of {@code type}: its cast fails; for a whole number, it
     * cuts a fraction off (a Parquet double 2.5 cast to 2, where the text 2.5 fails the cast); for
     * a double, it is not written as a decimal number (or NaN, Infinity, inf), such as {@code 10d}
     * or {@code 1.5f}, which Spark's cast reads as Java does, as 10 and 1.5; for a date given as
     * text, it is not one ({@link #ISO_DATE}).
     */
    private static Column notOfType(Column raw, DataType type) {
      Column cast = raw.try_cast(type);
      if (type.equals(DataTypes.LongType)) {
        return cast.isNull().or(cast.cast("double").notEqual(raw.try_cast("double")));
      }
      if (type.equals(DataTypes.DoubleType)) {
        return cast.isNull().or(not(raw.cast("string").rlike(DECIMAL_NUMBER)));
      }
      if (type.equals(DataTypes.DateType)) {
        return cast.isNull()
            .or(typeof(raw).equalTo("string").and(not(raw.cast("string").rlike(ISO_DATE))))
            .or(
                typeof(raw)
                    .equalTo("timestamp_ntz")
                    .and(cast.cast("timestamp_ntz").notEqual(raw.try_cast("timestamp_ntz"))));
      }
      return cast.isNull();
    }

    /**
     * A date as text: year, month and day, nothing more ({@code 2027-11-25T10:00:00}, which Spark's
     * cast reads as 2027-11-25, is not one; nor is a Parquet timestamp without time zone other than
     * midnight, and a Parquet timestamp, an instant, is refused by its type).
     */
    private static final String ISO_DATE = "^\\s*\\d{4}-\\d{1,2}-\\d{1,2}\\s*$";

    /** A number as a CSV file or a Parquet column's text writes it (case aside). */
    private static final String DECIMAL_NUMBER =
        "(?i)^\\s*[+-]?((\\d+\\.?\\d*|\\.\\d+)(e[+-]?\\d+)?|inf|infinity|nan)\\s*$";

    /** Null where {@code needed}, saying {@code why}; not of the type where given. */
    Checks typedWhere(String column, DataType type, Column needed, String why) {
      typedColumns.put(column, type);
      Column raw = col(column);
      add(column, needed.and(raw.isNull()), lit("null (" + why + ")"));
      if (type.equals(DataTypes.StringType)) {
        add(column, needed.and(blank(raw)), lit("blank (" + why + ")"));
      }
      add(
          column,
          raw.isNotNull().and(notOfType(raw, type)),
          concat(lit("'"), raw.cast("string"), lit("' is not a " + type.simpleString())));
      return this;
    }

    /**
     * Fails where a column read as a number or a date has a type (a Parquet file's) that is neither
     * such a value nor text: Spark would cast a boolean to 1.0 or 0.0, and refuses to cast an
     * integer to a date only when the checks run.
     */
    private void requireTypes(Dataset<Row> frame) throws InvalidInputException {
      for (Map.Entry<String, DataType> typed : typedColumns.entrySet()) {
        DataType actual = frame.schema().apply(typed.getKey()).dataType();
        if (typed.getValue().equals(DataTypes.DateType) && actual.equals(DataTypes.TimestampType)) {
          throw new InvalidInputException(
              file
                  + ": column '"
                  + typed.getKey()
                  + "' has type timestamp, an instant whose date depends on the time zone it is"
                  + " read in (the run's would decide the maturities); write it as a date (or a"
                  + " timestamp without time zone at midnight)");
        }
        if (!reads(typed.getValue(), actual)) {
          throw new InvalidInputException(
              file
                  + ": column '"
                  + typed.getKey()
                  + "' has type "
                  + actual.simpleString()
                  + (typed.getValue().equals(DataTypes.StringType)
                      ? ", not text"
                      : ", not " + typed.getValue().simpleString() + " or text"));
        }
      }
    }

    /**
     * Whether a column of type {@code actual} holds values of type {@code wanted} (or text). Text
     * is read from any single value (a number, a date, a boolean), not from a struct, an array, a
     * map or bytes, which Spark's trim refused as the checks ran (a failed run, not bad input). A
     * date is read from a timestamp without time zone (a date and a time of day, the same in every
     * zone), not from a timestamp, an instant: Spark cast it to the date of the session's time
     * zone, so the same file gave other maturities, and prices, on a server in New York.
     */
    private static boolean reads(DataType wanted, DataType actual) {
      if (wanted.equals(DataTypes.StringType)) {
        return actual.equals(DataTypes.StringType)
            || actual.equals(DataTypes.NullType)
            || actual.equals(DataTypes.BooleanType)
            || actual.equals(DataTypes.DateType)
            || actual.equals(DataTypes.TimestampType)
            || actual.equals(DataTypes.TimestampNTZType)
            || actual instanceof NumericType;
      }
      if (actual.equals(wanted)
          || actual.equals(DataTypes.StringType)
          || actual.equals(DataTypes.NullType)) {
        return true;
      }
      if (wanted instanceof NumericType) {
        return actual instanceof NumericType;
      }
      return wanted.equals(DataTypes.DateType) && actual.equals(DataTypes.TimestampNTZType);
    }

    /**
     * Whether a row has a problem: one of the conditions holds (a null one, a check of a null
     * value, does not). The aggregate of {@link #grouped} tests this on every row, so it builds no
     * message; {@link #error} builds one, for the row it reports.
     */
    private Column failing() {
      return conditions.stream().reduce(Column::or).orElse(lit(false));
    }

    /** A row's first problem in the order the checks were added, null where it has none. */
    private Column error() {
      Column error = lit(null).cast("string");
      for (int i = conditions.size() - 1; i >= 0; i--) {
        error = when(conditions.get(i), messages.get(i)).otherwise(error);
      }
      return error;
    }

    /**
     * The rows of {@code frame} grouped by {@code keys}, in one pass that evaluates every check:
     * per key value {@code n} (its rows), {@code last} (its latest row), {@code problem} (its
     * earliest row with a problem, null where none) and the {@code more} aggregates. Numbers only,
     * so Spark aggregates by hash; the messages are built by {@link #failAt}.
     */
    Dataset<Row> grouped(Dataset<Row> frame, Column[] keys, Column... more)
        throws InvalidInputException {
      requireTypes(frame);
      List<Column> aggregates = new ArrayList<>();
      aggregates.add(max("row").as("last"));
      aggregates.add(min(when(failing(), col("row"))).as("problem"));
      aggregates.addAll(Arrays.asList(more));
      return frame.groupBy(keys).agg(count(lit(1)).as("n"), aggregates.toArray(Column[]::new));
    }

    /**
     * Fails where a row of {@code frame} has a problem, naming the earliest such row and its first
     * problem in the order the checks were added; else where a value of {@code key} appears on two
     * rows, naming the earliest row at which a value appears again (the value quoted where it is a
     * string) and {@code rule}. One Spark query, an aggregate by {@code key} (a column {@code key})
     * and then one row, returned: the problem row, the duplicate row and the {@code more}
     * aggregates over the key values. A second query reads the message's row where it fails.
     */
    Row failOnFirst(Dataset<Row> frame, Column key, String keyColumn, String rule, Column... more)
        throws InvalidInputException {
      List<Column> aggregates = new ArrayList<>();
      aggregates.add(min(when(col("n").gt(1), col("last"))).as("duplicate"));
      aggregates.addAll(Arrays.asList(more));
      Row verdict =
          grouped(frame, new Column[] {key.as("key")})
              .agg(min("problem").as("problem"), aggregates.toArray(Column[]::new))
              .first();
      failAt(frame, verdict, 0);
      if (!verdict.isNullAt(1)) {
        long row = verdict.getLong(1);
        Object value = frame.where(col("row").equalTo(row)).select(key).first().get(0);
        throw new InvalidInputException(
            file
                + ": row "
                + row
                + ", column '"
                + keyColumn
                + "': "
                + (value instanceof String ? "'" + value + "'" : value)
                + " appears again ("
                + rule
                + ")");
      }
      return verdict;
    }

    /**
     * Fails with the first problem of the row of {@code frame} that {@code verdict} holds at {@code
     * index} (a {@link #grouped} problem's row), unless that is null.
     */
    void failAt(Dataset<Row> frame, Row verdict, int index) throws InvalidInputException {
      if (!verdict.isNullAt(index)) {
        throw new InvalidInputException(
            frame
                .where(col("row").equalTo(verdict.getLong(index)))
                .select(error())
                .first()
                .getString(0));
      }
    }
  }

  /** The validated market rows and their underlyings. */
  private record Market(Dataset<Row> rows, List<String> underlyings) {
    /**
     * Whether {@code trimmed}, a name trimmed, is a market underlying (false where null): a set of
     * literals, so the checks need no join with the market.
     */
    Column known(Column trimmed) {
      return coalesce(trimmed.isin(underlyings.toArray()), lit(false));
    }
  }

  private static Market checkedMarket(Dataset<Row> raw, String name, RiskSettings settings)
      throws InvalidInputException {
    double lowestVolShock = Arrays.stream(settings.volShocks()).min().orElse(0.0);
    Checks checks =
        new Checks(name)
            .typed("underlying", DataTypes.StringType)
            .typed("spot", DataTypes.DoubleType)
            .typed("volatility", DataTypes.DoubleType)
            .typed("rate", DataTypes.DoubleType);
    Column spot = col("spot").try_cast("double");
    Column volatility = col("volatility").try_cast("double");
    Column rate = col("rate").try_cast("double");
    checks
        .add(
            "spot",
            spot.leq(0).or(spot.isNaN()).or(spot.equalTo(Double.POSITIVE_INFINITY)),
            concat(lit("spot must be positive and finite, is "), spot.cast("string")))
        .add(
            "volatility",
            volatility.lt(0),
            concat(lit("negative volatility "), volatility.cast("string")))
        .add(
            "volatility",
            volatility.equalTo(Double.POSITIVE_INFINITY),
            concat(lit("volatility must be finite, is "), volatility.cast("string")))
        .add(
            "volatility",
            volatility.gt(MAX_VOLATILITY),
            concat(
                lit("volatility "),
                volatility.cast("string"),
                lit(
                    " is above "
                        + MAX_VOLATILITY
                        + " (10,000% a year), the most the job values; a volatility is a fraction"
                        + " per year, 0.2 for 20%")))
        .add(
            "volatility",
            volatility.plus(lowestVolShock).leq(0).or(volatility.isNaN()),
            concat(
                lit("volatility "),
                volatility.cast("string"),
                lit(
                    " is not above "
                        + (-lowestVolShock)
                        + " (the largest downward volatility shock)")))
        .add(
            "volatility",
            volatility.leq(settings.greekVolBump()),
            concat(
                lit("volatility "),
                volatility.cast("string"),
                lit(
                    " is not above "
                        + settings.greekVolBump()
                        + " (risk.greeks.volBump, the Monte-Carlo vega's bump)")))
        .add(
            "rate",
            rate.isNaN().or(rate.gt(1)).or(rate.lt(-1)),
            concat(lit("rate must be in [-1, 1], is "), rate.cast("string")));
    Row verdict =
        checks.failOnFirst(
            raw,
            trim(col("underlying")),
            "underlying",
            "each underlying has one market row",
            collect_list(col("key")));
    return new Market(
        raw.select(
            trim(col("underlying")).as("underlying"),
            spot.as("spot"),
            volatility.as("volatility"),
            rate.as("rate")),
        verdict.getList(2));
  }

  private static StructType correlationSchema() {
    return new StructType()
        .add("underlying1", DataTypes.StringType, true)
        .add("underlying2", DataTypes.StringType, true)
        .add("correlation", DataTypes.DoubleType, true);
  }

  /**
   * The correlations of the pairs of underlyings, {@code first, second, correlation} with first <
   * second, one row per pair: each row's underlyings are known and distinct, its correlation in
   * [-1, 1], and a pair given twice (in either order) has one value. Aggregated once and {@link
   * #checkpointed}: the portfolio's checks and its three joins with it read it, and its three
   * broadcasts are one (Spark reuses the exchange of a checkpoint, not of a cache's table).
   */
  private static Dataset<Row> checkedCorrelations(
      Dataset<Row> raw, String name, Market market, String marketName)
      throws InvalidInputException {
    Column correlation = col("correlation").try_cast("double");
    Checks checks =
        new Checks(name)
            .typed("underlying1", DataTypes.StringType)
            .typed("underlying2", DataTypes.StringType)
            .typed("correlation", DataTypes.DoubleType);
    for (String underlying : new String[] {"underlying1", "underlying2"}) {
      checks.add(
          underlying,
          not(market.known(trim(col(underlying)))),
          concat(
              lit("unknown underlying '"), col(underlying), lit("' (not in " + marketName + ")")));
    }
    checks
        .add(
            "underlying2",
            trim(col("underlying1")).equalTo(trim(col("underlying2"))),
            concat(
                lit("'"),
                trim(col("underlying2")),
                lit("' is paired with itself (its correlation is 1; leave the row out)")))
        .add(
            "correlation",
            correlation.isNaN().or(correlation.gt(1.0)).or(correlation.lt(-1.0)),
            concat(lit("correlation must be in [-1, 1], is "), correlation.cast("string")));
    Column a = trim(col("underlying1"));
    Column b = trim(col("underlying2"));
    Dataset<Row> pairs =
        checkpointed(
            raw.sparkSession(),
            checks.grouped(
                raw,
                new Column[] {least(a, b).as("first"), greatest(a, b).as("second")},
                min_by(correlation, col("row")).as("given"),
                min(correlation).as("lowest"),
                max(correlation).as("highest")));
    Row verdict =
        pairs
            .agg(
                min("problem").as("problem"),
                max(col("lowest").notEqual(col("highest"))).as("asymmetric"))
            .first();
    checks.failAt(raw, verdict, 0);
    if (!verdict.isNullAt(1) && verdict.getBoolean(1)) {
      throw asymmetry(raw, name);
    }
    return pairs.select(col("first"), col("second"), col("given").as("correlation"));
  }

  /**
   * The error of a pair of underlyings given twice with two correlations: the earliest row whose
   * correlation differs from its pair's first row's, and that row.
   */
  private static InvalidInputException asymmetry(Dataset<Row> raw, String name) {
    Column a = trim(col("underlying1"));
    Column b = trim(col("underlying2"));
    WindowSpec pair = Window.partitionBy("first", "second").orderBy("row");
    Row row =
        raw.select(
                least(a, b).as("first"),
                greatest(a, b).as("second"),
                a.as("underlying1"),
                b.as("underlying2"),
                col("correlation").cast("double").as("correlation"),
                col("row"))
            .withColumn("given", first("correlation").over(pair))
            .withColumn("given_row", first("row").over(pair))
            .where(col("correlation").notEqual(col("given")))
            .orderBy("row")
            .first();
    return new InvalidInputException(
        name
            + ": row "
            + row.getAs("row")
            + ", column 'correlation': "
            + row.getAs("underlying1")
            + " and "
            + row.getAs("underlying2")
            + " have correlation "
            + row.getAs("correlation")
            + " here but "
            + row.getAs("given")
            + " in row "
            + row.getAs("given_row")
            + " (a correlation matrix is symmetric: give a pair once, or with one value)");
  }

  private static Dataset<Row> checkedPortfolio(
      Dataset<Row> raw,
      Market market,
      Dataset<Row> correlations,
      String name,
      String marketName,
      String inCorrelations,
      LocalDate date)
      throws InvalidInputException {
    // the keys, each computed once per row in a projection under the checks' aggregate (Spark keeps
    // it, as its columns are read more than once); in the checks' conditions, expressions, each was
    // computed again in every condition that read it
    Dataset<Row> joined =
        raw.select(
            col("*"),
            trim(col("underlying")).as(key("underlying")),
            trim(col("underlying2")).as(key("underlying2")),
            trim(col("underlying3")).as(key("underlying3")),
            lower(trim(col("instrument"))).as(key("instrument")),
            lower(trim(col("type"))).as(key("type")));
    for (String[] pair : CORRELATION_PAIRS) {
      Dataset<Row> given =
          broadcast(
              correlations.select(
                  col("first").as("first_" + pair[0]),
                  col("second").as("second_" + pair[0]),
                  col("correlation").as("given_" + pair[0])));
      Column a = joined.col(key(pair[1]));
      Column b = joined.col(key(pair[2]));
      joined =
          joined.join(
              given,
              least(a, b)
                  .equalTo(given.col("first_" + pair[0]))
                  .and(greatest(a, b).equalTo(given.col("second_" + pair[0]))),
              "left");
    }
    Column instrument = col(key("instrument"));
    Column option = instrument.isin(VANILLA, PathContracts.Kind.EUROPEAN.instrument);
    Column barrier =
        instrument.isin(
            PathContracts.Kind.DISCRETE_BARRIER.instrument,
            PathContracts.Kind.DAILY_BARRIER.instrument);
    Column quantity = col("quantity").try_cast("double");
    Column maturity = col("maturity").try_cast("date");
    Column type = col(key("type"));
    String instruments =
        VANILLA
            + ", "
            + Arrays.stream(PathContracts.Kind.values())
                .map(k -> k.instrument)
                .collect(java.util.stream.Collectors.joining(", "));
    Checks checks =
        new Checks(name)
            .typed("id", DataTypes.LongType)
            .typed("book", DataTypes.StringType)
            .add(
                "book",
                trim(col("book")).equalTo(RiskComputation.PORTFOLIO),
                lit(
                    "'"
                        + RiskComputation.PORTFOLIO
                        + "' names the whole portfolio in the outputs; a book may not be called so"))
            .typed("instrument", DataTypes.StringType)
            .add(
                "instrument",
                option.or(barrier).equalTo(false),
                concat(
                    lit("'"),
                    col("instrument"),
                    lit("' is not an instrument of this release (" + instruments + ")")))
            .typed("underlying", DataTypes.StringType)
            .typed("quantity", DataTypes.DoubleType)
            .typed("strike", DataTypes.DoubleType)
            .typed("maturity", DataTypes.DateType)
            .add("type", option.and(col("type").isNull()), lit("null"))
            .add(
                "type",
                barrier.and(col("type").isNotNull()),
                concat(
                    lit("'"),
                    col("type"),
                    lit("' is not a type of a "),
                    instrument,
                    lit(" contract (leave it empty)")))
            .typedWhere(
                "underlying2",
                DataTypes.StringType,
                barrier,
                "a barrier contract has three underlyings")
            .typedWhere(
                "underlying3",
                DataTypes.StringType,
                barrier,
                "a barrier contract has three underlyings")
            .typedWhere(
                "strike2", DataTypes.DoubleType, barrier, "the reference level of underlying2")
            .typedWhere(
                "strike3", DataTypes.DoubleType, barrier, "the reference level of underlying3");
    // an option's barrier columns are empty: a level or underlying given there was ignored
    for (String column : BARRIER_COLUMNS) {
      Column value = col(column);
      Column given =
          column.startsWith("underlying")
              ? value.isNotNull().and(not(Checks.blank(value)))
              : value.isNotNull();
      checks.add(
          column,
          option.and(given),
          concat(
              lit("'"),
              value.cast("string"),
              lit("' is given, but a "),
              instrument,
              lit(" contract has one underlying and one strike (leave it empty)")));
    }
    for (String[] level :
        new String[][] {
          {"underlying", "strike"}, {"underlying2", "strike2"}, {"underlying3", "strike3"}
        }) {
      Column needed = level[0].equals("underlying") ? lit(true) : barrier;
      checks.add(
          level[0],
          needed.and(not(market.known(col(key(level[0]))))),
          concat(lit("unknown underlying '"), col(level[0]), lit("' (not in " + marketName + ")")));
      Column strike = col(level[1]).try_cast("double");
      checks.add(
          level[1],
          needed.and(strike.leq(0).or(strike.isNaN()).or(strike.equalTo(Double.POSITIVE_INFINITY))),
          concat(
              lit(
                  (level[1].equals("strike") ? "strike" : "reference level")
                      + " must be positive and finite, is "),
              strike.cast("string")));
    }
    checks
        .add(
            "quantity",
            quantity
                .isNaN()
                .or(quantity.equalTo(Double.POSITIVE_INFINITY))
                .or(quantity.equalTo(Double.NEGATIVE_INFINITY)),
            concat(lit("quantity must be finite, is "), quantity.cast("string")))
        .add(
            "maturity",
            maturity.leq(lit(java.sql.Date.valueOf(date))),
            concat(
                lit("maturity "),
                maturity.cast("string"),
                lit(" is not after the valuation date " + date)))
        .add(
            "maturity",
            instrument
                .equalTo(PathContracts.Kind.DAILY_BARRIER.instrument)
                .and(
                    org.apache
                        .spark
                        .sql
                        .functions
                        .datediff(maturity, lit(java.sql.Date.valueOf(date)))
                        .gt(PathContracts.MAX_DAILY_DAYS)),
            concat(
                lit("maturity "),
                maturity.cast("string"),
                lit(
                    " is more than "
                        + PathContracts.MAX_DAILY_DAYS
                        + " days after the valuation date (a daily-barrier contract is monitored on at most "
                        + (PathContracts.MAX_DAILY_DAYS + 1)
                        + " dates: "
                        + PathContracts.MAX_SOBOL_DIMENSIONS
                        + " Sobol dimensions over 3 underlyings)")))
        .add(
            "type",
            option.and(type.notEqual("call")).and(type.notEqual("put")),
            concat(lit("'"), col("type"), lit("' is neither call nor put")));
    Column[] pairCorrelations = new Column[CORRELATION_PAIRS.length];
    for (int i = 0; i < CORRELATION_PAIRS.length; i++) {
      String[] pair = CORRELATION_PAIRS[i];
      Column a = col(key(pair[1]));
      Column b = col(key(pair[2]));
      pairCorrelations[i] =
          when(barrier, when(a.equalTo(b), lit(1.0)).otherwise(col("given_" + pair[0])))
              .otherwise(lit(null).cast("double"));
      checks.add(
          pair[2],
          barrier.and(market.known(a)).and(market.known(b)).and(pairCorrelations[i].isNull()),
          concat(lit("no correlation of "), a, lit(" and "), b, lit(" " + inCorrelations)));
    }
    Column r12 = pairCorrelations[0];
    Column r13 = pairCorrelations[1];
    Column r23 = pairCorrelations[2];
    Column determinant =
        lit(1.0)
            .plus(lit(2.0).multiply(r12).multiply(r13).multiply(r23))
            .minus(r12.multiply(r12))
            .minus(r13.multiply(r13))
            .minus(r23.multiply(r23));
    checks.add(
        "underlying",
        barrier.and(determinant.lt(-PSD_TOLERANCE)),
        concat(
            lit("the correlations of "),
            col(key("underlying")),
            lit(", "),
            col(key("underlying2")),
            lit(" and "),
            col(key("underlying3")),
            lit(" " + inCorrelations + " ("),
            r12.cast("string"),
            lit(", "),
            r13.cast("string"),
            lit(", "),
            r23.cast("string"),
            lit(") are not a positive semi-definite matrix (its determinant is "),
            determinant.cast("string"),
            lit(")")));
    checks.failOnFirst(joined, col("id").try_cast("long"), "id", "position ids are unique");
    return joined.select(
        col("id").cast("long").as("id"),
        trim(col("book")).as("book"),
        instrument.as("instrument"),
        col(key("underlying")).as("underlying"),
        quantity.as("quantity"),
        col("strike").cast("double").as("strike"),
        maturity.as("maturity"),
        type.equalTo("call").as("call"),
        when(barrier, col(key("underlying2"))).as("underlying2"),
        when(barrier, col(key("underlying3"))).as("underlying3"),
        col("strike2").cast("double").as("strike2"),
        col("strike3").cast("double").as("strike3"),
        r12.as(CORRELATION_PAIRS[0][0]),
        r13.as(CORRELATION_PAIRS[1][0]),
        r23.as(CORRELATION_PAIRS[2][0]));
  }

  /**
   * The column of {@link #checkedPortfolio}'s frame that holds {@code column}'s key: its value
   * trimmed, and an instrument's or type's in lower case.
   */
  private static String key(String column) {
    return "_key_" + column;
  }

  /**
   * One market row per underlying U0000, U0001, ...: spot 20..220, volatility 0.15..0.60, rate
   * 0..0.05.
   */
  static Dataset<Row> syntheticMarket(SparkSession spark, RiskSettings settings) {
    List<Row> rows = syntheticMarketRows(settings);
    StructType schema =
        new StructType(
            new StructField[] {
              DataTypes.createStructField("underlying", DataTypes.StringType, false),
              DataTypes.createStructField("spot", DataTypes.DoubleType, false),
              DataTypes.createStructField("volatility", DataTypes.DoubleType, false),
              DataTypes.createStructField("rate", DataTypes.DoubleType, false)
            });
    return spark.createDataFrame(rows, schema);
  }

  /** The rows of {@link #syntheticMarket}, seeded. */
  private static List<Row> syntheticMarketRows(RiskSettings settings) {
    Random random = new Random(settings.syntheticSeed());
    List<Row> rows = new ArrayList<>();
    for (int i = 0; i < settings.syntheticUnderlyings(); i++) {
      rows.add(
          RowFactory.create(
              String.format("U%04d", i),
              round2(20 + 200 * random.nextDouble()),
              round2(0.15 + 0.45 * random.nextDouble()),
              Math.rint(500 * random.nextDouble()) / 10_000));
    }
    return rows;
  }

  /**
   * Every pair of the synthetic underlyings (none without path-dependent contracts) with the
   * correlation of a one-factor model, b_i b_j rounded to 4 decimals, the loadings b_i 0..0.9
   * seeded: every 3 x 3 matrix of them is positive definite. The pairs are made by Spark, a range
   * over i x n + j kept where i < j, each loading looked up in a literal the tasks carry: as a list
   * of the driver's rows, the default 44,850 pairs were 1.3 MB that every task of a stage reading
   * them carried, and a join of the loadings' local frame with itself broadcast it, a Spark job.
   */
  static Dataset<Row> syntheticCorrelations(SparkSession spark, RiskSettings settings) {
    Random random = new Random(settings.syntheticSeed() + 1);
    int underlyings = settings.syntheticPathContracts() == 0 ? 0 : settings.syntheticUnderlyings();
    double[] loadings = new double[underlyings];
    for (int i = 0; i < underlyings; i++) {
      loadings[i] = 0.9 * random.nextDouble();
    }
    Column i = floor(col("id").divide(underlyings));
    Column j = col("id").mod(underlyings);
    Column b = lit(loadings);
    return spark
        .range((long) underlyings * underlyings)
        .where(i.lt(j))
        .select(
            format_string("U%04d", i.cast("int")).as("underlying1"),
            format_string("U%04d", j.cast("int")).as("underlying2"),
            rint(element_at(b, i.plus(1).cast("int"))
                    .multiply(element_at(b, j.plus(1).cast("int")))
                    .multiply(10_000))
                .divide(10_000)
                .as("correlation"));
  }

  private static double round2(double value) {
    return Math.rint(value * 100) / 100;
  }

  /**
   * Vanilla options 0..N-1, then path-dependent contracts N..N+P-1, whose fields are hashes of
   * (seed, field, id), so the portfolio is the same for any partitioning. An option: a book of
   * BOOK-01.., an underlying, a quantity of +-10..200, a strike 70%..130% of the spot, a maturity 1
   * week to 2 years out, a call or a put. Contract N+i is of kind i mod 3 (european,
   * discrete-barrier, daily-barrier): the European call or put like an option but 1 month to 2
   * years out; the barrier notes a quantity of +-1..10, three underlyings with reference levels
   * 90%..110% of their spots and a maturity of 1 to 5 years (discrete) or 30 to 91 days (daily).
   * Its partitions hold the rows in id order (two ranges' partitions, one after the other, no join:
   * a level's spot is {@link #syntheticMarket}'s, looked up by its underlying's index), so its rows
   * are numbered in id order without a sort ({@link #inFileOrder}).
   */
  static Dataset<Row> syntheticPortfolio(SparkSession spark, RiskSettings settings) {
    long seed = settings.syntheticSeed();
    Column book =
        concat(
            lit("BOOK-"),
            lpad(
                floor(uniform(seed, 1).multiply(settings.syntheticBooks())).plus(1).cast("string"),
                2,
                "0"));
    Column maturity =
        date_add(
            lit(java.sql.Date.valueOf(settings.valuationDate())),
            floor(uniform(seed, 6).multiply(723)).plus(7).cast("int"));
    Column callOrPut = when(uniform(seed, 7).lt(0.5), "call").otherwise("put");
    Column optionQuantity =
        floor(uniform(seed, 3).multiply(20))
            .plus(1)
            .multiply(10)
            .multiply(when(uniform(seed, 4).lt(0.3), -1.0).otherwise(1.0))
            .cast("double");
    Column noString = lit(null).cast("string");
    Column noNumber = lit(null).cast("double");
    Dataset<Row> vanilla =
        spark
            .range(0, settings.syntheticPositions(), 1, settings.partitions())
            .select(
                col("id"),
                book.as("book"),
                lit(VANILLA).as("instrument"),
                underlyingOf(seed, 2, settings).as("underlying"),
                optionQuantity.as("quantity"),
                uniform(seed, 5).multiply(0.6).plus(0.7).as("moneyness"),
                maturity.as("maturity"),
                callOrPut.as("type"),
                noString.as("underlying2"),
                noString.as("underlying3"),
                lit(1.0).as("moneyness2"),
                lit(1.0).as("moneyness3"));

    long first = settings.syntheticPositions();
    Column kind = col("id").minus(first).mod(3);
    Column european = kind.equalTo(0);
    Column date = lit(java.sql.Date.valueOf(settings.valuationDate()));
    Dataset<Row> contracts =
        spark
            .range(first, first + settings.syntheticPathContracts(), 1, settings.partitions())
            .select(
                col("id"),
                book.as("book"),
                when(european, PathContracts.Kind.EUROPEAN.instrument)
                    .when(kind.equalTo(1), PathContracts.Kind.DISCRETE_BARRIER.instrument)
                    .otherwise(PathContracts.Kind.DAILY_BARRIER.instrument)
                    .as("instrument"),
                underlyingOf(seed, 2, settings).as("underlying"),
                when(european, optionQuantity)
                    .otherwise(
                        floor(uniform(seed, 3).multiply(10))
                            .plus(1)
                            .multiply(when(uniform(seed, 4).lt(0.3), -1.0).otherwise(1.0))
                            .cast("double"))
                    .as("quantity"),
                when(european, uniform(seed, 5).multiply(0.6).plus(0.7))
                    .otherwise(uniform(seed, 5).multiply(0.2).plus(0.9))
                    .as("moneyness"),
                when(
                        european,
                        date_add(date, floor(uniform(seed, 6).multiply(700)).plus(30).cast("int")))
                    .when(
                        kind.equalTo(1),
                        date_add(
                            date, floor(uniform(seed, 6).multiply(1461)).plus(365).cast("int")))
                    .otherwise(
                        date_add(date, floor(uniform(seed, 6).multiply(62)).plus(30).cast("int")))
                    .as("maturity"),
                when(european, callOrPut).otherwise(noString).as("type"),
                when(european, noString)
                    .otherwise(underlyingOf(seed, 8, settings))
                    .as("underlying2"),
                when(european, noString)
                    .otherwise(underlyingOf(seed, 9, settings))
                    .as("underlying3"),
                uniform(seed, 10).multiply(0.2).plus(0.9).as("moneyness2"),
                uniform(seed, 11).multiply(0.2).plus(0.9).as("moneyness3"));

    Dataset<Row> positions = vanilla.unionByName(contracts);
    Column[] fields = {
      col("id"),
      col("book"),
      col("instrument"),
      col("underlying"),
      col("quantity"),
      null,
      col("maturity"),
      col("type"),
      col("underlying2"),
      col("underlying3"),
      null,
      null
    };
    // a level's spot is looked up in the market's spots, a literal the tasks carry: a join with the
    // market's local frame broadcast it, and Spark runs a job to collect a local frame it
    // broadcasts
    Column spots =
        lit(syntheticMarketRows(settings).stream().mapToDouble(row -> row.getDouble(1)).toArray());
    String[][] levels = {
      {"underlying", "moneyness", "strike"},
      {"underlying2", "moneyness2", "strike2"},
      {"underlying3", "moneyness3", "strike3"}
    };
    int[] underlyingFields = {2, 8, 9};
    int[] slots = {5, 10, 11};
    for (int i = 0; i < levels.length; i++) {
      Column spot =
          element_at(
              spots, underlyingIndex(seed, underlyingFields[i], settings).plus(1).cast("int"));
      fields[slots[i]] =
          when(col(levels[i][0]).isNull(), noNumber)
              .otherwise(round(spot.multiply(col(levels[i][1])), 2))
              .as(levels[i][2]);
    }
    return positions.select(fields);
  }

  /** One of the synthetic underlyings U0000.., from the hash of (seed, field, id). */
  private static Column underlyingOf(long seed, int field, RiskSettings settings) {
    return concat(lit("U"), lpad(underlyingIndex(seed, field, settings).cast("string"), 4, "0"));
  }

  /** The index of {@link #underlyingOf}'s underlying among the synthetic ones, 0 for U0000. */
  private static Column underlyingIndex(long seed, int field, RiskSettings settings) {
    return floor(uniform(seed, field).multiply(settings.syntheticUnderlyings()));
  }

  /** A uniform double in [0, 1) from the hash of (seed, field, id): 53 bits of xxhash64. */
  private static Column uniform(long seed, int field) {
    return xxhash64(lit(seed), lit(field), col("id"))
        .bitwiseAND(lit((1L << 53) - 1))
        .cast("double")
        .divide((double) (1L << 53));
  }

  /** The year fraction from the valuation date to a maturity: days / 365. */
  static Column years(Column maturity, LocalDate date) {
    return org.apache
        .spark
        .sql
        .functions
        .datediff(maturity, lit(java.sql.Date.valueOf(date)))
        .cast("double")
        .divide(365.0);
  }
}
