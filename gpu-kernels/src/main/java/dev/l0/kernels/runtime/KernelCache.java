package dev.l0.kernels.runtime;

import java.io.IOException;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentMap;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.logging.Logger;
import java.util.stream.Stream;

/**
 * Compiled kernels on disk (ARCHITECTURE.md, "Runtime"), one file {@code <key>.ptx} per {@link
 * KernelCacheEntry#keyOf key}. Entries are written to a temporary file in the same folder and
 * renamed into place atomically, so a reader sees a whole entry or none, and writers of one key in
 * several threads or JVMs each leave a whole entry. Within a JVM one key is compiled once at a
 * time. A corrupt entry is deleted and recompiled, never loaded. Where the folder cannot be
 * written, kernels are still compiled and returned, and one line is logged.
 *
 * <p>The folder is the system property {@value #DIRECTORY_PROPERTY}, else the environment variable
 * {@value #DIRECTORY_VARIABLE}, else {@code ~/.cache/l0/kernels}.
 */
public final class KernelCache {
  public static final String DIRECTORY_PROPERTY = "l0.kernelCache.dir";
  public static final String DIRECTORY_VARIABLE = "L0_KERNEL_CACHE";

  private static final Logger LOG = Logger.getLogger(KernelCache.class.getName());
  private static final String ENTRY_SUFFIX = ".ptx";

  private final Path directory;
  private final PtxCompiler compiler;
  private final ConcurrentMap<String, Object> keyLocks = new ConcurrentHashMap<>();
  private final AtomicLong hits = new AtomicLong();
  private final AtomicLong misses = new AtomicLong();
  private final AtomicLong corruptEntries = new AtomicLong();
  private final AtomicBoolean unwritableLogged = new AtomicBoolean();

  public KernelCache(Path directory, PtxCompiler compiler) {
    this.directory = directory;
    this.compiler = compiler;
  }

  /** A cache in the folder the property, the variable or the default names. */
  public static KernelCache inDefaultDirectory(PtxCompiler compiler) {
    return new KernelCache(
        defaultDirectory(
            System.getProperty(DIRECTORY_PROPERTY),
            System.getenv(),
            System.getProperty("user.home")),
        compiler);
  }

  static Path defaultDirectory(String property, Map<String, String> environment, String userHome) {
    if (property != null && !property.isBlank()) {
      return Path.of(property);
    }
    String variable = environment.get(DIRECTORY_VARIABLE);
    if (variable != null && !variable.isBlank()) {
      return Path.of(variable);
    }
    return Path.of(userHome, ".cache", "l0", "kernels");
  }

  public Path directory() {
    return directory;
  }

  public KernelCacheStatistics statistics() {
    return new KernelCacheStatistics(hits.get(), misses.get(), corruptEntries.get());
  }

  /**
   * The PTX of {@code source}: the cached entry if a sound one exists, else freshly compiled and
   * stored.
   */
  public Ptx compile(String source, List<String> options, ComputeCapability target) {
    String key = KernelCacheEntry.keyOf(source, options, target, compiler.identity());
    Path entry = directory.resolve(key + ENTRY_SUFFIX);
    synchronized (keyLocks.computeIfAbsent(key, unused -> new Object())) {
      Optional<Ptx> cached = load(entry, key);
      if (cached.isPresent()) {
        hits.incrementAndGet();
        return cached.get();
      }
      misses.incrementAndGet();
      Ptx ptx = compiler.compile(source, options, target);
      store(entry, key, ptx);
      return ptx;
    }
  }

  private Optional<Ptx> load(Path entry, String key) {
    byte[] bytes;
    try {
      bytes = Files.readAllBytes(entry);
    } catch (NoSuchFileException e) {
      return Optional.empty();
    } catch (IOException e) {
      LOG.fine(
          () ->
              "kernel cache entry "
                  + entry
                  + " cannot be read ("
                  + FailureMessages.oneLine(e)
                  + "); recompiling");
      return Optional.empty();
    }
    Optional<Ptx> ptx = KernelCacheEntry.decode(key, bytes);
    if (ptx.isEmpty()) {
      corruptEntries.incrementAndGet();
      LOG.info(() -> "kernel cache entry " + entry + " is corrupt; deleted and recompiling");
      try {
        Files.deleteIfExists(entry);
      } catch (IOException e) {
        LOG.fine(
            () ->
                "corrupt kernel cache entry "
                    + entry
                    + " cannot be deleted ("
                    + FailureMessages.oneLine(e)
                    + ")");
      }
    }
    return ptx;
  }

  private void store(Path entry, String key, Ptx ptx) {
    try {
      Files.createDirectories(directory);
      Path temporary = Files.createTempFile(directory, key + ".", ".tmp");
      try {
        Files.write(temporary, KernelCacheEntry.encode(key, ptx));
        Files.move(temporary, entry, StandardCopyOption.ATOMIC_MOVE);
      } finally {
        Files.deleteIfExists(temporary);
      }
    } catch (AtomicMoveNotSupportedException e) {
      logUnwritable("cannot rename entries atomically there");
    } catch (IOException | SecurityException e) {
      logUnwritable(FailureMessages.oneLine(e));
    }
  }

  /** Logs the first failure to store as one warning line, later ones only at FINE. */
  private void logUnwritable(String reason) {
    String line =
        "kernel cache "
            + directory
            + " is not writable ("
            + reason
            + "); compiling without caching";
    if (unwritableLogged.compareAndSet(false, true)) {
      LOG.warning(line);
    } else {
      LOG.fine(line);
    }
  }

  /**
   * Removes a cache folder and its entries (a cache is one flat folder): for throwaway caches, such
   * as a cold-compile measurement's.
   */
  public static void deleteFolder(Path folder) throws IOException {
    try (Stream<Path> entries = Files.list(folder)) {
      for (Path entry : entries.toList()) {
        Files.deleteIfExists(entry);
      }
    }
    Files.deleteIfExists(folder);
  }
}
