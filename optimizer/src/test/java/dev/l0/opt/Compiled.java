package dev.l0.opt;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.l0.interp.Interpreter;
import dev.l0.ir.Dim;
import dev.l0.ir.FunDef;
import dev.l0.ir.L0RuntimeError;
import dev.l0.ir.Param;
import dev.l0.ir.Program;
import dev.l0.ir.Type;
import dev.l0.ir.Value;
import dev.l0.opt.ir.Body;
import dev.l0.opt.ir.Exp;
import dev.l0.opt.ir.Stm;
import dev.l0.opt.ir.Traversal;
import dev.l0.syntax.L0Parser;
import dev.l0.types.TypeChecker;
import dev.l0.values.ValueReader;
import java.util.ArrayList;
import java.util.List;

/**
 * A test program compiled by the optimiser, with the reference interpreter beside it to compare
 * results.
 */
record Compiled(Program program, OptimizedProgram optimized) {

  static Compiled of(String source) {
    return of(L0Parser.parse(source, "test.l0"));
  }

  static Compiled of(Program program) {
    return new Compiled(program, Optimizer.optimize(TypeChecker.check(program)));
  }

  /** The nest of each kernel, e.g. {@code [map{redomap}, reduce]}. */
  List<String> kernelStructures() {
    return optimized.kernelPlan().kernels().stream().map(KernelPlan.Kernel::structure).toList();
  }

  /**
   * The structures of the kernels of the plan that keeps the order of failures, which a failing run
   * reruns ({@link OptimizedProgram#failureOrderPlan}).
   */
  List<String> failureOrderStructures() {
    return optimized.failureOrderPlan().kernelPlan().kernels().stream()
        .map(KernelPlan.Kernel::structure)
        .toList();
  }

  /**
   * Runs {@code function} on the arguments written in {@code argsText} both ways and asserts
   * bit-identical results, or failures in the same operation at the same position (then rethrows
   * the optimised program's error).
   */
  Value assertSameResult(String function, String argsText) {
    FunDef def = program.function(function).orElseThrow();
    List<Value> args =
        ValueReader.read(argsText, def.params().stream().map(Param::type).toList(), "args");
    Value expected = null;
    L0RuntimeError expectedFailure = null;
    try {
      expected = new Interpreter(program).call(function, args);
    } catch (L0RuntimeError e) {
      expectedFailure = e;
    }
    try {
      Value actual = optimized.call(function, args);
      assertNull(expectedFailure, () -> "only the interpreter fails:\n" + optimized.explain());
      assertEquals(expected, actual, () -> "optimised result differs:\n" + optimized.explain());
      return actual;
    } catch (L0RuntimeError e) {
      assertNotNull(
          expectedFailure,
          () -> "only the optimised program fails: " + e.getMessage() + "\n" + optimized.explain());
      assertEquals(
          expectedFailure.operation() + " at " + expectedFailure.pos(),
          e.operation() + " at " + e.pos(),
          () -> "fails in another operation or place:\n" + optimized.explain());
      throw e;
    }
  }

  /**
   * Runs {@code function} on the arguments written in {@code argsText} both ways and asserts that
   * both fail with the same error: the same operation, position and detail.
   */
  void assertSameFailure(String function, String argsText) {
    L0RuntimeError optimised =
        assertThrows(L0RuntimeError.class, () -> assertSameResult(function, argsText));
    FunDef def = program.function(function).orElseThrow();
    List<Value> args =
        ValueReader.read(argsText, def.params().stream().map(Param::type).toList(), "args");
    L0RuntimeError interpreted =
        assertThrows(L0RuntimeError.class, () -> new Interpreter(program).call(function, args));
    assertEquals(interpreted.pos(), optimised.pos(), "the failing position");
    assertEquals(interpreted.detail(), optimised.detail(), "the failure's detail");
  }

  /**
   * Asserts that every size in the row types of kernel {@code index}'s results is known (a constant
   * or a name in scope), so the host can allocate its results before it runs.
   */
  void assertRowsSized(int index) {
    KernelPlan.Kernel kernel = optimized.kernelPlan().kernels().get(index);
    for (Type row : ((Exp.Soac) kernel.statement().exp()).rowFunction().returnTypes()) {
      for (Type t = row; t instanceof Type.Array array; t = array.element()) {
        assertTrue(
            !(array.size() instanceof Dim.Unknown),
            "a row of unknown size in " + kernel.describe() + ":\n" + optimized.explain());
      }
    }
  }

  /** All statements of the optimised entry functions, at every depth. */
  List<Stm> allStatements() {
    List<Stm> out = new ArrayList<>();
    optimized.internal().functions().stream()
        .filter(f -> optimized.entries().contains(f.name()))
        .forEach(f -> out.addAll(Traversal.statements(f.body())));
    return out;
  }

  /**
   * The statements inside the functions of SOACs and inside loop bodies: the code that runs once
   * per element or iteration.
   */
  List<Stm> statementsInsideLoops() {
    List<Stm> out = new ArrayList<>();
    for (Stm stm : allStatements()) {
      List<Body> inner = new ArrayList<>();
      if (stm.exp() instanceof Exp.Loop l) {
        inner.add(l.body());
      }
      stm.exp().lambdas().forEach(l -> inner.add(l.body()));
      inner.forEach(b -> out.addAll(Traversal.statements(b)));
    }
    return out;
  }
}
