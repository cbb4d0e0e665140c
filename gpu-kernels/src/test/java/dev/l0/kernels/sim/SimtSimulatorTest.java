package dev.l0.kernels.sim;

import static dev.l0.kernels.sim.KernelCode.BLOCK;
import static dev.l0.kernels.sim.KernelCode.BLOCK_DIM;
import static dev.l0.kernels.sim.KernelCode.GLOBAL_THREAD;
import static dev.l0.kernels.sim.KernelCode.THREAD;
import static dev.l0.kernels.sim.KernelCode.add;
import static dev.l0.kernels.sim.KernelCode.assign;
import static dev.l0.kernels.sim.KernelCode.barrier;
import static dev.l0.kernels.sim.KernelCode.declare;
import static dev.l0.kernels.sim.KernelCode.div;
import static dev.l0.kernels.sim.KernelCode.eq;
import static dev.l0.kernels.sim.KernelCode.i64;
import static dev.l0.kernels.sim.KernelCode.load;
import static dev.l0.kernels.sim.KernelCode.lt;
import static dev.l0.kernels.sim.KernelCode.mod;
import static dev.l0.kernels.sim.KernelCode.mul;
import static dev.l0.kernels.sim.KernelCode.store;
import static dev.l0.kernels.sim.KernelCode.var;
import static dev.l0.kernels.sim.KernelCode.when;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.l0.ir.ScalarType;
import dev.l0.ir.ScalarValue;
import dev.l0.ir.SourcePos;
import dev.l0.ir.Type;
import dev.l0.ir.Value;
import dev.l0.kernels.ir.Buffer;
import dev.l0.kernels.ir.GroupInput;
import dev.l0.kernels.ir.GroupOutput;
import dev.l0.kernels.ir.HostStep;
import dev.l0.kernels.ir.Kernel;
import dev.l0.kernels.ir.KernelError;
import dev.l0.kernels.ir.KernelExpr;
import dev.l0.kernels.ir.KernelGroup;
import dev.l0.kernels.ir.KernelStmt;
import dev.l0.kernels.ir.ReductionOrder;
import dev.l0.kernels.ir.SharedArray;
import dev.l0.kernels.sim.SimulationIssue.DataRace;
import dev.l0.kernels.sim.SimulationIssue.DivergentBarrier;
import dev.l0.kernels.sim.SimulationIssue.FailingOperation;
import dev.l0.kernels.sim.SimulationIssue.HostStepFailure;
import dev.l0.kernels.sim.SimulationIssue.Memory;
import dev.l0.kernels.sim.SimulationIssue.OutOfBounds;
import dev.l0.kernels.sim.SimulationIssue.RaceKind;
import dev.l0.kernels.sim.SimulationIssue.StepLimit;
import dev.l0.kernels.sim.SimulationIssue.UninitialisedRead;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import java.util.stream.LongStream;
import org.junit.jupiter.api.Test;

/**
 * The simulator on hand-written kernels: correct ones compute the right result with no issue for
 * every block size, and each defect (race, out-of-bounds access, divergent barrier, failing
 * operation, bad host step) is reported with where it happened.
 */
class SimtSimulatorTest {
  private static final Buffer IN = new Buffer("in", ScalarType.I64);
  private static final Buffer OUT = new Buffer("out", ScalarType.I64);
  private static final Buffer PARTIALS = new Buffer("partials", ScalarType.I64);
  private static final SharedArray ACC = new SharedArray("acc", ScalarType.I64, 1);
  private static final KernelExpr.Var N = var("n");
  private static final KernelExpr.Var GRID = var("grid");
  private static final int[] BLOCK_SIZES = {1, 4, 8, 32};
  private static final long[] SIZES = {0, 1, 7, 31, 33, 200};

  /**
   * The sum of {@code in}: each block sums its elements with a tree in shared memory (the barrier
   * in the tree loop is optional, to make the race), then one thread adds the block sums.
   */
  private static KernelGroup blockSum(boolean barrierInTree) {
    List<KernelStmt> tree = new ArrayList<>();
    tree.add(
        when(
            lt(THREAD, var("stride")),
            store(ACC, THREAD, add(load(ACC, THREAD), load(ACC, add(THREAD, var("stride")))))));
    if (barrierInTree) {
      tree.add(barrier());
    }
    tree.add(assign("stride", div(var("stride"), i64(2))));
    Kernel blocks =
        new Kernel(
            "block_sums",
            List.of(IN, PARTIALS),
            List.of(N),
            List.of(ACC),
            List.of(
                declare("x", i64(0)),
                when(lt(GLOBAL_THREAD, N), assign("x", load(IN, GLOBAL_THREAD))),
                store(ACC, THREAD, var("x")),
                barrier(),
                declare("stride", div(BLOCK_DIM, i64(2))),
                new KernelStmt.While(lt(i64(0), var("stride")), tree),
                when(eq(THREAD, i64(0)), store(PARTIALS, BLOCK, load(ACC, i64(0))))));
    Kernel total =
        new Kernel(
            "total",
            List.of(PARTIALS, OUT),
            List.of(GRID),
            List.of(),
            List.of(
                when(
                    eq(GLOBAL_THREAD, i64(0)),
                    declare("sum", i64(0)),
                    new KernelStmt.For(
                        var("b"),
                        i64(0),
                        GRID,
                        i64(1),
                        List.of(assign("sum", add(var("sum"), load(PARTIALS, var("b")))))),
                    store(OUT, i64(0), var("sum")))));
    KernelExpr grid =
        new KernelExpr.Call(
            dev.l0.ir.Builtin.MAX,
            List.of(ReductionOrder.ceilDivExpr(N, KernelGroup.BLOCK_SIZE), i64(1)));
    return new KernelGroup(
        "sum",
        List.of(new GroupInput.Array("xs", IN, List.of(N))),
        List.of(blocks, total),
        List.of(
            new HostStep.Define(GRID, grid),
            new HostStep.Allocate(PARTIALS, GRID),
            new HostStep.Launch(blocks, GRID),
            new HostStep.Allocate(OUT, i64(1)),
            new HostStep.Launch(total, i64(1))),
        List.of(new GroupOutput("total", OUT, List.of())),
        List.of());
  }

  /**
   * A one-kernel group over input array {@code xs} (in {@code in}, size {@code n}) writing {@code
   * out} of {@code n} elements on {@code grid} blocks.
   */
  private static KernelGroup oneKernel(Kernel kernel, KernelExpr grid, List<KernelError> errors) {
    return new KernelGroup(
        "group",
        List.of(new GroupInput.Array("xs", IN, List.of(N))),
        List.of(kernel),
        List.of(new HostStep.Allocate(OUT, N), new HostStep.Launch(kernel, grid)),
        List.of(new GroupOutput("ys", OUT, List.of(N))),
        errors);
  }

  private static Kernel kernel(String name, KernelStmt... body) {
    return new Kernel(name, List.of(IN, OUT), List.of(N), List.of(ACC), List.of(body));
  }

  private static Value array(long... elements) {
    return new Value.Array(
        ScalarType.I64, LongStream.of(elements).mapToObj(e -> (Value) ScalarValue.i64(e)).toList());
  }

  private static long[] iota(long n, Function<Long, Long> f) {
    return LongStream.range(0, n).map(f::apply).toArray();
  }

  private static SimulationResult run(KernelGroup group, long[] input, int blockSize) {
    return SimtSimulator.of(group).run(Map.of("xs", array(input)), blockSize);
  }

  @Test
  void aBarrierSynchronisedTreeReductionIsCleanAndCorrectForEveryBlockSize() {
    SimtSimulator simulator = SimtSimulator.of(blockSum(true));
    for (int blockSize : BLOCK_SIZES) {
      for (long n : SIZES) {
        long[] input = iota(n, i -> i * i - 3 * i);
        SimulationResult result = simulator.run(Map.of("xs", array(input)), blockSize);
        assertTrue(result.report().isClean(), () -> result.report().describe());
        assertEquals(
            ScalarValue.i64(LongStream.of(input).sum()),
            result.outputs().get("total"),
            "n=" + n + " block " + blockSize);
      }
    }
  }

  @Test
  void aTreeReductionWithoutItsBarrierIsARace() {
    SimulationResult result = run(blockSum(false), iota(16, i -> i), 4);
    List<DataRace> races = result.report().issuesOf(DataRace.class);
    assertTrue(!races.isEmpty(), "no race found");
    DataRace race = races.get(0);
    assertEquals(Memory.SHARED, race.memory());
    assertEquals("acc", race.array());
    assertEquals("block_sums", race.kernel());
    // Thread 0 runs its whole tree first and folds in acc[1] before thread 1 has added into it:
    // thread 1's write then races with thread 0's read.
    assertEquals(RaceKind.WRITE_AFTER_READ, race.kind());
    assertEquals(1, race.index());
    assertEquals(1, race.thread());
    assertEquals(0, race.otherThread());
    assertEquals(race.block(), race.otherBlock());
  }

  @Test
  void barriersSeparateWritesFromTheReadsOfOtherThreads() {
    // Each thread writes acc[t], then (after the barrier) reads its neighbour's: correct only if
    // every thread of the block wrote before any read, which is what the scheduler guarantees.
    Kernel rotate =
        kernel(
            "rotate",
            when(lt(GLOBAL_THREAD, N), store(ACC, THREAD, load(IN, GLOBAL_THREAD))),
            barrier(),
            declare("next", mod(add(THREAD, i64(1)), BLOCK_DIM)),
            when(
                lt(add(mul(BLOCK, BLOCK_DIM), var("next")), N),
                when(lt(GLOBAL_THREAD, N), store(OUT, GLOBAL_THREAD, load(ACC, var("next"))))));
    KernelGroup group =
        oneKernel(rotate, ReductionOrder.ceilDivExpr(N, KernelGroup.BLOCK_SIZE), List.of());
    long[] input = iota(16, i -> 100 + i);
    SimulationResult result = run(group, input, 4);
    assertTrue(result.report().isClean(), () -> result.report().describe());
    long[] expected = iota(16, i -> 100 + (i / 4) * 4 + (i + 1) % 4);
    assertEquals(array(expected), result.outputs().get("ys"));

    Kernel unsynchronised =
        kernel(
            "rotate",
            rotate.body().stream()
                .filter(s -> !(s instanceof KernelStmt.Barrier))
                .toArray(KernelStmt[]::new));
    SimulationResult racy =
        run(
            oneKernel(
                unsynchronised, ReductionOrder.ceilDivExpr(N, KernelGroup.BLOCK_SIZE), List.of()),
            input,
            4);
    // Thread 0 reads acc[1] before thread 1 writes it.
    DataRace race = racy.report().issuesOf(DataRace.class).get(0);
    assertEquals(
        new DataRace("rotate", Memory.SHARED, "acc", 1, RaceKind.WRITE_AFTER_READ, 0, 1, 0, 0),
        race);
  }

  @Test
  void anUnguardedAccessPastTheEndIsOutOfBounds() {
    Kernel copy = kernel("copy", store(OUT, GLOBAL_THREAD, load(IN, GLOBAL_THREAD)));
    KernelGroup group =
        oneKernel(copy, ReductionOrder.ceilDivExpr(N, KernelGroup.BLOCK_SIZE), List.of());
    SimulationResult result = run(group, iota(6, i -> i), 4);
    assertEquals(
        List.of(new OutOfBounds("copy", Memory.GLOBAL, "in", false, 6, 6, 1, 2)),
        result.report().issues());
    assertTrue(result.outputs().isEmpty());

    Kernel guarded =
        kernel(
            "copy", when(lt(GLOBAL_THREAD, N), store(OUT, GLOBAL_THREAD, load(IN, GLOBAL_THREAD))));
    SimulationResult clean =
        run(
            oneKernel(guarded, ReductionOrder.ceilDivExpr(N, KernelGroup.BLOCK_SIZE), List.of()),
            iota(6, i -> i),
            4);
    assertTrue(clean.report().isClean(), () -> clean.report().describe());
    assertEquals(array(0, 1, 2, 3, 4, 5), clean.outputs().get("ys"));
  }

  @Test
  void sharedArraysHoldElementsPerThreadTimesBlockDim() {
    Kernel overrun = kernel("overrun", store(ACC, add(THREAD, i64(1)), i64(7)));
    SimulationResult result = run(oneKernel(overrun, i64(1), List.of()), iota(3, i -> i), 8);
    assertEquals(
        List.of(new OutOfBounds("overrun", Memory.SHARED, "acc", true, 8, 8, 0, 7)),
        result.report().issues());
  }

  @Test
  void readingSharedMemoryNoThreadWroteIsReported() {
    // Only the even threads write acc; every thread then reads its neighbour's element.
    Kernel halfWritten =
        kernel(
            "half",
            when(eq(mod(THREAD, i64(2)), i64(0)), store(ACC, THREAD, i64(1))),
            barrier(),
            when(
                lt(GLOBAL_THREAD, N),
                store(OUT, GLOBAL_THREAD, load(ACC, mod(add(THREAD, i64(1)), BLOCK_DIM)))));
    SimulationResult result = run(oneKernel(halfWritten, i64(1), List.of()), iota(4, i -> i), 4);
    assertEquals(
        List.of(
            new UninitialisedRead("half", "acc", 1, 0, 0),
            new UninitialisedRead("half", "acc", 3, 0, 2)),
        result.report().issues());
  }

  @Test
  void threadPrivateArraysAreEachThreadsOwnAndCheckedAgainstTheThreadsSize() {
    Buffer scratch = new Buffer("scratch", ScalarType.I64, Buffer.Space.THREAD_PRIVATE);
    // every thread keeps x * 2 and x + 1 in its own two elements, then writes their sum
    Kernel own =
        new Kernel(
            "own",
            List.of(IN, OUT, scratch),
            List.of(N),
            List.of(),
            List.of(
                when(
                    lt(GLOBAL_THREAD, N),
                    store(scratch, i64(0), mul(load(IN, GLOBAL_THREAD), i64(2))),
                    store(scratch, i64(1), add(load(IN, GLOBAL_THREAD), i64(1))),
                    store(OUT, GLOBAL_THREAD, add(load(scratch, i64(0)), load(scratch, i64(1)))))));
    for (int blockSize : BLOCK_SIZES) {
      KernelGroup group =
          new KernelGroup(
              "group",
              List.of(new GroupInput.Array("xs", IN, List.of(N))),
              List.of(own),
              List.of(
                  new HostStep.Allocate(OUT, N),
                  new HostStep.Allocate(scratch, i64(2)),
                  new HostStep.Launch(own, ReductionOrder.ceilDivExpr(N, KernelGroup.BLOCK_SIZE))),
              List.of(new GroupOutput("ys", OUT, List.of(N))),
              List.of());
      SimulationResult result = run(group, iota(33, i -> i), blockSize);
      assertTrue(result.report().isClean(), result.report().issues().toString());
      assertEquals(array(iota(33, i -> 3 * i + 1)), result.outputs().get("ys"));
    }

    Kernel defects =
        new Kernel(
            "defects",
            List.of(IN, OUT, scratch),
            List.of(N),
            List.of(),
            List.of(
                store(OUT, GLOBAL_THREAD, load(scratch, i64(1))), store(scratch, i64(2), i64(7))));
    KernelGroup group =
        new KernelGroup(
            "group",
            List.of(new GroupInput.Array("xs", IN, List.of(N))),
            List.of(defects),
            List.of(
                new HostStep.Allocate(OUT, N),
                new HostStep.Allocate(scratch, i64(2)),
                new HostStep.Launch(defects, i64(1))),
            List.of(new GroupOutput("ys", OUT, List.of(N))),
            List.of());
    assertEquals(
        List.of(
            new UninitialisedRead("defects", Memory.THREAD_PRIVATE, "scratch", 1, 0, 0),
            new OutOfBounds("defects", Memory.THREAD_PRIVATE, "scratch", true, 2, 2, 0, 0)),
        run(group, iota(1, i -> i), 1).report().issues());
  }

  @Test
  void aThreadThatNeverFinishesIsStopped() {
    Kernel spin = kernel("spin", new KernelStmt.While(eq(i64(0), i64(0)), List.of()));
    SimulationResult result = run(oneKernel(spin, i64(1), List.of()), iota(1, i -> i), 1);
    assertEquals(
        List.of(new StepLimit("spin", 0, 0, KernelLaunch.STEP_LIMIT)), result.report().issues());
  }

  /**
   * Threads 0-1 run an inner loop over a barrier twice and then once, threads 2-3 once and then
   * twice: each thread meets the barrier statement three times, and all four wait at it together
   * every time, but at the second threads 0-1 are in the inner loop's second iteration and threads
   * 2-3 in the outer loop's second, two barriers a GPU would pass as one.
   */
  @Test
  void aBarrierReachedInDifferentIterationsOfItsLoopsIsDivergent() {
    KernelExpr.Var outer = var("r");
    KernelExpr.Var inner = var("k");
    KernelExpr trips = add(i64(1), mod(add(add(div(THREAD, i64(2)), outer), i64(1)), i64(2)));
    Kernel loops =
        kernel(
            "loops",
            new KernelStmt.For(
                outer,
                i64(0),
                i64(2),
                i64(1),
                List.of(new KernelStmt.For(inner, i64(0), trips, i64(1), List.of(barrier())))));
    assertEquals(
        List.of(
            new DivergentBarrier(
                "loops",
                0,
                "threads 0-1 wait at barrier 1 after iterations (1, 0) of the loops that hold"
                    + " barriers; threads 2-3 after iterations (1, 1)")),
        run(oneKernel(loops, i64(1), List.of()), iota(1, i -> i), 4).report().issues());
  }

  @Test
  void aBarrierOnlySomeThreadsReachIsDivergent() {
    Kernel divergent = kernel("divergent", when(lt(THREAD, i64(2)), barrier()), barrier());
    SimulationResult result = run(oneKernel(divergent, i64(2), List.of()), iota(3, i -> i), 8);
    assertEquals(
        List.of(
            new DivergentBarrier(
                "divergent", 0, "threads 0-1 wait at barrier 1; threads 2-7 wait at barrier 2")),
        result.report().issues());

    Kernel exits = kernel("exits", when(lt(i64(0), THREAD), barrier()));
    assertEquals(
        List.of(
            new DivergentBarrier(
                "exits", 0, "thread 0 has finished; threads 1-3 wait at barrier 1")),
        run(oneKernel(exits, i64(1), List.of()), iota(3, i -> i), 4).report().issues());

    Kernel uniform = kernel("uniform", when(lt(BLOCK, i64(1)), barrier()), barrier());
    assertTrue(run(oneKernel(uniform, i64(3), List.of()), iota(3, i -> i), 4).report().isClean());
  }

  @Test
  void writesOfOneElementByTwoBlocksRace() {
    Kernel last = kernel("last", when(eq(THREAD, i64(0)), store(OUT, i64(0), BLOCK)));
    SimulationResult result = run(oneKernel(last, i64(3), List.of()), iota(2, i -> i), 4);
    List<DataRace> races = result.report().issuesOf(DataRace.class);
    assertEquals(
        new DataRace("last", Memory.GLOBAL, "out", 0, RaceKind.WRITE_AFTER_WRITE, 1, 0, 0, 0),
        races.get(0));
    assertEquals(2, races.size());

    // Thread 1 of every block but the first reads the element thread 0 of the block before wrote.
    Kernel readsOtherBlock =
        kernel(
            "neighbour",
            when(eq(THREAD, i64(0)), store(OUT, BLOCK, i64(1))),
            when(
                eq(THREAD, i64(1)),
                when(
                    lt(i64(0), BLOCK),
                    store(OUT, add(BLOCK, i64(4)), load(OUT, add(BLOCK, i64(-1)))))));
    List<DataRace> readRaces =
        run(oneKernel(readsOtherBlock, i64(2), List.of()), iota(8, i -> i), 4)
            .report()
            .issuesOf(DataRace.class);
    assertEquals(
        List.of(
            new DataRace(
                "neighbour", Memory.GLOBAL, "out", 0, RaceKind.READ_AFTER_WRITE, 1, 1, 0, 0)),
        readRaces);
  }

  @Test
  void globalWritesAreOrderedForTheBlockByABarrier() {
    KernelStmt write = when(eq(THREAD, i64(0)), store(OUT, BLOCK, i64(5)));
    KernelStmt read = when(eq(THREAD, i64(1)), store(OUT, add(BLOCK, i64(2)), load(OUT, BLOCK)));
    SimulationResult synchronised =
        run(
            oneKernel(kernel("ordered", write, barrier(), read), i64(2), List.of()),
            iota(4, i -> i),
            2);
    assertTrue(synchronised.report().isClean(), () -> synchronised.report().describe());
    assertEquals(array(5, 5, 5, 5), synchronised.outputs().get("ys"));
    SimulationResult racy =
        run(oneKernel(kernel("unordered", write, read), i64(2), List.of()), iota(4, i -> i), 2);
    assertEquals(
        List.of(
            new DataRace(
                "unordered", Memory.GLOBAL, "out", 0, RaceKind.READ_AFTER_WRITE, 0, 1, 0, 0),
            new DataRace(
                "unordered", Memory.GLOBAL, "out", 1, RaceKind.READ_AFTER_WRITE, 1, 1, 1, 0)),
        racy.report().issues());
  }

  @Test
  void guardedFailuresRaiseTheirErrorAndUnguardedOnesAreReported() {
    KernelError byZero = new KernelError("/", SourcePos.NONE, "integer division by zero");
    Kernel divide =
        kernel(
            "divide",
            when(
                lt(GLOBAL_THREAD, N),
                new KernelStmt.If(
                    eq(load(IN, GLOBAL_THREAD), i64(0)),
                    List.of(new KernelStmt.RaiseError(1)),
                    List.of(store(OUT, GLOBAL_THREAD, div(i64(100), load(IN, GLOBAL_THREAD)))))));
    KernelGroup group =
        oneKernel(divide, ReductionOrder.ceilDivExpr(N, KernelGroup.BLOCK_SIZE), List.of(byZero));
    SimulationResult ok = run(group, new long[] {1, 2, 3, 4, 5}, 4);
    assertEquals(array(100, 50, 33, 25, 20), ok.outputs().get("ys"));
    SimulationResult failed = run(group, new long[] {1, 2, 3, 0, 5}, 4);
    assertEquals(byZero, failed.error().orElseThrow());
    assertTrue(failed.report().isClean());
    assertTrue(failed.outputs().isEmpty());

    Kernel unguarded =
        kernel(
            "unguarded",
            when(
                lt(GLOBAL_THREAD, N),
                store(OUT, GLOBAL_THREAD, div(i64(100), load(IN, GLOBAL_THREAD)))));
    SimulationResult crashed =
        run(
            oneKernel(unguarded, ReductionOrder.ceilDivExpr(N, KernelGroup.BLOCK_SIZE), List.of()),
            new long[] {1, 2, 3, 0, 5},
            4);
    FailingOperation failure = crashed.report().issuesOf(FailingOperation.class).get(0);
    assertEquals(
        List.of("unguarded", 0, 3), List.of(failure.kernel(), failure.block(), failure.thread()));
    assertTrue(failure.failure().contains("division by zero"), failure.failure());
  }

  @Test
  void malformedGroupsAreRejectedOrReportedNotCrashed() {
    Kernel undeclared = kernel("undeclared", store(OUT, i64(0), var("nowhere")));
    assertThrows(
        IllegalArgumentException.class,
        () -> SimtSimulator.of(oneKernel(undeclared, i64(1), List.of())));

    Kernel copy =
        kernel(
            "copy", when(lt(GLOBAL_THREAD, N), store(OUT, GLOBAL_THREAD, load(IN, GLOBAL_THREAD))));
    KernelGroup noAllocation =
        new KernelGroup(
            "group",
            List.of(new GroupInput.Array("xs", IN, List.of(N))),
            List.of(copy),
            List.of(new HostStep.Launch(copy, i64(1))),
            List.of(new GroupOutput("ys", OUT, List.of(N))),
            List.of());
    SimulationResult result = run(noAllocation, iota(3, i -> i), 4);
    assertEquals(
        List.of(new HostStepFailure("group", "buffer out is used before it is allocated")),
        result.report().issues());

    SimulationResult noBlocks = run(oneKernel(copy, i64(0), List.of()), iota(3, i -> i), 4);
    assertEquals(
        List.of(new HostStepFailure("group", "launches copy on 0 blocks")),
        noBlocks.report().issues());

    assertThrows(
        IllegalArgumentException.class,
        () -> run(oneKernel(copy, i64(1), List.of()), iota(3, i -> i), 3));
  }

  @Test
  void multiDimensionalInputsAndOutputsAreRowMajor() {
    Buffer matrix = new Buffer("m", ScalarType.I64);
    KernelExpr.Var rows = var("rows");
    KernelExpr.Var cols = var("cols");
    KernelExpr size = mul(rows, cols);
    Kernel transpose =
        new Kernel(
            "transpose",
            List.of(matrix, OUT),
            List.of(rows, cols),
            List.of(),
            List.of(
                when(
                    lt(GLOBAL_THREAD, size),
                    declare("r", div(GLOBAL_THREAD, cols)),
                    declare("c", mod(GLOBAL_THREAD, cols)),
                    store(OUT, add(mul(var("c"), rows), var("r")), load(matrix, GLOBAL_THREAD)))));
    KernelGroup group =
        new KernelGroup(
            "t",
            List.of(new GroupInput.Array("m", matrix, List.of(rows, cols))),
            List.of(transpose),
            List.of(
                new HostStep.Allocate(OUT, size),
                new HostStep.Launch(
                    transpose,
                    new KernelExpr.Call(
                        dev.l0.ir.Builtin.MAX,
                        List.of(
                            ReductionOrder.ceilDivExpr(size, KernelGroup.BLOCK_SIZE), i64(1))))),
            List.of(new GroupOutput("mt", OUT, List.of(cols, rows))),
            List.of());
    Value input =
        new Value.Array(Type.array(ScalarType.I64), List.of(array(1, 2, 3), array(4, 5, 6)));
    SimulationResult result = SimtSimulator.of(group).run(Map.of("m", input), 2);
    assertTrue(result.report().isClean(), () -> result.report().describe());
    assertEquals(
        new Value.Array(Type.array(ScalarType.I64), List.of(array(1, 4), array(2, 5), array(3, 6))),
        result.outputs().get("mt"));

    Value empty = new Value.Array(Type.array(ScalarType.I64), List.of());
    assertEquals(empty, SimtSimulator.of(group).run(Map.of("m", empty), 2).outputs().get("mt"));
  }
}
