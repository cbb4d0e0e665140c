package dev.l0.spark.pipeline;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/**
 * The bounded cache behind the per-JVM program cache: least recently used values leave it beyond
 * its capacity, and a value that left is closed only when its last lease ends.
 */
class LeaseCacheTest {
  /** A value that counts how often it is closed. */
  private static final class Resource implements AutoCloseable {
    final String name;
    final AtomicInteger closes = new AtomicInteger();

    Resource(String name) {
      this.name = name;
    }

    @Override
    public void close() {
      closes.incrementAndGet();
    }
  }

  private final List<Resource> created = new ArrayList<>();

  private LeaseCache.Lease<Resource> get(LeaseCache<Resource> cache, String key) {
    return cache.get(
        key,
        () -> {
          Resource resource = new Resource(key);
          synchronized (created) {
            created.add(resource);
          }
          return resource;
        });
  }

  @Test
  void theLeastRecentlyUsedValueLeavesAndIsClosedAtOnceWhenNobodyLeasesIt() {
    LeaseCache<Resource> cache = new LeaseCache<>("test cache", 2);
    Resource a;
    try (LeaseCache.Lease<Resource> lease = get(cache, "a")) {
      a = lease.value();
    }
    get(cache, "b").close();
    get(cache, "a").close(); // a is now more recent than b
    Resource b = created.get(1);
    get(cache, "c").close();
    assertEquals(2, cache.size());
    assertEquals(1, b.closes.get(), "b left and nobody used it");
    assertEquals(0, a.closes.get());
    try (LeaseCache.Lease<Resource> again = get(cache, "b")) {
      assertTrue(again.createdNow());
      assertEquals(4, created.size());
    }
  }

  @Test
  void aValueThatLeftWhileLeasedIsClosedWhenTheLastLeaseEnds() {
    LeaseCache<Resource> cache = new LeaseCache<>("test cache", 1);
    LeaseCache.Lease<Resource> first = get(cache, "a");
    LeaseCache.Lease<Resource> second = get(cache, "a");
    assertTrue(first.createdNow());
    assertFalse(second.createdNow());
    assertSame(first.value(), second.value());
    get(cache, "b").close(); // a leaves the cache, two tasks still run it
    Resource a = first.value();
    assertEquals(0, a.closes.get());
    first.close();
    first.close(); // a second close of one lease does not count
    assertEquals(0, a.closes.get(), "the second lease still runs it");
    second.close();
    assertEquals(1, a.closes.get());
  }

  @Test
  void loweringTheCapacityDropsTheEldest() {
    LeaseCache<Resource> cache = new LeaseCache<>("test cache", 3);
    get(cache, "a").close();
    get(cache, "b").close();
    get(cache, "c").close();
    cache.limit(1);
    assertEquals(1, cache.size());
    assertEquals(List.of(1, 1, 0), created.stream().map(r -> r.closes.get()).toList());
    assertEquals(
        "the test cache must hold at least 1 entry, not 0",
        assertThrows(IllegalArgumentException.class, () -> cache.limit(0)).getMessage());
  }

  @Test
  void aFailedCreationLeavesNothingCached() {
    LeaseCache<Resource> cache = new LeaseCache<>("test cache", 2);
    assertThrows(
        IllegalStateException.class,
        () ->
            cache.get(
                "a",
                () -> {
                  throw new IllegalStateException("does not compile");
                }));
    assertEquals(0, cache.size());
    try (LeaseCache.Lease<Resource> lease = get(cache, "a")) {
      assertTrue(lease.createdNow());
    }
  }

  @Test
  void concurrentCallersOfOneKeyShareOneValueAndEvictionWaitsForAllOfThem() throws Exception {
    LeaseCache<Resource> cache = new LeaseCache<>("test cache", 1);
    int tasks = 8;
    CountDownLatch allLeased = new CountDownLatch(tasks);
    CountDownLatch evicted = new CountDownLatch(1);
    ExecutorService pool = Executors.newFixedThreadPool(tasks);
    try {
      List<Future<Resource>> used = new ArrayList<>();
      for (int t = 0; t < tasks; t++) {
        used.add(
            pool.submit(
                () -> {
                  try (LeaseCache.Lease<Resource> lease = get(cache, "shared")) {
                    allLeased.countDown();
                    assertTrue(evicted.await(30, TimeUnit.SECONDS));
                    assertEquals(
                        0, lease.value().closes.get(), "closed while a task still uses it");
                    return lease.value();
                  }
                }));
      }
      assertTrue(allLeased.await(30, TimeUnit.SECONDS));
      get(cache, "other").close();
      evicted.countDown();
      Resource shared = used.get(0).get(30, TimeUnit.SECONDS);
      for (Future<Resource> f : used) {
        assertSame(shared, f.get(30, TimeUnit.SECONDS));
      }
      assertEquals(1, shared.closes.get());
      assertEquals(2, created.size(), "one shared value and the other");
    } finally {
      pool.shutdownNow();
    }
  }
}
