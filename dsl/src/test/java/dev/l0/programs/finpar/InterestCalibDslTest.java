package dev.l0.programs.finpar;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.l0.interp.Interpreter;
import dev.l0.ir.FunDef;
import dev.l0.ir.Param;
import dev.l0.ir.ScalarType;
import dev.l0.ir.ScalarValue;
import dev.l0.ir.Type;
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
import org.junit.jupiter.api.Test;

/**
 * R2 in the Java DSL ({@link InterestCalib}) computes what the text program {@code
 * programs/finpar/InterestCalib.l0} computes, bit for bit, on the reference interpreter: the small
 * dataset's quadrature and Sobol direction vectors with 6 of its swaption quotes (spread over the
 * file, so of several maturities and terms), a population of 5 and 6 DE-MCMC iterations. The
 * structure differs (the DSL's small helpers are Java methods staged where they are called), so the
 * programs are compared by their results: the winning genome, its log-likelihood and the
 * per-swaption report.
 */
class InterestCalibDslTest {
  private static final int[] QUOTES = {0, 40, 80, 120, 160, 195};

  @Test
  void theDslProgramCalibratesAsTheTextProgramBitForBit() throws IOException {
    TypedProgram text = TypeChecker.check(TestPrograms.load("finpar/InterestCalib"));
    TypedProgram staged = TypeChecker.check(InterestCalib.program());
    FunDef entry = text.function("main");
    List<Type> types = entry.params().stream().map(Param::type).toList();
    assertEquals(
        types,
        staged.function("main").params().stream().map(Param::type).toList(),
        "main's parameter types");
    assertEquals(
        entry.params().stream().map(Param::name).toList(),
        staged.function("main").params().stream().map(Param::name).toList(),
        "main's parameter names");
    assertEquals(entry.returnType(), staged.function("main").returnType(), "main's result");
    Path file =
        OptionPricingDslTest.dataset("small")
            .getParent()
            .resolveSibling("InterestCalib")
            .resolve("small")
            .resolve("input.data");
    List<Value> input =
        new ArrayList<>(ValueReader.read(Files.readString(file), types, file.toString()));
    List<Value> allQuotes = ((Value.Array) input.get(3)).elements();
    List<Value> quotes = new ArrayList<>();
    for (int q : QUOTES) {
      quotes.add(allQuotes.get(q));
    }
    input.set(0, new ScalarValue.Int(ScalarType.I32, 5));
    input.set(1, new ScalarValue.Int(ScalarType.I32, 6));
    input.set(2, new ScalarValue.Int(ScalarType.I32, quotes.size()));
    Value.Array all = (Value.Array) input.get(3);
    input.set(3, new Value.Array(all.elementType(), quotes, all.elementShape()));

    Value expected = new Interpreter(text.program()).call("main", input);
    Value actual = new Interpreter(staged.program()).call("main", input);

    assertEquals(FinparResults.bits(expected), FinparResults.bits(actual));
    assertEquals(6 + 3 * quotes.size(), FinparResults.bits(actual).size());
  }
}
