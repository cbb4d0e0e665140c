package dev.l0.jobs.risk;

import dev.l0.cli.CliArgs;
import dev.l0.jobs.JobSessions;
import dev.l0.syntax.SourceFiles;
import java.io.IOException;
import java.io.Reader;
import java.io.StringReader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.LocalDate;
import java.time.ZoneOffset;
import java.time.format.DateTimeParseException;
import java.util.Comparator;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import java.util.Properties;
import java.util.Set;
import java.util.TreeSet;

/**
 * The settings of one risk-batch run: the keys of a config file ({@code conf/risk-batch.properties}
 * documents each with its default), overridden by command-line options. Every value is checked
 * here; a bad one is a {@link UsageException} naming the key or option.
 */
record RiskSettings(
    LocalDate valuationDate,
    Optional<Path> portfolio,
    Optional<Path> market,
    Path out,
    String master,
    int syntheticPositions,
    int syntheticUnderlyings,
    int syntheticBooks,
    long syntheticSeed,
    double[] spotShocks,
    double[] volShocks,
    double varConfidence,
    double esConfidence,
    int partitions,
    int syntheticPathContracts,
    int monteCarloPaths,
    Optional<Path> correlations,
    double greekSpotBump,
    double greekVolBump,
    double greekRateBump) {

  static final int DEFAULT_MONTE_CARLO_PATHS = 256;

  /**
   * The most scenarios a grid may have (spot shocks x volatility shocks): every position carries a
   * P&L per scenario, and the driver a row per scenario of every aggregate.
   */
  static final int MAX_SCENARIOS = 100_000;

  /**
   * The most Spark partitions a run may ask for: every stage of the batch runs a task per
   * partition, and 100,000 of them had not valued 4 positions on local[2] after 5 minutes.
   */
  static final int MAX_PARTITIONS = 10_000;

  /**
   * These settings as the vanilla scenario benchmark takes them: a synthetic portfolio of {@code
   * positions} vanilla options (no path-dependent contracts) on {@code master}, in {@code
   * partitions} pieces.
   */
  RiskSettings forVanillaBenchmark(int positions, String master, int partitions) {
    return new RiskSettings(
        valuationDate,
        Optional.empty(),
        Optional.empty(),
        out,
        master,
        positions,
        syntheticUnderlyings,
        syntheticBooks,
        syntheticSeed,
        spotShocks,
        volShocks,
        varConfidence,
        esConfidence,
        partitions,
        0,
        monteCarloPaths,
        Optional.empty(),
        greekSpotBump,
        greekVolBump,
        greekRateBump);
  }

  static final String USAGE =
      "usage: l0-job risk-batch [--date YYYY-MM-DD] [--portfolio PATH] [--market PATH]"
          + " [--correlations PATH] [--out DIR] [--master URL] [--config FILE]";

  /** The command line's options (without their {@code --}) and the keys they set. */
  private static final Map<String, String> OPTIONS =
      Map.of(
          "date", "risk.date",
          "portfolio", "risk.portfolio",
          "market", "risk.market",
          "correlations", "risk.correlations",
          "out", "risk.out",
          "master", "risk.master",
          "config", "config");

  /** A command line or config value that cannot be used. */
  static final class UsageException extends Exception {
    private static final long serialVersionUID = 1L;

    UsageException(String message) {
      super(message);
    }
  }

  /**
   * Fails where {@code out}, or the nearest of its parents that exists, is not a folder: found
   * before Spark starts and the inputs are read, not as the lock file's I/O error after them.
   */
  private static void checkOutputFolder(Path out) throws UsageException {
    Path existing = out.toAbsolutePath();
    while (existing != null && !Files.exists(existing)) {
      existing = existing.getParent();
    }
    if (existing != null && !Files.isDirectory(existing)) {
      throw new UsageException(
          "risk.out: "
              + (existing.equals(out.toAbsolutePath()) ? out : out + ": " + existing)
              + " is a file, not a folder");
    }
    for (String folder : RiskStore.WRITTEN_FOLDERS) {
      Path inside = out.resolve(folder);
      if (Files.exists(inside) && !Files.isDirectory(inside)) {
        throw new UsageException(
            "risk.out: "
                + inside
                + " is a file, not a folder (the run writes "
                + inside.resolve(RiskStore.PARTITION + "=D")
                + ")");
      }
    }
    if (existing != null) {
      requireWritable(existing, out);
      for (String folder : RiskStore.WRITTEN_FOLDERS) {
        if (Files.isDirectory(out.resolve(folder))) {
          requireWritable(out.resolve(folder), out);
        }
      }
    }
  }

  /**
   * Fails where no folder can be made in {@code folder} (a read-only or another user's folder),
   * which the run needs for its locks, staging and outputs: tried by making one and removing it,
   * since permissions alone do not tell (root ignores them, a read-only file system does not show
   * in them). Found before Spark starts: the run failed minutes in, after reading its inputs.
   */
  private static void requireWritable(Path folder, Path out) throws UsageException {
    Path probe;
    try {
      probe = Files.createTempDirectory(folder, ".risk-batch-write-check-");
    } catch (IOException e) {
      String why = SourceFiles.describe(e);
      int reason = why.lastIndexOf(": ");
      why = reason < 0 ? why : why.substring(reason + 2);
      throw new UsageException(
          folder.toAbsolutePath().startsWith(out.toAbsolutePath())
              ? "risk.out: cannot write in "
                  + folder
                  + " ("
                  + why
                  + "); the run writes its locks, staging folder and outputs there"
              : "risk.out: cannot create the folder "
                  + out
                  + ": no folder can be made in "
                  + folder
                  + " ("
                  + why
                  + ")");
    }
    try {
      Files.delete(probe);
    } catch (IOException e) {
      throw new UsageException(
          "risk.out: cannot remove the folder it made in " + out + ": " + SourceFiles.describe(e));
    }
  }

  /**
   * Fails where the output folder is an input folder or inside one, or an input lies in a folder
   * the run writes in: with {@code --portfolio /eod/portfolio --out /eod} (a Parquet folder named
   * as the portfolio dataset) the run wrote its portfolio aggregate into the input folder, whose
   * next read took it for positions ("row 1, column 'id': null"); with {@code --out} the input
   * folder itself, the next read failed as "not Parquet".
   */
  private static void checkOutputApartFromInputs(RiskSettings settings) throws UsageException {
    Path out = resolved(settings.out);
    Map<String, Optional<Path>> inputs = new LinkedHashMap<>();
    inputs.put("risk.portfolio", settings.portfolio);
    inputs.put("risk.market", settings.market);
    inputs.put("risk.correlations", settings.correlations);
    for (Map.Entry<String, Optional<Path>> input : inputs.entrySet()) {
      if (input.getValue().isEmpty()) {
        continue;
      }
      Path path = input.getValue().orElseThrow();
      Path in = resolved(path);
      if (out.startsWith(in)) {
        throw new UsageException(
            "risk.out: "
                + settings.out
                + (out.equals(in) ? " is the input " : " is inside the input ")
                + Keys.named(input.getKey())
                + " "
                + path
                + "; the run would write its outputs among its inputs");
      }
      for (String folder : RiskStore.WRITTEN_FOLDERS) {
        if (in.startsWith(out.resolve(folder))) {
          throw new UsageException(
              "risk.out: the input "
                  + Keys.named(input.getKey())
                  + " "
                  + path
                  + " is in "
                  + settings.out.resolve(folder)
                  + ", where the run writes its outputs");
        }
      }
    }
  }

  /** {@code path} absolute, with its links resolved where it exists. */
  private static Path resolved(Path path) {
    Path absolute = path.toAbsolutePath().normalize();
    try {
      return absolute.toRealPath();
    } catch (IOException e) {
      return absolute;
    }
  }

  /** The settings of {@code args}: the config file of {@code --config} first, then the options. */
  static RiskSettings parse(String[] args) throws UsageException {
    Properties values = new Properties();
    Properties options = new Properties();
    CliArgs parsed;
    try {
      parsed = CliArgs.parse(args, OPTIONS.keySet(), Set.of());
    } catch (CliArgs.UsageError e) {
      throw new UsageException(e.getMessage() + "\n" + USAGE);
    }
    if (!parsed.positional().isEmpty()) {
      throw new UsageException("unknown option '" + parsed.positional().get(0) + "'\n" + USAGE);
    }
    parsed.options().forEach((option, value) -> options.setProperty(OPTIONS.get(option), value));
    Optional<String> configFile = Optional.ofNullable((String) options.remove("config"));
    if (configFile.isPresent()) {
      values = configValues(Path.of(configFile.get()));
    }
    values.putAll(options);
    return of(values, configFile);
  }

  /**
   * The keys of the config file {@code file}: UTF-8 text, a leading byte order mark left out (it
   * was read as the first key's first character: "unknown key 'risk.date' (did you mean
   * 'risk.date'?)"); a byte that is not UTF-8 is named at its line and column (the message was
   * "Input length = 1"), and a key given twice is refused, as an option given twice is (the last
   * value was taken without a word).
   */
  private static Properties configValues(Path file) throws UsageException {
    String text;
    try {
      text =
          SourceFiles.read(
              file,
              (at, why) ->
                  new NotText(
                      file
                          + ": line "
                          + at.line()
                          + ", column "
                          + at.column()
                          + ": "
                          + why.replace("the file is ", "")));
    } catch (IOException e) {
      String why = SourceFiles.describe(e); // names the file, unless the error did not
      throw new UsageException(
          "cannot read the config file " + (why.startsWith(file + ": ") ? why : file + ": " + why));
    } catch (NotText e) {
      throw new UsageException("cannot read the config file " + e.getMessage());
    }
    Properties values =
        new Properties() {
          private static final long serialVersionUID = 1L;

          @Override
          public synchronized Object put(Object key, Object value) {
            Object earlier = super.put(key, value);
            if (earlier != null) {
              throw new KeyTwice(
                  file + ": key '" + key + "' given twice ('" + earlier + "' and '" + value + "')");
            }
            return null;
          }
        };
    try (Reader reader = new StringReader(text)) {
      values.load(reader);
    } catch (IOException e) {
      throw new UsageException(
          "cannot read the config file " + file + ": " + SourceFiles.describe(e));
    } catch (KeyTwice e) {
      throw new UsageException(e.getMessage());
    } catch (IllegalArgumentException e) { // Properties' malformed \\uXXXX escape
      throw new UsageException("cannot read the config file " + file + ": " + e.getMessage());
    }
    Properties copy = new Properties();
    copy.putAll(values);
    return copy;
  }

  /** A config file whose bytes are not UTF-8, with where. */
  private static final class NotText extends RuntimeException {
    private static final long serialVersionUID = 1L;

    NotText(String message) {
      super(message);
    }
  }

  /** A key of a config file given twice. */
  private static final class KeyTwice extends RuntimeException {
    private static final long serialVersionUID = 1L;

    KeyTwice(String message) {
      super(message);
    }
  }

  private static RiskSettings of(Properties values, Optional<String> configFile)
      throws UsageException {
    Keys keys = new Keys(values, new HashSet<>());
    RiskSettings settings =
        new RiskSettings(
            keys.date("risk.date", LocalDate.now(ZoneOffset.UTC)),
            keys.path("risk.portfolio"),
            keys.path("risk.market"),
            keys.path("risk.out").orElse(Path.of("risk-out")),
            keys.text("risk.master").orElse("local[*]"),
            keys.positive("risk.synthetic.positions", 100_000),
            keys.positive("risk.synthetic.underlyings", 300),
            keys.positive("risk.synthetic.books", 8),
            keys.number("risk.synthetic.seed", 20261125L),
            keys.grid("risk.scenarios.spotShocks", "-0.25:0.25:10"),
            keys.grid("risk.scenarios.volShocks", "-0.10:0.10:10"),
            keys.confidence("risk.var.confidence", 0.99),
            keys.confidence("risk.es.confidence", 0.975),
            keys.positive("risk.partitions", 4),
            keys.atLeast("risk.synthetic.pathContracts", 300, 0),
            keys.atLeast("risk.mc.paths", DEFAULT_MONTE_CARLO_PATHS, 1),
            keys.path("risk.correlations"),
            keys.bump("risk.greeks.spotBump", 0.01, 0.5),
            keys.bump("risk.greeks.volBump", 0.01, 0.5),
            keys.bump("risk.greeks.rateBump", 0.0001, 0.1));
    keys.checkAllKnown(configFile);
    checkOutputFolder(settings.out());
    checkOutputApartFromInputs(settings);
    try {
      JobSessions.checkMaster(settings.master());
    } catch (JobSessions.UnknownMasterException e) {
      throw new UsageException("risk.master: " + e.getMessage());
    }
    if (settings.monteCarloPaths >= 1 << PathContracts.SOBOL_BITS) {
      throw new UsageException(
          "risk.mc.paths: "
              + settings.monteCarloPaths
              + " is not below 2^"
              + PathContracts.SOBOL_BITS
              + " (the Sobol numbers have "
              + PathContracts.SOBOL_BITS
              + " bits)");
    }
    for (double shock : settings.spotShocks) {
      if (!(shock > -1.0)) {
        throw new UsageException(
            "risk.scenarios.spotShocks: a shock of "
                + shock
                + " takes spots to zero or below (spot * (1 + shock)); each must be above -1");
      }
    }
    for (double shock : settings.volShocks) {
      if (shock > RiskInputs.MAX_VOLATILITY) {
        throw new UsageException(
            "risk.scenarios.volShocks: a shock of "
                + shock
                + " is above "
                + RiskInputs.MAX_VOLATILITY
                + " (10,000% a year), the most volatility the job values");
      }
    }
    if (settings.partitions > MAX_PARTITIONS) {
      throw new UsageException(
          "risk.partitions: "
              + settings.partitions
              + " is more than "
              + MAX_PARTITIONS
              + " (every stage of the batch runs a task per partition)");
    }
    if ((long) settings.spotShocks.length * settings.volShocks.length > MAX_SCENARIOS) {
      throw new UsageException(
          "risk.scenarios.spotShocks x risk.scenarios.volShocks: "
              + settings.spotShocks.length
              + " x "
              + settings.volShocks.length
              + " = "
              + (long) settings.spotShocks.length * settings.volShocks.length
              + " scenarios, more than "
              + MAX_SCENARIOS
              + " (every position carries a P&L per scenario)");
    }
    if (settings.portfolio.isPresent() != settings.market.isPresent()) {
      throw new UsageException(
          "give both a portfolio and a market (or neither, for the synthetic inputs)");
    }
    if (settings.correlations.isPresent() && settings.market.isEmpty()) {
      throw new UsageException(
          "correlations belong to a market snapshot: give a portfolio and a market with them");
    }
    return settings;
  }

  /** The number of scenarios: every spot shock with every volatility shock. */
  int scenarioCount() {
    return spotShocks.length * volShocks.length;
  }

  /** The spot shock of each scenario (scenario s = spot index * volShocks + vol index). */
  double[] scenarioSpotShocks() {
    double[] out = new double[scenarioCount()];
    for (int s = 0; s < out.length; s++) {
      out[s] = spotShocks[s / volShocks.length];
    }
    return out;
  }

  /** The volatility shock of each scenario. */
  double[] scenarioVolShocks() {
    double[] out = new double[scenarioCount()];
    for (int s = 0; s < out.length; s++) {
      out[s] = volShocks[s % volShocks.length];
    }
    return out;
  }

  /**
   * Reads the keys of {@code values}, each named in messages with the option that sets it; {@code
   * asked} collects the keys read, so that a key nothing reads (a misspelt one) is refused.
   */
  private record Keys(Properties values, Set<String> asked) {
    Optional<String> text(String key) {
      asked.add(key);
      return Optional.ofNullable(values.getProperty(key));
    }

    /** Refuses a key of {@code configFile} that no setting reads, naming the nearest known key. */
    void checkAllKnown(Optional<String> configFile) throws UsageException {
      for (String key : new TreeSet<>(values.stringPropertyNames())) {
        if (!asked.contains(key)) {
          String nearest =
              asked.stream()
                  .min(Comparator.comparingInt((String known) -> editDistance(key, known)))
                  .orElseThrow();
          throw new UsageException(
              configFile.map(file -> file + ": ").orElse("")
                  + "unknown key '"
                  + key
                  + "'"
                  + (editDistance(key, nearest) <= 3 ? " (did you mean '" + nearest + "'?)" : "")
                  + "; the keys and their defaults are in conf/risk-batch.properties");
        }
      }
    }

    /** {@code key} as messages name it: with the command line's option that sets it, if any. */
    static String named(String key) {
      return OPTIONS.entrySet().stream()
          .filter(option -> option.getValue().equals(key))
          .map(option -> "--" + option.getKey() + " (" + key + ")")
          .findFirst()
          .orElse(key);
    }

    LocalDate date(String key, LocalDate otherwise) throws UsageException {
      String text = text(key).orElse(null);
      try {
        return text == null ? otherwise : LocalDate.parse(text.trim());
      } catch (DateTimeParseException e) {
        throw new UsageException(named(key) + ": '" + text + "' is not a date YYYY-MM-DD");
      }
    }

    Optional<Path> path(String key) {
      String text = text(key).orElse(null);
      return text == null || text.isBlank() ? Optional.empty() : Optional.of(Path.of(text.trim()));
    }

    long number(String key, long otherwise) throws UsageException {
      String text = text(key).orElse(null);
      try {
        return text == null ? otherwise : Long.parseLong(text.trim());
      } catch (NumberFormatException e) {
        throw new UsageException(key + ": '" + text + "' is not an integer");
      }
    }

    int positive(String key, int otherwise) throws UsageException {
      long value = number(key, otherwise);
      if (value < 1 || value > Integer.MAX_VALUE) {
        throw new UsageException(key + ": " + value + " is not a positive int");
      }
      return (int) value;
    }

    int atLeast(String key, int otherwise, int least) throws UsageException {
      long value = number(key, otherwise);
      if (value < least || value > Integer.MAX_VALUE) {
        throw new UsageException(key + ": " + value + " is not an int >= " + least);
      }
      return (int) value;
    }

    /** The number {@code key} names, {@code otherwise} where it is not set. */
    private double number(String key, double otherwise) throws UsageException {
      String text = text(key).orElse(null);
      try {
        return text == null ? otherwise : Double.parseDouble(text.trim());
      } catch (NumberFormatException e) {
        throw new UsageException(key + ": '" + text + "' is not a number");
      }
    }

    /** A bump size of the greeks: a number in (0, {@code below}). */
    double bump(String key, double otherwise, double below) throws UsageException {
      double value = number(key, otherwise);
      if (!(value > 0.0 && value < below)) {
        throw new UsageException(key + ": " + value + " is not a bump size in (0, " + below + ")");
      }
      return value;
    }

    double confidence(String key, double otherwise) throws UsageException {
      double value = number(key, otherwise);
      if (!(value > 0.5 && value < 1.0)) {
        throw new UsageException(key + ": " + value + " is not a confidence level in (0.5, 1)");
      }
      return value;
    }

    /**
     * FROM:TO:COUNT, COUNT evenly spaced values from FROM to TO: FROM + (TO - FROM) * i / (COUNT -
     * 1), the ends exactly FROM and TO (COUNT 1 gives FROM).
     */
    double[] grid(String key, String otherwise) throws UsageException {
      String text = text(key).orElse(otherwise).trim();
      String[] parts = text.split(":");
      try {
        if (parts.length != 3) {
          throw new NumberFormatException();
        }
        double from = Double.parseDouble(parts[0]);
        double to = Double.parseDouble(parts[1]);
        int count = Integer.parseInt(parts[2]);
        if (count < 1 || count > 10_000 || !Double.isFinite(from) || !Double.isFinite(to)) {
          throw new NumberFormatException();
        }
        double[] grid = new double[count];
        for (int i = 0; i < count; i++) {
          grid[i] = i == 0 ? from : i == count - 1 ? to : from + (to - from) * i / (count - 1);
        }
        return grid;
      } catch (NumberFormatException e) {
        throw new UsageException(
            key + ": '" + text + "' is not FROM:TO:COUNT (finite numbers, 1 <= COUNT <= 10000)");
      }
    }
  }

  /** The Levenshtein distance of {@code a} and {@code b}: edits of one character each. */
  private static int editDistance(String a, String b) {
    int[] previous = new int[b.length() + 1];
    for (int j = 0; j <= b.length(); j++) {
      previous[j] = j;
    }
    for (int i = 1; i <= a.length(); i++) {
      int[] current = new int[b.length() + 1];
      current[0] = i;
      for (int j = 1; j <= b.length(); j++) {
        int substitution = previous[j - 1] + (a.charAt(i - 1) == b.charAt(j - 1) ? 0 : 1);
        current[j] = Math.min(substitution, Math.min(previous[j], current[j - 1]) + 1);
      }
      previous = current;
    }
    return previous[b.length()];
  }
}
