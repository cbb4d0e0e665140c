package dev.l0.spark.pipeline;

import java.util.ArrayList;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A thread-safe cache of closeable values by key that holds at most its capacity of them, dropping
 * the least recently used beyond that, and hands each value out as a {@link Lease}. A dropped value
 * is closed when the last lease on it ends (at once if none is open), never while a holder may
 * still use it. Each value is created once, by the first caller that asks for its key, outside the
 * cache's lock (other keys are served meanwhile; callers of the same key wait). A creation that
 * throws leaves nothing cached.
 */
final class LeaseCache<V extends AutoCloseable> {
  private static final Logger LOG = LoggerFactory.getLogger(LeaseCache.class);

  private final String name;

  /**
   * Least recently used first. Guarded by {@code this}, as are the entries' users and dropped
   * fields.
   */
  private final LinkedHashMap<String, Entry<V>> entries = new LinkedHashMap<>(16, 0.75f, true);

  private int capacity;

  /**
   * An empty cache named {@code name} in errors and logs, holding at most {@code capacity} values.
   */
  LeaseCache(String name, int capacity) {
    this.name = name;
    this.capacity = checkedCapacity(capacity);
  }

  /**
   * Holds at most {@code capacity} values from now on, dropping the least recently used beyond
   * that.
   */
  void limit(int capacity) {
    List<Entry<V>> closable;
    synchronized (this) {
      this.capacity = checkedCapacity(capacity);
      closable = dropBeyondCapacity();
    }
    closable.forEach(this::closeValue);
  }

  /** How many values the cache holds now (dropped values still leased are not counted). */
  synchronized int size() {
    return entries.size();
  }

  /**
   * A lease on the value of {@code key}, made by {@code create} unless cached; the caller closes
   * the lease.
   */
  Lease<V> get(String key, Supplier<V> create) {
    Entry<V> entry;
    List<Entry<V>> closable;
    synchronized (this) {
      entry = entries.computeIfAbsent(key, Entry::new);
      entry.users++;
      closable = dropBeyondCapacity();
    }
    closable.forEach(this::closeValue);
    try {
      return new Lease<>(this, entry, entry.createOnce(create));
    } catch (RuntimeException | Error e) {
      synchronized (this) {
        entries.remove(key, entry);
        entry.dropped = true; // a caller that creates it after this failure closes it when done
      }
      release(entry);
      throw e;
    }
  }

  private int checkedCapacity(int capacity) {
    if (capacity < 1) {
      throw new IllegalArgumentException(
          "the " + name + " must hold at least 1 entry, not " + capacity);
    }
    return capacity;
  }

  /**
   * Removes the entries beyond the capacity, least recently used first; returns those nobody
   * leases, to close.
   */
  private List<Entry<V>> dropBeyondCapacity() {
    List<Entry<V>> closable = new ArrayList<>();
    Iterator<Map.Entry<String, Entry<V>>> eldestFirst = entries.entrySet().iterator();
    while (entries.size() > capacity && eldestFirst.hasNext()) {
      Entry<V> dropped = eldestFirst.next().getValue();
      eldestFirst.remove();
      dropped.dropped = true;
      if (dropped.users == 0) {
        closable.add(dropped);
      }
    }
    return closable;
  }

  private void release(Entry<V> entry) {
    boolean close;
    synchronized (this) {
      entry.users--;
      close = entry.users == 0 && entry.dropped;
    }
    if (close) {
      closeValue(entry);
    }
  }

  private void closeValue(Entry<V> entry) {
    V value = entry.value();
    if (value == null) {
      return;
    }
    try {
      value.close();
    } catch (Exception e) {
      LOG.warn("closing {} of the {}, dropped from it, failed", entry.key, name, e);
    }
  }

  /** One key's value, created by the first caller that asks for it. */
  private static final class Entry<V> {
    private final String key;
    private V value;
    private int users;
    private boolean dropped;

    Entry(String key) {
      this.key = key;
    }

    /** Creates the value unless it exists; true if this call created it. */
    synchronized boolean createOnce(Supplier<V> create) {
      if (value != null) {
        return false;
      }
      value = create.get();
      return true;
    }

    synchronized V value() {
      return value;
    }
  }

  /** One holder's use of a cached value; closing it (once; later calls do nothing) ends the use. */
  static final class Lease<V extends AutoCloseable> implements AutoCloseable {
    private final LeaseCache<V> cache;
    private final Entry<V> entry;
    private final boolean createdNow;
    private boolean closed;

    private Lease(LeaseCache<V> cache, Entry<V> entry, boolean createdNow) {
      this.cache = cache;
      this.entry = entry;
      this.createdNow = createdNow;
    }

    V value() {
      return entry.value();
    }

    /** Whether this lookup created the value (false: it came from the cache). */
    boolean createdNow() {
      return createdNow;
    }

    @Override
    public void close() {
      if (!closed) {
        closed = true;
        cache.release(entry);
      }
    }
  }
}
