package dev.l0.opt;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.l0.ir.L0RuntimeError;
import dev.l0.testing.ThesisBodyPrograms;
import dev.l0.testing.ThesisBodyPrograms.Run;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The programs of the thesis's body ({@link ThesisBodyPrograms}) optimised: the same results and
 * failures as the interpreter, and what the thesis says its optimisations make of them.
 */
class ThesisBodyProgramsTest {

  static Stream<Run> runs() {
    return ThesisBodyPrograms.RUNS.stream();
  }

  private static Compiled compiled(String file) {
    return Compiled.of(ThesisBodyPrograms.load(file));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("runs")
  void optimisedRunsAsTheInterpreterDoes(Run run) {
    Compiled program = compiled(run.file());
    if (run.fails()) {
      L0RuntimeError e =
          assertThrows(
              L0RuntimeError.class, () -> program.assertSameResult(run.entry(), run.args()));
      assertEquals(run.failure(), e.operation() + " at " + e.pos().line() + ":" + e.pos().column());
    } else {
      program.assertSameResult(run.entry(), run.args());
    }
  }

  /** §9.1: once the size hindrances are removed, the two maps and the zip's map fuse into one. */
  @Test
  void sizeHindrancesRemovedTheThreeMapsAreOne() {
    assertEquals(List.of("map"), compiled("s9_1_size_hindrance").kernelStructures());
    assertEquals(List.of("map"), compiled("s9_1_fig38").kernelStructures());
  }

  /** §9.2: b[0] becomes f(a[0]), and the map fuses into the reduce as a redomap. */
  @Test
  void indexingIntoTheMapIsInlinedSoItFusesIntoARedomap() {
    Compiled program = compiled("s9_2_index_inlining");
    assertEquals(List.of("redomap"), program.kernelStructures());
    assertTrue(program.optimized().explain().contains("INLINE-INDEXING"));
  }

  /** §7.1.2: a is consumed between the two maps, so they must not fuse. */
  @Test
  void mapsAreNotFusedPastAnInPlaceUpdateOfTheProducersInput() {
    assertEquals(List.of("map", "map"), compiled("s7_1_2_invalid_fusion").kernelStructures());
  }

  /** §5.3, Fig. 13: copy and constant propagation and constant folding all leave 5. */
  @Test
  void copyAndConstantPropagationAndFoldingLeaveTheConstant() {
    String explained = compiled("s5_3_fig13_folding").optimized().explain();
    for (String function : List.of("copyprop", "constprop", "constfold")) {
      assertTrue(explained.contains("fun {i32} " + function + "() =\n  {5}\n"), () -> explained);
    }
  }

  /** §6.1, Fig. 15: the loop-invariant y + z is hoisted out of the map. */
  @Test
  void theLoopInvariantBindingIsHoistedOutOfTheMap() {
    String explained = compiled("s6_1_fig15_hoisting").optimized().explain();
    assertTrue(explained.indexOf("y_1 + z_2") < explained.indexOf("map("), () -> explained);
  }
}
