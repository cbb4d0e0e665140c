package dev.l0.opt;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.l0.interp.Interpreter;
import dev.l0.ir.L0RuntimeError;
import dev.l0.ir.Type;
import dev.l0.ir.Value;
import dev.l0.opt.fusion.Iswim;
import dev.l0.opt.ir.Body;
import dev.l0.opt.ir.Exp;
import dev.l0.opt.ir.InternalProgram;
import dev.l0.opt.ir.IrChecker;
import dev.l0.opt.ir.Stm;
import dev.l0.opt.pass.Simplifier;
import dev.l0.testing.IswimPrograms;
import dev.l0.testing.ProgramCase;
import dev.l0.testing.RandomPrograms;
import dev.l0.types.TypeChecker;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Supplier;
import org.junit.jupiter.api.Test;

/**
 * ISWIM (thesis §8.3): a scan whose operator is a map nest becomes a map nest of scans over the
 * transposed input, at any depth (Fig. 36, which the thesis did not implement); a map producer
 * fuses into it (FUSE-ISWIM-CONSUMER) and a map nest over its elements fuses into it
 * (FUSE-ISWIM-PRODUCER). Each rule applied alone gives a well-formed program; through the optimiser
 * the scan is the innermost SOAC of its kernel (a second kernel copies its transposed result, which
 * the program returns), explain names the rules, and results are bit-identical to the reference
 * interpreter (each column is scanned in its own order).
 */
class IswimTest {
  private static final String ROWS_3X2 = IswimPrograms.ROWS_3X2;
  private static final int RANDOM_PROGRAMS = 200;

  private static void assertKernels(Compiled c, List<String> structures, String... rules) {
    assertEquals(structures, c.kernelStructures(), c.optimized().explain());
    String kernel =
        c.optimized()
            .explain()
            .lines()
            .filter(l -> l.startsWith("kernel 1: "))
            .findFirst()
            .orElseThrow();
    for (String rule : rules) {
      assertTrue(kernel.contains(rule), kernel);
    }
  }

  @Test
  void fig35ScanOfRowsBecomesAMapOfScans() {
    Compiled c = Compiled.of(IswimPrograms.FIG_35);
    assertKernels(c, List.of("map{scan}", "map"), "fused by ISWIM");
    c.assertRowsSized(1);
    c.assertSameResult("main", ROWS_3X2);
    c.assertSameResult("main", "[[0.1, 0.2, 0.3]]");
    c.assertSameResult("main", "empty([0][3]f64)");
  }

  @Test
  void fig36DepthTwoPutsTheScanUnderBothMaps() {
    Compiled c = Compiled.of(IswimPrograms.FIG_36_DEPTH_2);
    assertKernels(c, List.of("map{map{scan}}", "map"), "ISWIM");
    c.assertSameResult("main", IswimPrograms.ROWS_3X2X2);
  }

  @Test
  void depthThreeOfTwoArraysPutsTheScanUnderThreeMaps() {
    Compiled c = Compiled.of(IswimPrograms.DEPTH_3);
    assertKernels(c, List.of("map{map{map{scan}}}", "map"), "ISWIM");
    c.assertSameResult("main", IswimPrograms.ROWS_3X2X1X2);
  }

  @Test
  void aScanOfRowsInsideAMapGoesUnderBothMaps() {
    Compiled c = Compiled.of(IswimPrograms.SCAN_IN_A_MAP);
    assertKernels(c, List.of("map{map{scan}}"), "fused by ISWIM");
    c.assertSameResult("main", IswimPrograms.ROWS_3X2X2);
  }

  @Test
  void aMapProducerFusesIntoTheInterchangedScan() {
    Compiled c = Compiled.of(IswimPrograms.CONSUMER);
    assertKernels(c, List.of("map{scanomap}", "map"), "FUSE-MAP-SCAN", "FUSE-ISWIM-CONSUMER");
    c.assertSameResult("main", ROWS_3X2);
  }

  @Test
  void aMapConsumerRunsOnEachScannedColumn() {
    Compiled c = Compiled.of(IswimPrograms.PRODUCER);
    assertKernels(c, List.of("map{scan, map}", "map"), "ISWIM", "FUSE-ISWIM-PRODUCER");
    c.assertSameResult("main", ROWS_3X2);
  }

  @Test
  void aNeutralElementOfUnprovenSizeKeepsTheScanOfRows() {
    Compiled c =
        Compiled.of(
            """
        fun [[real]] main([real] ne, [[real]] a) =
          scan(fn [real] ([real] x, [real] y) => map(op +, zip(x, y)), ne, a)
        """);
    assertEquals(List.of("scan{map}"), c.kernelStructures(), c.optimized().explain());
    c.assertSameResult("main", "[0.0, 1.0] " + ROWS_3X2);
  }

  @Test
  void anOperatorThatIsNotOneMapOverItsRowsKeepsTheScanOfRows() {
    Compiled c =
        Compiled.of(
            """
        fun [[real]] main([[real]] a) =
          let m = size(1, a) in
          scan(fn [real] ([real] x, [real] y) =>
                 let z = map(op +, zip(x, y)) in
                 map(fn real (real v) => v * z[0], z),
               replicate(m, 0.0), a)
        """);
    assertTrue(c.kernelStructures().get(0).startsWith("scan"), c.optimized().explain());
    c.assertSameResult("main", ROWS_3X2);
  }

  /**
   * Random programs with scans of arrays of rows ({@link RandomPrograms#kernelArrayProgram}): the
   * optimised program, ISWIM included, gives the interpreter's result or fails in the same
   * operation, and is well formed; ISWIM applies to some of them.
   */
  @Test
  void randomScansOfRowsKeepTheirResults() {
    List<String> problems = new ArrayList<>();
    int interchanged = 0;
    for (int seed = 0; seed < RANDOM_PROGRAMS; seed++) {
      ProgramCase c = RandomPrograms.kernelArrayProgram(seed);
      OptimizedProgram optimized = Optimizer.optimize(TypeChecker.check(c.program()));
      String expected = outcome(() -> new Interpreter(c.program()).call(c.entry(), c.args()));
      String actual = outcome(() -> optimized.call(c.entry(), c.args()));
      if (!expected.equals(actual) || IrChecker.problem(optimized.internal()).isPresent()) {
        problems.add("seed " + seed + ": " + actual + ", expected " + expected + "\n" + c);
      }
      if (optimized.explain().contains("ISWIM")) {
        interchanged++;
      }
    }
    System.out.println(
        "ISWIM: " + interchanged + " of " + RANDOM_PROGRAMS + " random programs interchanged");
    assertEquals(List.of(), problems.stream().limit(3).toList(), problems.size() + " problems");
    assertTrue(interchanged > 0, "ISWIM applied to none of " + RANDOM_PROGRAMS + " programs");
  }

  private static String outcome(Supplier<Value> run) {
    try {
      return "value " + run.get();
    } catch (L0RuntimeError e) {
      return "failure in " + e.operation();
    }
  }

  // ---- each rule alone ----

  /** The types of every name {@code p}'s main binds. */
  private static Map<String, Type> types(Internal p) {
    Map<String, Type> out = new HashMap<>();
    p.main().params().forEach(x -> out.put(x.name(), x.type()));
    for (Stm stm : p.everywhere()) {
      stm.pattern().forEach(x -> out.put(x.name(), x.type()));
      stm.exp().lambdas().forEach(l -> l.params().forEach(x -> out.put(x.name(), x.type())));
    }
    return out;
  }

  /**
   * {@code p}'s main with the statements at {@code positions} (top level) replaced by {@code
   * replacement} at the last of them.
   */
  private static InternalProgram replaced(Internal p, List<Integer> positions, List<Stm> stms) {
    List<Stm> out = new ArrayList<>(p.topLevel());
    int last = positions.get(positions.size() - 1);
    out.remove(last);
    out.addAll(last, stms);
    for (int k = positions.size() - 2; k >= 0; k--) {
      out.remove((int) positions.get(k));
    }
    Body body = new Body(out, p.main().body().result());
    return new InternalProgram(List.of(p.main().withBody(body)));
  }

  private static List<Integer> soacPositions(Internal p) {
    List<Integer> out = new ArrayList<>();
    for (int k = 0; k < p.topLevel().size(); k++) {
      if (p.topLevel().get(k).exp() instanceof Exp.Soac) {
        out.add(k);
      }
    }
    return out;
  }

  /** The top-level SOACs of {@code program}'s main as keyword{nested...}. */
  private static List<String> topLevelSoacs(InternalProgram program) {
    return program.functions().get(0).body().stms().stream()
        .filter(s -> s.exp() instanceof Exp.Soac)
        .map(s -> ((Exp.Soac) s.exp()).keyword())
        .toList();
  }

  private static long transposes(InternalProgram program) {
    return program.functions().get(0).body().stms().stream()
        .filter(s -> s.exp() instanceof Exp.Transpose)
        .count();
  }

  @Test
  void iswimAloneInterchangesAtEveryDepth() {
    for (String source :
        List.of(IswimPrograms.FIG_35, IswimPrograms.FIG_36_DEPTH_2, IswimPrograms.DEPTH_3)) {
      Internal p = Internal.of(source).after(new Simplifier());
      List<Integer> soacs = soacPositions(p);
      assertEquals(1, soacs.size(), source);
      Stm scan = p.topLevel().get(soacs.get(0));
      List<Stm> swapped = Iswim.interchange(scan, types(p), p.names()).orElseThrow();
      InternalProgram out = replaced(p, soacs, swapped);
      assertEquals(Optional.empty(), IrChecker.problem(out), source);
      assertEquals(List.of("map"), topLevelSoacs(out), source);
      assertEquals(2L * scan.pattern().size(), transposes(out), source);
    }
  }

  @Test
  void fuseIswimConsumerAloneFusesTheMapIntoTheInterchangedScan() {
    Internal p = Internal.of(IswimPrograms.CONSUMER).after(new Simplifier());
    List<Integer> soacs = soacPositions(p);
    assertEquals(2, soacs.size());
    Stm producer = p.topLevel().get(soacs.get(0));
    Stm scan = p.topLevel().get(soacs.get(1));
    List<Stm> fused = Iswim.fuseConsumer(producer, scan, types(p), p.names()).orElseThrow();
    InternalProgram out = replaced(p, soacs, fused);
    assertEquals(Optional.empty(), IrChecker.problem(out));
    assertEquals(List.of("map"), topLevelSoacs(out));
    assertEquals(
        Optional.empty(),
        Iswim.fuseConsumer(scan, producer, types(p), p.names()),
        "the scan is no map producer");
  }

  @Test
  void fuseIswimProducerAloneRunsTheConsumerInTheInterchangedNest() {
    Internal p = Internal.of(IswimPrograms.PRODUCER).after(new Simplifier());
    List<Integer> soacs = soacPositions(p);
    assertEquals(2, soacs.size());
    Stm scan = p.topLevel().get(soacs.get(0));
    Stm consumer = p.topLevel().get(soacs.get(1));
    List<Stm> fused = Iswim.fuseProducer(scan, consumer, types(p), p.names()).orElseThrow();
    InternalProgram out = replaced(p, soacs, fused);
    assertEquals(Optional.empty(), IrChecker.problem(out));
    assertEquals(List.of("map"), topLevelSoacs(out));
    assertEquals(
        3, transposes(out), "the scan's input and the consumer's other input in, the result out");
  }
}
