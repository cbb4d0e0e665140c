package dev.l0.opt;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.l0.ir.Dim;
import dev.l0.ir.L0ConfigurationError;
import dev.l0.ir.ScalarType;
import dev.l0.ir.ScalarValue;
import dev.l0.ir.Type;
import dev.l0.opt.ir.Body;
import dev.l0.opt.ir.Exp;
import dev.l0.opt.ir.Ident;
import dev.l0.opt.ir.InternalFunction;
import dev.l0.opt.ir.InternalProgram;
import dev.l0.opt.ir.IrChecker;
import dev.l0.opt.ir.Lambda;
import dev.l0.opt.ir.NameSource;
import dev.l0.opt.ir.Stm;
import dev.l0.opt.ir.SubExp;
import dev.l0.opt.pass.Fixpoint;
import dev.l0.opt.pass.Pass;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.function.UnaryOperator;
import org.junit.jupiter.api.Test;

/**
 * The internal-IR checker finds each kind of broken invariant and says where; the pass manager
 * names the pass that broke it, and a fixpoint that does not converge says so (the optimiser's
 * tests run with {@code -Dl0.opt.check=true}).
 */
class IrCheckerTest {
  private static final String SOURCE =
      """
      fun real main([real] xs) =
        let ys = map(fn real (real x) => x * 2.0, xs) in
        reduce(op +, 0.0, ys)
      """;

  /** A pass that applies {@code rewrite} to {@code main}'s body. */
  private record Rewrite(String name, UnaryOperator<Body> rewrite) implements Pass {
    @Override
    public InternalProgram apply(InternalProgram program, NameSource names) {
      return program.mapBodies(rewrite);
    }
  }

  /** {@code body} with its first statement bound a second time, under the same names. */
  private static Body bindFirstTwice(Body body) {
    List<Stm> stms = new ArrayList<>(body.stms());
    stms.add(1, stms.get(0));
    return new Body(stms, body.result());
  }

  @Test
  void aCheckPropertyOtherThanTrueOrFalseIsRefusedNamingIt() {
    String before = System.getProperty(IrChecker.PROPERTY);
    try {
      System.setProperty(IrChecker.PROPERTY, "maybe");
      L0ConfigurationError error = assertThrows(L0ConfigurationError.class, IrChecker::enabled);
      assertTrue(
          error.getMessage().contains("l0.opt.check must be true or false"), error::getMessage);
      assertTrue(error.getMessage().contains("'maybe'"), error::getMessage);
      System.setProperty(IrChecker.PROPERTY, "TRUE");
      assertTrue(IrChecker.enabled());
    } finally {
      if (before == null) {
        System.clearProperty(IrChecker.PROPERTY);
      } else {
        System.setProperty(IrChecker.PROPERTY, before);
      }
    }
  }

  @Test
  void theFlattenedAndTheOptimisedProgramsAreWellFormed() {
    Internal flattened = Internal.of(SOURCE);
    assertEquals(Optional.empty(), IrChecker.problem(flattened.program()));
    assertEquals(Optional.empty(), IrChecker.problem(Compiled.of(SOURCE).optimized().internal()));
  }

  @Test
  void aNameBoundTwiceIsNamedWithItsFunction() {
    InternalProgram broken = Internal.of(SOURCE).program().mapBodies(IrCheckerTest::bindFirstTwice);
    String problem = IrChecker.problem(broken).orElseThrow();
    assertTrue(problem.startsWith("function main, statement ["), problem);
    assertTrue(problem.endsWith(" is bound twice"), problem);
  }

  @Test
  void aVariableOutOfScopeIsFound() {
    InternalProgram broken =
        Internal.of(SOURCE)
            .program()
            .mapBodies(b -> new Body(b.stms(), List.of(SubExp.var("nowhere_1"))));
    assertEquals(
        Optional.of("function main, body result: nowhere_1 is used where it is not in scope"),
        IrChecker.problem(broken));
  }

  @Test
  void aPatternThatDoesNotMatchItsExpressionIsFound() {
    InternalProgram program = Internal.of("fun int main(int x) = x + 1").program();
    InternalFunction main = program.function("main").orElseThrow();
    Ident y = new Ident("y_100", ScalarType.BOOL);
    Body wrong =
        new Body(
            List.of(new Stm(List.of(y), new Exp.Atom(main.params().get(0).var()))),
            List.of(y.var()));
    String problem =
        IrChecker.problem(new InternalProgram(List.of(main.withBody(wrong)))).orElseThrow();
    assertEquals(
        "function main, statement [y_100]: pattern name y_100 has type i32 where bool is expected",
        problem);
  }

  /**
   * Only a fused reduction has a map part ({@code Screma.withMapOutputs}): an unfused reduce whose
   * operator, which also combines, returns more values than its accumulators is found.
   */
  @Test
  void aReduceWhoseOperatorReturnsMoreThanItsAccumulatorsIsFound() {
    InternalProgram program =
        Internal.of("fun real main([real] xs) = reduce(op +, 0.0, xs)").program();
    InternalFunction main = program.function("main").orElseThrow();
    List<Stm> stms = new ArrayList<>(main.body().stms());
    int at = stms.size() - 1;
    Stm reduce = stms.get(at);
    Exp.Screma r = (Exp.Screma) reduce.exp();
    Lambda op = r.operator();
    Lambda twice =
        new Lambda(
            op.params(),
            new Body(
                op.body().stms(), List.of(op.body().result().get(0), op.params().get(1).var())),
            List.of(ScalarType.F64, ScalarType.F64));
    Ident rows = new Ident("rows_100", Type.array(ScalarType.F64));
    stms.set(
        at,
        new Stm(
            List.of(reduce.pattern().get(0), rows),
            Exp.Screma.reduce(twice, r.neutral(), r.inputs(), r.pos())));
    String problem =
        IrChecker.problem(
                new InternalProgram(List.of(main.withBody(new Body(stms, main.body().result())))))
            .orElseThrow();
    assertTrue(
        problem.endsWith("a reduce whose operator returns more values than its accumulators"),
        problem);
  }

  @Test
  void thePassManagerNamesThePassThatBrokeTheProgram() {
    IllegalStateException e =
        assertThrows(
            IllegalStateException.class,
            () ->
                Internal.of(SOURCE)
                    .after(new Rewrite("duplicate-first", IrCheckerTest::bindFirstTwice)));
    assertTrue(
        e.getMessage().startsWith("the internal IR is broken after duplicate-first: function main"),
        e.getMessage());
  }

  /** {@code body} whose first array binding's type names a size that nothing binds. */
  private static Body sizedByNothing(Body body) {
    List<Stm> stms = new ArrayList<>(body.stms());
    for (int k = 0; k < stms.size(); k++) {
      Stm stm = stms.get(k);
      if (stm.pattern().get(0).type() instanceof Type.Array array) {
        Ident unbound =
            new Ident(stm.pattern().get(0).name(), array.withSize(new Dim.Named("gone_7")));
        stms.set(k, new Stm(List.of(unbound), stm.certificates(), stm.exp()));
        return new Body(stms, body.result());
      }
    }
    throw new AssertionError("no array binding in " + body);
  }

  @Test
  void aSizeVariableOutOfScopeInATypeIsNamedWithThePass() {
    IllegalStateException e =
        assertThrows(
            IllegalStateException.class,
            () ->
                Internal.of(SOURCE)
                    .after(new Rewrite("size-from-nowhere", IrCheckerTest::sizedByNothing)));
    assertTrue(
        e.getMessage()
            .matches(
                "the internal IR is broken after size-from-nowhere: function main, statement"
                    + " \\[(\\w+)\\]: the type of \\1, \\[gone_7\\]f64, names the size gone_7,"
                    + " which is no scalar in scope"),
        e.getMessage());
  }

  /** A pass giving {@code main}'s parameters the constant outer sizes 3, 4, ... in order. */
  private record ConstantSizes(String name) implements Pass {
    @Override
    public InternalProgram apply(InternalProgram program, NameSource names) {
      InternalFunction main = program.function("main").orElseThrow();
      List<Ident> params = new ArrayList<>();
      for (int k = 0; k < main.params().size(); k++) {
        Ident p = main.params().get(k);
        params.add(new Ident(p.name(), ((Type.Array) p.type()).withSize(new Dim.Const(3 + k))));
      }
      return new InternalProgram(
          List.of(new InternalFunction(main.name(), params, main.body(), main.returnTypes())));
    }
  }

  @Test
  void soacInputsOfDifferentConstantOuterSizesAreNamedWithThePass() {
    String zipped =
        "fun real main([real] xs, [real] ys) = reduce(op +, 0.0, map(fn real (real x, real y) => x * y, zip(xs, ys)))";
    IllegalStateException e =
        assertThrows(
            IllegalStateException.class,
            () -> Internal.of(zipped).after(new ConstantSizes("sizes-3-and-4")));
    assertTrue(
        e.getMessage()
            .matches(
                "the internal IR is broken after sizes-3-and-4: function main, statement \\[\\w+\\]:"
                    + " the inputs xs\\w* and ys\\w* of a map have the outer sizes 3 and 4"),
        e.getMessage());
  }

  private static final String ZIPPED =
      "fun real main([real] xs, [real] ys) = reduce(op +, 0.0, map(fn real (real x, real y) => x * y, zip(xs, ys)))";

  /** {@code body} with each assertion's condition replaced by {@code true}: it checks nothing. */
  private static Body assertingNothing(Body body) {
    return new Body(
        body.stms().stream()
            .map(
                s ->
                    s.exp() instanceof Exp.Assert a
                        ? s.withExp(
                            new Exp.Assert(
                                SubExp.constant(ScalarValue.bool(true)),
                                a.operation(),
                                a.detail(),
                                a.pos()))
                        : s)
            .toList(),
        body.result());
  }

  @Test
  void soacInputsOfSizesThatAnAssertionShowsEqualAreWellFormed() {
    assertEquals(Optional.empty(), IrChecker.problem(Internal.of(ZIPPED).program()));
    assertEquals(Optional.empty(), IrChecker.problem(Compiled.of(ZIPPED).optimized().internal()));
  }

  /** A zip of three arrays checks {@code 3 = n && 3 = m}: both sizes equal the constant. */
  @Test
  void soacInputsOfSizesThatAnAssertionShowsEqualToOneConstantAreWellFormed() {
    String zippedWithAConstant =
        "fun [real] main([real] xs, [real] ys) ="
            + " map(fn real (real x, real y, real z) => x + y + z, zip(replicate(3, 1.0), xs, ys))";
    assertEquals(Optional.empty(), IrChecker.problem(Internal.of(zippedWithAConstant).program()));
  }

  @Test
  void soacInputsOfDifferentlyNamedSizesThatNothingShowsEqualAreNamedWithThePass() {
    IllegalStateException e =
        assertThrows(
            IllegalStateException.class,
            () ->
                Internal.of(ZIPPED)
                    .after(new Rewrite("forgets-the-zip-check", IrCheckerTest::assertingNothing)));
    assertTrue(
        e.getMessage()
            .matches(
                "the internal IR is broken after forgets-the-zip-check: function main, statement"
                    + " \\[\\w+\\]: the inputs (xs\\w*) and (ys\\w*) of a map have the outer sizes"
                    + " \\1_d0\\w* and \\2_d0\\w*, which no binding or assertion in scope shows"
                    + " equal"),
        e.getMessage());
  }

  /**
   * {@code body} with {@code ys}'s size bound to {@code xs}'s ({@code let ys_d0 = xs_d0}) instead
   * of read from {@code ys}: a copy shows the sizes equal.
   */
  private static Body ysSizedAsXs(Body body) {
    List<Stm> stms = new ArrayList<>(assertingNothing(body).stms());
    SubExp xsSize = stms.get(0).pattern().get(0).var();
    stms.set(1, stms.get(1).withExp(new Exp.Atom(xsSize)));
    return new Body(stms, body.result());
  }

  @Test
  void soacInputsOfSizesBoundOneToTheOtherAreWellFormed() {
    InternalProgram program = Internal.of(ZIPPED).program();
    assertTrue(
        program.function("main").orElseThrow().body().stms().get(1).exp() instanceof Exp.Size);
    assertEquals(
        Optional.empty(), IrChecker.problem(program.mapBodies(IrCheckerTest::ysSizedAsXs)));
  }

  @Test
  void aFixpointThatDoesNotConvergeSaysSo() {
    Pass grows =
        new Pass() {
          @Override
          public String name() {
            return "copies-the-result";
          }

          /**
           * Each round binds a copy of main's result under a fresh name: well formed, never the
           * same twice.
           */
          @Override
          public InternalProgram apply(InternalProgram program, NameSource names) {
            InternalFunction main = program.function("main").orElseThrow();
            List<Stm> stms = new ArrayList<>(main.body().stms());
            Ident copy = new Ident(names.fresh("copy"), main.returnTypes().get(0));
            stms.add(new Stm(List.of(copy), new Exp.Atom(main.body().result().get(0))));
            return new InternalProgram(
                List.of(main.withBody(new Body(stms, main.body().result()))));
          }
        };
    Fixpoint endless = new Fixpoint("endless", List.of(grows), 3);
    IllegalStateException e =
        assertThrows(
            IllegalStateException.class,
            () -> endless.apply(Internal.of(SOURCE).program(), new NameSource()));
    assertEquals(
        "the fixpoint endless did not converge in 3 rounds; it stops with the last round's program",
        e.getMessage());
  }

  /**
   * Inlined, a function that maps over both components of its array of pairs (through an {@code
   * if}, which keeps the sizes apart) is called with arrays of one constant size: the sizes the
   * checker sees are {@code size(0, ...)} of arrays typed {@code [2]i32}, equal by their types (the
   * caller's zip checked {@code 2 = 2}). It reported the map's inputs as of sizes no binding showed
   * equal (found by KernelLoweringTest's random programs).
   */
  @Test
  void sizesOfArraysOfOneConstantSizeAreEqual() {
    Internal p =
        Internal.of(
                """
            fun [i32] pairs([{i32, i32}] ps) = map(fn i32 (i32 x, i32 y) => x + y, if false then ps else ps)
            fun [i32] main(i32 n) = pairs([{1, 2}, {3, 4}])
            """)
            .after(new dev.l0.opt.pass.Inliner());
    assertEquals(Optional.empty(), IrChecker.problem(p.program()));
    Compiled.of(
            """
        fun [i32] pairs([{i32, i32}] ps) = map(fn i32 (i32 x, i32 y) => x + y, if false then ps else ps)
        fun [i32] main(i32 n) = pairs([{1, 2}, {3, 4}])
        """)
        .assertSameResult("main", "0");
  }
}
