package dev.l0.programs.finpar;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.l0.interp.Interpreter;
import dev.l0.ir.FunDef;
import dev.l0.ir.Param;
import dev.l0.ir.ScalarValue;
import dev.l0.ir.Value;
import dev.l0.testing.TestPrograms;
import dev.l0.types.TypeChecker;
import dev.l0.types.TypedProgram;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * R1 in the Java DSL ({@link LocVolCalib}) computes what the text program {@code
 * programs/finpar/LocVolCalib.l0} computes, bit for bit, on the reference interpreter: the small
 * dataset's model (s0 0.03, t 5, alpha 0.2, nu 0.6, beta 0.5) for 3 strikes on a 32 x 32 grid over
 * 6 time steps. The structure differs (the DSL's helpers are Java methods staged where they are
 * called, not L0 functions), so the programs are compared by their results; the entry's parameters
 * have the text's types and names.
 */
class LocVolCalibDslTest {
  @Test
  void theDslProgramPricesAsTheTextProgramBitForBit() {
    TypedProgram text = TypeChecker.check(TestPrograms.load("finpar/LocVolCalib"));
    TypedProgram staged = TypeChecker.check(LocVolCalib.program());
    FunDef entry = text.function("main");
    assertEquals(
        entry.params().stream().map(Param::type).toList(),
        staged.function("main").params().stream().map(Param::type).toList(),
        "main's parameter types");
    assertEquals(
        entry.params().stream().map(Param::name).toList(),
        staged.function("main").params().stream().map(Param::name).toList(),
        "main's parameter names");
    List<Value> input =
        List.of(
            ScalarValue.i32(3),
            ScalarValue.i32(32),
            ScalarValue.i32(32),
            ScalarValue.i32(6),
            ScalarValue.f64(0.03),
            ScalarValue.f64(5.0),
            ScalarValue.f64(0.2),
            ScalarValue.f64(0.6),
            ScalarValue.f64(0.5));

    Value expected = new Interpreter(text.program()).call("main", input);
    Value actual = new Interpreter(staged.program()).call("main", input);

    assertEquals(FinparResults.bits(expected), FinparResults.bits(actual));
    assertEquals(3, ((Value.Array) actual).elements().size());
  }
}
