package dev.l0.opt.ir;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import org.junit.jupiter.api.Test;

class NameSourceTest {
  @Test
  void freshNamesDropAnEarlierCounterAndShareOne() {
    NameSource names = new NameSource();
    assertEquals("x_1", names.fresh("x"));
    assertEquals("x_2", names.fresh("x_1"));
    assertEquals("acc_12_3", names.fresh("acc_12_40"));
    assertEquals("v_4", names.fresh("_7"));
    assertEquals("x__5", names.fresh("x_"));
    assertEquals("r2_6", names.fresh("r2"));
  }

  /**
   * Deep in a pass's recursion, running out of stack must be a StackOverflowError (which the
   * optimiser reports), nothing else.
   */
  @Test
  void runningOutOfStackInsideFreshIsAStackOverflow() {
    NameSource names = new NameSource();
    for (int attempt = 0; attempt < 20; attempt++) {
      assertThrows(StackOverflowError.class, () -> descend(names, 0));
    }
  }

  private static int descend(NameSource names, int depth) {
    return names.fresh("n_" + depth).length() + descend(names, depth + 1);
  }
}
