package dev.l0.jobs.risk;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.AccessDeniedException;
import java.nio.file.FileSystemException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The risk batch's settings: values a run could not use are usage errors naming their key. */
class RiskSettingsTest {
  @TempDir Path folder;

  RiskSettings parse(String line) throws IOException, RiskSettings.UsageException {
    Path config = Files.writeString(folder.resolve("risk.properties"), line + "\n");
    return RiskSettings.parse(new String[] {"--config", config.toString()});
  }

  /**
   * A wrapper script's --date and the user's would otherwise value the portfolio for the last one
   * without a word, and an option missing its value would take the next option as its path.
   */
  @Test
  void anOptionGivenTwiceOrFollowedByAnotherOptionIsAUsageError() {
    RiskSettings.UsageException twice =
        assertThrows(
            RiskSettings.UsageException.class,
            () ->
                RiskSettings.parse(
                    new String[] {"--date", "2026-11-26", "--out", "o", "--date", "2026-11-27"}));
    assertEquals(
        "option '--date' given twice ('2026-11-26' and '2026-11-27')",
        twice.getMessage().lines().findFirst().orElseThrow());
    RiskSettings.UsageException swallowed =
        assertThrows(
            RiskSettings.UsageException.class,
            () -> RiskSettings.parse(new String[] {"--out", "--master", "local[2]"}));
    assertEquals(
        "option '--out' needs a value", swallowed.getMessage().lines().findFirst().orElseThrow());
  }

  /** The message said only the file's name twice ("cannot read the config file f: f"). */
  @Test
  void aConfigFileThatCannotBeReadIsNamedWithWhy(@TempDir Path folder) {
    Path missing = folder.resolve("no such.properties");
    assertEquals(
        "cannot read the config file " + missing + ": no such file",
        assertThrows(
                RiskSettings.UsageException.class,
                () -> RiskSettings.parse(new String[] {"--config", missing.toString()}))
            .getMessage());
    assertEquals(
        "cannot read the config file " + folder + ": Is a directory",
        assertThrows(
                RiskSettings.UsageException.class,
                () -> RiskSettings.parse(new String[] {"--config", folder.toString()}))
            .getMessage());
  }

  /**
   * An output folder in which nothing can be written (read-only, another user's) failed only after
   * Spark started and the inputs were read, as the lock file's I/O error (exit 1): a usage error
   * before, for the folder itself, a dataset's folder in it, or the nearest folder above one that
   * does not exist yet. A folder made read-only (else, for root, whom permissions do not stop,
   * /sys/fs, where no one can make a folder).
   */
  @Test
  void anOutputFolderThatCannotBeWrittenIsAUsageError(@TempDir Path folder) throws Exception {
    Path readOnly = Files.createDirectories(folder.resolve("read-only"));
    Files.setPosixFilePermissions(readOnly, PosixFilePermissions.fromString("r-xr-xr-x"));
    Path unwritable =
        Stream.of(readOnly, Path.of("/sys/fs"))
            .filter(RiskSettingsTest::cannotMakeAFolderIn)
            .findFirst()
            .orElse(null);
    Assumptions.assumeTrue(unwritable != null, "needs a folder in which no folder can be made");
    try {
      String why = unwritable.equals(readOnly) ? "permission denied" : whyNot(unwritable);
      assertEquals(
          "risk.out: cannot write in "
              + unwritable
              + " ("
              + why
              + "); the run writes its locks, staging folder and outputs there",
          assertThrows(
                  RiskSettings.UsageException.class,
                  () -> RiskSettings.parse(new String[] {"--out", unwritable.toString()}))
              .getMessage());
      Path below = unwritable.resolve("risk").resolve("out");
      assertEquals(
          "risk.out: cannot create the folder "
              + below
              + ": no folder can be made in "
              + unwritable
              + " ("
              + why
              + ")",
          assertThrows(
                  RiskSettings.UsageException.class,
                  () -> RiskSettings.parse(new String[] {"--out", below.toString()}))
              .getMessage());
    } finally {
      Files.setPosixFilePermissions(readOnly, PosixFilePermissions.fromString("rwxr-xr-x"));
    }
    if (unwritable.equals(readOnly)) {
      Path out = Files.createDirectories(folder.resolve("out"));
      Path books = Files.createDirectories(out.resolve("books"));
      Files.setPosixFilePermissions(books, PosixFilePermissions.fromString("r-xr-xr-x"));
      assertEquals(
          "risk.out: cannot write in "
              + books
              + " (permission denied); the run writes its locks, staging folder and outputs there",
          assertThrows(
                  RiskSettings.UsageException.class,
                  () -> RiskSettings.parse(new String[] {"--out", out.toString()}))
              .getMessage());
    }
  }

  /** Whether making a folder in {@code folder} fails. */
  private static boolean cannotMakeAFolderIn(Path folder) {
    return !whyNot(folder).isEmpty();
  }

  /** Why no folder can be made in {@code folder}, as the settings say it; empty if one can. */
  private static String whyNot(Path folder) {
    try {
      Files.delete(Files.createTempDirectory(folder, "probe"));
      return "";
    } catch (AccessDeniedException e) {
      return "permission denied";
    } catch (IOException e) {
      return e instanceof FileSystemException f && f.getReason() != null
          ? f.getReason()
          : e.getClass().getSimpleName();
    }
  }

  /** An output folder that is a file failed only after Spark started and the inputs were read. */
  @Test
  void anOutputFolderThatIsAFileIsAUsageError(@TempDir Path folder) throws Exception {
    Path file = Files.writeString(folder.resolve("out put"), "not a folder");
    RiskSettings.UsageException itself =
        assertThrows(
            RiskSettings.UsageException.class,
            () -> RiskSettings.parse(new String[] {"--out", file.toString()}));
    assertEquals("risk.out: " + file + " is a file, not a folder", itself.getMessage());
    RiskSettings.UsageException parent =
        assertThrows(
            RiskSettings.UsageException.class,
            () -> RiskSettings.parse(new String[] {"--out", file.resolve("day").toString()}));
    assertEquals(
        "risk.out: " + file.resolve("day") + ": " + file + " is a file, not a folder",
        parent.getMessage());
    Path fresh = folder.resolve("new folder").resolve("day");
    assertEquals(fresh, RiskSettings.parse(new String[] {"--out", fresh.toString()}).out());
  }

  /**
   * A spot shock of -1 or below takes every spot to zero or below (spot * (1 + shock)), where the
   * prices are NaN: a usage error (exit 2), not a run that values positions at NaN.
   */
  @Test
  void aSpotShockThatTakesSpotsToZeroOrBelowIsAUsageError() throws Exception {
    String[][] grids = {{"-2:0.25:10", "-2.0"}, {"-1:0.25:10", "-1.0"}, {"0.5:-1.5:3", "-1.5"}};
    for (String[] grid : grids) {
      RiskSettings.UsageException e =
          assertThrows(
              RiskSettings.UsageException.class,
              () -> parse("risk.scenarios.spotShocks=" + grid[0]),
              grid[0]);
      assertEquals(
          "risk.scenarios.spotShocks: a shock of "
              + grid[1]
              + " takes spots to zero or below (spot * (1 + shock)); each must be above -1",
          e.getMessage());
    }
    assertArrayEquals(
        new double[] {-0.99, 0.0, 0.99},
        parse("risk.scenarios.spotShocks=-0.99:0.99:3").spotShocks());
  }

  /**
   * A volatility shock above 100 is a usage error: a volatility of 1e200 overflowed Black-Scholes'
   * v * v, and the options were valued at their limits' wrong sides without a word.
   */
  @Test
  void aVolatilityShockAboveTheLargestVolatilityIsAUsageError() {
    assertEquals(
        "risk.scenarios.volShocks: a shock of 1.0E200 is above 100.0 (10,000% a year), the most"
            + " volatility the job values",
        assertThrows(
                RiskSettings.UsageException.class,
                () -> parse("risk.scenarios.volShocks=0:1e200:2"))
            .getMessage());
  }

  /**
   * A grid of more scenarios than {@value RiskSettings#MAX_SCENARIOS} is a usage error: each grid
   * took up to 10,000 shocks, so 2,000 x 2,000 shocks (4,000,000 scenarios) ran out of memory after
   * the inputs were read (Spark's context shut down: exit 1), and 3,000 x 3,000 had not finished
   * after 16 minutes, on 4 positions.
   */
  @Test
  void aGridOfTooManyScenariosIsAUsageError() throws Exception {
    RiskSettings.UsageException e =
        assertThrows(
            RiskSettings.UsageException.class,
            () ->
                parse(
                    "risk.scenarios.spotShocks=-0.2:0.2:2000\n"
                        + "risk.scenarios.volShocks=-0.1:0.1:2000"));
    assertEquals(
        "risk.scenarios.spotShocks x risk.scenarios.volShocks: 2000 x 2000 = 4000000 scenarios,"
            + " more than "
            + RiskSettings.MAX_SCENARIOS
            + " (every position carries a P&L per scenario)",
        e.getMessage());
    assertEquals(
        RiskSettings.MAX_SCENARIOS,
        parse("risk.scenarios.spotShocks=-0.2:0.2:250\nrisk.scenarios.volShocks=-0.1:0.1:400")
            .scenarioCount());
  }

  /**
   * A misspelt key ran the defaults without a word ({@code risk.mc.path=64} left 256 paths): a key
   * no setting reads is a usage error naming the nearest key; every key of the shipped config file
   * is read.
   */
  @Test
  void aKeyNoSettingReadsIsAUsageErrorNamingTheNearestKey() throws Exception {
    Path config = folder.resolve("risk.properties");
    assertEquals(
        config
            + ": unknown key 'risk.mc.path' (did you mean 'risk.mc.paths'?); the keys and their"
            + " defaults are in conf/risk-batch.properties",
        assertThrows(RiskSettings.UsageException.class, () -> parse("risk.mc.path=64"))
            .getMessage());
    assertEquals(
        config
            + ": unknown key 'risk.portfolio.owner'; the keys and their defaults are in"
            + " conf/risk-batch.properties",
        assertThrows(RiskSettings.UsageException.class, () -> parse("risk.portfolio.owner=ops"))
            .getMessage());
    assertEquals(
        config
            + ": unknown key 'config'; the keys and their defaults are in"
            + " conf/risk-batch.properties",
        assertThrows(RiskSettings.UsageException.class, () -> parse("config=other.properties"))
            .getMessage());
    List<String> shipped = new ArrayList<>();
    for (String line : Files.readAllLines(Path.of("..", "conf", "risk-batch.properties"))) {
      if (line.matches("#?risk\\.[A-Za-z.]+=.*")) {
        shipped.add(line.replaceFirst("^#", ""));
      }
    }
    assertEquals(
        256, parse(String.join("\n", shipped)).monteCarloPaths(), "every shipped key is read");
  }

  /** A value the command line gave is named by its option as well as by its key. */
  @Test
  void aBadDateNamesItsOption() {
    assertEquals(
        "--date (risk.date): '2026-13-01' is not a date YYYY-MM-DD",
        assertThrows(
                RiskSettings.UsageException.class,
                () -> RiskSettings.parse(new String[] {"--date", "2026-13-01"}))
            .getMessage());
  }

  /**
   * A byte order mark (Windows editors write one) was read as the first key's first character:
   * "unknown key 'risk.mc.paths' (did you mean 'risk.mc.paths'?)".
   */
  @Test
  void aByteOrderMarkBeforeTheFirstKeyIsNoPartOfIt() throws Exception {
    assertEquals(8, parse("\uFEFFrisk.mc.paths=8").monteCarloPaths());
  }

  /** A config file in Latin-1 said only "cannot read the config file F: Input length = 1". */
  @Test
  void aConfigFileThatIsNotUtf8IsAUsageErrorAtItsLine() throws Exception {
    Path config =
        Files.write(
            folder.resolve("latin1.properties"),
            "risk.mc.paths=8\nrisk.out=caf\u00e9\n".getBytes(StandardCharsets.ISO_8859_1));
    assertEquals(
        "cannot read the config file "
            + config
            + ": line 2, column 13: not UTF-8 text: invalid byte sequence at byte offset 28 (0xe9)",
        assertThrows(
                RiskSettings.UsageException.class,
                () -> RiskSettings.parse(new String[] {"--config", config.toString()}))
            .getMessage());
  }

  /**
   * A key given twice in the config file ran with the last value without a word, where an option
   * given twice on the command line is refused.
   */
  @Test
  void aKeyGivenTwiceInTheConfigFileIsAUsageError() {
    assertEquals(
        folder.resolve("risk.properties") + ": key 'risk.mc.paths' given twice ('8' and '16')",
        assertThrows(
                RiskSettings.UsageException.class, () -> parse("risk.mc.paths=8\nrisk.mc.paths=16"))
            .getMessage());
  }

  /**
   * An output folder that is an input folder, or holds an input where the run writes: with {@code
   * --portfolio EOD/portfolio --out EOD} the run wrote its portfolio aggregate into the input
   * folder, and the next day's run read it as a position ("row 1, column 'id': null"); with {@code
   * --out} the input folder itself, the next run found it "not Parquet". An input file beside the
   * outputs is fine.
   */
  @Test
  void anOutputFolderAmongTheInputsIsAUsageError() throws Exception {
    Path eod = Files.createDirectories(folder.resolve("eod"));
    Path portfolio = Files.createDirectories(eod.resolve("portfolio"));
    Path market = Files.writeString(eod.resolve("market.csv"), "underlying,spot,volatility,rate\n");
    String[][] cases = {
      {
        eod.toString(),
        portfolio.toString(),
        "risk.out: the input --portfolio (risk.portfolio) "
            + portfolio
            + " is in "
            + eod.resolve("portfolio")
            + ", where the run writes its outputs"
      },
      {
        portfolio.toString(),
        portfolio.toString(),
        "risk.out: "
            + portfolio
            + " is the input --portfolio (risk.portfolio) "
            + portfolio
            + "; the run would write its outputs among its inputs"
      },
      {
        portfolio.resolve("out").toString(),
        portfolio.toString(),
        "risk.out: "
            + portfolio.resolve("out")
            + " is inside the input --portfolio (risk.portfolio) "
            + portfolio
            + "; the run would write its outputs among its inputs"
      },
      {
        eod.resolve("..").resolve("eod").toString(),
        eod.resolve("positions/day.csv").toString(),
        "risk.out: the input --portfolio (risk.portfolio) "
            + eod.resolve("positions/day.csv")
            + " is in "
            + eod.resolve("..").resolve("eod").resolve("positions")
            + ", where the run writes its outputs"
      }
    };
    for (String[] c : cases) {
      assertEquals(
          c[2],
          assertThrows(
                  RiskSettings.UsageException.class,
                  () ->
                      RiskSettings.parse(
                          new String[] {
                            "--out", c[0], "--portfolio", c[1], "--market", market.toString()
                          }))
              .getMessage());
    }
    Path beside = Files.writeString(eod.resolve("portfolio.csv"), "id\n");
    assertEquals(
        eod,
        RiskSettings.parse(
                new String[] {
                  "--out",
                  eod.toString(),
                  "--portfolio",
                  beside.toString(),
                  "--market",
                  market.toString()
                })
            .out());
  }

  /**
   * A file where a dataset's folder goes under the output folder ({@code OUT/scenario_pnl}) failed
   * the run's commit after it had swapped the datasets before it in.
   */
  @Test
  void aFileNamedAsADatasetInTheOutputFolderIsAUsageError() throws Exception {
    Path out = Files.createDirectories(folder.resolve("out"));
    Files.writeString(out.resolve("scenario_pnl"), "not a folder");
    assertEquals(
        "risk.out: "
            + out.resolve("scenario_pnl")
            + " is a file, not a folder (the run writes "
            + out.resolve("scenario_pnl").resolve("valuation_date=D")
            + ")",
        assertThrows(
                RiskSettings.UsageException.class,
                () -> RiskSettings.parse(new String[] {"--out", out.toString()}))
            .getMessage());
  }

  /** 100,000 partitions had not valued 4 positions on local[2] after 5 minutes. */
  @Test
  void moreThanTheMostPartitionsIsAUsageError() throws Exception {
    assertEquals(
        "risk.partitions: 100000 is more than "
            + RiskSettings.MAX_PARTITIONS
            + " (every stage of the batch runs a task per partition)",
        assertThrows(RiskSettings.UsageException.class, () -> parse("risk.partitions=100000"))
            .getMessage());
    assertEquals(
        RiskSettings.MAX_PARTITIONS,
        parse("risk.partitions=" + RiskSettings.MAX_PARTITIONS).partitions());
  }
}
