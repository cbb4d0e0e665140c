package dev.l0.jobs.risk;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.l0.jobs.JobSessions;
import dev.l0.kernels.exact.ExactFloatSum;
import dev.l0.kernels.exact.ExactSum;
import dev.l0.math.L0Math;
import java.awt.image.BufferedImage;
import java.io.ByteArrayOutputStream;
import java.io.File;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.time.LocalDate;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import javax.imageio.ImageIO;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.functions;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The risk batch on a real local[2] Spark, over a small portfolio written as CSV by the test: its
 * outputs against plain Java loops (StrictMath Black-Scholes and greeks, exact sums, VaR from the
 * sorted P&L), the same aggregates for 1, 2 and 4 partitions and other batch sizes, reruns,
 * locking, a killed writer, bad inputs and the report in headless Chromium.
 */
class RiskBatchJobTest {
  static final LocalDate DATE = LocalDate.of(2026, 11, 25);
  static final int POSITIONS = 240;
  static final String[] BOOKS = {"RATES-A", "EQ-B", "EQ-C"};
  static final double[] SPOTS = {100.0, 42.5, 250.0, 7.25};
  static final double[] VOLS = {0.2, 0.35, 0.15, 0.6};
  static final double[] RATES = {0.03, 0.01, 0.045, 0.0};

  static SparkSession spark;
  @TempDir static Path folder;
  static Path portfolio;
  static Path market;

  @BeforeAll
  static void start() throws IOException {
    spark =
        SparkSession.builder()
            .master("local[2]")
            .appName("RiskBatchJobTest")
            .config("spark.ui.enabled", "false")
            .config("spark.sql.shuffle.partitions", "2")
            .config("spark.sql.extensions", "dev.l0.spark.L0Extensions")
            .getOrCreate();
    portfolio = folder.resolve("portfolio.csv");
    market = folder.resolve("market.csv");
    Files.write(portfolio, portfolioLines());
    Files.write(market, marketLines());
  }

  @AfterAll
  static void stop() {
    spark.stop();
    SparkSession.clearActiveSession();
    SparkSession.clearDefaultSession();
  }

  static List<String> portfolioLines() {
    Random random = new Random(11);
    List<String> lines =
        new ArrayList<>(List.of("id,book,instrument,underlying,quantity,strike,maturity,type"));
    for (int i = 0; i < POSITIONS; i++) {
      int u = random.nextInt(SPOTS.length);
      lines.add(
          i
              + ","
              + BOOKS[random.nextInt(BOOKS.length)]
              + ",vanilla,U"
              + u
              + ","
              + (random.nextInt(41) - 20) * 5
              + ","
              + Math.rint(SPOTS[u] * (0.7 + 0.6 * random.nextDouble()) * 100) / 100
              + ","
              + DATE.plusDays(5 + random.nextInt(700))
              + ","
              + (random.nextBoolean() ? "call" : "put"));
    }
    return lines;
  }

  static List<String> marketLines() {
    List<String> lines = new ArrayList<>(List.of("underlying,spot,volatility,rate"));
    for (int u = 0; u < SPOTS.length; u++) {
      lines.add("U" + u + "," + SPOTS[u] + "," + VOLS[u] + "," + RATES[u]);
    }
    return lines;
  }

  /**
   * A config file of the test's small scenario grid and {@code lines}, whose keys replace the
   * grid's (a key given twice is a usage error).
   */
  static Path config(String name, String... lines) throws IOException {
    Path file = folder.resolve(name + ".properties");
    List<String> all = new ArrayList<>();
    for (String grid :
        List.of("risk.scenarios.spotShocks=-0.2:0.2:5", "risk.scenarios.volShocks=-0.1:0.1:4")) {
      String key = grid.substring(0, grid.indexOf('=') + 1);
      if (Arrays.stream(lines).noneMatch(line -> line.startsWith(key))) {
        all.add(grid);
      }
    }
    all.addAll(Arrays.asList(lines));
    Files.write(file, all);
    return file;
  }

  record Run(int exit, String out, String err) {}

  static Run run(Path out, Path portfolioFile, Path marketFile, String... configLines)
      throws IOException {
    return runWith(
        "--date",
        DATE.toString(),
        "--portfolio",
        portfolioFile.toString(),
        "--market",
        marketFile.toString(),
        "--out",
        out.toString(),
        "--config",
        config("run", configLines).toString());
  }

  /** The job on the test's Spark session with the command line {@code args}. */
  static Run runWith(String... args) {
    RiskSettings settings;
    try {
      settings = RiskSettings.parse(args);
    } catch (RiskSettings.UsageException e) {
      throw new AssertionError(e);
    }
    ByteArrayOutputStream stdout = new ByteArrayOutputStream();
    ByteArrayOutputStream stderr = new ByteArrayOutputStream();
    int exit =
        RiskBatchJob.run(
            spark,
            settings,
            new PrintStream(stdout, true, StandardCharsets.UTF_8),
            new PrintStream(stderr, true, StandardCharsets.UTF_8));
    return new Run(
        exit, stdout.toString(StandardCharsets.UTF_8), stderr.toString(StandardCharsets.UTF_8));
  }

  // ---- the independent computation: plain Java, StrictMath and L0Math.erf (fdlibm, as StrictMath
  // would be) ----

  static double ncdf(double x) {
    return 0.5 * (1.0 + L0Math.erf(x * 0.7071067811865476));
  }

  static double npdf(double x) {
    return 0.3989422804014327 * StrictMath.exp(-0.5 * x * x);
  }

  static double d1(double s, double k, double t, double r, double v) {
    return (StrictMath.log(s / k) + (r + 0.5 * v * v) * t) / (v * StrictMath.sqrt(t));
  }

  static double price(boolean call, double s, double k, double t, double r, double v) {
    double d1 = d1(s, k, t, r, v);
    double d2 = d1 - v * StrictMath.sqrt(t);
    double discounted = k * StrictMath.exp(-r * t);
    return call ? s * ncdf(d1) - discounted * ncdf(d2) : discounted * ncdf(-d2) - s * ncdf(-d1);
  }

  /** price, delta, gamma, vega, theta, rho. */
  static double[] greeks(boolean call, double s, double k, double t, double r, double v) {
    double sqrtT = StrictMath.sqrt(t);
    double d1 = d1(s, k, t, r, v);
    double d2 = d1 - v * sqrtT;
    double discounted = k * StrictMath.exp(-r * t);
    double density = npdf(d1);
    double gamma = density / (s * v * sqrtT);
    double vega = s * density * sqrtT;
    double decay = -(s * density * v) / (2.0 * sqrtT);
    return call
        ? new double[] {
          s * ncdf(d1) - discounted * ncdf(d2),
          ncdf(d1),
          gamma,
          vega,
          decay - r * discounted * ncdf(d2),
          t * discounted * ncdf(d2)
        }
        : new double[] {
          discounted * ncdf(-d2) - s * ncdf(-d1),
          ncdf(d1) - 1.0,
          gamma,
          vega,
          decay + r * discounted * ncdf(-d2),
          -(t * discounted * ncdf(-d2))
        };
  }

  /**
   * The batch's own Spark SQL settings yield to the user's: this session gives {@code
   * spark.sql.shuffle.partitions} (2), which stays, and not the ICU case mappings, which the batch
   * turns off (Spark's ICU mapping builds a title-case table over all of Unicode on first use).
   */
  @Test
  void theBatchsSessionSettingsYieldToTheUsersSparkConfiguration() throws Exception {
    String icu = "spark.sql.icu.caseMappings.enabled";
    RiskSettings settings =
        RiskSettings.parse(
            new String[] {"--config", config("session", "risk.partitions=7").toString()});
    try {
      RiskBatchJob.sessionDefaults(spark, settings);
      assertEquals("2", spark.conf().get("spark.sql.shuffle.partitions"));
      assertEquals("false", spark.conf().get(icu));
      assertEquals(
          "european",
          spark.sql("SELECT lower(trim(' EUROPEAN ')) AS k").first().getString(0),
          "keywords read in any case without ICU");
    } finally {
      spark.conf().unset(icu);
    }
  }

  @Test
  void outputsEqualAnIndependentComputationAndDoNotDependOnPartitioning() throws Exception {
    Path out = folder.resolve("out-exact");
    Run first = run(out, portfolio, market, "risk.partitions=2");
    assertEquals(0, first.exit(), first.err());
    assertTrue(first.out().contains("risk-batch: book aggregates: 3 books in "), first.out());
    assertTrue(
        first
            .out()
            .contains(
                "report "
                    + out.toAbsolutePath()
                        .resolve("report/valuation_date=2026-11-25/report.html")));

    // the documented grid: FROM + (TO - FROM) * i / (COUNT - 1), the ends exactly FROM and TO
    double[] spotShocks = {-0.2, -0.2 + 0.4 * 1 / 4, -0.2 + 0.4 * 2 / 4, -0.2 + 0.4 * 3 / 4, 0.2};
    double[] volShocks = {-0.1, -0.1 + 0.2 * 1 / 3, -0.1 + 0.2 * 2 / 3, 0.1};
    Map<String, double[]> market = new HashMap<>();
    for (int u = 0; u < SPOTS.length; u++) {
      market.put("U" + u, new double[] {SPOTS[u], VOLS[u], RATES[u]});
    }
    Map<String, ExactSum[]> bookSums = new TreeMap<>();
    Map<String, ExactFloatSum> bookPnl = new TreeMap<>();
    Map<Long, double[]> expectedGreeks = new HashMap<>();
    Map<Long, double[]> expectedPnl = new HashMap<>();
    for (String line : portfolioLines().subList(1, POSITIONS + 1)) {
      String[] f = line.split(",");
      double[] m = market.get(f[3]);
      double quantity = Double.parseDouble(f[4]);
      double strike = Double.parseDouble(f[5]);
      double years = ChronoUnit.DAYS.between(DATE, LocalDate.parse(f[6])) / 365.0;
      boolean call = f[7].equals("call");
      double[] g = greeks(call, m[0], strike, years, m[2], m[1]);
      double today = price(call, m[0], strike, years, m[2], m[1]);
      double[] pnl = new double[spotShocks.length * volShocks.length];
      for (int s = 0; s < pnl.length; s++) {
        pnl[s] =
            quantity
                * (price(
                        call,
                        m[0] * (1.0 + spotShocks[s / volShocks.length]),
                        strike,
                        years,
                        m[2],
                        m[1] + volShocks[s % volShocks.length])
                    - today);
      }
      long id = Long.parseLong(f[0]);
      expectedGreeks.put(id, g);
      expectedPnl.put(id, pnl);
      ExactSum[] sums =
          bookSums.computeIfAbsent(
              f[1], b -> Stream.generate(ExactSum::new).limit(6).toArray(ExactSum[]::new));
      for (int i = 0; i < 6; i++) {
        sums[i].add(quantity * g[i]);
      }
      bookPnl.computeIfAbsent(f[1], b -> new ExactFloatSum()).addElementWise(pnl);
    }

    List<Row> positions = spark.read().parquet(out.resolve("positions").toString()).collectAsList();
    assertEquals(POSITIONS, positions.size());
    for (Row row : positions) {
      long id = row.getAs("id");
      double[] g = expectedGreeks.get(id);
      for (int i = 0; i < RiskComputation.GREEKS.length; i++) {
        assertEquals(
            g[i],
            (double) row.getAs(RiskComputation.GREEKS[i]),
            0.0,
            RiskComputation.GREEKS[i] + " of position " + id);
      }
      assertArrayEquals(
          expectedPnl.get(id),
          row.getList(row.fieldIndex("pnl")).stream().mapToDouble(x -> (Double) x).toArray(),
          0.0,
          "P&L of " + id);
      assertEquals(
          LocalDate.of(2026, 11, 25), ((java.sql.Date) row.getAs("valuation_date")).toLocalDate());
    }
    List<Row> books =
        spark.read().parquet(out.resolve("books").toString()).orderBy("name").collectAsList();
    assertEquals(
        new ArrayList<>(bookSums.keySet()), books.stream().map(r -> r.getString(0)).toList());
    for (Row book : books) {
      ExactSum[] sums = bookSums.get(book.getString(0));
      for (int i = 0; i < RiskComputation.FIGURES.length; i++) {
        assertEquals(
            sums[i].value(),
            (double) book.getAs(RiskComputation.FIGURES[i]),
            0.0,
            RiskComputation.FIGURES[i]);
      }
      double[] losses =
          Arrays.stream(bookPnl.get(book.getString(0)).values()).map(p -> -p).sorted().toArray();
      assertEquals(
          losses[19], (double) book.getAs("var"), 0.0, "VaR 99% of 20 scenarios is the worst loss");
      assertEquals(
          losses[19],
          (double) book.getAs("expected_shortfall"),
          0.0,
          "ES 97.5% of 20 scenarios is the worst loss");
    }

    List<Row> expectedBooks =
        spark.read().parquet(out.resolve("books").toString()).orderBy("name").collectAsList();
    List<Row> expectedScenarios =
        spark
            .read()
            .parquet(out.resolve("scenario_pnl").toString())
            .orderBy("name", "scenario")
            .collectAsList();
    for (String[] variant : List.of(new String[] {"1", "1048576"}, new String[] {"4", "7"})) {
      spark.conf().set("spark.l0.batchRows", variant[1]);
      Path other = folder.resolve("out-" + variant[0]);
      Run again = run(other, portfolio, RiskBatchJobTest.market, "risk.partitions=" + variant[0]);
      assertEquals(0, again.exit(), again.err());
      assertEquals(
          expectedBooks,
          spark.read().parquet(other.resolve("books").toString()).orderBy("name").collectAsList(),
          "books with " + variant[0] + " partitions, batchRows " + variant[1]);
      assertEquals(
          expectedScenarios,
          spark
              .read()
              .parquet(other.resolve("scenario_pnl").toString())
              .orderBy("name", "scenario")
              .collectAsList());
    }
    spark.conf().unset("spark.l0.batchRows");

    reportRendersInChromium(out.resolve("report/valuation_date=2026-11-25/report.html"));
  }

  @Test
  void aSmallSyntheticRunValuesEveryPositionWithGreeksAndSumsThemExactly() throws Exception {
    Path out = folder.resolve("out-synthetic");
    Run run =
        runWith(
            "--date",
            DATE.toString(),
            "--out",
            out.toString(),
            "--config",
            config(
                    "synthetic",
                    "risk.synthetic.positions=60",
                    "risk.synthetic.pathContracts=6",
                    "risk.synthetic.underlyings=5",
                    "risk.synthetic.books=3",
                    "risk.mc.paths=32",
                    "risk.partitions=2")
                .toString());
    assertEquals(0, run.exit(), run.err());
    assertTrue(
        run.out()
            .contains(
                "risk-batch: read and validate inputs: synthetic portfolio, synthetic market,"
                    + " synthetic correlations in "),
        run.out());
    List<Row> positions = spark.read().parquet(out.resolve("positions").toString()).collectAsList();
    assertEquals(66, positions.size());
    ExactSum[] sums = Stream.generate(ExactSum::new).limit(6).toArray(ExactSum[]::new);
    for (Row row : positions) {
      String instrument = row.getAs("instrument");
      double quantity = row.getAs("quantity");
      sums[0].add((double) row.getAs("pv"));
      for (int g = 1; g < RiskComputation.GREEKS.length; g++) {
        String greek = RiskComputation.GREEKS[g];
        assertFalse(row.isNullAt(row.fieldIndex(greek)), greek + " of " + row);
        assertTrue(Double.isFinite(row.getAs(greek)), greek + " of " + row);
        sums[g].add(quantity * (double) row.getAs(greek));
      }
      if (instrument.equals(RiskInputs.VANILLA)) {
        double[] expected =
            greeks(
                row.getAs("call"),
                row.getAs("spot"),
                row.getAs("strike"),
                row.getAs("years"),
                row.getAs("rate"),
                row.getAs("volatility"));
        for (int g = 0; g < expected.length; g++) {
          assertEquals(
              expected[g],
              (double) row.getAs(RiskComputation.GREEKS[g]),
              0.0,
              RiskComputation.GREEKS[g] + " of " + row);
        }
      } else if (!instrument.equals("european")) {
        for (String[] pair : RiskInputs.CORRELATION_PAIRS) {
          double rho = row.getAs(pair[0]);
          assertTrue(
              row.getAs(pair[1]).equals(row.getAs(pair[2])) ? rho == 1.0 : rho >= 0 && rho < 0.81,
              "a one-factor correlation " + pair[0] + " of " + row);
        }
      }
    }
    Row portfolioRow = spark.read().parquet(out.resolve("portfolio").toString()).first();
    for (int i = 0; i < RiskComputation.FIGURES.length; i++) {
      assertEquals(
          sums[i].value(),
          (double) portfolioRow.getAs(RiskComputation.FIGURES[i]),
          0.0,
          "the portfolio's " + RiskComputation.FIGURES[i]);
    }
  }

  /**
   * The synthetic correlations are the one-factor model's b_i b_j rounded to 4 decimals for every
   * pair, bit for bit as a loop over the seeded loadings gives them, and Spark makes the pairs: the
   * query's local data is the loadings, not the pairs (as a list of the driver's rows the default
   * 44,850 pairs were 1.3 MB carried by every task).
   */
  @Test
  void theSyntheticCorrelationsAreEveryPairsOneFactorValueMadeBySpark() throws Exception {
    int underlyings = 7;
    RiskSettings settings =
        RiskSettings.parse(
            new String[] {
              "--config",
              config(
                      "synthetic-correlations",
                      "risk.synthetic.underlyings=" + underlyings,
                      "risk.synthetic.pathContracts=3")
                  .toString()
            });
    Random random = new Random(settings.syntheticSeed() + 1);
    double[] loadings = new double[underlyings];
    for (int i = 0; i < underlyings; i++) {
      loadings[i] = 0.9 * random.nextDouble();
    }
    List<String> expected = new ArrayList<>();
    for (int i = 0; i < underlyings; i++) {
      for (int j = i + 1; j < underlyings; j++) {
        double correlation = Math.rint(loadings[i] * loadings[j] * 10_000) / 10_000;
        expected.add(String.format("U%04d U%04d %x", i, j, Double.doubleToLongBits(correlation)));
      }
    }
    org.apache.spark.sql.Dataset<Row> correlations =
        RiskInputs.syntheticCorrelations(spark, settings);
    List<String> actual =
        correlations.collectAsList().stream()
            .map(
                r ->
                    r.getString(0)
                        + " "
                        + r.getString(1)
                        + " "
                        + Long.toHexString(Double.doubleToLongBits(r.getDouble(2))))
            .sorted()
            .toList();
    assertEquals(expected, actual);
    long localRows =
        scala.jdk.javaapi.CollectionConverters.asJava(
                correlations.queryExecution().analyzed().collectLeaves())
            .stream()
            .filter(org.apache.spark.sql.catalyst.plans.logical.LocalRelation.class::isInstance)
            .mapToLong(
                leaf ->
                    ((org.apache.spark.sql.catalyst.plans.logical.LocalRelation) leaf)
                        .data()
                        .size())
            .sum();
    assertEquals(0L, localRows, "pairs from a range, the loadings a literal: no local frame");
  }

  @Test
  void aRerunReplacesTheDateAndAConcurrentRunIsRefused() throws Exception {
    Path out = folder.resolve("out-rerun");
    assertEquals(0, run(out, portfolio, market).exit());
    Map<String, String> before = digests(out.resolve("books"));
    Run rerun = run(out, portfolio, market);
    assertEquals(0, rerun.exit(), rerun.err());
    assertEquals(before, digests(out.resolve("books")));
    assertEquals(POSITIONS, spark.read().parquet(out.resolve("positions").toString()).count());
    try (Stream<Path> staging = Files.list(out.resolve("_staging"))) {
      assertEquals(List.of(), staging.toList(), "no staging folder is left");
    }

    try (RiskStore held = RiskStore.open(out, DATE)) {
      Run refused = run(out, portfolio, market);
      assertEquals(RiskBatchJob.EXIT_LOCKED, refused.exit());
      assertTrue(
          refused.err().contains("another risk-batch run of 2026-11-25 is running"), refused.err());
      assertFalse(
          refused.out().contains("read and validate inputs"),
          () -> "refused before reading its inputs: " + refused.out());
    }
    assertEquals(before, digests(out.resolve("books")));
  }

  /**
   * Book names are trimmed as the other names are (" EQ-B" and "EQ-B " are one book: they were
   * two); books whose names differ only where a file name cannot ("A/B", "A_B") get a chart each
   * (they shared one); and input files whose names Hadoop reads as glob patterns are read as those
   * files (they were "not found").
   */
  @Test
  void oddBookAndFileNamesKeepEveryBookApart() throws Exception {
    Path odd = Files.createDirectories(folder.resolve("odd names"));
    Path marketFile = Files.write(odd.resolve("market [1].csv"), marketLines());
    Path portfolioFile =
        Files.write(
            odd.resolve("portfolio{a,b}*.csv"),
            List.of(
                "id,book,instrument,underlying,quantity,strike,maturity,type",
                "1,A/B,vanilla,U0,10,40," + DATE.plusDays(100) + ",call",
                "2,A_B,vanilla,U1,5,40," + DATE.plusDays(200) + ",put",
                "3, EQ-B,vanilla,U2,-5,40," + DATE.plusDays(300) + ",call",
                "4,EQ-B ,vanilla,U0,7,40," + DATE.plusDays(400) + ",put"));
    Path out = folder.resolve("out-odd");
    Run run = run(out, portfolioFile, marketFile);
    assertEquals(0, run.exit(), run.err());
    Path report = out.resolve("report").resolve("valuation_date=" + DATE);
    JsonNode summary = new ObjectMapper().readTree(report.resolve("summary.json").toFile());
    List<String> books = new ArrayList<>();
    summary
        .get("books")
        .forEach(
            book -> books.add(book.get("name").asText() + " " + book.get("positions").asLong()));
    assertEquals(List.of("A/B 1", "A_B 1", "EQ-B 2"), books);
    assertEquals(4, summary.get("portfolio").get("positions").asLong());
    try (Stream<Path> files = Files.list(report)) {
      assertEquals(
          List.of("pnl-A_B-2.png", "pnl-A_B.png", "pnl-EQ-B.png", "pnl-PORTFOLIO.png"),
          files
              .map(file -> file.getFileName().toString())
              .filter(name -> name.endsWith(".png"))
              .sorted()
              .toList());
    }
  }

  /**
   * Every book gets a chart file of its own where a file system ignores case (macOS's, Windows'):
   * "Portfolio" and "portfolio" get two besides the whole portfolio's pnl-PORTFOLIO.png, and a book
   * name longer than a file name may be is cut (a 300-character book failed the run writing its
   * chart).
   */
  @Test
  void booksWhoseNamesDifferInCaseOrAreLongGetAChartFileEach() throws Exception {
    String longBook = "Q".repeat(300);
    Path portfolioFile =
        Files.write(
            folder.resolve("portfolio-cases.csv"),
            List.of(
                "id,book,instrument,underlying,quantity,strike,maturity,type",
                "1,Portfolio,vanilla,U0,10,40," + DATE.plusDays(100) + ",call",
                "2,portfolio,vanilla,U1,5,40," + DATE.plusDays(200) + ",put",
                "3," + longBook + ",vanilla,U2,-5,40," + DATE.plusDays(300) + ",call",
                "4,"
                    + longBook.toLowerCase(Locale.ROOT)
                    + ",vanilla,U0,7,40,"
                    + DATE.plusDays(400)
                    + ",put"));
    Path marketFile = Files.write(folder.resolve("market-cases.csv"), marketLines());
    Path out = folder.resolve("out-cases");
    Run run = run(out, portfolioFile, marketFile);
    assertEquals(0, run.exit(), run.err());
    Path report = out.resolve("report").resolve("valuation_date=" + DATE);
    List<String> charts;
    try (Stream<Path> files = Files.list(report)) {
      charts =
          files
              .map(file -> file.getFileName().toString())
              .filter(name -> name.endsWith(".png"))
              .toList();
    }
    assertEquals(5, charts.size(), charts.toString());
    assertTrue(charts.contains("pnl-PORTFOLIO.png"), "the whole portfolio's keeps its name");
    assertEquals(
        5,
        charts.stream().map(name -> name.toLowerCase(Locale.ROOT)).distinct().count(),
        charts.toString());
    for (String chart : charts) {
      assertTrue(chart.length() <= 120, chart);
    }
    String html = Files.readString(report.resolve("report.html"));
    for (String chart : charts) {
      assertTrue(html.contains("src=\"" + chart + "\""), chart);
    }
  }

  /**
   * An output folder that cannot be created failed only after Spark started and every input was
   * read, as a failed run with a stack trace: it is a usage error before Spark starts.
   */
  @Test
  void anOutputFolderThatCannotBeCreatedIsAUsageError() {
    Path out = Path.of("/proc/l0-risk-out");
    Assumptions.assumeTrue(
        Files.isDirectory(Path.of("/proc")), "needs /proc, where no folder can be made");
    ByteArrayOutputStream stderr = new ByteArrayOutputStream();
    int exit =
        RiskBatchJob.run(
            new String[] {"--out", out.toString()},
            new PrintStream(new ByteArrayOutputStream(), true, StandardCharsets.UTF_8),
            new PrintStream(stderr, true, StandardCharsets.UTF_8));
    String err = stderr.toString(StandardCharsets.UTF_8);
    assertEquals(RiskBatchJob.EXIT_USAGE, exit, err);
    assertTrue(err.startsWith("risk-batch: risk.out: cannot create the folder " + out + ": "), err);
    assertEquals(1, err.lines().count(), err);
  }

  @Test
  void eachBadInputNamesFileColumnAndRowAndWritesNothing() throws Exception {
    String file = folder.resolve("bad.csv").toString();
    assertBadInput(
        portfolio,
        lines(marketLines(), 2, "U1,42.5,-0.35,0.01"),
        file + ": row 2, column 'volatility': negative volatility -0.35");
    assertBadInput(
        lines(portfolioLines(), 4, "3,EQ-B,vanilla,U9,10,40,2027-01-01,call"),
        market,
        file + ": row 4, column 'underlying': unknown underlying 'U9' (not in " + market + ")");
    assertBadInput(
        lines(portfolioLines(), 7, "6,EQ-B,vanilla,U1,,40,2027-01-01,call"),
        market,
        file + ": row 7, column 'quantity': null");
    assertBadInput(
        lines(portfolioLines(), 4, "2,EQ-B,vanilla,U1,10,40,2027-01-01,call"),
        market,
        file + ": row 4, column 'id': 2 appears again (position ids are unique)");
    assertBadInput(
        lines(portfolioLines(), 3, "2, PORTFOLIO ,vanilla,U1,10,40,2027-01-01,call"),
        market,
        file
            + ": row 3, column 'book': 'PORTFOLIO' names the whole portfolio in the outputs; a"
            + " book may not be called so");
    Path empty = Files.write(folder.resolve("empty.csv"), new byte[0]);
    assertBadInput(
        empty,
        market,
        empty
            + ": empty (no header row; the columns are id, book, instrument, underlying, quantity,"
            + " strike, maturity, type)");
    Path colon = Files.copy(market, folder.resolve("market:eod.csv"));
    assertBadInput(
        portfolio,
        colon,
        colon
            + ": Spark's (Hadoop's) file reader cannot read a path with ':' in it; rename the file"
            + " or give a link to it without one");
    List<String> twiceU1 = new ArrayList<>(marketLines());
    twiceU1.add("U1,43.0,0.3,0.01");
    assertBadInput(
        portfolio,
        write(twiceU1),
        file
            + ": row 5, column 'underlying': 'U1' appears again (each underlying has one market"
            + " row)");
    List<String> noVolatility =
        marketLines().stream()
            .map(
                l ->
                    l.substring(0, l.lastIndexOf(',', l.lastIndexOf(',') - 1))
                        + l.substring(l.lastIndexOf(',')))
            .toList();
    assertBadInput(
        portfolio,
        write(noVolatility),
        file + ": missing column 'volatility' (columns: underlying, spot, rate)");
  }

  /**
   * A value that is not a number or a date is bad input at its row and column under Spark's ANSI
   * casts (the default since Spark 4), which throw where a cast fails: not a run that fails with
   * Spark's CAST_INVALID_INPUT (exit 1); so is a number with Java's type suffix ({@code 10d}),
   * which Spark's cast read as 10. With and without the barrier columns, whose checks Spark
   * evaluates differently.
   */
  @Test
  void aValueThatIsNotANumberOrADateIsBadInputAtItsRowAndColumn() throws Exception {
    String file = folder.resolve("bad.csv").toString();
    List<String> withBarrierColumns = new ArrayList<>(List.of(PATH_HEADER));
    portfolioLines().stream().skip(1).map(l -> l + ",,,,").forEach(withBarrierColumns::add);
    for (List<String> lines : List.of(portfolioLines(), withBarrierColumns)) {
      String tail = lines == withBarrierColumns ? ",,,," : "";
      assertBadInput(
          lines(lines, 3, "2,EQ-B,vanilla,U1,ten,40,2027-01-01,call" + tail),
          market,
          file + ": row 3, column 'quantity': 'ten' is not a double");
      assertBadInput(
          lines(lines, 4, "3,EQ-B,vanilla,U1,10d,40,2027-01-01,call" + tail),
          market,
          file + ": row 4, column 'quantity': '10d' is not a double");
      assertBadInput(
          lines(lines, 5, "4,EQ-B,vanilla,U1,10,40,2027-02-30,call" + tail),
          market,
          file + ": row 5, column 'maturity': '2027-02-30' is not a date");
      assertBadInput(
          lines(lines, 5, "4,EQ-B,vanilla,U1,10,40,2027-02-03T10:00:00,call" + tail),
          market,
          file + ": row 5, column 'maturity': '2027-02-03T10:00:00' is not a date");
      assertBadInput(
          lines(lines, 2, "1.5,EQ-B,vanilla,U1,10,40,2027-01-01,call" + tail),
          market,
          file + ": row 2, column 'id': '1.5' is not a bigint");
    }
    assertBadInput(
        portfolio,
        lines(marketLines(), 3, "U2,n/a,0.3,0.01"),
        file + ": row 3, column 'spot': 'n/a' is not a double");
  }

  /**
   * A CSV record with fewer or more fields than the header is bad input at its row, with its text:
   * not a failed read (Spark's MALFORMED_RECORD_IN_PARSING, exit 1).
   */
  @Test
  void aRecordWhoseFieldsDoNotMatchTheHeaderIsBadInputAtItsRow() throws Exception {
    String file = folder.resolve("bad.csv").toString();
    assertBadInput(
        lines(portfolioLines(), 4, "3,EQ-B,vanilla,U1,10,40,2027-01-01"),
        market,
        file
            + ": row 4: its fields do not match the header's 8 columns:"
            + " '3,EQ-B,vanilla,U1,10,40,2027-01-01'");
    assertBadInput(
        portfolio,
        lines(marketLines(), 2, "U1,42.5,0.35,0.01,7"),
        file + ": row 2: its fields do not match the header's 4 columns: 'U1,42.5,0.35,0.01,7'");
  }

  /**
   * A column named twice in a CSV header is bad input saying so: Spark renames such columns after
   * their positions, and the run said the column was missing among {@code strike5} and {@code
   * strike8}.
   */
  @Test
  void aColumnTwiceInTheHeaderIsBadInputNamingIt() throws Exception {
    List<String> twice = new ArrayList<>();
    for (String line : portfolioLines()) {
      twice.add(line + "," + (line.startsWith("id,") ? "Strike" : "5"));
    }
    assertBadInput(
        write(twice),
        market,
        folder.resolve("bad.csv")
            + ": column 'strike' is named 2 times in the header (columns 6 and 9)");
  }

  /**
   * A name of only blanks (a quoted CSV field, text in Parquet) is bad input as a null is: names
   * are trimmed, so a book {@code " "} became a book with no name, and an underlying {@code " "}
   * matched a market row of {@code " "}.
   */
  @Test
  void aBlankNameIsBadInputAtItsRowAndColumn() throws Exception {
    String file = folder.resolve("bad.csv").toString();
    assertBadInput(
        lines(portfolioLines(), 3, "2,\" \",vanilla,U1,10,40,2027-01-01,call"),
        market,
        file + ": row 3, column 'book': blank");
    assertBadInput(
        portfolio,
        lines(marketLines(), 2, "\"  \",42.5,0.35,0.01"),
        file + ": row 2, column 'underlying': blank");
  }

  /**
   * A portfolio file with a header and no rows is bad input: not a run that fails computing the VaR
   * of no scenario P&L (exit 1).
   */
  @Test
  void aPortfolioWithNoPositionsIsBadInput() throws Exception {
    assertBadInput(
        write(portfolioLines().subList(0, 1)),
        market,
        folder.resolve("bad.csv") + ": no positions (the file has no rows)");
  }

  /**
   * A market file with a header and no rows is bad input naming it: the run named the portfolio's
   * first row, whose underlying was not in the market.
   */
  @Test
  void aMarketWithNoRowsIsBadInputNamingIt() throws Exception {
    Path noRows = write(marketLines().subList(0, 1));
    assertBadInput(portfolio, noRows, noRows + ": no market rows (the file has no rows)");
  }

  /**
   * An infinite volatility is bad input, as an infinite spot is: not prices of NaN that fail the
   * run when the report draws them (exit 1).
   */
  @Test
  void anInfiniteVolatilityIsBadInput() throws Exception {
    assertBadInput(
        portfolio,
        lines(marketLines(), 2, "U1,42.5,Infinity,0.01"),
        folder.resolve("bad.csv")
            + ": row 2, column 'volatility': volatility must be finite, is Infinity");
  }

  /**
   * A finite volatility of 1e200 is bad input: Black-Scholes' v * v overflowed, and a call was
   * valued at spot - discounted strike and a put at 0 without a word.
   */
  @Test
  void aVolatilityAboveTheLargestTheJobValuesIsBadInput() throws Exception {
    assertBadInput(
        portfolio,
        lines(marketLines(), 2, "U1,42.5,1e200,0.01"),
        folder.resolve("bad.csv")
            + ": row 2, column 'volatility': volatility 1.0E200 is above 100.0 (10,000% a year),"
            + " the most the job values; a volatility is a fraction per year, 0.2 for 20%");
  }

  /**
   * Inputs that pass their checks but value a position at infinity (a quantity of 1e308 times a
   * price) are bad input naming the position, and nothing is written: not a run that fails when the
   * report draws the infinite P&L (exit 1, JFreeChart's 'Must be finite.').
   */
  @Test
  void aValuationThatIsNotFiniteIsBadInputNamingThePosition() throws Exception {
    Path out = folder.resolve("out-not-finite");
    Run run =
        run(out, lines(portfolioLines(), 3, "2,EQ-B,vanilla,U1,1e308,40,2027-01-01,call"), market);
    assertEquals(RiskBatchJob.EXIT_BAD_INPUT, run.exit(), run.err());
    String prefix =
        "risk-batch: bad input: "
            + folder.resolve("bad.csv")
            + ": id 2: its valuation is not finite: PV Infinity (quantity 1.0E308, price ";
    assertTrue(run.err().startsWith(prefix), run.err());
    assertTrue(run.err().endsWith(")\nrisk-batch: nothing written\n"), run.err());
    assertNothingWritten(out);
    // only the gamma x quantity of a short at-the-money option on a spot of 0.01 is infinite: the
    // run said the portfolio's sums added up past the largest double, naming no position
    List<String> lowSpot = new ArrayList<>(marketLines());
    lowSpot.add("U9,0.01,0.2,0.0");
    Run gamma =
        run(
            out,
            lines(
                portfolioLines(), 4, "3,EQ-B,vanilla,U9,1e306,0.01," + DATE.plusDays(5) + ",call"),
            Files.write(folder.resolve("low-spot.csv"), lowSpot));
    assertEquals(RiskBatchJob.EXIT_BAD_INPUT, gamma.exit(), gamma.err());
    assertTrue(
        gamma
            .err()
            .startsWith(
                "risk-batch: bad input: "
                    + folder.resolve("bad.csv")
                    + ": id 3: its valuation is not finite: gamma x quantity Infinity (quantity"
                    + " 1.0E306, price "),
        gamma.err());
    assertNothingWritten(out);
  }

  /**
   * Finite positions whose exact sums pass the largest double are bad input naming the position
   * with the largest value: the exact sum's overflow failed the run (exit 1) with a stack trace.
   * Where a position's value is also infinite, that position is named.
   */
  @Test
  void positionsWhoseSumsPassTheLargestDoubleAreBadInputNamingTheLargest() throws Exception {
    Path out = folder.resolve("out-overflow");
    String maturity = DATE.plusDays(365).toString();
    List<String> huge = new ArrayList<>(portfolioLines().subList(0, 1));
    huge.add("1,EQ-B,vanilla,U0,3e306,100," + maturity + ",call");
    huge.add("2,EQ-B,vanilla,U0,3.2e306,100," + maturity + ",call");
    huge.add("3,EQ-B,vanilla,U0,3e306,100," + maturity + ",call");
    Run run = run(out, write(huge), market);
    assertEquals(RiskBatchJob.EXIT_BAD_INPUT, run.exit(), run.err());
    // of a one-year at-the-money call on 100, rho (about 50) is the largest figure
    double[] g = greeks(true, SPOTS[0], 100, 1.0, RATES[0], VOLS[0]);
    assertEquals(
        "risk-batch: bad input: "
            + folder.resolve("bad.csv")
            + ": the exact sums of the positions' values pass the largest double ("
            + Double.MAX_VALUE
            + "); the largest: id 2: rho x quantity "
            + 3.2e306 * g[5]
            + " (quantity 3.2E306, price "
            + g[0]
            + ")\nrisk-batch: nothing written\n",
        run.err());
    assertNothingWritten(out);
    huge.set(1, "1,EQ-B,vanilla,U0,4e306,100," + maturity + ",call");
    run = run(out, write(huge), market);
    assertEquals(
        "risk-batch: bad input: "
            + folder.resolve("bad.csv")
            + ": id 1: its valuation is not finite: rho x quantity Infinity (quantity 4.0E306,"
            + " price "
            + g[0]
            + ")\nrisk-batch: nothing written\n",
        run.err());
    assertNothingWritten(out);
  }

  /**
   * A Parquet maturity of type timestamp, an instant, was cast to the date of the Spark session's
   * time zone: the same file gave other maturities and prices in New York than in UTC. It is bad
   * input naming the column; a date or a timestamp without time zone (at midnight) values the same
   * in every session time zone, as the CSV file does.
   */
  @Test
  void aTimestampMaturityIsBadInputAndDatesValueTheSameInEveryTimeZone() throws Exception {
    Dataset<Row> csv = spark.read().option("header", "true").csv(portfolio.toString());
    String zone = spark.conf().get("spark.sql.session.timeZone");
    Path instant = folder.resolve("instant-maturity.parquet");
    Path local = folder.resolve("local-maturity.parquet");
    Path late = folder.resolve("late-maturity.parquet");
    try {
      spark.conf().set("spark.sql.session.timeZone", "UTC");
      csv.withColumn("maturity", functions.to_timestamp(functions.col("maturity")))
          .write()
          .parquet(instant.toString());
      csv.withColumn("maturity", functions.to_timestamp_ntz(functions.col("maturity")))
          .write()
          .parquet(local.toString());
      csv.withColumn(
              "maturity",
              functions.to_timestamp_ntz(
                  functions
                      .when(functions.col("id").equalTo("2"), functions.lit("2027-01-01 10:00:00"))
                      .otherwise(functions.col("maturity"))))
          .write()
          .parquet(late.toString());
      Map<String, String> pv = new TreeMap<>();
      Path csvOut = folder.resolve("out-zone-csv");
      assertEquals(0, run(csvOut, portfolio, market).exit());
      String expected = portfolioPv(csvOut);
      for (String sessionZone : new String[] {"UTC", "America/New_York"}) {
        spark.conf().set("spark.sql.session.timeZone", sessionZone);
        assertBadInput(
            instant,
            market,
            instant
                + ": column 'maturity' has type timestamp, an instant whose date depends on the"
                + " time zone it is read in (the run's would decide the maturities); write it as a"
                + " date (or a timestamp without time zone at midnight)");
        assertBadInput(
            late, market, late + ": row 3, column 'maturity': '2027-01-01 10:00:00' is not a date");
        Path out = folder.resolve("out-zone-" + sessionZone.replace('/', '-'));
        Run run = run(out, local, market);
        assertEquals(0, run.exit(), run.err());
        pv.put(sessionZone, portfolioPv(out));
      }
      assertEquals(Map.of("America/New_York", expected, "UTC", expected), pv);
    } finally {
      spark.conf().set("spark.sql.session.timeZone", zone);
    }
  }

  /** The portfolio PV of the summary a run wrote in {@code out}, as its JSON writes it. */
  static String portfolioPv(Path out) throws IOException {
    return new ObjectMapper()
        .readTree(out.resolve("report/valuation_date=" + DATE + "/summary.json").toFile())
        .get("portfolio")
        .get("pv")
        .asText();
  }

  /**
   * A barrier column given on an option's row (an underlying2, a strike3) is bad input at its row
   * and column, as a type on a barrier note's row is: it was ignored without a word.
   */
  @Test
  void aBarrierColumnGivenOnAnOptionsRowIsBadInput() throws Exception {
    String file = folder.resolve("bad.csv").toString();
    List<String> withBarrierColumns = new ArrayList<>(List.of(PATH_HEADER));
    portfolioLines().stream().skip(1).map(l -> l + ",,,,").forEach(withBarrierColumns::add);
    assertBadInput(
        lines(withBarrierColumns, 3, "2,EQ-B,vanilla,U1,10,40,2027-01-01,call,U2,,,"),
        market,
        file
            + ": row 3, column 'underlying2': 'U2' is given, but a vanilla contract has one"
            + " underlying and one strike (leave it empty)");
    assertBadInput(
        lines(withBarrierColumns, 5, "4,EQ-B,european,U1,10,40,2027-01-01,put,,,,45.5"),
        market,
        file
            + ": row 5, column 'strike3': '45.5' is given, but a european contract has one"
            + " underlying and one strike (leave it empty)");
  }

  /**
   * A header's column name with blanks around it or in another case is bad input saying so: the run
   * said 'quantity' was missing and listed ' quantity' among the columns, where its blank did not
   * show; a Parquet file with 'quantity' and 'Quantity' was "not Parquet".
   */
  @Test
  void aColumnNameWithBlanksOrInAnotherCaseIsBadInputSayingSo() throws Exception {
    String file = folder.resolve("bad.csv").toString();
    String header = portfolioLines().get(0);
    assertBadInput(
        lines(portfolioLines(), 0, header.replace(",quantity,", ", quantity,")),
        market,
        file
            + ": column ' quantity' is not 'quantity': its name has blanks around it (column"
            + " names are matched exactly; rename it 'quantity')");
    assertBadInput(
        lines(portfolioLines(), 0, header.replace(",quantity,", ",Quantity,")),
        market,
        file
            + ": column 'Quantity' is not 'quantity': its letters are in another case (column"
            + " names are matched exactly; rename it 'quantity')");
    List<String> withBarrierColumns =
        new ArrayList<>(List.of(PATH_HEADER.replace("strike2", "strike2 ")));
    portfolioLines().stream().skip(1).map(l -> l + ",,,,").forEach(withBarrierColumns::add);
    assertBadInput(
        write(withBarrierColumns),
        market,
        file
            + ": column 'strike2 ' is not 'strike2': its name has blanks around it (column"
            + " names are matched exactly; rename it 'strike2')");
    Path twoCases = folder.resolve("two-cases.parquet");
    spark.conf().set("spark.sql.caseSensitive", "true");
    try {
      spark
          .read()
          .option("header", "true")
          .csv(portfolio.toString())
          .withColumn("Quantity", functions.lit(5))
          .write()
          .parquet(twoCases.toString());
    } finally {
      spark.conf().set("spark.sql.caseSensitive", "false");
    }
    Run run = run(folder.resolve("out-bad"), twoCases, market);
    assertEquals(RiskBatchJob.EXIT_BAD_INPUT, run.exit(), run.err());
    assertTrue(
        run.err()
            .startsWith(
                "risk-batch: bad input: "
                    + twoCases
                    + ": two columns whose names differ only in case (Spark does not tell them"
                    + " apart; rename or drop one): [COLUMN_ALREADY_EXISTS] The column `quantity`"
                    + " already exists."),
        run.err());
  }

  /**
   * A Parquet column of a type that is neither the value's nor text is bad input naming the column
   * and its type: not a boolean quantity valued as 1.0 and 0.0 (Spark casts it), nor a date column
   * of integers that fails the run with Spark's cast error (exit 1).
   */
  /**
   * A folder (read as Parquet) of CSV files, or a CSV file whose name does not end in .csv, failed
   * the run (exit 1) with Spark's footer error and its stack trace.
   */
  @Test
  void anInputThatIsNotParquetIsBadInputNamingTheFile() throws Exception {
    Path csvFolder = Files.createDirectories(folder.resolve("csv folder"));
    Files.copy(portfolio, csvFolder.resolve("part.csv"));
    assertBadInput(
        csvFolder,
        market,
        csvFolder
            + ": not Parquet (a name ending in .csv is read as CSV): [FAILED_READ_FILE.CANNOT_READ_FILE_FOOTER]"
            + " Encountered error while reading file file:"
            + csvFolder.resolve("part.csv")
            + ". Could not read footer. Please ensure that the file is in either ORC or Parquet"
            + " format.");
  }

  /**
   * A folder of several files (a Spark job's output) numbers its rows in the order of the files'
   * names, each file's rows in theirs: Spark reads the largest file first, so a null quantity in
   * the one row of part-00000 was not the first problem, and one on the third of part-00001's six
   * rows was reported at row 3.
   */
  @Test
  void aFolderOfSeveralFilesNumbersItsRowsInTheOrderOfTheirNames() throws Exception {
    Path parts = Files.createDirectories(folder.resolve("parts"));
    List<String> header = portfolioLines().subList(0, 1);
    List<String> small = new ArrayList<>(header);
    small.add("1000,EQ-B,vanilla,U1,,40,2027-01-01,call");
    List<String> large = new ArrayList<>(portfolioLines().subList(0, 7));
    large.set(3, "2,EQ-B,vanilla,U1,,40,2027-01-01,call");
    String[] names = {"part-00000.parquet", "part-00001.parquet"};
    List<List<String>> contents = List.of(small, large);
    for (int i = 0; i < names.length; i++) {
      Path csv = Files.write(folder.resolve("part-" + i + ".csv"), contents.get(i));
      Path written = folder.resolve("written-" + i);
      spark
          .read()
          .option("header", "true")
          .csv(csv.toString())
          .coalesce(1)
          .write()
          .parquet(written.toString());
      try (Stream<Path> files = Files.list(written)) {
        Files.copy(
            files.filter(f -> f.toString().endsWith(".parquet")).findFirst().orElseThrow(),
            parts.resolve(names[i]));
      }
    }
    assertBadInput(parts, market, parts + ": row 1, column 'quantity': null");
    Files.write(
        folder.resolve("part-0.csv"),
        List.of(header.get(0), "1000,EQ-B,vanilla,U1,5,40,2027-01-01,call"));
    Files.delete(parts.resolve(names[0]));
    spark
        .read()
        .option("header", "true")
        .csv(folder.resolve("part-0.csv").toString())
        .coalesce(1)
        .write()
        .mode("overwrite")
        .parquet(folder.resolve("written-0").toString());
    try (Stream<Path> files = Files.list(folder.resolve("written-0"))) {
      Files.copy(
          files.filter(f -> f.toString().endsWith(".parquet")).findFirst().orElseThrow(),
          parts.resolve(names[0]));
    }
    assertBadInput(parts, market, parts + ": row 4, column 'quantity': null");
  }

  /**
   * A folder whose files Spark splits (a small {@code spark.sql.files.maxPartitionBytes}) and packs
   * into several partitions, the largest split first and a file's splits apart, is numbered in the
   * order of the files' names, each file's rows in theirs, and without a sort into one partition:
   * the rows were numbered by a window over the whole folder (Spark's "No Partition Defined for
   * Window operation! Moving all data to a single partition").
   */
  @Test
  void aFolderOfSplitFilesIsNumberedInFileOrderWithoutASinglePartition() throws Exception {
    Path parts = Files.createDirectories(folder.resolve("split parts.csv"));
    List<String> lines = portfolioLines();
    // 40, 50 and 150 rows: Spark reads the last (largest) file's splits first
    int[] ends = {41, 91, lines.size()};
    List<List<String>> files = new ArrayList<>();
    for (int i = 0, start = 1; i < ends.length; start = ends[i++]) {
      List<String> file = new ArrayList<>(lines.subList(0, 1));
      file.addAll(lines.subList(start, ends[i]));
      files.add(file);
    }
    files.get(2).set(140, "9140,EQ-B,vanilla,U1,,40,2027-01-01,call");
    files.get(1).set(30, "9030,EQ-B,vanilla,U1,5,40,2027-01-01,");
    String maxPartitionBytes = "spark.sql.files.maxPartitionBytes";
    String openCost = "spark.sql.files.openCostInBytes";
    spark.conf().set(maxPartitionBytes, "1024");
    spark.conf().set(openCost, "0");
    try {
      for (int i = 0; i < files.size(); i++) {
        Files.write(parts.resolve("part-0000" + i + ".csv"), files.get(i));
      }
      int partitions = spark.read().csv(parts.toString()).rdd().getNumPartitions();
      assertTrue(partitions > files.size(), "the files are split: " + partitions + " partitions");
      assertBadInput(parts, market, parts + ": row 70, column 'type': null");
      files.get(1).set(30, lines.get(70));
      Files.write(parts.resolve("part-00001.csv"), files.get(1));
      assertBadInput(parts, market, parts + ": row 230, column 'quantity': null");
      files.get(2).set(140, lines.get(230));
      Files.write(parts.resolve("part-00002.csv"), files.get(2));
      RiskSettings settings =
          RiskSettings.parse(
              new String[] {
                "--date", DATE.toString(),
                "--portfolio", parts.toString(),
                "--market", market.toString(),
                "--out", folder.resolve("out-split").toString(),
                "--config", config("run").toString()
              });
      Dataset<Row> positions = RiskInputs.load(spark, settings).portfolio();
      assertEquals(POSITIONS, positions.count());
      String plan = positions.queryExecution().executedPlan().treeString();
      assertFalse(plan.contains("Window") || plan.contains("SinglePartition"), plan);
    } finally {
      spark.conf().unset(maxPartitionBytes);
      spark.conf().unset(openCost);
    }
  }

  /**
   * An input folder with no data file in it (a folder named like a CSV file included) is bad input
   * naming the folder: a CSV one failed the run with Spark's UNABLE_TO_INFER_SCHEMA and its stack
   * trace, out of the job without its message (exit 1), a Parquet one was "not Parquet".
   */
  @Test
  void anInputFolderWithNoDataFileIsBadInputNamingTheFolder() throws Exception {
    for (String name : new String[] {"empty.csv", "empty-parquet"}) {
      Path empty = Files.createDirectories(folder.resolve("folders").resolve(name));
      Files.writeString(empty.resolve("_SUCCESS"), "");
      assertBadInput(
          empty,
          market,
          empty + ": an empty folder (no file in it whose name does not start with '_' or '.')");
    }
  }

  /**
   * CSV fields are quoted as RFC 4180 writes them (Excel, pandas, Python's csv module): a quote in
   * a quoted field is doubled, and a quoted field may hold a comma. Under Spark's default escape (a
   * backslash) {@code "EQ, ""x"""} was read as that text, quotes and all, so the position went into
   * a book of another name.
   */
  @Test
  void quotedCsvFieldsAreReadAsRfc4180WritesThem() throws Exception {
    String header = "id,book,instrument,underlying,quantity,strike,maturity,type";
    String maturity = DATE.plusDays(100).toString();
    List<String> lines =
        List.of(
            header,
            "1,\"EQ, \"\"x\"\"\",vanilla,U0,10,40," + maturity + ",call",
            "2,\"two, \"\"y\"\"\",vanilla,U1,5,40," + maturity + ",\"put\"",
            "3,\"EQ, \"\"x\"\"\",vanilla,U2,-5,40," + maturity + ",call");
    Path portfolioFile = Files.write(folder.resolve("quoted.csv"), lines);
    Path out = folder.resolve("out-quoted");
    Run run = run(out, portfolioFile, market);
    assertEquals(0, run.exit(), run.err());
    JsonNode summary =
        new ObjectMapper()
            .readTree(
                out.resolve("report")
                    .resolve("valuation_date=" + DATE)
                    .resolve("summary.json")
                    .toFile());
    List<String> books = new ArrayList<>();
    summary
        .get("books")
        .forEach(
            book -> books.add(book.get("name").asText() + " " + book.get("positions").asLong()));
    assertEquals(List.of("EQ, \"x\" 2", "two, \"y\" 1"), books);
    assertBadInput(
        write(replaced(lines, 3, "3,EQ,vanilla,U2,ten,40," + maturity + ",call")),
        market,
        folder.resolve("bad.csv") + ": row 3, column 'quantity': 'ten' is not a double");
  }

  @Test
  void aParquetColumnOfAnotherTypeIsBadInputNamingItsType() throws Exception {
    Dataset<Row> csv = spark.read().option("header", "true").csv(portfolio.toString());
    Path booleanQuantity = folder.resolve("boolean-quantity.parquet");
    csv.withColumn("quantity", functions.col("quantity").notEqual("0"))
        .write()
        .parquet(booleanQuantity.toString());
    assertBadInput(
        booleanQuantity,
        market,
        booleanQuantity + ": column 'quantity' has type boolean, not double or text");
    Path intMaturity = folder.resolve("int-maturity.parquet");
    csv.withColumn("maturity", functions.lit(20270101)).write().parquet(intMaturity.toString());
    assertBadInput(
        intMaturity, market, intMaturity + ": column 'maturity' has type int, not date or text");
    // a struct of text is not text: Spark's trim failed the run (exit 1) with its analysis error
    Path structBook = folder.resolve("struct-book.parquet");
    csv.withColumn("book", functions.struct(functions.col("book")))
        .write()
        .parquet(structBook.toString());
    assertBadInput(
        structBook, market, structBook + ": column 'book' has type struct<book:string>, not text");
    // a fractional id of a double column is bad input, as in a CSV file: the cast cut 2.5 to 2
    Path fractionalId = folder.resolve("fractional-id.parquet");
    csv.withColumn(
            "id",
            functions
                .when(functions.col("id").equalTo("2"), functions.lit(2.5))
                .otherwise(functions.col("id").cast("double")))
        .write()
        .parquet(fractionalId.toString());
    assertBadInput(
        fractionalId, market, fractionalId + ": row 3, column 'id': '2.5' is not a bigint");
  }

  // ---- path-dependent contracts: the standalone OptionPricing program (main) on the same
  // contracts ----

  static final String PATH_HEADER =
      "id,book,instrument,underlying,quantity,strike,maturity,type,underlying2,underlying3,strike2,"
          + "strike3";
  static final int MC_PATHS = 64;

  /** The greeks' bump sizes of the path test: relative spot, volatility, rate. */
  static final double[] BUMPS = {0.02, 0.015, 0.0005};

  /** The correlations of U0..U3, each pair once, in either order. */
  static List<String> correlationLines() {
    return new ArrayList<>(
        List.of(
            "underlying1,underlying2,correlation",
            "U0,U1,0.3",
            "U2,U0,0.5",
            "U1,U2,0.2",
            "U3,U0,0.6",
            "U3,U2,-0.1",
            "U1,U3,0.4"));
  }

  static double correlation(String a, String b) {
    if (a.equals(b)) {
      return 1.0;
    }
    for (String line : correlationLines().subList(1, correlationLines().size())) {
      String[] f = line.split(",");
      if ((f[0].equals(a) && f[1].equals(b)) || (f[0].equals(b) && f[1].equals(a))) {
        return Double.parseDouble(f[2]);
      }
    }
    throw new AssertionError("no correlation of " + a + " and " + b);
  }

  /**
   * Three vanilla options and two contracts of each FinPar kind; the daily barriers mature after 40
   * and 25 days.
   */
  static List<String> pathPortfolioLines() {
    return new ArrayList<>(
        List.of(
            PATH_HEADER,
            "1,EQ-B,vanilla,U0,10,95.5," + DATE.plusDays(90) + ",call,,,,",
            "2,EQ-C,vanilla,U1,-20,40," + DATE.plusDays(300) + ",put,,,,",
            "3,EQ-B,vanilla,U2,5,260," + DATE.plusDays(30) + ",call,,,,",
            "100,EQ-B,european,U0,10,105," + DATE.plusDays(200) + ",call,,,,",
            "101,EQ-C,european,U1,-5,40," + DATE.plusDays(400) + ",put,,,,",
            "102,EQ-B,discrete-barrier,U0,3,100," + DATE.plusDays(1000) + ",,U1,U2,45,240",
            "103,EQ-C,discrete-barrier,U2,-2,260," + DATE.plusDays(700) + ",,U3,U0,7,95",
            "104,EQ-B,daily-barrier,U0,4,98," + DATE.plusDays(40) + ",,U1,U2,42,255",
            "105,EQ-C,daily-barrier,U3,6,7.5," + DATE.plusDays(25) + ",,U0,U1,100,43"));
  }

  /** The lower-triangular Cholesky factor of the correlation matrix of {@code underlyings}. */
  static double[][] cholesky(String[] underlyings) {
    int n = underlyings.length;
    double[][] c = new double[n][n];
    for (int j = 0; j < n; j++) {
      for (int l = 0; l <= j; l++) {
        double sum = correlation(underlyings[j], underlyings[l]);
        for (int k = 0; k < l; k++) {
          sum -= c[j][k] * c[l][k];
        }
        c[j][l] = j == l ? Math.sqrt(sum) : sum / c[l][l];
      }
    }
    return c;
  }

  /**
   * A market model of the standalone program: each underlying's spot times its factor, the
   * volatilities plus dv, the rate plus dr.
   */
  record Model(double[] spotFactors, double dv, double dr) {}

  /** Model 0 today's market, model 1 + s scenario s of the grid. */
  static List<Model> scenarioModels(int numUnd, double[] spotShocks, double[] volShocks) {
    List<Model> models = new ArrayList<>(List.of(new Model(factors(numUnd, -1, 1.0), 0.0, 0.0)));
    for (int s = 0; s < spotShocks.length * volShocks.length; s++) {
      double move = 1.0 + spotShocks[s / volShocks.length];
      double[] all = new double[numUnd];
      Arrays.fill(all, move);
      models.add(new Model(all, volShocks[s % volShocks.length], 0.0));
    }
    return models;
  }

  /**
   * The models of the greeks: today's market, each underlying's spot times 1 +- BUMPS[0] alone, the
   * volatilities +- BUMPS[1], the rate +- BUMPS[2].
   */
  static List<Model> greekModels(int numUnd) {
    List<Model> models = new ArrayList<>(List.of(new Model(factors(numUnd, -1, 1.0), 0.0, 0.0)));
    for (int j = 0; j < numUnd; j++) {
      models.add(new Model(factors(numUnd, j, 1.0 + BUMPS[0]), 0.0, 0.0));
      models.add(new Model(factors(numUnd, j, 1.0 - BUMPS[0]), 0.0, 0.0));
    }
    models.add(new Model(factors(numUnd, -1, 1.0), BUMPS[1], 0.0));
    models.add(new Model(factors(numUnd, -1, 1.0), -BUMPS[1], 0.0));
    models.add(new Model(factors(numUnd, -1, 1.0), 0.0, BUMPS[2]));
    models.add(new Model(factors(numUnd, -1, 1.0), 0.0, -BUMPS[2]));
    return models;
  }

  static double[] factors(int numUnd, int moved, double move) {
    double[] factors = new double[numUnd];
    for (int j = 0; j < numUnd; j++) {
      factors[j] = j == moved ? move : 1.0;
    }
    return factors;
  }

  /**
   * The prices of one contract under each of {@code models} by OptionPricing's own entry main on
   * the JVM backend, FinPar's inputs built here from the contract, {@code days} days from maturity.
   * The bridge runs over the contract's real times; the daily barrier's grid is days 0..gridDays,
   * its underlyings still after its own maturity.
   */
  static double[] standalonePrices(
      dev.l0.kernels.api.CompiledProgram main,
      String[] f,
      Map<String, double[]> market,
      List<Model> modelList,
      int days,
      int gridDays) {
    String kind = f[2];
    int contract = kind.equals("european") ? 1 : kind.equals("discrete-barrier") ? 2 : 3;
    double years = days / 365.0;
    int numUnd = contract == 1 ? 1 : 3;
    int numDates = contract == 1 ? 1 : contract == 2 ? 5 : gridDays + 1;
    String[] underlyings = contract == 1 ? new String[] {f[3]} : new String[] {f[3], f[8], f[9]};
    double[] levels =
        contract == 1
            ? new double[] {Double.parseDouble(f[5])}
            : new double[] {
              Double.parseDouble(f[5]), Double.parseDouble(f[10]), Double.parseDouble(f[11])
            };
    double[] finparLevels =
        contract == 1 ? new double[] {4000.0} : new double[] {3758.05, 11840.0, 1200.0};
    double rate = market.get(f[3])[2];
    double[] times = new double[numDates];
    for (int t = 0; t < numDates; t++) {
      times[t] = contract == 3 ? t / 365.0 : years * (t + 1) / numDates;
    }
    int models = modelList.size();
    double[][][] c = new double[models][][];
    double[][][] vols = new double[models][numDates][numUnd];
    double[][][] drifts = new double[models][numDates][numUnd];
    double[][] starts = new double[models][numUnd];
    double[][] detvals = new double[models][1];
    double[][] discounts = new double[models][];
    for (int m = 0; m < models; m++) {
      Model model = modelList.get(m);
      double dv = model.dv();
      double modelRate = rate + model.dr();
      c[m] = cholesky(underlyings);
      for (int t = 0; t < numDates; t++) {
        boolean moves = contract != 3 || (t >= 1 && t <= days);
        double dt = times[t] - (t == 0 ? 0.0 : times[t - 1]);
        for (int j = 0; j < numUnd; j++) {
          double v = market.get(underlyings[j])[1] + dv;
          vols[m][t][j] = moves ? v : 0.0;
          drifts[m][t][j] = moves ? (modelRate - 0.5 * v * v) * dt : 0.0;
        }
      }
      for (int j = 0; j < numUnd; j++) {
        starts[m][j] =
            finparLevels[j] * market.get(underlyings[j])[0] / levels[j] * model.spotFactors()[j];
      }
      detvals[m][0] = contract == 1 ? (f[7].equals("call") ? 1 : -1) * levels[0] / 4000.0 : 0.0;
      discounts[m] = new double[contract == 1 ? 1 : contract == 2 ? 5 : 2];
      for (int i = 0; i < discounts[m].length; i++) {
        discounts[m][i] = StrictMath.exp(-modelRate * (contract == 3 ? years : times[i]));
      }
    }
    PathContracts.Bridge bridge = PathContracts.bridge(times);
    return (double[])
        main.run(
            contract,
            MC_PATHS,
            numDates,
            numUnd,
            models,
            PathContracts.SOBOL_BITS,
            PathContracts.directionNumbers(numDates * numUnd),
            c,
            vols,
            drifts,
            starts,
            detvals,
            discounts,
            bridge.indices(),
            bridge.data());
  }

  static String[] pathSettings(String partitions) throws IOException {
    Path correlations = Files.write(folder.resolve("correlations.csv"), correlationLines());
    return new String[] {
      "risk.partitions=" + partitions,
      "risk.mc.paths=" + MC_PATHS,
      "risk.correlations=" + correlations,
      "risk.greeks.spotBump=" + BUMPS[0],
      "risk.greeks.volBump=" + BUMPS[1],
      "risk.greeks.rateBump=" + BUMPS[2]
    };
  }

  /**
   * The greeks of one contract by bump-and-reprice with the standalone program, its own
   * computation: delta and gamma summed over the underlyings, central differences, theta one day
   * forward per year.
   */
  static double[] standaloneGreeks(
      dev.l0.kernels.api.CompiledProgram main, String[] f, Map<String, double[]> market) {
    int numUnd = f[2].equals("european") ? 1 : 3;
    int days = (int) ChronoUnit.DAYS.between(DATE, LocalDate.parse(f[6]));
    double[] m = standalonePrices(main, f, market, greekModels(numUnd), days, 40);
    double dayLater =
        standalonePrices(main, f, market, greekModels(numUnd).subList(0, 1), days - 1, 40)[0];
    String[] underlyings = numUnd == 1 ? new String[] {f[3]} : new String[] {f[3], f[8], f[9]};
    double delta = 0.0;
    double gamma = 0.0;
    for (int j = 0; j < numUnd; j++) {
      double h = BUMPS[0] * market.get(underlyings[j])[0];
      delta += (m[1 + 2 * j] - m[2 + 2 * j]) / (2.0 * h);
      gamma += (m[1 + 2 * j] - 2.0 * m[0] + m[2 + 2 * j]) / (h * h);
    }
    int e = 2 * numUnd;
    return new double[] {
      delta,
      gamma,
      (m[e + 1] - m[e + 2]) / (2.0 * BUMPS[1]),
      (dayLater - m[0]) * 365.0,
      (m[e + 3] - m[e + 4]) / (2.0 * BUMPS[2])
    };
  }

  @Test
  void pathDependentContractsAndTheirGreeksMatchTheStandaloneOptionPricingProgram()
      throws Exception {
    Path pathPortfolio = Files.write(folder.resolve("path-portfolio.csv"), pathPortfolioLines());
    Path out = folder.resolve("out-paths");
    Run first = run(out, pathPortfolio, market, pathSettings("2"));
    assertEquals(0, first.exit(), first.err());
    assertTrue(
        first
            .out()
            .contains(
                "risk-batch: instrument aggregates: 2 daily-barrier, 2 discrete-barrier, 2 european, 3 vanilla ("
                    + MC_PATHS
                    + " Monte-Carlo paths each) in "),
        first.out());

    double[] spotShocks = {-0.2, -0.2 + 0.4 * 1 / 4, -0.2 + 0.4 * 2 / 4, -0.2 + 0.4 * 3 / 4, 0.2};
    double[] volShocks = {-0.1, -0.1 + 0.2 * 1 / 3, -0.1 + 0.2 * 2 / 3, 0.1};
    Map<String, double[]> marketData = new HashMap<>();
    for (int u = 0; u < SPOTS.length; u++) {
      marketData.put("U" + u, new double[] {SPOTS[u], VOLS[u], RATES[u]});
    }
    Map<Long, Row> positions = new HashMap<>();
    for (Row row : spark.read().parquet(out.resolve("positions").toString()).collectAsList()) {
      positions.put(row.getAs("id"), row);
    }
    assertEquals(9, positions.size());
    String optionPricing =
        new String(
            PathContracts.class
                .getResourceAsStream("/programs/finpar/OptionPricing.l0")
                .readAllBytes(),
            StandardCharsets.UTF_8);
    try (dev.l0.kernels.api.CompiledProgram main =
        dev.l0.kernels.api.L0Runtime.compile(
            optionPricing, "OptionPricing.l0", "main", dev.l0.kernels.runtime.DeviceKind.JVM)) {
      for (String line : pathPortfolioLines().subList(4, 10)) {
        String[] f = line.split(",", -1);
        Row row = positions.get(Long.parseLong(f[0]));
        int days = (int) ChronoUnit.DAYS.between(DATE, LocalDate.parse(f[6]));
        double[] reference =
            standalonePrices(
                main,
                f,
                marketData,
                scenarioModels(f[2].equals("european") ? 1 : 3, spotShocks, volShocks),
                days,
                40);
        double quantity = Double.parseDouble(f[4]);
        // FinPar's rule: |reference - price| <= 5e-4
        assertEquals(reference[0], (double) row.getAs("price"), 5e-4, "price of " + line);
        assertEquals(
            quantity * reference[0],
            (double) row.getAs("pv"),
            5e-4 * Math.abs(quantity),
            "PV of " + line);
        // the same paths and bumps: the greeks agree to rounding, 1e-6 relative (a central
        // difference divides the prices' rounding by the bump, 2 x 0.0005 for rho)
        double[] greeks = standaloneGreeks(main, f, marketData);
        for (int g = 0; g < greeks.length; g++) {
          String name = RiskComputation.GREEKS[1 + g];
          assertEquals(
              greeks[g],
              (double) row.getAs(name),
              1e-6 * (1.0 + Math.abs(greeks[g])),
              name + " of " + line);
        }
        double[] pnl =
            row.getList(row.fieldIndex("pnl")).stream().mapToDouble(x -> (Double) x).toArray();
        assertEquals(spotShocks.length * volShocks.length, pnl.length);
        for (int s = 0; s < pnl.length; s++) {
          assertEquals(
              quantity * (reference[1 + s] - reference[0]),
              pnl[s],
              1e-3 * Math.abs(quantity),
              "P&L " + s + " of " + line);
        }
      }
    }

    ExactSum pv = new ExactSum();
    positions.values().forEach(row -> pv.add((double) row.getAs("pv")));
    Row portfolioRow = spark.read().parquet(out.resolve("portfolio").toString()).first();
    assertEquals(
        pv.value(),
        (double) portfolioRow.getAs("pv"),
        0.0,
        "the portfolio PV is the exact sum of every position's");
    for (String greek : Arrays.copyOfRange(RiskComputation.GREEKS, 1, 6)) {
      ExactSum sum = new ExactSum();
      positions
          .values()
          .forEach(row -> sum.add((double) row.getAs("quantity") * (double) row.getAs(greek)));
      assertEquals(
          sum.value(),
          (double) portfolioRow.getAs(greek),
          0.0,
          "the portfolio " + greek + " is the exact sum of every position's, Monte-Carlo included");
    }
    assertEquals(9L, (long) portfolioRow.getAs("positions"));

    List<Row> books =
        spark.read().parquet(out.resolve("books").toString()).orderBy("name").collectAsList();
    List<Row> scenarios =
        spark
            .read()
            .parquet(out.resolve("scenario_pnl").toString())
            .orderBy("name", "scenario")
            .collectAsList();
    for (String partitions : List.of("1", "4")) {
      Path other = folder.resolve("out-paths-" + partitions);
      Run again = run(other, pathPortfolio, market, pathSettings(partitions));
      assertEquals(0, again.exit(), again.err());
      assertEquals(
          books,
          spark.read().parquet(other.resolve("books").toString()).orderBy("name").collectAsList(),
          "books with " + partitions + " partitions");
      assertEquals(
          scenarios,
          spark
              .read()
              .parquet(other.resolve("scenario_pnl").toString())
              .orderBy("name", "scenario")
              .collectAsList(),
          "scenario P&L with " + partitions + " partitions");
    }

    String report = Files.readString(out.resolve("report/valuation_date=2026-11-25/report.html"));
    for (String kind : new String[] {"european", "discrete-barrier", "daily-barrier"}) {
      assertTrue(
          report.contains(
              "<tr><td>" + kind + "</td><td>Monte-Carlo, " + MC_PATHS + " paths</td><td>2</td>"),
          report);
    }
    assertTrue(
        Files.readString(out.resolve("report/valuation_date=2026-11-25/summary.json"))
            .contains("\"monte_carlo_paths\" : " + MC_PATHS));
  }

  @Test
  void eachBadPathDependentContractNamesFileColumnAndRowAndWritesNothing() throws Exception {
    String file = folder.resolve("bad.csv").toString();
    Path correlations = Files.write(folder.resolve("correlations.csv"), correlationLines());
    assertBadInput(
        lines(
            pathPortfolioLines(),
            6,
            "102,EQ-B,discrete-barrier,U0,3,100," + DATE.plusDays(1000) + ",,U1,U9,45,240"),
        market,
        correlations,
        file + ": row 6, column 'underlying3': unknown underlying 'U9' (not in " + market + ")");
    assertBadInput(
        lines(
            pathPortfolioLines(),
            8,
            "104,EQ-B,daily-barrier,U0,4,98," + DATE.plusDays(400) + ",,U1,U2,42,255"),
        market,
        correlations,
        file
            + ": row 8, column 'maturity': maturity 2027-12-30 is more than 332 days after the valuation date (a"
            + " daily-barrier contract is monitored on at most 333 dates: 1000 Sobol dimensions over 3 underlyings)");
    List<String> vanillaColumnsOnly = new ArrayList<>(portfolioLines().subList(0, 5));
    vanillaColumnsOnly.add("999,EQ-B,discrete-barrier,U0,3,100," + DATE.plusDays(1000) + ",");
    assertBadInput(
        write(vanillaColumnsOnly),
        market,
        correlations,
        file + ": row 5, column 'underlying2': null (a barrier contract has three underlyings)");
    List<String> withCorrelationColumn = new ArrayList<>();
    for (String line : pathPortfolioLines()) {
      withCorrelationColumn.add(line + (withCorrelationColumn.isEmpty() ? ",correlation" : ","));
    }
    assertBadInput(
        write(withCorrelationColumn),
        market,
        correlations,
        file
            + ": column 'correlation': correlations are part of the market snapshot now, a"
            + " correlations file (risk.correlations or --correlations: underlying1, underlying2,"
            + " correlation); remove the column");
  }

  @Test
  void eachBadCorrelationNamesFileColumnAndRowAndWritesNothing() throws Exception {
    String file = folder.resolve("bad.csv").toString();
    Path pathPortfolio = Files.write(folder.resolve("path-portfolio.csv"), pathPortfolioLines());
    assertBadInput(
        pathPortfolio,
        market,
        lines(correlationLines(), 3, "U1,U2,1.5"),
        file + ": row 3, column 'correlation': correlation must be in [-1, 1], is 1.5");
    assertBadInput(
        pathPortfolio,
        market,
        lines(correlationLines(), 4, "U3,U9,0.1"),
        file + ": row 4, column 'underlying2': unknown underlying 'U9' (not in " + market + ")");
    assertBadInput(
        pathPortfolio,
        market,
        lines(correlationLines(), 2, "U2,U0,"),
        file + ": row 2, column 'correlation': null");
    List<String> asymmetric = correlationLines();
    asymmetric.add("U1,U0,0.35");
    assertBadInput(
        pathPortfolio,
        market,
        write(asymmetric),
        file
            + ": row 7, column 'correlation': U1 and U0 have correlation 0.35 here but 0.3 in row 1"
            + " (a correlation matrix is symmetric: give a pair once, or with one value)");
    List<String> notPositive = correlationLines();
    notPositive.set(1, "U0,U1,0.9");
    notPositive.set(2, "U2,U0,0.9");
    notPositive.set(3, "U1,U2,-0.9");
    String pathFile = pathPortfolio.toString();
    double determinant = 1.0 + 2.0 * 0.9 * 0.9 * -0.9 - 0.9 * 0.9 - 0.9 * 0.9 - -0.9 * -0.9;
    assertBadInput(
        pathPortfolio,
        market,
        write(notPositive),
        pathFile
            + ": row 6, column 'underlying': the correlations of U0, U1 and U2 in "
            + file
            + " (0.9, 0.9, -0.9) are not a positive semi-definite matrix (its determinant is "
            + determinant
            + ")");
    List<String> missing = correlationLines();
    missing.remove(3);
    assertBadInput(
        pathPortfolio,
        market,
        write(missing),
        pathFile + ": row 6, column 'underlying3': no correlation of U1 and U2 in " + file);
    assertBadInput(
        pathPortfolio,
        market,
        null,
        pathFile
            + ": row 6, column 'underlying2': no correlation of U0 and U1 (no correlations file:"
            + " risk.correlations or --correlations)");
  }

  /**
   * With several problems in one input the run names the earliest row with a problem and that row's
   * first problem in the job's order of checks (RiskInputs); a repeated id, underlying or pair is
   * named only where no row has a problem, at the earliest row at which one appears again.
   */
  @Test
  void severalProblemsInOneInputNameTheEarliestRowsFirstProblem() throws Exception {
    String file = folder.resolve("bad.csv").toString();
    assertBadInput(
        lines(
            portfolioLines(),
            3,
            "1,EQ-B,vanilla,U1,10,40,2027-01-01,call",
            7,
            "6,EQ-B,vanilla,U1,,40,2027-01-01,call"),
        market,
        file + ": row 7, column 'quantity': null");
    assertBadInput(
        lines(
            portfolioLines(),
            4,
            "3,EQ-B,vanilla,U9,10,40,2027-01-01,call",
            7,
            "6,EQ-B,vanilla,U1,,40,2027-01-01,call"),
        market,
        file + ": row 4, column 'underlying': unknown underlying 'U9' (not in " + market + ")");
    assertBadInput(
        lines(portfolioLines(), 4, "3,EQ-B,vanilla,U9,,40,2027-01-01,call"),
        market,
        file + ": row 4, column 'quantity': null");
    assertBadInput(
        lines(
            portfolioLines(),
            5,
            "2,EQ-B,vanilla,U1,10,40,2027-01-01,call",
            6,
            "0,EQ-B,vanilla,U1,10,40,2027-01-01,call"),
        market,
        file + ": row 5, column 'id': 2 appears again (position ids are unique)");
    Path pathPortfolio = Files.write(folder.resolve("path-portfolio.csv"), pathPortfolioLines());
    List<String> asymmetricThenOutOfRange = correlationLines();
    asymmetricThenOutOfRange.add("U1,U0,0.35");
    asymmetricThenOutOfRange.add("U1,U2,1.5");
    assertBadInput(
        pathPortfolio,
        market,
        write(asymmetricThenOutOfRange),
        file + ": row 8, column 'correlation': correlation must be in [-1, 1], is 1.5");
  }

  static Path lines(List<String> lines, int row, String replacement) throws IOException {
    return write(replaced(lines, row, replacement));
  }

  /** {@code lines} with two rows replaced, written. */
  static Path lines(
      List<String> lines, int row, String replacement, int otherRow, String otherReplacement)
      throws IOException {
    return write(replaced(replaced(lines, row, replacement), otherRow, otherReplacement));
  }

  private static List<String> replaced(List<String> lines, int row, String replacement) {
    List<String> changed = new ArrayList<>(lines);
    changed.set(row, replacement);
    return changed;
  }

  static Path write(List<String> lines) throws IOException {
    return Files.write(folder.resolve("bad.csv"), lines);
  }

  static void assertBadInput(Path portfolioFile, Path marketFile, String message)
      throws IOException {
    assertBadInput(portfolioFile, marketFile, null, message);
  }

  /** A run with {@code correlations} (none where null) stops with {@code message}. */
  static void assertBadInput(Path portfolioFile, Path marketFile, Path correlations, String message)
      throws IOException {
    Path out = folder.resolve("out-bad");
    Run run =
        correlations == null
            ? run(out, portfolioFile, marketFile)
            : run(out, portfolioFile, marketFile, "risk.correlations=" + correlations);
    assertEquals(RiskBatchJob.EXIT_BAD_INPUT, run.exit(), run.err());
    assertEquals(
        "risk-batch: bad input: " + message + "\nrisk-batch: nothing written\n", run.err());
    assertNothingWritten(out);
  }

  /** No dataset and no staging folder under {@code out}: at most the dates' lock files. */
  static void assertNothingWritten(Path out) throws IOException {
    if (Files.exists(out)) {
      try (Stream<Path> entries = Files.list(out)) {
        assertEquals(
            List.of("_locks"),
            entries.map(entry -> entry.getFileName().toString()).toList(),
            "nothing is written but the lock");
      }
    }
  }

  /**
   * A master URL Spark cannot parse, from {@code --master} or from {@code risk.master} in the
   * config file, is a bad command line (exit 2), not a failed run (exit 1): found before Spark
   * starts and before the output folder is made, so the job's one line is all of standard error (no
   * Spark ERROR log and stack trace before it). In a JVM of its own: in this one the test's session
   * would be reused.
   */
  @Test
  void aMasterUrlSparkCannotParseIsAUsageError() throws Exception {
    Path out = folder.resolve("out-bogus-master");
    Path config = Files.writeString(folder.resolve("bogus-master.properties"), "risk.master=x\n");
    for (List<String> args :
        List.of(
            List.of("--master", "bogus://x", "--out", out.toString()),
            List.of("--config", config.toString(), "--out", out.toString()))) {
      String master = args.get(0).equals("--master") ? "bogus://x" : "x";
      List<String> command = riskBatchInItsOwnJvm(List.of(), args.toArray(String[]::new));
      Process process =
          new ProcessBuilder(command).redirectOutput(ProcessBuilder.Redirect.DISCARD).start();
      String err = new String(process.getErrorStream().readAllBytes(), StandardCharsets.UTF_8);
      assertTrue(process.waitFor(120, TimeUnit.SECONDS));
      assertEquals(RiskBatchJob.EXIT_USAGE, process.exitValue(), err);
      assertEquals(
          List.of("risk-batch: risk.master: " + JobSessions.notAMaster(master)),
          err.lines()
              .filter(line -> !line.startsWith("WARNING: Using incubator modules"))
              .toList());
      assertFalse(Files.exists(out), out.toString());
    }
  }

  /**
   * A run stopped by Ctrl-C (SIGINT) says so, as the README promises, and writes nothing: the JVM
   * ended once Spark's shutdown hook had run, before the run's own thread could say it. Where this
   * test runs with SIGINT ignored (a background job of a non-interactive shell, which its children
   * inherit, so that the JVM installs no handler for it), the child is stopped by SIGTERM instead,
   * which runs the same shutdown.
   */
  @Test
  void aRunStoppedByCtrlCSaysItWasInterrupted() throws Exception {
    boolean interruptIgnored = signalIgnored(2);
    String signal = interruptIgnored ? "-TERM" : "-INT";
    int signalExit = interruptIgnored ? 128 + 15 : 128 + 2;
    Path out = folder.resolve("out-interrupted");
    List<String> command =
        riskBatchInItsOwnJvm(
            List.of("-Xmx1g"),
            "--date",
            DATE.toString(),
            "--out",
            out.toString(),
            "--master",
            "local[2]",
            "--portfolio",
            portfolio.toString(),
            "--market",
            market.toString(),
            "--config",
            config(
                    "interrupted",
                    "risk.scenarios.spotShocks=-0.2:0.2:100",
                    "risk.scenarios.volShocks=-0.1:0.1:100")
                .toString());
    Path stdout = folder.resolve("interrupted.out");
    Path stderr = folder.resolve("interrupted.err");
    Process child =
        new ProcessBuilder(command)
            .redirectOutput(stdout.toFile())
            .redirectError(stderr.toFile())
            .start();
    try {
      long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(300);
      while (!Files.readString(stdout).contains("read and validate inputs")
          && child.isAlive()
          && System.nanoTime() < deadline) {
        Thread.sleep(20);
      }
      assertTrue(child.isAlive(), "the child ended before it was interrupted, see " + stderr);
      assertEquals(
          0, new ProcessBuilder("kill", signal, Long.toString(child.pid())).start().waitFor());
      assertTrue(child.waitFor(60, TimeUnit.SECONDS), "the interrupted child did not end");
    } finally {
      child.destroyForcibly().waitFor(30, TimeUnit.SECONDS);
    }
    String err = Files.readString(stderr);
    assertEquals(signalExit, child.exitValue(), err); // 128 + the signal, as for any program
    assertTrue(
        err.contains("risk-batch: interrupted; the outputs of " + DATE + " are unchanged\n"), err);
    assertFalse(Files.exists(out.resolve("positions")), "nothing written");
  }

  /**
   * Whether this process ignores signal {@code number} (its bit in /proc/self/status's SigIgn;
   * false where there is no such file), as the children it starts then do.
   */
  private static boolean signalIgnored(int number) throws IOException {
    Path status = Path.of("/proc/self/status");
    if (!Files.exists(status)) {
      return false;
    }
    for (String line : Files.readAllLines(status)) {
      if (line.startsWith("SigIgn:")) {
        long mask = Long.parseUnsignedLong(line.substring("SigIgn:".length()).trim(), 16);
        return (mask & (1L << (number - 1))) != 0;
      }
    }
    return false;
  }

  @Test
  void aWriterKilledMidWriteLeavesThePreviousOutputsAndTheNextRunRemovesItsStaging()
      throws Exception {
    Path out = folder.resolve("out-killed");
    assertEquals(0, run(out, portfolio, market).exit());
    Map<String, String> before = new TreeMap<>();
    for (String dataset : RiskStore.DATASETS) {
      before.putAll(digests(out.resolve(dataset)));
    }
    List<String> command =
        riskBatchInItsOwnJvm(
            List.of("-Xmx1g"),
            "--date",
            DATE.toString(),
            "--out",
            out.toString(),
            "--master",
            "local[2]",
            "--portfolio",
            portfolio.toString(),
            "--market",
            market.toString(),
            "--config",
            config(
                    "killed",
                    "risk.scenarios.spotShocks=-0.2:0.2:100",
                    "risk.scenarios.volShocks=-0.1:0.1:100")
                .toString());
    Process child =
        new ProcessBuilder(command)
            .redirectErrorStream(true)
            .redirectOutput(folder.resolve("child.log").toFile())
            .start();
    try {
      long deadline =
          System.nanoTime()
              + TimeUnit.SECONDS.toNanos(
                  300); // validation alone can take 100 s on a loaded 2-core machine
      while (!stagedPositionsExist(out) && child.isAlive() && System.nanoTime() < deadline) {
        Thread.sleep(20);
      }
      assertTrue(stagedPositionsExist(out), () -> "the child never started writing: " + readLog());
    } finally {
      child.destroyForcibly().waitFor(30, TimeUnit.SECONDS);
    }
    Map<String, String> after = new TreeMap<>();
    for (String dataset : RiskStore.DATASETS) {
      after.putAll(digests(out.resolve(dataset)));
    }
    assertEquals(before, after);
    assertEquals(POSITIONS, spark.read().parquet(out.resolve("positions").toString()).count());
    try (Stream<Path> staging = Files.list(out.resolve("_staging"))) {
      assertTrue(staging.findAny().isPresent(), "the killed run left its staging folder");
    }

    Map<String, String> books = digests(out.resolve("books"));
    Run next = run(out, portfolio, market);
    assertEquals(0, next.exit(), next.err());
    try (Stream<Path> staging = Files.list(out.resolve("_staging"))) {
      assertEquals(List.of(), staging.toList(), "the next run removes the killed run's staging");
    }
    assertEquals(books, digests(out.resolve("books")));
  }

  static String readLog() {
    try {
      return Files.readString(folder.resolve("child.log"));
    } catch (IOException e) {
      return e.toString();
    }
  }

  /**
   * The command that runs the risk batch with {@code args} in a JVM of its own, with {@code
   * jvmOptions} and Spark's module flags, on this test's class path.
   */
  private static List<String> riskBatchInItsOwnJvm(List<String> jvmOptions, String... args)
      throws IOException, InterruptedException {
    List<String> command =
        new ArrayList<>(
            List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString()));
    command.addAll(jvmOptions);
    command.addAll(sparkJvmOptions());
    command.addAll(
        List.of("-cp", System.getProperty("java.class.path"), RiskBatchJob.class.getName()));
    command.addAll(List.of(args));
    return command;
  }

  static List<String> sparkJvmOptions() throws IOException, InterruptedException {
    Process options =
        new ProcessBuilder(
                Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-cp",
                System.getProperty("java.class.path"),
                dev.l0.jobs.SparkJvmOptions.class.getName())
            .start();
    String text =
        new String(options.getInputStream().readAllBytes(), StandardCharsets.UTF_8).trim();
    assertEquals(0, options.waitFor());
    return Arrays.asList(text.split("\\s+"));
  }

  static boolean stagedPositionsExist(Path out) throws IOException {
    Path staging = out.resolve("_staging");
    if (!Files.isDirectory(staging)) {
      return false;
    }
    try (Stream<Path> files = Files.walk(staging)) {
      return files.anyMatch(
          p ->
              p.toString().contains("/new/positions/")
                  && p.getFileName().toString().startsWith("part-"));
    }
  }

  static Map<String, String> digests(Path folder) throws Exception {
    Map<String, String> out = new TreeMap<>();
    try (Stream<Path> files = Files.walk(folder)) {
      for (Path file : files.filter(Files::isRegularFile).toList()) {
        String name = folder.relativize(file).toString();
        if (name.matches(".*part-[0-9]+-[0-9a-f-]+.*")) {
          name =
              name.replaceAll(
                  "part-([0-9]+)-[0-9a-f-]+", "part-$1"); // Spark names part files by a job UUID
        }
        MessageDigest sha = MessageDigest.getInstance("SHA-256");
        out.put(
            folder.getFileName() + "/" + name,
            java.util.HexFormat.of().formatHex(sha.digest(Files.readAllBytes(file))));
      }
    }
    return out;
  }

  /**
   * Renders the report in headless Chromium and checks each chart region of the screenshot is
   * drawn.
   */
  static void reportRendersInChromium(Path report) throws Exception {
    File chromium = new File("/usr/bin/chromium");
    Assumptions.assumeTrue(
        chromium.canExecute(),
        "chromium is not installed (/usr/bin/chromium): the report test is skipped");
    Path shot = folder.resolve("report.png");
    Process process =
        new ProcessBuilder(
                chromium.getPath(),
                "--headless",
                "--no-sandbox",
                "--disable-gpu",
                "--disable-background-networking",
                "--disable-component-update",
                "--disable-sync",
                "--no-first-run",
                "--user-data-dir=" + folder.resolve("chromium-profile"),
                "--screenshot=" + shot,
                "--window-size=1200,2000",
                report.toUri().toString())
            .redirectErrorStream(true)
            .redirectOutput(folder.resolve("chromium.log").toFile())
            .start();
    assertTrue(process.waitFor(90, TimeUnit.SECONDS), "chromium did not finish");
    BufferedImage image = ImageIO.read(shot.toFile());
    assertEquals(1200, image.getWidth());
    // The table sits above the charts; each chart is 300 px high, stacked from about y = 370.
    assertTrue(nonWhite(image, 0, 0, 1200, 250) > 5_000, "the figures table is drawn");
    for (int chart = 0; chart < BOOKS.length + 1; chart++) {
      int top = 380 + chart * 316;
      long drawn = nonWhite(image, 0, top, 800, top + 280);
      assertTrue(drawn > 20_000, "chart " + chart + " has " + drawn + " drawn pixels");
    }
  }

  static long nonWhite(BufferedImage image, int x0, int y0, int x1, int y1) {
    long count = 0;
    for (int y = y0; y < Math.min(y1, image.getHeight()); y++) {
      for (int x = x0; x < Math.min(x1, image.getWidth()); x++) {
        int rgb = image.getRGB(x, y);
        if (((rgb >> 16) & 0xff) < 235 || ((rgb >> 8) & 0xff) < 235 || (rgb & 0xff) < 235) {
          count++;
        }
      }
    }
    return count;
  }
}
