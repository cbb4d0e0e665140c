package dev.l0.jobs.risk;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;

/** The progress lines' counts: "1 books" read wrong. */
class StageLogTest {
  @Test
  void aCountOfOneIsSingular() {
    assertEquals("1 book", StageLog.count(1, "book"));
    assertEquals("0 books", StageLog.count(0, "book"));
    assertEquals("100300 positions", StageLog.count(100_300, "position"));
  }
}
