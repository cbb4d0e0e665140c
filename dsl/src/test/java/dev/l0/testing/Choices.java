package dev.l0.testing;

import java.util.List;

/**
 * The decision tape a random program is built from: every choice the generators make reads the next
 * number of a jqwik-generated list. jqwik shrinks that list (shorter, smaller numbers), and the
 * generators read choice 0, and a missing choice, as "the simplest alternative", so a failing
 * program shrinks towards a small one that is still well typed (the technique of Hypothesis).
 * Readers keep a cursor: one instance builds one program.
 */
final class Choices {
  /** The largest number a tape holds, exclusive; every {@link #below} bound is far smaller. */
  static final int RANGE = 1 << 16;

  private final List<Integer> tape;
  private int cursor;

  Choices(List<Integer> tape) {
    this.tape = List.copyOf(tape);
  }

  /** A number in {@code 0 .. bound-1}; {@code 0} once the tape is used up. */
  int below(int bound) {
    if (bound <= 1) {
      return 0;
    }
    if (cursor >= tape.size()) {
      return 0;
    }
    return Math.floorMod(tape.get(cursor++), bound);
  }

  /** A number in {@code low .. high}, both inclusive; {@code low} is the simplest. */
  int between(int low, int high) {
    return low + below(high - low + 1);
  }

  /** True with about {@code percent} per cent probability; false once the tape is used up. */
  boolean percent(int percent) {
    return below(100) >= 100 - percent;
  }

  /** One of {@code options}; the first is the simplest. */
  <T> T pick(List<T> options) {
    return options.get(below(options.size()));
  }

  /**
   * An index into {@code weights}, chosen with probability proportional to its weight; index 0 (the
   * first with a positive weight) is the simplest.
   */
  int weighted(int... weights) {
    int total = 0;
    for (int w : weights) {
      total += w;
    }
    int roll = below(total);
    for (int i = 0; i < weights.length; i++) {
      if (roll < weights[i]) {
        return i;
      }
      roll -= weights[i];
    }
    throw new IllegalArgumentException("no positive weight");
  }
}
