package dev.l0.programs.finpar;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.l0.interp.Interpreter;
import dev.l0.ir.FunDef;
import dev.l0.ir.Param;
import dev.l0.ir.ScalarType;
import dev.l0.ir.ScalarValue;
import dev.l0.ir.Value;
import dev.l0.testing.TestPrograms;
import dev.l0.types.TypeChecker;
import dev.l0.types.TypedProgram;
import dev.l0.values.ValueReader;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;

/**
 * OptionPricing's Sobol numbers by the Gray-code recurrence ({@code nextSobolInts}, one XOR per
 * dimension) are the numbers by index ({@code sobolInt}), on the reference interpreter with the
 * medium dataset's 15 dimensions of direction numbers: at every index up to 300 and around every
 * power of two up to 2^29, where the recurrence's bit is the highest. Skipped where
 * ../shared/data/finpar is absent.
 */
class OptionPricingSobolTest {
  @Test
  void theGrayCodeRecurrenceGivesTheSobolIntegersByIndex() throws IOException {
    TypedProgram text = TypeChecker.check(TestPrograms.load("finpar/OptionPricing"));
    FunDef main = text.function("main");
    Path file = OptionPricingDslTest.dataset("medium").resolve("input.data");
    Value.Array directions =
        (Value.Array)
            ValueReader.read(
                    Files.readString(file),
                    main.params().stream().map(Param::type).toList(),
                    file.toString())
                .get(6);
    Interpreter interpreter = new Interpreter(text.program());
    List<Integer> indices = new ArrayList<>(IntStream.rangeClosed(0, 300).boxed().toList());
    for (int k = 9; k <= 29; k++) {
      indices.addAll(List.of((1 << k) - 2, (1 << k) - 1, 1 << k));
    }
    for (int n : indices) {
      Value next =
          interpreter.call(
              "nextSobolInts", List.of(directions, byIndex(interpreter, directions, n), index(n)));
      assertEquals(byIndex(interpreter, directions, n + 1), next, "index " + (n + 1));
    }
  }

  /** The Sobol integers of index {@code n}, one per dimension, by {@code sobolInt}. */
  private static Value byIndex(Interpreter interpreter, Value.Array directions, int n) {
    List<Value> ints =
        directions.elements().stream()
            .map(dirv -> interpreter.call("sobolInt", List.of(dirv, index(n))))
            .toList();
    return new Value.Array(ScalarType.I32, ints);
  }

  private static Value index(int n) {
    return new ScalarValue.Int(ScalarType.I32, n);
  }
}
