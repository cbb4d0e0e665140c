package dev.l0.kernels.ir;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.l0.ir.BinaryOperator;
import dev.l0.ir.ScalarType;
import dev.l0.ir.ScalarValue;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * {@link ScalarSpecialisation} replaces every read of a specialised scalar parameter, in every kind
 * of statement, by its value, and leaves the kernel's signature and other reads as they are.
 */
class ScalarSpecialisationTest {
  private static final KernelExpr.Var K = new KernelExpr.Var("k", ScalarType.I64);
  private static final KernelExpr.Var M = new KernelExpr.Var("m", ScalarType.I64);
  private static final KernelExpr.Var X = new KernelExpr.Var("x", ScalarType.I64);
  private static final KernelExpr.Var I = new KernelExpr.Var("i", ScalarType.I64);
  private static final Buffer OUT = new Buffer("out", ScalarType.I64);

  private static KernelExpr plus(KernelExpr a, KernelExpr b) {
    return new KernelExpr.Binary(BinaryOperator.ADD, ScalarType.I64, a, b);
  }

  private static KernelExpr less(KernelExpr a, KernelExpr b) {
    return new KernelExpr.Binary(BinaryOperator.LT, ScalarType.I64, a, b);
  }

  @Test
  void everyReadOfTheSpecialisedScalarBecomesItsValue() {
    List<KernelStmt> body =
        List.of(
            new KernelStmt.Declare(X, plus(K, M)),
            new KernelStmt.Assign(X, new KernelExpr.Select(less(X, K), K, M)),
            new KernelStmt.Store(OUT, K, new KernelExpr.Load(OUT, plus(X, K))),
            new KernelStmt.If(
                less(M, K),
                List.of(new KernelStmt.RaiseError(3, List.of(K, M))),
                List.of(new KernelStmt.Store(OUT, M, K))),
            new KernelStmt.For(I, K, plus(K, M), K, List.of(new KernelStmt.Store(OUT, I, K))),
            new KernelStmt.While(less(X, K), List.of(new KernelStmt.Assign(X, plus(X, K)))));
    Kernel kernel = new Kernel("k", List.of(OUT), List.of(K, M), List.of(), body);
    ScalarValue seven = new ScalarValue.Int(ScalarType.I64, 7);

    Kernel specialised = ScalarSpecialisation.of(kernel, Map.of("k", seven));

    assertEquals(kernel.scalars(), specialised.scalars(), "the signature stays");
    assertEquals(kernel.buffers(), specialised.buffers());
    List<String> reads = new ArrayList<>();
    List<ScalarValue> constants = new ArrayList<>();
    collect(specialised.body(), reads, constants);
    assertEquals(0, reads.stream().filter("k"::equals).count(), "reads of k left: " + reads);
    assertEquals(6, reads.stream().filter("m"::equals).count(), "reads of m kept: " + reads);
    assertEquals(14, constants.size(), "each read of k is its value");
    assertEquals(List.of(seven), constants.stream().distinct().toList());
    assertEquals(kernel, ScalarSpecialisation.of(kernel, Map.of()), "no values, no change");
  }

  @Test
  void valuesFixAShortLoopWhereTheyAloneGiveItsBoundAtMostTheLimit() {
    KernelStmt.For overK =
        new KernelStmt.For(
            I,
            new KernelExpr.Constant(new ScalarValue.Int(ScalarType.I64, 0)),
            plus(K, K),
            new KernelExpr.Constant(new ScalarValue.Int(ScalarType.I64, 1)),
            List.of());
    KernelStmt.For overX =
        new KernelStmt.For(I, K, plus(K, X), K, List.of(new KernelStmt.Store(OUT, I, K)));
    Kernel kernel =
        new Kernel(
            "k",
            List.of(OUT),
            List.of(K, M),
            List.of(),
            List.of(new KernelStmt.Declare(X, M), overX));
    Map<String, ScalarValue> small = Map.of("k", new ScalarValue.Int(ScalarType.I64, 3));
    Map<String, ScalarValue> large = Map.of("k", new ScalarValue.Int(ScalarType.I64, 17));
    assertFalse(
        ScalarSpecialisation.fixesShortLoop(
            ScalarSpecialisation.loopBoundScalars(kernel), small, 16),
        "k + x reads a local");
    Kernel nested =
        new Kernel(
            "k",
            List.of(OUT),
            List.of(K, M),
            List.of(),
            List.of(new KernelStmt.If(less(M, K), List.of(overK), List.of())));
    assertTrue(
        ScalarSpecialisation.fixesShortLoop(
            ScalarSpecialisation.loopBoundScalars(nested), small, 16),
        "k + k with k = 3");
    assertFalse(
        ScalarSpecialisation.fixesShortLoop(
            ScalarSpecialisation.loopBoundScalars(nested), large, 16),
        "k = 17");
    assertFalse(
        ScalarSpecialisation.fixesShortLoop(
            ScalarSpecialisation.loopBoundScalars(nested), Map.of(), 16),
        "no values");
  }

  private static void collect(List<KernelStmt> body, List<String> reads, List<ScalarValue> values) {
    for (KernelStmt s : body) {
      if (s instanceof KernelStmt.Declare d) {
        collect(d.initial(), reads, values);
      } else if (s instanceof KernelStmt.Assign a) {
        collect(a.value(), reads, values);
      } else if (s instanceof KernelStmt.Store st) {
        collect(st.index(), reads, values);
        collect(st.value(), reads, values);
      } else if (s instanceof KernelStmt.If i) {
        collect(i.condition(), reads, values);
        collect(i.thenBody(), reads, values);
        collect(i.elseBody(), reads, values);
      } else if (s instanceof KernelStmt.For f) {
        collect(f.start(), reads, values);
        collect(f.bound(), reads, values);
        collect(f.step(), reads, values);
        collect(f.body(), reads, values);
      } else if (s instanceof KernelStmt.While w) {
        collect(w.condition(), reads, values);
        collect(w.body(), reads, values);
      } else if (s instanceof KernelStmt.RaiseError r) {
        r.values().forEach(v -> collect(v, reads, values));
      }
    }
  }

  private static void collect(KernelExpr e, List<String> reads, List<ScalarValue> values) {
    if (e instanceof KernelExpr.Var v) {
      reads.add(v.name());
    } else if (e instanceof KernelExpr.Constant c) {
      values.add(c.value());
    } else if (e instanceof KernelExpr.Binary b) {
      collect(b.left(), reads, values);
      collect(b.right(), reads, values);
    } else if (e instanceof KernelExpr.Select s) {
      collect(s.condition(), reads, values);
      collect(s.ifTrue(), reads, values);
      collect(s.ifFalse(), reads, values);
    } else if (e instanceof KernelExpr.Load l) {
      collect(l.index(), reads, values);
    }
  }
}
