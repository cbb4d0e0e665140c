package dev.l0.dsl.usage;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.l0.interp.Interpreter;
import dev.l0.ir.FunDef;
import dev.l0.ir.ScalarValue;
import dev.l0.ir.Value;
import dev.l0.testing.ReferenceData;
import dev.l0.testing.TestPrograms;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** P0 in the DSL is the text P0, and prices the PARSEC/DerivaGem reference options. */
class P0DslTest {
  private static final String REFERENCE = "blackscholes/parsec_derivagem_ref.txt";

  /** One reference option: its L0 value and DerivaGem's price. */
  private record ReferenceOption(Value option, double price) {}

  @Test
  void stagedP0EqualsTheTextP0() {
    Canonical.assertSameProgram(TestPrograms.text(TestPrograms.P0_BLACKSCHOLES), P0Dsl.program());
  }

  @Test
  void stagedP0FunctionsArePlacedAtTheirJavaLines() {
    for (FunDef function : P0Dsl.program().functions()) {
      assertEquals("P0Dsl.java", function.pos().source(), function.name());
      assertTrue(function.pos().line() > 0, function.name());
    }
  }

  @Test
  void stagedP0PricesTheReferenceOptionsWithinPARSECsTolerance() {
    List<ReferenceOption> options = readReferenceOptions();
    // The brief and the data README speak of 39 options; the file holds 40 (PARSEC's base records).
    assertEquals(40, options.size(), options.size() + " options in " + REFERENCE);
    Value.Array input =
        new Value.Array(
            P0Dsl.OPTION.l0Type(), options.stream().map(ReferenceOption::option).toList());

    Value result = new Interpreter(P0Dsl.program()).call("blackscholes", List.of(input));

    Value.Array prices = (Value.Array) result;
    assertEquals(options.size(), prices.length());
    for (int i = 0; i < options.size(); i++) {
      double price = ((ScalarValue.Float) prices.get(i)).value();
      double expected = options.get(i).price();
      assertTrue(
          Math.abs(price - expected) < 1e-4,
          "option " + (i + 1) + ": priced " + price + ", DerivaGem says " + expected);
    }
  }

  /**
   * Rows "spot strike rate divq vol T type divs DGrefval" as {call, price, strike, years, r, v}.
   */
  private static List<ReferenceOption> readReferenceOptions() {
    List<ReferenceOption> options = new ArrayList<>();
    for (String line : ReferenceData.read(REFERENCE).lines().toList()) {
      String row = line.strip();
      if (row.isEmpty() || row.startsWith("#")) {
        continue;
      }
      String[] f = row.split("\\s+");
      Value option =
          new Value.Tuple(
              List.of(
                  ScalarValue.bool(f[6].equals("C")),
                  ScalarValue.f64(Double.parseDouble(f[0])),
                  ScalarValue.f64(Double.parseDouble(f[1])),
                  ScalarValue.f64(Double.parseDouble(f[5])),
                  ScalarValue.f64(Double.parseDouble(f[2])),
                  ScalarValue.f64(Double.parseDouble(f[4]))));
      options.add(new ReferenceOption(option, Double.parseDouble(f[8])));
    }
    return options;
  }
}
