package dev.l0.jobs.risk;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.l0.jobs.Folders;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.LocalDate;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The staging folders of {@link RiskStore} across dates: a run of any date removes those whose runs
 * are over, and never one a running run of another date writes into or one an interrupted commit
 * still needs. A killed run is a JVM of its own that halts after staging a file.
 */
class RiskStoreTest {
  private static final LocalDate KILLED = LocalDate.parse("2026-11-20");
  private static final LocalDate OTHER = LocalDate.parse("2026-11-21");

  @TempDir Path out;

  /** A run of {@code args[1]} under {@code args[0]} that stages a positions file and dies. */
  static final class KilledRun {
    public static void main(String[] args) throws Exception {
      RiskStore store = RiskStore.open(Path.of(args[0]), LocalDate.parse(args[1]));
      Path staged = Files.createDirectories(store.staged("positions"));
      Files.writeString(staged.resolve("part-0"), "staged by a run that was killed");
      Runtime.getRuntime().halt(0);
    }
  }

  @Test
  void aRunOfAnyDateRemovesTheStagingFolderOfAKilledRunOfAnother() throws Exception {
    killedRun(KILLED);
    assertEquals(1, stagingFolders().size(), "the killed run left its staging folder");

    try (RiskStore other = RiskStore.open(out, OTHER)) {
      assertEquals(List.of(), stagingFolders(), "the run of another date removed it");
    }
    assertEquals(List.of(), stagingFolders());
    assertEquals(
        List.of(KILLED + ".lock", OTHER + ".lock"), locks(), "no owner file is left behind");
  }

  @Test
  void aRunningRunsStagingFolderIsLeftAloneAndItsCommitStillWorks() throws Exception {
    try (RiskStore running = RiskStore.open(out, KILLED)) {
      Path staged = Files.createDirectories(running.staged("positions"));
      Files.writeString(staged.resolve("part-0"), "staged by a running run");
      try (RiskStore other = RiskStore.open(out, OTHER)) {
        assertEquals(1, stagingFolders().size(), "the running run's folder is still there");
      }
      running.commit();
      assertEquals(
          "staged by a running run",
          Files.readString(running.live("positions").resolve("part-0"), StandardCharsets.UTF_8));
    }
    assertEquals(List.of(), stagingFolders());
  }

  /**
   * A run killed in its commit's renames: its marker names its staging folder, which another date's
   * run keeps and the next run of its date rolls forward into the live outputs.
   */
  @Test
  void theFolderOfAnInterruptedCommitIsKeptForTheNextRunOfItsDate() throws Exception {
    killedRun(KILLED);
    Path interrupted = stagingFolders().get(0);
    Files.writeString(
        out.resolve("_staging").resolve(KILLED + ".commit"),
        interrupted.getFileName().toString(),
        StandardCharsets.UTF_8);

    try (RiskStore other = RiskStore.open(out, OTHER)) {
      assertEquals(List.of(interrupted), stagingFolders(), "the interrupted commit's folder stays");
    }
    try (RiskStore next = RiskStore.open(out, KILLED)) {
      assertEquals(
          "staged by a run that was killed",
          Files.readString(next.live("positions").resolve("part-0"), StandardCharsets.UTF_8));
      assertEquals(List.of(), stagingFolders());
      assertFalse(Files.exists(out.resolve("_staging").resolve(KILLED + ".commit")));
    }
  }

  /**
   * A commit that cannot make a dataset's folder (a file of its name under the output folder) fails
   * before it swaps anything: it swapped the datasets before that one in, and the failed run said
   * the date's outputs were unchanged, leaving a commit marker behind.
   */
  @Test
  void aCommitThatCannotPlaceADatasetSwapsNothing() throws Exception {
    try (RiskStore first = RiskStore.open(out, KILLED)) {
      for (String dataset : RiskStore.DATASETS) {
        Path staged = Files.createDirectories(first.staged(dataset));
        Files.writeString(staged.resolve("part-0"), "first run");
      }
      first.commit();
    }
    Folders.deleteRecursively(out.resolve("scenario_pnl"));
    Files.writeString(out.resolve("scenario_pnl"), "a file where a dataset's folder goes");
    try (RiskStore second = RiskStore.open(out, KILLED)) {
      for (String dataset : RiskStore.DATASETS) {
        Path staged = Files.createDirectories(second.staged(dataset));
        Files.writeString(staged.resolve("part-0"), "second run");
      }
      assertThrows(FileAlreadyExistsException.class, second::commit);
      assertEquals(
          "first run",
          Files.readString(second.live("positions").resolve("part-0"), StandardCharsets.UTF_8),
          "the previous positions are still the live ones");
    }
    assertFalse(Files.exists(out.resolve("_staging").resolve(KILLED + ".commit")), "no marker");
  }

  /** Runs {@link KilledRun} for {@code date} in a JVM of its own and waits for it to die. */
  private void killedRun(LocalDate date) throws IOException, InterruptedException {
    Process child =
        new ProcessBuilder(
                Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-cp",
                System.getProperty("java.class.path"),
                KilledRun.class.getName(),
                out.toString(),
                date.toString())
            .redirectErrorStream(true)
            .start();
    String log = new String(child.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    assertTrue(child.waitFor(60, TimeUnit.SECONDS), log);
    assertEquals(0, child.exitValue(), log);
  }

  private List<Path> stagingFolders() throws IOException {
    try (Stream<Path> entries = Files.list(out.resolve("_staging"))) {
      return entries.filter(Files::isDirectory).sorted().toList();
    }
  }

  private List<String> locks() throws IOException {
    try (Stream<Path> entries = Files.list(out.resolve("_locks"))) {
      return entries.map(entry -> entry.getFileName().toString()).sorted().toList();
    }
  }
}
