package dev.l0.testing;

import dev.l0.ir.Type;
import java.util.List;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.RandomDistribution;

/**
 * jqwik generators of random well-typed L0 programs with inputs, for property tests of every
 * executor (interpreter, optimiser, backends). Each program is built from a jqwik-generated list of
 * numbers, a decision tape ({@link Choices}): jqwik shrinks the list, so a failing program shrinks
 * to a smaller one that is still well typed, and the same list always gives the same program.
 * Generation is type-directed ({@link ExprGenerator}, {@link SoacGenerator}): an entry {@code main}
 * with helper functions it calls (never recursively), scalars of all five types, tuples, arrays of
 * rank 1 to 3 and of tuples, let with tuple patterns, if, loops, in-place updates of fresh arrays
 * (also inside loops), indexing, conversions, math built-ins, chains of SOACs over each other's
 * results, with one producer feeding several consumers, and transposes and reshapes of matrices
 * made by map nests or read by them (the shapes of the fusion rules across index functions). Sizes
 * are at most 12, so a thousand programs run in a few seconds.
 */
public final class RandomPrograms {
  /**
   * Enough choices for programs of a few dozen expressions; shorter tapes make smaller programs.
   */
  private static final int PROGRAM_TAPE = 600;

  private static final int VALUE_TAPE = 200;

  /** Enough for the arguments of a scalar-edge program, whose arrays may be wide. */
  private static final int EDGE_VALUE_TAPE = 4000;

  /** A row program's loop and steps use more choices before its expressions get any. */
  private static final int ROW_PROGRAM_TAPE = 1200;

  private RandomPrograms() {}

  /**
   * Well-typed programs with arguments; they run without error except that about 1 in 50 indexes
   * out of bounds on purpose (an {@link dev.l0.ir.L0RuntimeError} for operation {@code "index"}).
   */
  public static Arbitrary<ProgramCase> programs() {
    return tapes(PROGRAM_TAPE).map(ProgramGenerator::program);
  }

  /**
   * The program {@link #programs()} makes of a tape drawn from {@code seed}: reproducible random
   * programs for tests that run a fixed number of them (a failure names the seed).
   */
  public static ProgramCase program(long seed) {
    return ProgramGenerator.program(tape(seed, PROGRAM_TAPE));
  }

  /**
   * A program as {@link #program(long)} that also holds the shapes of per-thread array code inside
   * kernels: reductions and scans of arrays, loops whose array accumulator a filter shrinks or a
   * concat grows (also by rows of itself, over a trip count the data may decide, so that the host
   * knows no bound of its size), and more in-place updates.
   */
  public static ProgramCase kernelArrayProgram(long seed) {
    return ProgramGenerator.program(tape(seed, PROGRAM_TAPE), true);
  }

  /**
   * A program as {@link #program(long)} that also holds the edges of scalar semantics the backends
   * lower: extreme and special literals and arguments (integer minima and maxima, -1, -0.0,
   * infinities, NaN, subnormals), division and remainder by -1 and negative divisors, shift counts
   * beyond the type's width or negative, integer powers that wrap around or fail on a negative
   * exponent, more conversions, math built-ins and {@code min}/{@code max}, and reductions and
   * scans of floats by {@code min} and {@code max} and of integers by a non-commutative operator
   * (also on pairs: {@code {a1 * a2, b1 * a2 + b2}}, affine maps composed) (the rightmost non-zero
   * operand); some of its one-dimensional arrays have up to 70 elements (several chunks of a
   * reduction; a float sum or product of them is held to {@code ReductionOrder}, not to the
   * interpreter's left fold).
   */
  public static ProgramCase scalarEdgeProgram(long seed) {
    return ProgramGenerator.scalarEdgeProgram(
        tape(seed, PROGRAM_TAPE), valueTape(seed, EDGE_VALUE_TAPE));
  }

  /**
   * A program of the shape a block per row runs ({@link RowProgramGenerator}): its entry maps the
   * few rows of a matrix, each running a loop whose steps run maps, reductions and in-place updates
   * of the row's array; made of a tape drawn from {@code seed}, its arguments of a whole value tape
   * drawn from it too.
   */
  public static ProgramCase rowProgram(long seed) {
    return RowProgramGenerator.program(tape(seed, ROW_PROGRAM_TAPE), valueTape(seed, VALUE_TAPE));
  }

  /** A whole tape of {@code length} choices for argument values, drawn from {@code seed}. */
  private static List<Integer> valueTape(long seed, int length) {
    // another stream than the program's tape's (which is drawn from seed itself)
    java.util.Random random = new java.util.Random(~seed);
    List<Integer> values = new java.util.ArrayList<>(length);
    for (int i = 0; i < length; i++) {
      values.add(random.nextInt(Choices.RANGE));
    }
    return values;
  }

  private static List<Integer> tape(long seed, int maxLength) {
    java.util.Random random = new java.util.Random(seed);
    int length = random.nextInt(maxLength + 1);
    List<Integer> tape = new java.util.ArrayList<>(length);
    for (int i = 0; i < length; i++) {
      tape.add(random.nextInt(Choices.RANGE));
    }
    return tape;
  }

  /**
   * Well-typed programs whose entry fails at run time in a known operation; half of them fail
   * inside the rows of a map (a kernel), at an index, split point or new size that is a literal, a
   * value the host computes before the kernel, or one each row computes.
   */
  public static Arbitrary<FailingProgramCase> failingPrograms() {
    return tapes(PROGRAM_TAPE).map(ProgramGenerator::failingProgram);
  }

  /** The program {@link #failingPrograms()} makes of a tape drawn from {@code seed}. */
  public static FailingProgramCase failingProgram(long seed) {
    return ProgramGenerator.failingProgram(tape(seed, PROGRAM_TAPE));
  }

  /**
   * Values of random types (size-erased in {@link TypedValue#type()}): regular arrays; floats
   * include infinities and NaN.
   */
  public static Arbitrary<TypedValue> values() {
    return tapes(VALUE_TAPE).map(RandomPrograms::value);
  }

  private static TypedValue value(List<Integer> tape) {
    Choices choices = new Choices(tape);
    Type type = new TypeGenerator(choices).parameter();
    return new TypedValue(type.erased(), new ValueGenerator(choices).value(type));
  }

  private static Arbitrary<List<Integer>> tapes(int maxLength) {
    return Arbitraries.integers()
        .between(0, Choices.RANGE - 1)
        .list()
        .ofMaxSize(maxLength)
        .withSizeDistribution(RandomDistribution.uniform());
  }
}
