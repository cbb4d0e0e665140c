package dev.l0.kernels.sim;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.l0.opt.Optimizer;
import dev.l0.testing.ProgramCase;
import dev.l0.testing.RandomPrograms;
import dev.l0.types.TypeChecker;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Random programs at the edges of scalar semantics ({@link RandomPrograms#scalarEdgeProgram}:
 * integer extremes, division by -1, shift counts beyond the width or negative, integer powers that
 * wrap or fail, conversions of NaN and infinities, -0.0, min and max reductions of floats, a
 * non-commutative integer reduction, some arrays of up to 70 elements) run with every kernel on the
 * simulator (blocks of 1 and 32) and the JVM backend, as {@link
 * KernelArrayProgramsOnEveryBackendTest} runs its programs: every backend gives the same outcome,
 * and that outcome is the interpreter's except where a float reduction follows the reduction order.
 * The number of programs is the system property {@code l0.scalarEdgePrograms} (default 25); seeds 0
 * to N-1, so that a failure names its program.
 */
class ScalarEdgeProgramsOnEveryBackendTest {
  private static final int PROGRAMS = Integer.getInteger("l0.scalarEdgePrograms", 25);

  @Test
  void everyBackendGivesTheInterpretersOutcomeAtTheScalarEdges() {
    List<String> problems = new ArrayList<>();
    for (int seed = 0; seed < PROGRAMS; seed++) {
      ProgramCase c = RandomPrograms.scalarEdgeProgram(seed);
      problems.addAll(
          KernelArrayProgramsOnEveryBackendTest.problemsOnEveryBackend(
              "seed " + seed, c, Optimizer.optimize(TypeChecker.check(c.program()))));
    }
    assertEquals(List.of(), problems.stream().limit(3).toList(), problems.size() + " problems");
  }
}
