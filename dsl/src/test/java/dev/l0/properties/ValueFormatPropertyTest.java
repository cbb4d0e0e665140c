package dev.l0.properties;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.l0.testing.RandomPrograms;
import dev.l0.testing.TypedValue;
import dev.l0.values.ValueReader;
import dev.l0.values.ValueWriter;
import java.util.List;
import net.jqwik.api.AfterFailureMode;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;

/** Writing a value in the data format and reading it back with its type gives the same value. */
class ValueFormatPropertyTest {

  @Property(tries = 1000, afterFailure = AfterFailureMode.SAMPLE_FIRST)
  void writtenValuesReadBackEqual(@ForAll("values") TypedValue v) {
    String text = ValueWriter.write(v.value());
    assertEquals(List.of(v.value()), ValueReader.read(text, List.of(v.type()), "gen"), text);
  }

  @Property(tries = 1000, afterFailure = AfterFailureMode.SAMPLE_FIRST)
  void severalValuesReadBackInOrder(
      @ForAll("values") TypedValue first, @ForAll("values") TypedValue second) {
    String text =
        ValueWriter.write(first.value()) + "\n// a comment\n" + ValueWriter.write(second.value());
    assertEquals(
        List.of(first.value(), second.value()),
        ValueReader.read(text, List.of(first.type(), second.type()), "gen"),
        text);
  }

  @Provide
  Arbitrary<TypedValue> values() {
    return RandomPrograms.values();
  }
}
