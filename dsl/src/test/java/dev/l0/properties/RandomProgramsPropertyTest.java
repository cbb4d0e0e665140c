package dev.l0.properties;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.l0.ir.FunDef;
import dev.l0.ir.Program;
import dev.l0.testing.ProgramCase;
import dev.l0.testing.RandomPrograms;
import dev.l0.testing.TypedValue;
import dev.l0.testing.ValueShapes;
import dev.l0.types.TypeChecker;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.regex.Pattern;
import net.jqwik.api.AfterFailureMode;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.RandomGenerator;
import net.jqwik.api.statistics.Statistics;
import org.junit.jupiter.api.Test;

/**
 * The generator itself: inputs fit the entry, helpers are all used and never recursive, and the
 * programs cover the language (checked with jqwik's statistics coverage, so that a change that
 * stops generating, say, filters fails here).
 */
class RandomProgramsPropertyTest {
  /**
   * Constructs (as {@link ProgramConstructs} names them) and the least per cent of programs that
   * must contain each.
   */
  private static final Map<String, Integer> COVERAGE =
      Map.ofEntries(
          Map.entry("Map", 45),
          Map.entry("Filter", 12),
          Map.entry("Reduce", 30),
          Map.entry("Scan", 12),
          Map.entry("Zip", 25),
          Map.entry("Unzip", 5),
          Map.entry("Iota", 15),
          Map.entry("Replicate", 60),
          Map.entry("Size", 30),
          Map.entry("Reshape", 10),
          Map.entry("Transpose", 3),
          Map.entry("Split", 5),
          Map.entry("Concat", 10),
          Map.entry("Copy", 25),
          Map.entry("LetWith", 20),
          Map.entry("Loop", 20),
          Map.entry("If", 20),
          Map.entry("Index", 30),
          Map.entry("Let", 50),
          Map.entry("Let with tuple pattern", 25),
          Map.entry("Call", 30),
          Map.entry("helper function", 30),
          Map.entry("shimmed lambda", 7),
          Map.entry("function reference", 15),
          Map.entry("curried function reference", 4),
          Map.entry("operator section", 25),
          Map.entry("curried operator section", 4),
          Map.entry("SOAC over SOAC", 25),
          Map.entry("SOAC over variable", 12),
          Map.entry("SOAC in lambda", 15),
          Map.entry("producer with several consumers", 15),
          Map.entry("in-place update in loop", 10));

  /** A loop whose step is a filter (of its accumulator), in printed L0. */
  private static final Pattern FILTERING_LOOP = Pattern.compile("do\\s+filter\\(");

  /** A loop whose step appends to its accumulator, in printed L0. */
  private static final Pattern APPENDING_LOOP = Pattern.compile("do\\s+concat\\(");

  @Property(tries = 1000, afterFailure = AfterFailureMode.SAMPLE_FIRST)
  void programsCoverTheLanguage(@ForAll("programs") ProgramCase generated) {
    Set<String> constructs = ProgramConstructs.of(generated.program());
    COVERAGE.forEach(
        (construct, least) -> {
          Statistics.label(construct).collect(constructs.contains(construct));
          Statistics.label(construct)
              .coverage(check -> check.check(true).percentage(p -> p >= least));
        });
  }

  @Property(tries = 1000, afterFailure = AfterFailureMode.SAMPLE_FIRST)
  void argumentsFitTheEntryParameters(@ForAll("programs") ProgramCase generated) {
    FunDef entry = generated.entryFunction();
    assertEquals(entry.params().size(), generated.args().size());
    for (int i = 0; i < entry.params().size(); i++) {
      assertTrue(
          ValueShapes.conforms(generated.args().get(i), entry.params().get(i).type()),
          generated.args().get(i) + " is not a " + entry.params().get(i).type());
    }
  }

  /** Every helper is referenced, and only by functions defined after it, so none is recursive. */
  @Property(tries = 1000, afterFailure = AfterFailureMode.SAMPLE_FIRST)
  void helpersAreUsedAndDefinedBeforeTheirCallers(@ForAll("programs") ProgramCase generated) {
    Program program = generated.program();
    List<FunDef> functions = program.functions();
    assertEquals(generated.entry(), functions.get(functions.size() - 1).name());
    Set<String> referencedSoFar = new HashSet<>();
    for (int i = functions.size() - 1; i >= 0; i--) {
      FunDef f = functions.get(i);
      if (i < functions.size() - 1) {
        assertTrue(
            referencedSoFar.contains(f.name()),
            f.name() + " is never referenced by a later function");
      }
      Set<String> own = Program.calledFunctions(f.body());
      assertTrue(!own.contains(f.name()), f.name() + " refers to itself");
      referencedSoFar.addAll(own);
    }
  }

  /**
   * The same random choices give the same program and inputs, so a reported seed reproduces a
   * failure.
   */
  @Property(tries = 200, afterFailure = AfterFailureMode.SAMPLE_FIRST)
  void generationIsDeterministic(@ForAll long seed) {
    RandomGenerator<ProgramCase> generator = RandomPrograms.programs().generator(1000);
    ProgramCase first = generator.next(new Random(seed)).value();
    ProgramCase second = generator.next(new Random(seed)).value();
    assertEquals(first, second);
  }

  /**
   * The programs with per-thread array shapes are well typed, their arguments fit, and they hold
   * reductions and scans whose operator combines arrays and loops that filter or append to their
   * accumulator.
   */
  @Test
  void kernelArrayProgramsAreWellTypedAndHoldArrayReductionsAndShrinkingLoops() {
    int programs = 300;
    int arrayReductions = 0;
    int arrayScans = 0;
    int filteringLoops = 0;
    int appendingLoops = 0;
    for (int seed = 0; seed < programs; seed++) {
      ProgramCase generated = RandomPrograms.kernelArrayProgram(seed);
      TypeChecker.check(generated.program());
      FunDef entry = generated.entryFunction();
      for (int i = 0; i < entry.params().size(); i++) {
        assertTrue(
            ValueShapes.conforms(generated.args().get(i), entry.params().get(i).type()),
            "seed " + seed);
      }
      String text = generated.toString();
      arrayReductions += text.contains("reduce(fn [") ? 1 : 0;
      arrayScans += text.contains("scan(fn [") ? 1 : 0;
      filteringLoops += FILTERING_LOOP.matcher(text).find() ? 1 : 0;
      appendingLoops += APPENDING_LOOP.matcher(text).find() ? 1 : 0;
    }
    assertTrue(
        arrayReductions >= programs / 5, arrayReductions + " programs with a reduction of arrays");
    assertTrue(arrayScans >= programs / 10, arrayScans + " programs with a scan of arrays");
    assertTrue(
        filteringLoops >= programs / 10,
        filteringLoops + " programs with a loop that filters its accumulator");
    assertTrue(
        appendingLoops >= programs / 10,
        appendingLoops + " programs with a loop that appends to its accumulator");
  }

  @Property(tries = 1000, afterFailure = AfterFailureMode.SAMPLE_FIRST)
  void valuesHaveTheirTypes(@ForAll("values") TypedValue v) {
    assertTrue(ValueShapes.conforms(v.value(), v.type()), v.value() + " is not a " + v.type());
  }

  @Provide
  Arbitrary<ProgramCase> programs() {
    return RandomPrograms.programs();
  }

  @Provide
  Arbitrary<TypedValue> values() {
    return RandomPrograms.values();
  }
}
