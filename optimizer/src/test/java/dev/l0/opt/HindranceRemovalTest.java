package dev.l0.opt;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.l0.ir.L0RuntimeError;
import dev.l0.opt.fusion.IndexInlining;
import dev.l0.opt.ir.Exp;
import dev.l0.opt.ir.IrChecker;
import dev.l0.opt.pass.Simplifier;
import dev.l0.opt.pass.SizeHindrances;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/**
 * Hindrance removal (thesis ch. 9) on its own examples: the size hindrances of Fig. 37 and §9.1,
 * which shapes in types remove with no pass of their own, the sizes the type checker cannot name (a
 * transpose's, a row parameter's), which {@link SizeHindrances} gives, and the inlining of indexing
 * into cheap maps of §9.2.
 */
class HindranceRemovalTest {
  private static final String INTS = "[3, -1, 7, 0, 12]";

  /** Fig. 37: {@code size(0, b)} of a map's output is {@code size(0, a)}, so {@code b} fuses. */
  @Test
  void figure37SizeHindranceIsFreeFromShapesInTypes() {
    Compiled c =
        Compiled.of(
            """
            fun {int, int} main([int] a) =
              let b = map(fn int (int x) => x + 1, a) in
              let n = size(0, b) in
              {n, reduce(op +, 0, b)}
            """);
    assertEquals(List.of("redomap"), c.kernelStructures());
    c.assertSameResult("main", INTS);
    c.assertSameResult("main", "[]");
  }

  /**
   * §9.1's program: the zip's size assertion reads {@code size(0, a2)} and {@code size(0, b2)};
   * from the types they are the sizes of {@code a} and {@code b}, and the three maps are one.
   */
  @Test
  void theZipAssertionOfSection91NoLongerHindersFusion() {
    Compiled c =
        Compiled.of(
            """
            fun [int] main([int] a, [int] b) =
              let a2 = map(fn int (int x) => x + 1, a) in
              let b2 = map(fn int (int x) => x + 2, b) in
              map(op +, zip(a2, b2))
            """);
    assertEquals(List.of("map"), c.kernelStructures());
    c.assertSameResult("main", INTS + " " + INTS);
    L0RuntimeError mismatch =
        assertThrows(L0RuntimeError.class, () -> c.assertSameResult("main", INTS + " [1]"));
    assertEquals("zip", mismatch.operation());
  }

  /**
   * What shapes in types leave: the type checker gives a transpose's result and the rows of a map
   * over it no sizes, so {@code size} of a row stays in the map's function and it is no perfect
   * nest. {@link SizeHindrances} gives them from the operand, and the simplifier folds every such
   * {@code size}.
   */
  @Test
  void sizesOfATransposeAndOfItsRowsComeFromTheOperand() {
    String source =
        """
        fun [[real]] main([[real]] a) =
          map(fn [real] ([real] r) => map(fn real (real x) => x * 2.0, r), transpose(a))
        """;
    Internal simplified = Internal.of(source).after(new Simplifier());
    assertTrue(simplified.count(e -> e instanceof Exp.Size s && isRow(s)) > 0);
    Internal refined = Internal.of(source).after(new SizeHindrances(), new Simplifier());
    assertEquals(Optional.empty(), IrChecker.problem(refined.program()));
    assertEquals(0, refined.count(e -> e instanceof Exp.Size s && isRow(s)));
  }

  /**
   * A loop whose body keeps its accumulator's size (a map over it) has the initial value's size,
   * from the type checker: each chunk's sums have the reduce's size and their map fuses into it.
   */
  @Test
  void aLoopResultOfTheInitialSizeFusesIntoTheReduceOverIt() {
    Compiled c = Compiled.of(chunkSums("map(op +, zip(acc, xs))"));
    assertEquals(List.of("redomap{map, loop{map}, map}"), c.kernelStructures());
    c.assertSameResult("main", "3 2 [1.5, -2.0, 4.0]");
    c.assertSameResult("main", "2 0 [1.5, -2.0, 4.0]");
    L0RuntimeError mismatch =
        assertThrows(
            L0RuntimeError.class, () -> c.assertSameResult("main", "2 1 [1.5, -2.0, 4.0]"));
    assertEquals("zip", mismatch.operation());
  }

  /** A body that may change its accumulator's size (a filter) leaves the result's size unknown. */
  @Test
  void aLoopResultWhoseSizeAnIterationMayChangeStaysUnfused() {
    Compiled c =
        Compiled.of(chunkSums("map(op +, zip(filter(fn bool (real x) => x >= 0.0, acc), xs))"));
    assertEquals(List.of("map{loop{filter, map}}", "reduce{map}"), c.kernelStructures());
    c.assertSameResult("main", "3 2 [1.5, 2.0, 4.0]");
  }

  /** Four chunks' sums, each a loop of {@code k} steps of {@code step} from n zeros, added. */
  private static String chunkSums(String step) {
    return """
        fun [real] main(int n, int k, [real] xs) =
          let chunks = map(fn [real] (int c) =>
                             loop (acc = replicate(n, 0.0)) = for i < k do STEP in acc,
                           iota(4)) in
          reduce(fn [real] ([real] a, [real] b) => map(op +, zip(a, b)), replicate(n, 0.0), chunks)
        """
        .replace("STEP", step);
  }

  private static boolean isRow(Exp.Size s) {
    return s.array().varName() != null && s.array().varName().startsWith("p_");
  }

  /**
   * A row parameter takes the sizes of its input's rows, here of a parameter's inner dimensions
   * that nothing else reads: they stay bound, so the refined type names sizes in scope (random
   * program simulation, seed 8419699967040293099, found the IR broken after size-hindrances).
   */
  @Test
  void rowsOfAParameterTakeItsInnerSizesWhichStayBound() {
    Compiled c =
        Compiled.of(
            """
            fun int main([[[int]]] a) =
              let b = filter(fn bool ([[int]] r) => false,
                             if true then a else replicate(size(0, a), replicate(0, replicate(0, 0))))
              in
              size(0, b)
            """);
    c.assertSameResult("main", "[[[1, 2]], [[3, 4]]]");
    c.assertSameResult("main", "[]");
  }

  /** §9.2: {@code b[0]} becomes {@code f(a[0])}, and the map fuses into the reduce. */
  @Test
  void section92IndexingIntoACheapMapIsInlined() {
    Compiled c =
        Compiled.of(
            """
            fun real main([real] a) =
              let b = map(fn real (real x) => x * 3.0 + 1.0, a) in
              reduce(fn real (real x, real y) => if x < y then x else y, b[0], b)
            """);
    assertEquals(List.of("redomap"), c.kernelStructures());
    assertTrue(
        c.optimized().explain().contains("; fused by FUSE-MAP-REDOMAP; shaped by INLINE-INDEXING"),
        c.optimized()::explain);
    c.assertSameResult("main", "[2.5, -1.0, 1e300, 0.1]");
    L0RuntimeError empty =
        assertThrows(L0RuntimeError.class, () -> c.assertSameResult("main", "[]"));
    assertEquals("index", empty.operation());
  }

  /**
   * §9.2's limits: indexing inside a loop is not inlined (it would repeat the work every
   * iteration), nor indexing into a map that is not cheap.
   */
  @Test
  void indexingInALoopOrIntoAnExpensiveMapStays() {
    Internal inLoop =
        Internal.of(
                """
                fun real main([real] a, int n) =
                  let b = map(fn real (real x) => x * 3.0, a) in
                  loop (s = 0.0) = for i < n do s + b[i] in s
                """)
            .after(new IndexInlining());
    assertEquals(1, inLoop.count(e -> e instanceof Exp.Index));
    Internal expensive =
        Internal.of(
                """
                fun real main([real] a) =
                  let b = map(fn real (real x) => loop (s = x) = for i < 3 do s * 0.5 in s, a) in
                  b[0]
                """)
            .after(new IndexInlining());
    assertEquals(1, expensive.count(e -> e instanceof Exp.Index));
  }
}
