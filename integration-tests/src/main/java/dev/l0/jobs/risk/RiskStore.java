package dev.l0.jobs.risk;

import dev.l0.jobs.Folders;
import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.channels.OverlappingFileLockException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.time.LocalDate;
import java.util.Arrays;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.UUID;
import java.util.stream.Stream;

/**
 * The output folder of the risk batch, one valuation date at a time. Every dataset of a date lives
 * in {@code OUT/DATASET/valuation_date=D}. A run holds an OS file lock on {@code OUT/_locks/D.lock}
 * (released by the OS if the JVM dies, so a killed run leaves no stale lock), writes everything
 * into {@code OUT/_staging/D-UUID/new/}, then commits: it writes the marker {@code
 * OUT/_staging/D.commit} naming the staging folder, renames each live dataset folder aside and the
 * staged one into place, and deletes the marker and the old copies. A run killed while writing
 * leaves the live outputs untouched; one killed during the renames leaves the marker, and the next
 * run of that date finishes the swap before it starts.
 *
 * <p>A run also holds an OS lock on its staging folder's owner file, {@code
 * OUT/_locks/D-UUID.owner}, taken before the folder exists and kept until the run ends, so whoever
 * can take that lock knows the folder's run is over (committed, failed or killed). Every run, of
 * any date, removes such finished staging folders, with their owner files, when it starts, except
 * the one a date's commit marker names: that commit was interrupted and only the next run of its
 * date may finish it. A run leaves alone the owner file of another date with no staging folder
 * (that run may be just starting) and a folder with no owner file (one an older version wrote); the
 * next run of their date removes both, since it holds the date's lock.
 */
final class RiskStore implements AutoCloseable {
  static final String[] DATASETS = {"positions", "books", "portfolio", "scenario_pnl", "report"};
  static final String PARTITION = "valuation_date";

  /** The folder of {@code OUT} that holds the runs' staging folders and commit markers. */
  static final String STAGING = "_staging";

  /** The folder of {@code OUT} that holds the dates' locks and the runs' owner files. */
  static final String LOCKS = "_locks";

  /** The folders a run writes in under {@code OUT}: the datasets', staging and locks. */
  static final List<String> WRITTEN_FOLDERS =
      Stream.concat(Arrays.stream(DATASETS), Stream.of(STAGING, LOCKS)).toList();

  /** The suffix of a staging folder's owner file in {@code OUT/_locks}. */
  static final String OWNER = ".owner";

  /** The length of a date in ISO form, the start of a staging folder's name. */
  private static final int DATE_LENGTH = "2026-11-28".length();

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
  private final String stagingName;
  private final Path staging;
  private final FileChannel ownerChannel;
  private final FileLock ownerLock;

  private RiskStore(
      Path out,
      LocalDate date,
      FileChannel lockChannel,
      FileLock lock,
      String stagingName,
      FileChannel ownerChannel,
      FileLock ownerLock) {
    this.out = out;
    this.date = date;
    this.lockChannel = lockChannel;
    this.lock = lock;
    this.stagingName = stagingName;
    this.staging = out.resolve(STAGING).resolve(stagingName);
    this.ownerChannel = ownerChannel;
    this.ownerLock = ownerLock;
  }

  /**
   * Takes the date's lock and this run's owner lock, finishes an interrupted commit of that date,
   * and removes the staging folders whose runs are over.
   */
  static RiskStore open(Path out, LocalDate date) throws LockedException, IOException {
    Path lockFile = out.resolve(LOCKS).resolve(date + ".lock");
    Files.createDirectories(lockFile.getParent());
    FileChannel channel =
        FileChannel.open(lockFile, StandardOpenOption.CREATE, StandardOpenOption.WRITE);
    FileLock lock = tryLock(channel);
    if (lock == null) {
      channel.close();
      throw new LockedException(
          "another risk-batch run of " + date + " is running (it holds " + lockFile + ")");
    }
    String stagingName = date + "-" + UUID.randomUUID();
    FileChannel ownerChannel =
        FileChannel.open(
            ownerFile(out, stagingName), StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE);
    RiskStore store =
        new RiskStore(out, date, channel, lock, stagingName, ownerChannel, ownerChannel.lock());
    try {
      store.recover();
    } catch (IOException | RuntimeException e) {
      store.close();
      throw e;
    }
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

  /**
   * Makes this run's staged datasets the live ones. Every dataset's folder is made before the
   * marker is written and the first is swapped: one that cannot be (a file of its name) fails the
   * commit while the live outputs are all still the previous ones; it failed after swapping the
   * datasets before it, and the failed run said the outputs were unchanged.
   */
  void commit() throws IOException {
    for (String dataset : DATASETS) {
      Files.createDirectories(live(dataset).getParent());
    }
    Path marker = marker();
    Path temporary = marker.resolveSibling(marker.getFileName() + ".tmp");
    Files.writeString(temporary, staging.getFileName().toString(), StandardCharsets.UTF_8);
    Files.move(temporary, marker, StandardCopyOption.ATOMIC_MOVE);
    rollForward(staging);
    Files.delete(marker);
    Folders.deleteRecursively(staging);
  }

  private Path marker() {
    return marker(date.toString());
  }

  /** The commit marker of the date {@code isoDate}. */
  private Path marker(String isoDate) {
    return out.resolve(STAGING).resolve(isoDate + ".commit");
  }

  private static Path ownerFile(Path out, String stagingName) {
    return out.resolve(LOCKS).resolve(stagingName + OWNER);
  }

  private void recover() throws IOException {
    Path marker = marker();
    if (Files.exists(marker)) {
      Path interrupted =
          marker.resolveSibling(Files.readString(marker, StandardCharsets.UTF_8).trim());
      rollForward(interrupted);
      Files.delete(marker);
    }
    Set<String> names = new TreeSet<>();
    Path stagingRoot = out.resolve(STAGING);
    if (Files.isDirectory(stagingRoot)) {
      try (Stream<Path> folders = Files.list(stagingRoot)) {
        folders
            .filter(Files::isDirectory)
            .forEach(folder -> names.add(folder.getFileName().toString()));
      }
    }
    try (Stream<Path> locks = Files.list(out.resolve(LOCKS))) {
      locks
          .map(file -> file.getFileName().toString())
          .filter(name -> name.endsWith(OWNER))
          .forEach(name -> names.add(name.substring(0, name.length() - OWNER.length())));
    }
    names.remove(stagingName);
    for (String name : names) {
      removeIfFinished(name);
    }
  }

  /**
   * Removes the staging folder {@code name} and its owner file where its run is over and no commit
   * marker names it; see the class comment for the folders and owner files left alone.
   */
  private void removeIfFinished(String name) throws IOException {
    Path folder = out.resolve(STAGING).resolve(name);
    Path owner = ownerFile(out, name);
    boolean ofThisDate = name.startsWith(date + "-");
    if (!ofThisDate && !Files.isDirectory(folder)) {
      return;
    }
    if (!Files.exists(owner)) {
      if (ofThisDate) {
        Folders.deleteRecursively(folder);
      }
      return;
    }
    FileChannel channel;
    try {
      channel = FileChannel.open(owner, StandardOpenOption.WRITE);
    } catch (NoSuchFileException removedMeanwhile) {
      return;
    }
    try (channel) {
      FileLock finished = tryLock(channel);
      if (finished == null) {
        return; // its run is running, or another run is removing it
      }
      try {
        if (!named(marker(name.substring(0, DATE_LENGTH)), name)) {
          Folders.deleteRecursively(folder);
          Files.deleteIfExists(owner);
        }
      } finally {
        finished.release();
      }
    }
  }

  /** Whether the commit marker {@code marker} exists and names the staging folder {@code name}. */
  private static boolean named(Path marker, String name) throws IOException {
    try {
      return Files.readString(marker, StandardCharsets.UTF_8).trim().equals(name);
    } catch (NoSuchFileException none) {
      return false;
    }
  }

  /**
   * The lock of {@code channel}'s file, or {@code null} where a process (this one too) holds it.
   */
  private static FileLock tryLock(FileChannel channel) throws IOException {
    try {
      return channel.tryLock();
    } catch (OverlappingFileLockException heldInThisJvm) {
      return null;
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
      Folders.deleteRecursively(staging);
      Files.deleteIfExists(ownerFile(out, stagingName));
    } finally {
      ownerLock.release();
      ownerChannel.close();
      lock.release();
      lockChannel.close();
    }
  }
}
