package dev.l0.ir;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

import dev.l0.syntax.L0Parser;
import dev.l0.testing.TestPrograms;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * {@link Program#reachableFrom} keeps an entry and the functions it calls, by name or as a SOAC's
 * function, through other functions, in the program's order; nothing else.
 */
class ProgramReachableTest {
  private static final String PROGRAM =
      """
      fun f64 square(f64 x) = x * x
      fun f64 twice(f64 x) = x + x
      fun f64 viaCall(f64 x) = twice(x)
      fun bool positive(f64 x) = 0.0 < x
      fun f64 unused(f64 x) = square(x) + viaCall(x)
      fun [f64] main([f64] xs) =
        map(fn f64 (f64 x) => viaCall(x) + exp(x), filter(positive, map(square, xs)))
      fun f64 other([f64] xs) = reduce(op +, 0.0, map(unused, xs))
      """;

  @Test
  void anEntryKeepsWhatItCallsDirectlyOrThroughOthersByNameOrAsASoacsFunction() {
    Program program = L0Parser.parse(PROGRAM, "reachable.l0");
    assertEquals(
        List.of("square", "twice", "viaCall", "positive", "main"),
        names(program.reachableFrom("main")));
    assertEquals(
        List.of("square", "twice", "viaCall", "unused", "other"),
        names(program.reachableFrom("other")));
    assertEquals(List.of("twice"), names(program.reachableFrom("twice")));
  }

  @Test
  void aProgramWithoutTheEntryIsKeptWhole() {
    Program program = L0Parser.parse(PROGRAM, "reachable.l0");
    assertEquals(program, program.reachableFrom("absent"));
  }

  /** OptionPricing's CLI entry does not need its Spark entry. */
  @Test
  void optionPricingsMainLeavesOutItsSparkEntry() {
    Program program = TestPrograms.load("finpar/OptionPricing");
    List<String> reached = names(program.reachableFrom("main"));
    assertFalse(reached.contains("payoffSums"), reached::toString);
    assertEquals(names(program).size() - 1, reached.size(), reached::toString);
  }

  private static List<String> names(Program program) {
    return program.functions().stream().map(FunDef::name).toList();
  }
}
