package dev.l0.opt.flatten;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import org.junit.jupiter.api.Test;

/** The flattener's persistent scope of source names ({@link Scope}). */
class ScopeTest {
  @Test
  void aBindingHidesAnEarlierOneOnlyInTheScopeItMakes() {
    Scope<Integer> outer = Scope.<Integer>empty().with("x", 1);
    Scope<Integer> inner = outer.with("x", 2).with("y", 3);
    assertEquals(2, inner.get("x"));
    assertEquals(3, inner.get("y"));
    assertEquals(1, outer.get("x"));
    assertNull(outer.get("y"));
  }

  @Test
  void namesWithOneHashKeepTheirOwnBindings() {
    // "Aa" and "BB" have the same String hash, so do "AaAa", "AaBB", "BBAa" and "BBBB"
    Scope<String> scope = Scope.<String>empty().with("Aa", "first").with("BB", "second");
    Scope<String> shadowed = scope.with("Aa", "third");
    assertEquals("third", shadowed.get("Aa"));
    assertEquals("second", shadowed.get("BB"));
    assertEquals("first", scope.get("Aa"));
    Scope<String> four = Scope.<String>empty();
    for (String name : new String[] {"AaAa", "AaBB", "BBAa", "BBBB"}) {
      four = four.with(name, name.toLowerCase());
    }
    assertEquals("aabb", four.get("AaBB"));
    assertEquals("bbbb", four.get("BBBB"));
    assertNull(four.get("Aa"));
  }

  @Test
  void thousandsOfNamesAreAllFound() {
    Scope<Integer> scope = Scope.empty();
    for (int i = 0; i < 5_000; i++) {
      scope = scope.with("a" + i, i);
    }
    for (int i = 0; i < 5_000; i++) {
      assertEquals(i, scope.get("a" + i));
    }
    assertNull(scope.get("a5000"));
  }
}
