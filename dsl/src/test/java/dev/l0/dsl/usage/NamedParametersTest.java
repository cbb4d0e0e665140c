package dev.l0.dsl.usage;

import static dev.l0.dsl.L0.f64;
import static dev.l0.dsl.L0.let;
import static dev.l0.dsl.L0.map;
import static dev.l0.dsl.L0.reduce;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.l0.dsl.Arr;
import dev.l0.dsl.F64;
import dev.l0.dsl.I32;
import dev.l0.dsl.L0;
import dev.l0.dsl.Tup2;
import dev.l0.dsl.ValType;
import dev.l0.interp.Interpreter;
import dev.l0.ir.L0CompileError;
import dev.l0.ir.Program;
import dev.l0.ir.SourcePos;
import dev.l0.ir.Type;
import dev.l0.syntax.L0Printer;
import dev.l0.types.TypeChecker;
import dev.l0.values.ValueReader;
import dev.l0.values.ValueWriter;
import java.util.List;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;

/**
 * Parameters named with {@code ValType.named}: the staged function declares them by those names (so
 * the printed program, errors and a Spark pipeline's {@code with(name, value)} use them), the names
 * the DSL generates never take them, and a name that cannot be one is an error at the user's Java
 * line.
 */
class NamedParametersTest {
  @Test
  void namedParametersAreDeclaredByTheirNames() {
    Program program =
        L0.program(
            prog ->
                prog.fun(
                    "main",
                    Arr.of(F64.TYPE).named("prices"),
                    F64.TYPE.named("scale"),
                    (prices, scale) ->
                        reduce(map(prices, p -> p.mul(scale)), f64(0.0), (a, b) -> a.add(b))));

    TypeChecker.check(program);
    String text = L0Printer.print(program);
    assertEquals("fun f64 main([f64] prices, f64 scale) =", text.lines().findFirst().orElseThrow());
    assertEquals("12.0", run(program, "[1.0, 3.0] 3.0"));
  }

  /** A parameter named as a name the DSL generates ({@code v_0}) keeps it: lets get other names. */
  @Test
  void generatedNamesNeverShadowAGivenName() {
    Program program =
        L0.program(
            prog ->
                prog.fun(
                    "main",
                    F64.TYPE.named("v_0"),
                    F64.TYPE.named("v_1"),
                    (x, y) -> {
                      F64 a = let(x.add(1.0));
                      F64 b = let(a.mul(x));
                      return b.add(y);
                    }));

    TypeChecker.check(program);
    assertEquals("112.0", run(program, "3.0 100.0"));
  }

  @Test
  void theEntrysParametersAreReadByName() {
    Program program =
        L0.program(
            prog ->
                prog.fun(
                    "main",
                    List.of(I32.TYPE.named("count"), F64.TYPE.named("rate")),
                    params ->
                        params.get("rate", F64.TYPE).mul(params.get("count", I32.TYPE).toF64())));

    assertEquals("7.5", run(program, "3 2.5"));
  }

  @Test
  void aNameNoParameterHasIsAnErrorThatListsTheNames() {
    AtomicReference<SourcePos> line = new AtomicReference<>();
    L0CompileError error =
        assertThrows(
            L0CompileError.class,
            () ->
                L0.program(
                    prog ->
                        prog.fun(
                            "main",
                            List.of(I32.TYPE.named("count"), F64.TYPE),
                            params -> {
                              line.set(JavaLine.next());
                              return params.get("rates", F64.TYPE);
                            })));

    assertEquals(line.get(), error.pos());
    assertEquals(
        "main has no parameter named 'rates'; its named parameters: 'count'", error.detail());
  }

  @Test
  void twoParametersOfOneNameAreAnError() {
    L0CompileError error =
        assertThrows(
            L0CompileError.class,
            () ->
                L0.program(
                    prog ->
                        prog.fun(
                            "main", F64.TYPE.named("x"), F64.TYPE.named("x"), (a, b) -> a.add(b))));

    assertEquals("'main' has two parameters named 'x'", error.detail());
  }

  @Test
  void aNameThatCannotNameAParameterIsRefusedAtItsLine() {
    for (String bad : List.of("2x", "map", "x-y", "")) {
      SourcePos line = JavaLine.next();
      L0CompileError error = assertThrows(L0CompileError.class, () -> F64.TYPE.named(bad));
      assertEquals(line, error.pos(), bad);
      assertEquals(
          "a parameter name must be letters, digits and underscores, starting with a letter, and"
              + " not an L0 keyword: "
              + bad,
          error.detail());
    }
  }

  /**
   * Only parameters take names: an array's element type or a tuple's component with one is an
   * error.
   */
  @Test
  void aNamedTypeInsideAnotherTypeIsAnError() {
    ValType<F64> price = F64.TYPE.named("price");
    ValType<I32> count = I32.TYPE.named("count");
    SourcePos arrayLine = JavaLine.next();
    L0CompileError array = assertThrows(L0CompileError.class, () -> Arr.of(price));
    SourcePos tupleLine = JavaLine.next();
    L0CompileError tuple = assertThrows(L0CompileError.class, () -> Tup2.of(F64.TYPE, count));

    assertEquals(arrayLine, array.pos());
    assertEquals(
        "the type named 'price' is used as an array's element type; only a function's parameter"
            + " types take names (named)",
        array.detail());
    assertEquals(tupleLine, tuple.pos());
    assertEquals(
        "the type named 'count' is used as a tuple's component; only a function's parameter types"
            + " take names (named)",
        tuple.detail());
  }

  private static String run(Program program, String args) {
    List<Type> types = program.functions().get(0).params().stream().map(p -> p.type()).toList();
    return ValueWriter.write(
        new Interpreter(program).call("main", ValueReader.read(args, types, "args")));
  }
}
