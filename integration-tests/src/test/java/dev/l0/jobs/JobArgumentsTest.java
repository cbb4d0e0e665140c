package dev.l0.jobs;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import org.junit.jupiter.api.Test;

/**
 * A benchmark job's count argument: {@code parquet-benchmark abc} threw a NumberFormatException
 * (exit 1), {@code risk-benchmark -1} ran over no positions and exited 0, {@code paths-benchmark 0}
 * failed in Spark with ROW_VALUE_IS_NULL.
 */
class JobArgumentsTest {
  private static String error(String... args) {
    return assertThrows(
            JobArguments.UsageException.class,
            () -> JobArguments.count(args, "ROWS", 200_000, Integer.MAX_VALUE))
        .getMessage();
  }

  @Test
  void aCountThatIsNotAWholeNumberFromOneIsAUsageErrorNamingIt() throws Exception {
    assertEquals(200_000, JobArguments.count(new String[0], "ROWS", 200_000, Integer.MAX_VALUE));
    assertEquals(7, JobArguments.count(new String[] {" 7 "}, "ROWS", 200_000, Integer.MAX_VALUE));
    assertEquals("ROWS takes a whole number from 1 to 2147483647, got 'abc'", error("abc"));
    assertEquals("ROWS takes a whole number from 1 to 2147483647, got '0'", error("0"));
    assertEquals("ROWS takes a whole number from 1 to 2147483647, got '-1'", error("-1"));
    assertEquals(
        "ROWS takes a whole number from 1 to 2147483647, got '3000000000'", error("3000000000"));
    assertEquals("expected at most one ROWS, got 2 arguments [1, 2]", error("1", "2"));
  }
}
