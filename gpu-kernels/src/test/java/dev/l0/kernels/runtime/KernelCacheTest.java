package dev.l0.kernels.runtime;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@link KernelCache}: hits and misses, keys, corrupt entries, concurrent and atomic writes, an
 * unwritable folder.
 */
class KernelCacheTest {
  private static final String SOURCE = "extern \"C\" __global__ void k(double *v) { v[0] = 1.0; }";
  private static final List<String> OPTIONS = List.of("-fmad=false");
  private static final ComputeCapability HOPPER = new ComputeCapability(9, 0);

  @TempDir Path folder;

  @Test
  void secondCompileOfTheSameKernelIsAHitWithoutTheCompiler() {
    CountingCompiler compiler = new CountingCompiler("fake 1.0");
    KernelCache cache = new KernelCache(folder.resolve("cache"), compiler);
    Ptx first = cache.compile(SOURCE, OPTIONS, HOPPER);
    Ptx second = cache.compile(SOURCE, OPTIONS, HOPPER);
    assertEquals(CountingCompiler.expectedPtx(SOURCE, OPTIONS, HOPPER, 0), first.text());
    assertEquals(first, second);
    assertEquals(1, compiler.compilations());
    assertEquals(new KernelCacheStatistics(1, 1, 0), cache.statistics());
  }

  @Test
  void entriesOutliveTheCacheObject() {
    CountingCompiler compiler = new CountingCompiler("fake 1.0");
    new KernelCache(folder, compiler).compile(SOURCE, OPTIONS, HOPPER);
    KernelCache reopened = new KernelCache(folder, compiler);
    reopened.compile(SOURCE, OPTIONS, HOPPER);
    assertEquals(1, compiler.compilations());
    assertEquals(new KernelCacheStatistics(1, 0, 0), reopened.statistics());
  }

  @Test
  void everyPartOfTheKeyMakesADifferentEntry() {
    String base = KernelCacheEntry.keyOf(SOURCE, OPTIONS, HOPPER, "nvcc 13.0");
    List<String> keys =
        List.of(
            base,
            KernelCacheEntry.keyOf(SOURCE + " ", OPTIONS, HOPPER, "nvcc 13.0"),
            KernelCacheEntry.keyOf(SOURCE, List.of("-fmad=true"), HOPPER, "nvcc 13.0"),
            KernelCacheEntry.keyOf(SOURCE, List.of(), HOPPER, "nvcc 13.0"),
            KernelCacheEntry.keyOf(SOURCE, OPTIONS, new ComputeCapability(8, 0), "nvcc 13.0"),
            KernelCacheEntry.keyOf(SOURCE, OPTIONS, HOPPER, "nvcc 13.1"));
    assertEquals(keys.size(), keys.stream().distinct().count(), keys.toString());
    assertEquals(base, KernelCacheEntry.keyOf(SOURCE, OPTIONS, HOPPER, "nvcc 13.0"));
    assertNotEquals(
        KernelCacheEntry.keyOf("s", List.of("ab", "c"), HOPPER, "x"),
        KernelCacheEntry.keyOf("s", List.of("a", "bc"), HOPPER, "x"));
    assertTrue(base.matches("[0-9a-f]{64}"), base);
  }

  @Test
  void changedOptionsCapabilityOrCompilerVersionCompileAgain() throws IOException {
    CountingCompiler compiler = new CountingCompiler("fake 1.0");
    KernelCache cache = new KernelCache(folder, compiler);
    cache.compile(SOURCE, OPTIONS, HOPPER);
    Ptx other = cache.compile(SOURCE, List.of(), HOPPER);
    cache.compile(SOURCE, OPTIONS, new ComputeCapability(8, 6));
    assertEquals(3, compiler.compilations());
    assertEquals(CountingCompiler.expectedPtx(SOURCE, List.of(), HOPPER, 0), other.text());
    CountingCompiler upgraded = new CountingCompiler("fake 2.0");
    new KernelCache(folder, upgraded).compile(SOURCE, OPTIONS, HOPPER);
    assertEquals(1, upgraded.compilations());
    assertEquals(4, entries().size());
  }

  @Test
  void truncatedEntryIsRecompiledAndRewritten() throws IOException {
    assertCorruptionIsRepaired(bytes -> java.util.Arrays.copyOf(bytes, bytes.length - 7));
  }

  @Test
  void entryWithAFlippedByteIsRecompiledAndRewritten() throws IOException {
    assertCorruptionIsRepaired(
        bytes -> {
          byte[] flipped = bytes.clone();
          flipped[flipped.length - 3] ^= 0x20;
          return flipped;
        });
  }

  @Test
  void emptyOrForeignEntryIsRecompiled() throws IOException {
    assertCorruptionIsRepaired(bytes -> new byte[0]);
    assertCorruptionIsRepaired(
        bytes -> "just some text\nwithout the header".getBytes(StandardCharsets.UTF_8));
  }

  private void assertCorruptionIsRepaired(java.util.function.UnaryOperator<byte[]> corrupt)
      throws IOException {
    CountingCompiler compiler = new CountingCompiler("fake 1.0");
    KernelCache cache = new KernelCache(folder.resolve("corrupt-" + System.nanoTime()), compiler);
    Ptx original = cache.compile(SOURCE, OPTIONS, HOPPER);
    Path entry = Files.list(cache.directory()).findFirst().orElseThrow();
    byte[] sound = Files.readAllBytes(entry);
    Files.write(entry, corrupt.apply(sound));

    Ptx again = cache.compile(SOURCE, OPTIONS, HOPPER);
    assertEquals(original, again);
    assertEquals(2, compiler.compilations());
    assertEquals(new KernelCacheStatistics(0, 2, 1), cache.statistics());
    assertArrayEquals(sound, Files.readAllBytes(entry), "the entry is rewritten whole");
    cache.compile(SOURCE, OPTIONS, HOPPER);
    assertEquals(2, compiler.compilations(), "the rewritten entry is used");
  }

  @Test
  void entryForAnotherKeyIsNotLoaded() {
    Ptx ptx = new Ptx("// some ptx");
    byte[] entry = KernelCacheEntry.encode("a".repeat(64), ptx);
    assertEquals(Optional.of(ptx), KernelCacheEntry.decode("a".repeat(64), entry));
    assertEquals(Optional.empty(), KernelCacheEntry.decode("b".repeat(64), entry));
  }

  @Test
  void eightThreadsCompilingOneKeyLeaveOneSoundEntryAndCompileOnce() throws Exception {
    CountingCompiler compiler = new CountingCompiler("fake 1.0", 100_000);
    KernelCache cache = new KernelCache(folder, compiler);
    int threads = 8;
    ExecutorService pool = Executors.newFixedThreadPool(threads);
    CountDownLatch start = new CountDownLatch(1);
    try {
      List<Future<Ptx>> results = new ArrayList<>();
      for (int i = 0; i < threads; i++) {
        results.add(
            pool.submit(
                () -> {
                  start.await();
                  return cache.compile(SOURCE, OPTIONS, HOPPER);
                }));
      }
      start.countDown();
      for (Future<Ptx> result : results) {
        assertEquals(
            CountingCompiler.expectedPtx(SOURCE, OPTIONS, HOPPER, 100_000),
            result.get(30, TimeUnit.SECONDS).text());
      }
    } finally {
      pool.shutdownNow();
    }
    assertEquals(1, compiler.compilations());
    assertEquals(new KernelCacheStatistics(threads - 1, 1, 0), cache.statistics());
    List<Path> entries = entries();
    assertEquals(1, entries.size(), entries.toString());
    assertEquals(1, Files.list(folder).count(), "no temporary file is left");
    String key = entries.get(0).getFileName().toString().replace(".ptx", "");
    assertTrue(KernelCacheEntry.decode(key, Files.readAllBytes(entries.get(0))).isPresent());
  }

  @Test
  void twoCachesOnOneFolderWritingTheSameKeyLeaveASoundEntry() throws Exception {
    int writers = 8;
    ExecutorService pool = Executors.newFixedThreadPool(writers);
    CountDownLatch start = new CountDownLatch(1);
    try {
      List<Future<Ptx>> results = new ArrayList<>();
      for (int i = 0; i < writers; i++) {
        KernelCache separate = new KernelCache(folder, new CountingCompiler("fake 1.0", 200_000));
        results.add(
            pool.submit(
                () -> {
                  start.await();
                  return separate.compile(SOURCE, OPTIONS, HOPPER);
                }));
      }
      start.countDown();
      for (Future<Ptx> result : results) {
        result.get(30, TimeUnit.SECONDS);
      }
    } finally {
      pool.shutdownNow();
    }
    List<Path> entries = entries();
    assertEquals(1, entries.size());
    assertEquals(1, Files.list(folder).count(), "no temporary file is left");
    CountingCompiler reader = new CountingCompiler("fake 1.0", 200_000);
    new KernelCache(folder, reader).compile(SOURCE, OPTIONS, HOPPER);
    assertEquals(0, reader.compilations(), "the entry left behind is sound");
  }

  @Test
  void readersNeverSeeAPartialEntry() throws Exception {
    CountingCompiler compiler = new CountingCompiler("fake 1.0", 2_000_000);
    KernelCache cache = new KernelCache(folder, compiler);
    AtomicBoolean writing = new AtomicBoolean(true);
    List<String> partial = new CopyOnWriteArrayList<>();
    Thread watcher =
        new Thread(
            () -> {
              while (writing.get()) {
                try (Stream<Path> files = Files.list(folder)) {
                  for (Path file :
                      files.filter(path -> path.toString().endsWith(".ptx")).toList()) {
                    String key = file.getFileName().toString().replace(".ptx", "");
                    if (KernelCacheEntry.decode(key, Files.readAllBytes(file)).isEmpty()) {
                      partial.add(file.toString());
                    }
                  }
                } catch (IOException e) {
                  // the folder may not exist yet; try again
                }
              }
            });
    watcher.start();
    try {
      for (int i = 0; i < 20; i++) {
        cache.compile(SOURCE + " // " + i, OPTIONS, HOPPER);
      }
    } finally {
      writing.set(false);
      watcher.join();
    }
    assertEquals(List.of(), partial);
    assertEquals(20, entries().size());
  }

  @Test
  void unwritableFolderStillCompilesAndLogsOneLine() throws IOException {
    Path notAFolder = Files.writeString(folder.resolve("a-file"), "in the cache folder's place");
    CountingCompiler compiler = new CountingCompiler("fake 1.0");
    KernelCache cache = new KernelCache(notAFolder.resolve("kernels"), compiler);
    try (LogRecorder log = new LogRecorder(KernelCache.class)) {
      Ptx first = cache.compile(SOURCE, OPTIONS, HOPPER);
      Ptx second = cache.compile(SOURCE + " ", OPTIONS, HOPPER);
      cache.compile(SOURCE, OPTIONS, HOPPER);
      assertEquals(CountingCompiler.expectedPtx(SOURCE, OPTIONS, HOPPER, 0), first.text());
      assertEquals(CountingCompiler.expectedPtx(SOURCE + " ", OPTIONS, HOPPER, 0), second.text());
      assertEquals(3, compiler.compilations());
      assertEquals(1, log.lines().size(), log.lines().toString());
      assertTrue(
          log.lines().get(0).contains("is not writable")
              && log.lines().get(0).contains("compiling without caching"),
          log.lines().get(0));
    }
  }

  @Test
  void folderComesFromThePropertyThenTheVariableThenTheHome() {
    Map<String, String> environment = Map.of(KernelCache.DIRECTORY_VARIABLE, "/from/variable");
    assertEquals(
        Path.of("/from/property"),
        KernelCache.defaultDirectory("/from/property", environment, "/home/u"));
    assertEquals(
        Path.of("/from/variable"), KernelCache.defaultDirectory(null, environment, "/home/u"));
    assertEquals(
        Path.of("/home/u/.cache/l0/kernels"),
        KernelCache.defaultDirectory(" ", Map.of(), "/home/u"));
  }

  private List<Path> entries() throws IOException {
    try (Stream<Path> files = Files.walk(folder)) {
      return files.filter(path -> path.toString().endsWith(".ptx")).toList();
    }
  }

  @Test
  void entriesAreNamedByTheirKey() throws IOException {
    KernelCache cache = new KernelCache(folder, new CountingCompiler("fake 1.0"));
    cache.compile(SOURCE, OPTIONS, HOPPER);
    String key = KernelCacheEntry.keyOf(SOURCE, OPTIONS, HOPPER, "fake 1.0");
    assertEquals(List.of(folder.resolve(key + ".ptx")), entries());
    assertFalse(Files.readString(folder.resolve(key + ".ptx"), StandardCharsets.UTF_8).isEmpty());
  }
}
