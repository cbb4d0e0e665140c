package dev.l0.programs.finpar;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.l0.interp.Interpreter;
import dev.l0.ir.FunDef;
import dev.l0.ir.Param;
import dev.l0.ir.Program;
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
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * R0 in the Java DSL ({@link OptionPricing}) computes what the text program {@code
 * programs/finpar/OptionPricing.l0} computes, bit for bit, on the reference interpreter: on each of
 * FinPar's three datasets (one contract each), the path count cut down. The structure differs (the
 * DSL's helpers are Java methods, staged where they are called, not L0 functions), so the programs
 * are compared by their results. Skipped where ../shared/data/finpar is absent.
 */
class OptionPricingDslTest {
  private static final Program TEXT = TestPrograms.load("finpar/OptionPricing");

  static Path dataset(String size) {
    Path data =
        List.of(
                Path.of("..", "..", "shared", "data", "finpar"),
                Path.of("..", "shared", "data", "finpar"))
            .stream()
            .filter(Files::isDirectory)
            .findFirst()
            .orElse(null);
    assumeTrue(
        data != null,
        "FinPar datasets not found at ../shared/data/finpar beside the repository; skipped");
    return data.resolve("OptionPricing").resolve(size);
  }

  @ParameterizedTest
  @CsvSource({"small,512", "medium,64", "large,4"})
  void theDslProgramPricesAsTheTextProgramBitForBit(String size, int paths) throws IOException {
    TypedProgram text = TypeChecker.check(TEXT);
    TypedProgram staged = TypeChecker.check(OptionPricing.program());
    FunDef entry = text.function("main");
    assertEquals(
        entry.params().stream().map(Param::type).toList(),
        staged.function("main").params().stream().map(Param::type).toList(),
        "main's parameter types");
    assertEquals(
        entry.params().stream().map(Param::name).toList(),
        staged.function("main").params().stream().map(Param::name).toList(),
        "main's parameter names");
    Path file = dataset(size).resolve("input.data");
    List<Value> input =
        new ArrayList<>(
            ValueReader.read(
                Files.readString(file),
                entry.params().stream().map(Param::type).toList(),
                file.toString()));
    input.set(1, new ScalarValue.Int(ScalarType.I32, paths));

    Value expected = new Interpreter(text.program()).call("main", input);
    Value actual = new Interpreter(staged.program()).call("main", input);

    assertEquals(FinparResults.bits(expected), FinparResults.bits(actual), size);
  }
}
