package dev.l0.opt;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.l0.ir.BinaryOperator;
import dev.l0.ir.L0RuntimeError;
import dev.l0.ir.Param;
import dev.l0.ir.Program;
import dev.l0.ir.ScalarType;
import dev.l0.ir.Type;
import dev.l0.ir.Value;
import dev.l0.opt.ir.Exp;
import dev.l0.opt.ir.Ident;
import dev.l0.opt.ir.InternalFunction;
import dev.l0.opt.ir.InternalPrinter;
import dev.l0.opt.ir.Stm;
import dev.l0.opt.pass.CommonSubexpressions;
import dev.l0.opt.pass.Fixpoint;
import dev.l0.opt.pass.Hoister;
import dev.l0.opt.pass.Inliner;
import dev.l0.opt.pass.Simplifier;
import dev.l0.syntax.L0Parser;
import dev.l0.types.TypeChecker;
import dev.l0.values.ValueReader;
import java.util.List;
import java.util.function.Predicate;
import org.junit.jupiter.api.Test;

/**
 * Certificates in function parameter lists and results (thesis §4.2.1): the thesis's two examples
 * in internal form, before and after naive inlining; a precondition that, once inlined, predicates
 * only the statements that need it; calls that stay calls; and the same results and failures as the
 * interpreter.
 */
class FunctionCertificatesTest {
  /** §4.2.1's first example: a function over an array of pairs, called on a zip. */
  private static final String PAIRS_PARAMETER =
      """
      fun [int] f([{int, int}] input) = map(op +, input)
      fun [int] main([int] a, [int] b) = f(zip(a, b))
      """;

  /** §4.2.1's second example: a function returning a zip, consumed by a map. */
  private static final String PAIRS_RESULT =
      """
      fun [{int, int}] f(int x) = zip(iota(x), iota(x))
      fun [int] main(int n) = map(op +, f(n))
      """;

  /**
   * A function whose body has a statement that needs no precondition ({@code k * k}), called inside
   * a map on a zip whose size check depends on each row (two filters).
   */
  private static final String PER_ROW_CALL =
      """
      fun int f([{int, int}] ps, int k) =
        let s = k * k in reduce(op +, 0, map(fn int ({int, int} p) => let {a, b} = p in a * b + s, ps))
      fun [int] main([[int]] rows, int k) =
        map(fn int ([int] r) => f(zip(filter(fn bool (int x) => x > 0, r), filter(fn bool (int x) => x >= 1, r)), k), rows)
      """;

  private static final Fixpoint REBIND =
      new Fixpoint(
          "rebind", List.of(new Simplifier(), new CommonSubexpressions(), new Hoister()), 20);

  @Test
  void anArrayOfTuplesParameterComesWithACertificateThatPredicatesTheSoacOverIt() {
    InternalFunction f = Internal.of(PAIRS_PARAMETER).program().function("f").orElseThrow();
    String signature = InternalPrinter.print(f).lines().findFirst().orElseThrow();
    assertTrue(
        signature.matches(
            "fun \\{\\[\\]i32\\} f\\(cert input_c_\\d+, \\[\\w+\\]i32 input_\\d+, \\[\\w+\\]i32 input_\\d+\\) ="),
        signature);
    Ident certificate = f.params().get(0);
    assertEquals(List.of(certificate.name()), only(f.body().stms(), e -> e.isMap()).certificates());
  }

  @Test
  void theCallerAssertsThePreconditionAndPassesItsCertificate() {
    Internal p = Internal.of(PAIRS_PARAMETER);
    Stm call = only(p.topLevel(), e -> e instanceof Exp.Apply);
    assertEquals(List.of(), call.certificates(), "the call itself is not predicated");
    String passed = ((Exp.Apply) call.exp()).args().get(0).varName();
    assertEquals("zip", ((Exp.Assert) binding(passed, p.topLevel()).exp()).operation());
  }

  @Test
  void naiveInliningPredicatesTheSoacOnTheCertificateTheCallerPassed() {
    Internal p = Internal.of(PAIRS_PARAMETER);
    String passed =
        ((Exp.Apply) only(p.topLevel(), e -> e instanceof Exp.Apply).exp()).args().get(0).varName();
    Internal inlined = p.after(new Inliner());
    assertEquals(0, inlined.count(e -> e instanceof Exp.Apply));
    assertEquals(List.of(passed), only(inlined.topLevel(), e -> e.isMap()).certificates());
  }

  @Test
  void anArrayOfTuplesResultComesWithACertificateThatTheCallerBindsAndUses() {
    Internal p = Internal.of(PAIRS_RESULT);
    InternalFunction f = p.program().function("f").orElseThrow();
    String signature = InternalPrinter.print(f).lines().findFirst().orElseThrow();
    assertTrue(
        signature.matches("fun \\{cert, \\[\\]i32, \\[\\]i32\\} f\\(i32 x_\\d+\\) ="), signature);
    String returned = f.body().result().get(0).varName();
    assertEquals("zip", ((Exp.Assert) binding(returned, f.body().stms()).exp()).operation());
    Ident bound = only(p.topLevel(), e -> e instanceof Exp.Apply).pattern().get(0);
    assertTrue(bound.isCertificate(), bound::toString);
    assertEquals(List.of(bound.name()), only(p.topLevel(), e -> e.isMap()).certificates());
  }

  @Test
  void naiveInliningPredicatesTheConsumerOnTheInlinedPostconditionWhichSimplificationThenRemoves() {
    Internal inlined = Internal.of(PAIRS_RESULT).after(new Inliner());
    List<String> certificates = only(inlined.topLevel(), e -> e.isMap()).certificates();
    assertEquals(1, certificates.size());
    assertTrue(binding(certificates.get(0), inlined.topLevel()).exp() instanceof Exp.Assert);
    Compiled optimized = Compiled.of(PAIRS_RESULT);
    assertTrue(
        optimized.allStatements().stream()
            .noneMatch(s -> s.exp() instanceof Exp.Assert || !s.certificates().isEmpty()),
        () ->
            "size(0, iota(x)) = size(0, iota(x)) is known, so the assertion goes:\n"
                + optimized.optimized().explain());
  }

  @Test
  void onlyTheStatementsThatNeedThePreconditionArePredicatedSoTheOthersCanBeHoisted() {
    Internal inlined = Internal.of(PER_ROW_CALL).after(new Inliner());
    Predicate<Exp> square =
        e -> e instanceof Exp.BinOp b && b.op() == BinaryOperator.MUL && b.left().equals(b.right());
    assertEquals(List.of(), only(inlined.everywhere(), square).certificates());
    List<Stm> predicatedMaps =
        inlined.everywhere().stream()
            .filter(s -> s.exp().isMap() && !s.certificates().isEmpty())
            .toList();
    assertEquals(
        1, predicatedMaps.size(), "the map over the pairs, and only it, needs the precondition");
    Stm check = binding(predicatedMaps.get(0).certificates().get(0), inlined.everywhere());
    assertEquals("zip", ((Exp.Assert) check.exp()).operation());
    Internal rebound = inlined.after(REBIND);
    assertEquals(
        1,
        rebound.topLevel().stream().filter(s -> square.test(s.exp())).count(),
        () ->
            "k * k should leave the map over the rows:\n" + InternalPrinter.print(rebound.main()));
  }

  @Test
  void resultsMatchTheInterpreterIncludingHelpersCalledFromOutside() {
    Compiled parameter = Compiled.of(PAIRS_PARAMETER);
    assertEquals(
        ints("[11, 22, 33]"), parameter.assertSameResult("main", "[1, 2, 3] [10, 20, 30]"));
    assertEquals(ints("[11, 22]"), parameter.assertSameResult("f", "[{1, 10}, {2, 20}]"));
    Compiled result = Compiled.of(PAIRS_RESULT);
    assertEquals(ints("[0, 2, 4, 6]"), result.assertSameResult("main", "4"));
    result.assertSameResult("f", "3");
    Compiled perRow = Compiled.of(PER_ROW_CALL);
    assertEquals(ints("[13, 33]"), perRow.assertSameResult("main", "[[1, 2, 0], [3, -1, 4]] 2"));
  }

  @Test
  void arraysOfDifferentSizesStillFailInZipBeforeAndAfterOptimisation() {
    assertEquals(
        "zip", flattenedFailure(PAIRS_PARAMETER, "main", "[1, 2, 3] [10, 20]").operation());
    L0RuntimeError optimized =
        assertThrows(
            L0RuntimeError.class,
            () -> Compiled.of(PAIRS_PARAMETER).assertSameResult("main", "[1, 2, 3] [10, 20]"));
    assertEquals("zip", optimized.operation());
    String unequalFilters = PER_ROW_CALL.replace("x >= 1", "x > 1");
    assertEquals("zip", flattenedFailure(unequalFilters, "main", "[[1, 2]] 2").operation());
    L0RuntimeError perRow =
        assertThrows(
            L0RuntimeError.class,
            () -> Compiled.of(unequalFilters).assertSameResult("main", "[[1, 2]] 2"));
    assertEquals("zip", perRow.operation());
  }

  @Test
  void callsThatStayCallsPassAndReturnCertificates() {
    String recursive =
        """
        fun [{int, int}] swapAll([{int, int}] ps, int n) =
          if n = 0 then ps else swapAll(map(fn {int, int} ({int, int} p) => let {a, b} = p in {b, a}, ps), n - 1)
        fun [{int, int}] main([int] a, [int] b, int n) = swapAll(zip(a, b), n)
        """;
    Compiled c = Compiled.of(recursive);
    InternalFunction swapAll = c.optimized().internal().function("swapAll").orElseThrow();
    String signature = InternalPrinter.print(swapAll).lines().findFirst().orElseThrow();
    assertTrue(
        signature.matches(
            "fun \\{cert, \\[\\]i32, \\[\\]i32\\} swapAll\\(cert ps_c_\\d+, \\[\\w+\\]i32 ps_\\d+, "
                + "\\[\\w+\\]i32 ps_\\d+, i32 n_\\d+\\) ="),
        signature);
    Stm call = only(c.allStatements(), e -> e instanceof Exp.Apply);
    assertTrue(call.pattern().get(0).isCertificate(), () -> c.optimized().explain());
    c.assertSameResult("main", "[1, 2] [3, 4] 3");
    c.assertSameResult("main", "[] [] 2");
    L0RuntimeError e =
        assertThrows(L0RuntimeError.class, () -> c.assertSameResult("main", "[1, 2] [3] 1"));
    assertEquals("zip", e.operation());
  }

  @Test
  void aNamedFunctionPassedToASoacGetsItsCertificateFromTheRowItIsAppliedTo() {
    String rowsOfPairs =
        """
        fun int g(int k, [{int, int}] ps) = reduce(op +, k, map(fn int ({int, int} p) => let {a, b} = p in a * b, ps))
        fun [int] main([[{int, int}]] xss) = map(g(3), xss)
        """;
    Internal p = Internal.of(rowsOfPairs);
    Exp.Screma overRows = (Exp.Screma) only(p.topLevel(), e -> e.isMap()).exp();
    List<Stm> lambda = overRows.function().body().stms();
    Exp.Apply call = (Exp.Apply) only(lambda, e -> e instanceof Exp.Apply).exp();
    assertTrue(
        binding(call.args().get(1).varName(), lambda).exp() instanceof Exp.Assert,
        "g(k, cert, a, b): the certificate follows the curried argument and is asserted per row");
    assertEquals(
        ints("[17, 89]"),
        Compiled.of(rowsOfPairs).assertSameResult("main", "[[{1, 2}, {3, 4}], [{5, 6}, {7, 8}]]"));
  }

  /** The one statement among {@code stms} whose expression satisfies {@code what}. */
  private static Stm only(List<Stm> stms, Predicate<Exp> what) {
    List<Stm> found = stms.stream().filter(s -> what.test(s.exp())).toList();
    assertEquals(1, found.size(), () -> "expected exactly one such statement, found " + found);
    return found.get(0);
  }

  /** The statement among {@code stms} that binds {@code name}. */
  private static Stm binding(String name, List<Stm> stms) {
    return stms.stream()
        .filter(s -> s.pattern().stream().anyMatch(id -> id.name().equals(name)))
        .findFirst()
        .orElseThrow(() -> new AssertionError(name + " is not bound by any of " + stms));
  }

  private static Value ints(String text) {
    return ValueReader.read(text, List.of(Type.array(ScalarType.I32)), "expected").get(0);
  }

  /** The failure of {@code function} in the program only flattened, not optimised. */
  private static L0RuntimeError flattenedFailure(String source, String function, String argsText) {
    Program program = L0Parser.parse(source, "test.l0");
    List<Type> types =
        program.function(function).orElseThrow().params().stream().map(Param::type).toList();
    List<Value> args = ValueReader.read(argsText, types, "args");
    OptimizedProgram flattened = Optimizer.flattenOnly(TypeChecker.check(program));
    return assertThrows(L0RuntimeError.class, () -> flattened.call(function, args));
  }
}
