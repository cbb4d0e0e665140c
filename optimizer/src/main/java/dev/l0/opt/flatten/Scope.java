package dev.l0.opt.flatten;

/**
 * The source names in scope while flattening and what each is bound to: a persistent map, so that
 * binding one more name makes a new scope sharing all of the one it extends (a hash trie of 16-way
 * nodes, copied only along the path to the new binding). A chain of n lets, or n lambdas each
 * binding its parameters, then binds in time about linear in n, where copying a whole hash map per
 * binding took time and memory quadratic in n.
 *
 * @param <V> what a name is bound to
 */
final class Scope<V> {
  private static final int BITS = 4;
  private static final int WIDTH = 1 << BITS;

  /** One binding; {@code next} holds the others whose names have the same hash. */
  private record Entry(int hash, String name, Object value, Entry next) {}

  private final Object[] root;

  private Scope(Object[] root) {
    this.root = root;
  }

  static <V> Scope<V> empty() {
    return new Scope<>(new Object[WIDTH]);
  }

  /** What {@code name} is bound to, or null where it is not in scope. */
  @SuppressWarnings("unchecked")
  V get(String name) {
    int hash = name.hashCode();
    Object[] node = root;
    for (int shift = 0; ; shift += BITS) {
      Object slot = node[(hash >>> shift) & (WIDTH - 1)];
      if (slot instanceof Object[] child) {
        node = child;
        continue;
      }
      for (Entry e = (Entry) slot; e != null; e = e.next()) {
        if (e.hash() == hash && e.name().equals(name)) {
          return (V) e.value();
        }
      }
      return null;
    }
  }

  /** This scope with {@code name} bound to {@code value}, hiding any binding of it here. */
  Scope<V> with(String name, V value) {
    return new Scope<>(with(root, 0, name.hashCode(), name, value));
  }

  private static Object[] with(Object[] node, int shift, int hash, String name, Object value) {
    Object[] copy = node.clone();
    int at = (hash >>> shift) & (WIDTH - 1);
    Object slot = node[at];
    if (slot instanceof Object[] child) {
      copy[at] = with(child, shift + BITS, hash, name, value);
    } else if (slot == null || ((Entry) slot).hash() == hash) {
      copy[at] = new Entry(hash, name, value, without((Entry) slot, name));
    } else {
      // another hash here: both move one level down, where their next bits tell them apart
      Entry other = (Entry) slot;
      Object[] child = new Object[WIDTH];
      child[(other.hash() >>> (shift + BITS)) & (WIDTH - 1)] = other;
      copy[at] = with(child, shift + BITS, hash, name, value);
    }
    return copy;
  }

  /** The bindings of {@code chain} (one hash) other than {@code name}'s. */
  private static Entry without(Entry chain, String name) {
    if (chain == null) {
      return null;
    }
    Entry rest = without(chain.next(), name);
    return chain.name().equals(name)
        ? rest
        : new Entry(chain.hash(), chain.name(), chain.value(), rest);
  }
}
