package dev.l0.jobs.risk;

import dev.l0.jobs.Folders;
import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.channels.OverlappingFileLockException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.time.LocalDate;
import java.util.UUID;
import java.util.stream.Stream;

/**
 * The output folder of the risk batch, one valuation date at a time. Every dataset of a date lives
 * in {@code OUT/DATASET/valuation_date=D}. A run holds an OS file lock on {@code OUT/_locks/D.lock}
 * (released by the OS if the JVM dies, so a killed run leaves no stale lock), writes everything
 * into {@code OUT/_staging/D-UUID/new/}, then commits: it writes the marker {@code
 * OUT/_staging/D.commit} naming the staging folder, renames each live dataset folder aside and the
 * staged one into place, and deletes the marker and the old copies. A run killed while writing
 * leaves the live outputs untouched (its staging folder is removed by the next run of that date);
 * one killed during the renames leaves the marker, and the next run of that date finishes the swap
 * before it starts.
 */
final class RiskStore implements AutoCloseable {
  static final String[] DATASETS = {"positions", "books", "portfolio", "scenario_pnl", "report"};
  static final String PARTITION = "valuation_date";

  /** Another run holds this date's lock. */
  static final class LockedException extends Exception {
    private static final long serialVersionUID = 1L;

    LockedException(String message) {
      super(message);
    }
  }

  private final Path out;
  private final LocalDate date;
  private final FileChannel lockChannel;
  private final FileLock lock;
  private final Path staging;

  private RiskStore(Path out, LocalDate date, FileChannel lockChannel, FileLock lock) {
    this.out = out;
    this.date = date;
    this.lockChannel = lockChannel;
    this.lock = lock;
    this.staging = out.resolve("_staging").resolve(date + "-" + UUID.randomUUID());
  }

  /**
   * Takes the date's lock, finishes an interrupted commit of that date, and removes stale staging
   * folders.
   */
  static RiskStore open(Path out, LocalDate date) throws LockedException, IOException {
    Path lockFile = out.resolve("_locks").resolve(date + ".lock");
    Files.createDirectories(lockFile.getParent());
    FileChannel channel =
        FileChannel.open(lockFile, StandardOpenOption.CREATE, StandardOpenOption.WRITE);
    FileLock lock;
    try {
      lock = channel.tryLock();
    } catch (OverlappingFileLockException e) {
      lock = null;
    }
    if (lock == null) {
      channel.close();
      throw new LockedException(
          "another risk-batch run of " + date + " is running (it holds " + lockFile + ")");
    }
    RiskStore store = new RiskStore(out, date, channel, lock);
    store.recover();
    return store;
  }

  /** The live folder of a dataset for this date. */
  Path live(String dataset) {
    return out.resolve(dataset).resolve(PARTITION + "=" + date);
  }

  /** The folder a dataset of this run is written to before the commit. */
  Path staged(String dataset) {
    return staging.resolve("new").resolve(dataset).resolve(PARTITION + "=" + date);
  }

  /** Makes this run's staged datasets the live ones. */
  void commit() throws IOException {
    Path marker = marker();
    Path temporary = marker.resolveSibling(marker.getFileName() + ".tmp");
    Files.writeString(temporary, staging.getFileName().toString(), StandardCharsets.UTF_8);
    Files.move(temporary, marker, StandardCopyOption.ATOMIC_MOVE);
    rollForward(staging);
    Files.delete(marker);
    Folders.deleteRecursively(staging);
  }

  private Path marker() {
    return out.resolve("_staging").resolve(date + ".commit");
  }

  private void recover() throws IOException {
    Path marker = marker();
    if (Files.exists(marker)) {
      Path interrupted =
          marker.resolveSibling(Files.readString(marker, StandardCharsets.UTF_8).trim());
      rollForward(interrupted);
      Files.delete(marker);
    }
    Path stagingRoot = out.resolve("_staging");
    if (Files.isDirectory(stagingRoot)) {
      try (Stream<Path> leftovers = Files.list(stagingRoot)) {
        for (Path leftover : (Iterable<Path>) leftovers::iterator) {
          if (Files.isDirectory(leftover)
              && leftover.getFileName().toString().startsWith(date + "-")) {
            Folders.deleteRecursively(leftover);
          }
        }
      }
    }
  }

  /**
   * Moves each staged dataset of {@code stagingFolder} into place; safe to repeat after a crash.
   */
  private void rollForward(Path stagingFolder) throws IOException {
    for (String dataset : DATASETS) {
      Path partition = Path.of(PARTITION + "=" + date);
      Path fresh = stagingFolder.resolve("new").resolve(dataset).resolve(partition);
      if (!Files.exists(fresh)) {
        continue;
      }
      Path target = live(dataset);
      Path old = stagingFolder.resolve("old").resolve(dataset);
      Files.createDirectories(target.getParent());
      if (Files.exists(target)) {
        Files.createDirectories(old.getParent());
        Files.move(target, old, StandardCopyOption.ATOMIC_MOVE);
      }
      Files.move(fresh, target, StandardCopyOption.ATOMIC_MOVE);
    }
    Folders.deleteRecursively(stagingFolder.resolve("old"));
  }

  @Override
  public void close() throws IOException {
    try {
      if (Files.exists(staging)) {
        Folders.deleteRecursively(staging);
      }
    } finally {
      lock.release();
      lockChannel.close();
    }
  }
}
