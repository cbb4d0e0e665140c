package dev.l0.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.l0.cli.BlackScholesReference.OptionRecord;
import dev.l0.values.ValueFormatError;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * An options file for {@code l0 demo --options} is read record by record, and a bad record is bad
 * input at the line and column of the field that is wrong, named (README, "The {@code l0} command
 * line": "a bad line is bad input (exit 3) at its line and column").
 */
class BlackScholesReferenceTest {
  private static final String GOOD = "42.00 40.00 0.1000 0.00 0.20 0.50 C 0.00 4.759423";

  private static String failure(String text) {
    return assertThrows(
            ValueFormatError.class, () -> BlackScholesReference.parseOptions(text, "o.txt"))
        .getMessage();
  }

  @Test
  void recordsAreReadSkippingBlankAndCommentLines() {
    List<OptionRecord> options =
        BlackScholesReference.parseOptions(
            "# spot strike ...\n\n  # indented comment\n" + GOOD + "\n", "o.txt");
    assertEquals(List.of(new OptionRecord(42.0, 40.0, 0.1, 0.2, 0.5, true, 4.759423)), options);
  }

  @Test
  void aFieldThatIsNotANumberIsNamedAtItsColumn() {
    assertEquals(
        "o.txt:2:7: strike: not a decimal number: 'x'",
        failure(GOOD + "\n42.00 x 0.1000 0.00 0.20 0.50 C 0.00 4.759423\n"));
  }

  @Test
  void javasOtherNumberSpellingsAreNotDecimalNumbers() {
    assertEquals(
        "o.txt:1:1: spot: not a decimal number: 'NaN'",
        failure("NaN 40.00 0.1000 0.00 0.20 0.50 C 0.00 4.759423"));
    assertEquals(
        "o.txt:1:40: reference: not a decimal number: '4.75d'",
        failure("42.00 40.00 0.10 0.00 0.20 0.50 C 0.00 4.75d"));
  }

  @Test
  void aTypeOtherThanCOrPIsNamedAtItsColumn() {
    assertEquals(
        "o.txt:1:33: type: expected C or P, found 'X'",
        failure("42.00 40.00 0.10 0.00 0.20 0.50 X 0.00 4.75"));
  }

  @Test
  void aMissingFieldIsReportedAtTheLinesEndAndAnExtraOneAtItself() {
    assertEquals(
        "o.txt:1:34: expected 9 fields (spot strike rate divq volatility years C|P divs"
            + " reference), found 7",
        failure("42.00 40.00 0.10 0.00 0.20 0.50 C"));
    assertEquals(
        "o.txt:1:51: expected 9 fields (spot strike rate divq volatility years C|P divs"
            + " reference), found 10",
        failure(GOOD + " 7"));
  }

  @Test
  void aFileWithoutRecordsIsBadInputAtItsFirstLine() {
    assertEquals("o.txt:1:1: no option records", failure("# only a comment\n"));
  }
}
