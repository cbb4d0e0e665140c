package dev.l0.kernels.lower;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.l0.kernels.ir.Buffer;
import dev.l0.kernels.ir.GroupInput;
import dev.l0.kernels.ir.GroupOutput;
import dev.l0.kernels.ir.HostStep;
import dev.l0.kernels.ir.Kernel;
import dev.l0.kernels.ir.KernelExpr;
import dev.l0.kernels.ir.KernelGroup;
import dev.l0.kernels.ir.KernelStmt;
import dev.l0.kernels.ir.ThreadIndex;
import dev.l0.testing.ProgramCase;
import dev.l0.testing.RandomPrograms;
import dev.l0.testing.TestPrograms;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.function.Consumer;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import org.junit.jupiter.api.Test;

/**
 * The kernel groups the corpus and random programs lower to: their structure and their
 * well-formedness.
 */
class KernelLoweringTest {

  @Test
  void blackScholesIsOneMapKernelWithoutSharedMemory() {
    LoweredPrograms lowered = LoweredPrograms.of(TestPrograms.load(TestPrograms.P0_BLACKSCHOLES));
    assertEquals(List.of(), lowered.rejections());
    KernelGroup group = single(lowered.groups());
    Kernel kernel = single(group.kernels());
    assertTrue(kernel.name().endsWith("_map"), kernel.name());
    assertEquals(List.of(), kernel.shared());
    assertEquals(0, count(kernel.body(), s -> s instanceof KernelStmt.Barrier));
    assertEquals(6, group.inputs().size());
    assertEquals(1, single(group.outputs()).shape().size());
    assertWellFormed(group);
  }

  @Test
  void portfolioIsARedomapOfTwoKernels() {
    KernelGroup group = single(LoweredPrograms.of(TestPrograms.load("portfolio")).groups());
    assertEquals(2, group.kernels().size());
    Kernel chunks = group.kernels().get(0);
    Kernel tree = group.kernels().get(1);
    assertEquals(1, chunks.shared().size(), "the block tree's shared array");
    assertTrue(count(chunks.body(), s -> s instanceof KernelStmt.Barrier) >= 2);
    assertEquals(List.of(), tree.shared());
    assertTrue(count(tree.body(), s -> s instanceof KernelStmt.Barrier) >= 1);
    List<HostStep.Launch> launches = launches(group);
    assertEquals(List.of(chunks, tree), launches.stream().map(HostStep.Launch::kernel).toList());
    assertEquals(
        new KernelExpr.Constant(dev.l0.ir.ScalarValue.i64(1)),
        launches.get(1).gridSize(),
        "the tree runs in one block");
    assertEquals(List.of(), single(group.outputs()).shape(), "a scalar result");
    assertWellFormed(group);
  }

  /**
   * Its thread per row of {@code a} reads {@code a[i][k]} along the row: from a copy the tiled
   * transpose makes first.
   */
  @Test
  void matrixMultiplicationIsOneKernelAfterATransposeOfItsRowsOperand() {
    KernelGroup group =
        single(LoweredPrograms.of(TestPrograms.load(TestPrograms.P1_MATMUL)).groups());
    assertEquals(2, group.kernels().size());
    assertTrue(group.kernels().get(0).name().contains("_transpose"), group.kernels().get(0).name());
    assertEquals(2, single(group.outputs()).shape().size());
    assertWellFormed(group);
  }

  @Test
  void shortestPathsIsOneKernelPerFunctionAfterATransposeOfItsRowsOperand() {
    LoweredPrograms lowered = LoweredPrograms.of(TestPrograms.load(TestPrograms.P2_SHORTEST_PATHS));
    assertEquals(List.of(), lowered.rejections());
    assertEquals(2, lowered.groups().size());
    lowered.groups().forEach(g -> assertEquals(2, g.kernels().size()));
    lowered
        .groups()
        .forEach(
            g ->
                assertTrue(
                    g.kernels().get(0).name().contains("_transpose"), g.kernels().get(0).name()));
    lowered.groups().forEach(KernelLoweringTest::assertWellFormed);
  }

  @Test
  void aScanIsReduceThenScanInThreeKernels() {
    KernelGroup group =
        single(
            LoweredPrograms.of(
                    "fun [i32] main([i32] xs) = scan(op +, 0, map(fn i32 (i32 x) => x * 3, xs))")
                .groups());
    assertEquals(3, group.kernels().size());
    assertEquals(
        List.of("_totals", "_carries", "_rescan"),
        group.kernels().stream().map(k -> k.name().substring(k.name().lastIndexOf('_'))).toList());
    assertWellFormed(group);
  }

  @Test
  void aFilterCountsScansAndScattersAndReadsItsSizeBack() {
    KernelGroup group =
        single(
            LoweredPrograms.of(
                    "fun [i32] main([i32] xs) = filter(fn bool (i32 x) => 0 < x % 3, xs)")
                .groups());
    assertEquals(3, group.kernels().size());
    HostStep.ReadScalar total =
        (HostStep.ReadScalar)
            group.steps().stream()
                .filter(s -> s instanceof HostStep.ReadScalar)
                .findFirst()
                .orElseThrow();
    assertEquals(List.of(total.variable()), single(group.outputs()).shape());
    assertEquals(1, group.errors().size(), "the modulo's division by zero is guarded");
    assertWellFormed(group);
  }

  @Test
  void integerDivisionIsGuardedAndRaisesItsError() {
    KernelGroup group =
        single(
            LoweredPrograms.of("fun [i32] main([i32] xs, i32 d) = map(fn i32 (i32 x) => x / d, xs)")
                .groups());
    assertEquals("integer division by zero", single(group.errors()).detail());
    assertEquals(
        1,
        count(
            single(group.kernels()).body(),
            s -> s instanceof KernelStmt.RaiseError r && r.code() == 1));
  }

  @Test
  void anInPlaceUpdateInsideAThreadWritesAScratchCopyNotTheInput() {
    KernelGroup group =
        single(
            LoweredPrograms.of(
                    "fun [[i32]] main([i32] xs) = map(fn [i32] (i32 x) => let a = copy(xs) in let b = a with [0] <- x in b, xs)")
                .groups());
    Kernel kernel = single(group.kernels());
    Buffer input =
        group.inputs().stream()
            .filter(in -> in instanceof GroupInput.Array)
            .map(in -> ((GroupInput.Array) in).buffer())
            .findFirst()
            .orElseThrow();
    Set<Buffer> written = new HashSet<>();
    forEachStatement(
        kernel.body(),
        s -> {
          if (s instanceof KernelStmt.Store store) {
            written.add(store.buffer());
          }
        });
    assertTrue(!written.contains(input), "the kernel writes its input");
    assertTrue(
        written.stream().anyMatch(b -> b.name().startsWith("scratch_")),
        "no scratch copy is written: " + written);
    assertTrue(
        group.steps().stream()
            .anyMatch(
                s -> s instanceof HostStep.Allocate a && a.buffer().name().startsWith("scratch_")));
    assertWellFormed(group);
  }

  /**
   * A loop whose body updates its array in place consumes its initial value, so the array lives in
   * the initial value's scratch: neither of two chained loops (the Brownian bridge's shape, the
   * second starting from the first's result) copies its initial array.
   */
  @Test
  void aLoopThatConsumesItsInitialArrayKeepsItWithoutACopy() {
    KernelGroup group =
        single(
            LoweredPrograms.of(
                    """
                    fun [f64] main([f64] xs) =
                      map(fn f64 (f64 x) =>
                            let w = replicate(8, 0.0) in
                            let w[0] = x in
                            loop (w) = for i < 7 do
                              let w[i + 1] = w[i] * 0.5 + x in w
                            in
                            loop (w) = for s < 7 do
                              let t = 7 - s in
                              let w[t] = w[t] - w[t - 1] in w
                            in reduce(op +, 0.0, w) + w[7], xs)
                    """)
                .groups());
    List<KernelStmt> body = single(group.kernels()).body();
    int copies =
        count(
            body,
            s ->
                s instanceof KernelStmt.For f
                    && f.body().size() == 1
                    && f.body().get(0) instanceof KernelStmt.Store store
                    && store.buffer().name().startsWith("scratch_")
                    && store.value() instanceof KernelExpr.Load load
                    && load.buffer().name().startsWith("scratch_"));
    assertEquals(0, copies, "loops that copy one scratch array into another");
    assertWellFormed(group);
  }

  /**
   * A thread's third scratch array starts at a host scalar the host defines before the launch (the
   * sum of the sizes before it), not at that sum computed at each access.
   */
  @Test
  void aScratchPartAfterTheFirstStartsAtAHostScalarDefinedBeforeTheLaunch() {
    KernelGroup group =
        single(
            LoweredPrograms.of(
                    "fun [i32] main([i32] xs) = map(fn i32 (i32 x) => let a = copy(xs) in let b = copy(xs) in let c = copy(xs) in "
                        + "let a[0] = x in let b[0] = 2 * x in let c[0] = 3 * x in a[0] + b[0] + c[0], xs)")
                .groups());
    List<HostStep> steps = group.steps();
    int define = -1;
    for (int i = 0; i < steps.size(); i++) {
      if (steps.get(i) instanceof HostStep.Define d
          && d.variable().name().startsWith("scratch_i32")
          && d.variable().name().contains("_part")) {
        define = i;
      }
    }
    assertTrue(define >= 0, "no start of a scratch part among " + steps);
    int launch = define;
    while (launch < steps.size() && !(steps.get(launch) instanceof HostStep.Launch)) {
      launch++;
    }
    assertTrue(launch < steps.size(), "the start is defined after the launch: " + steps);
    KernelExpr.Var start = ((HostStep.Define) steps.get(define)).variable();
    Set<KernelExpr> indexes = new HashSet<>();
    forEachStatement(
        single(group.kernels()).body(),
        s -> {
          if (s instanceof KernelStmt.Store store && store.buffer().name().startsWith("scratch_")) {
            indexes.add(store.index());
          }
        });
    assertTrue(
        indexes.stream().anyMatch(index -> mentions(index, start)),
        "no scratch store indexes from " + start + ": " + indexes);
    assertWellFormed(group);
  }

  private static boolean mentions(KernelExpr e, KernelExpr.Var v) {
    if (e.equals(v)) {
      return true;
    }
    if (e instanceof KernelExpr.Binary b) {
      return mentions(b.left(), v) || mentions(b.right(), v);
    }
    if (e instanceof KernelExpr.Call c) {
      return c.args().stream().anyMatch(a -> mentions(a, v));
    }
    return false;
  }

  @Test
  void whatCannotBeLoweredIsRejectedNamingTheConstructAndItsPosition() {
    LoweredPrograms lowered =
        LoweredPrograms.of(
            "fun [i32] main([i32] xs) = map(fn i32 (i32 x) => let a = copy(iota(x)) in let b = a with [0] <- 1 in reduce(op +, 0, b), xs)");
    assertEquals(List.of(), lowered.groups());
    String rejection = single(lowered.rejections());
    assertTrue(
        rejection.contains("cannot lower to kernels: an array inside a kernel thread whose size")
            && rejection.contains(
                "depends on values the kernel computes, so the host cannot bound it before the kernel"
                    + " runs (at test.l0:1:75)"),
        rejection);
  }

  @Test
  void aCallOfARecursiveFunctionInsideAThreadIsRejectedNamingItAtTheSoacsPosition() {
    LoweredPrograms lowered =
        LoweredPrograms.of(
            """
            fun i32 fibhelper(i32 x, i32 y, i32 n) = if n = 1 then x else fibhelper(y, x + y, n - 1)
            fun i32 fib(i32 n) = fibhelper(1, 1, n)
            fun [i32] main([i32] ns) = map(fib, ns)
            """);
    assertEquals(List.of(), lowered.groups());
    String rejection = single(lowered.rejections());
    assertTrue(
        rejection.contains(
            "cannot lower to kernels: a call of 'fibhelper' inside a kernel, which the optimiser"
                + " did not inline (it does not inline recursive functions; write the recursion as"
                + " a loop) (at test.l0:3:28)"),
        rejection);
  }

  @Test
  void aCallOfARecursiveFunctionInAFusedMapIsNamedAtTheSoacsPositionNotAtAnotherFunctionsCode() {
    LoweredPrograms lowered =
        LoweredPrograms.of(
            """
            fun i32 fact(i32 n) = if n = 0 then 1 else n * fact(n - 1)
            fun i32 fibloop(i32 n) = loop ({x, y} = {1, 1}) = for i < n - 1 do {y, x + y} in x
            fun {[i32], [i32]} main([i32] ns) = {map(fact, ns), map(fibloop, ns)}
            """);
    String rejection = single(lowered.rejections());
    assertTrue(
        rejection.contains("a call of 'fact' inside a kernel")
            && rejection.contains("(at test.l0:3:38)"),
        rejection);
  }

  @Test
  void anArrayLiteralInsideAThreadIsWrittenToScratchAndOnlyRowsCanBeIrregular() {
    KernelGroup scalars =
        single(
            LoweredPrograms.of(
                    "fun [i32] main([i32] xs) = map(fn i32 (i32 x) => reduce(op +, 0, [x, 2 * x]), xs)")
                .groups());
    assertEquals(List.of(), scalars.errors());
    KernelGroup rows =
        single(
            LoweredPrograms.of(
                    "fun [i32] main([i32] xs) = map(fn i32 (i32 x) => "
                        + "let a = [filter(fn bool (i32 y) => y < x, iota(2)), iota(1)] in reduce(op +, 0, a[0]), xs)")
                .groups());
    assertTrue(
        rows.errors().stream().anyMatch(e -> e.operation().equals("array literal")),
        rows.errors().toString());
  }

  @Provide
  Arbitrary<ProgramCase> programs() {
    return RandomPrograms.programs();
  }

  /**
   * Every kernel of a random program lowers to a well-formed group or is rejected with a reason;
   * nothing else escapes.
   */
  @Property(tries = 200)
  void randomProgramsLowerToWellFormedGroupsOrAreRejected(@ForAll("programs") ProgramCase program) {
    LoweredPrograms lowered = LoweredPrograms.of(program.program());
    lowered.groups().forEach(KernelLoweringTest::assertWellFormed);
    lowered.rejections().forEach(r -> assertTrue(r.contains("cannot lower to kernels: "), r));
  }

  /**
   * Buffers are inputs or allocated before a launch uses them; host scalars are defined before use
   * (the block size and the capacity scale are every launch's); kernels use only declared locals;
   * error codes exist; barriers are never inside an if.
   */
  static void assertWellFormed(KernelGroup group) {
    Set<Buffer> buffers = new HashSet<>();
    Set<KernelExpr.Var> hostScalars =
        new HashSet<>(List.of(KernelGroup.BLOCK_SIZE, KernelGroup.CAPACITY_SCALE));
    for (GroupInput input : group.inputs()) {
      if (input instanceof GroupInput.Array array) {
        buffers.add(array.buffer());
        hostScalars.addAll(array.shape());
      } else {
        hostScalars.add(((GroupInput.Scalar) input).variable());
      }
    }
    for (HostStep step : group.steps()) {
      if (step instanceof HostStep.Define d) {
        assertDefined(d.value(), hostScalars, "host step " + d);
        hostScalars.add(d.variable());
      } else if (step instanceof HostStep.Allocate a) {
        assertDefined(a.elements(), hostScalars, "allocation of " + a.buffer());
        buffers.add(a.buffer());
      } else if (step instanceof HostStep.ReadScalar r) {
        assertTrue(buffers.contains(r.buffer()), "read of an unallocated " + r.buffer());
        hostScalars.add(r.variable());
      } else {
        HostStep.Launch launch = (HostStep.Launch) step;
        assertDefined(launch.gridSize(), hostScalars, "grid of " + launch.kernel().name());
        assertTrue(
            buffers.containsAll(launch.kernel().buffers()),
            "a buffer of " + launch.kernel().name() + " is missing");
        assertTrue(
            hostScalars.containsAll(launch.kernel().scalars()),
            "a scalar parameter of "
                + launch.kernel().name()
                + " is not on the host: "
                + launch.kernel().scalars());
        assertEquals(
            0,
            barriersUnderThreadDependentControl(launch.kernel().body(), false, new HashSet<>()),
            "a barrier under control that depends on the thread in " + launch.kernel().name());
        forEachStatement(
            launch.kernel().body(),
            s -> {
              if (s instanceof KernelStmt.RaiseError r) {
                assertTrue(r.code() <= group.errors().size(), "unknown error code " + r.code());
              }
            });
      }
    }
    for (GroupOutput output : group.outputs()) {
      assertTrue(buffers.contains(output.buffer()), "output " + output.name() + " has no buffer");
      output.shape().forEach(d -> assertDefined(d, hostScalars, "shape of " + output.name()));
    }
  }

  private static void assertDefined(KernelExpr e, Set<KernelExpr.Var> defined, String where) {
    if (e instanceof KernelExpr.Var v) {
      assertTrue(defined.contains(v), where + " reads undefined " + v);
    } else if (e instanceof KernelExpr.Binary b) {
      assertDefined(b.left(), defined, where);
      assertDefined(b.right(), defined, where);
    } else if (e instanceof KernelExpr.Call c) {
      c.args().forEach(a -> assertDefined(a, defined, where));
    } else if (e instanceof KernelExpr.Unary u) {
      assertDefined(u.operand(), defined, where);
    } else if (e instanceof KernelExpr.Select s) {
      assertDefined(s.condition(), defined, where);
      assertDefined(s.ifTrue(), defined, where);
      assertDefined(s.ifFalse(), defined, where);
    } else {
      assertTrue(e instanceof KernelExpr.Constant, where + " is not a host expression: " + e);
    }
  }

  /**
   * The barriers that not every thread of a block may reach: under an {@code if} or in a loop whose
   * condition or bounds read the thread's index, directly or through locals ({@code
   * threadDependent}) made from it.
   */
  private static int barriersUnderThreadDependentControl(
      List<KernelStmt> body, boolean dependent, Set<KernelExpr.Var> threadDependent) {
    int barriers = 0;
    for (KernelStmt s : body) {
      if (s instanceof KernelStmt.Barrier && dependent) {
        barriers++;
      } else if (s instanceof KernelStmt.Declare d && readsThread(d.initial(), threadDependent)) {
        threadDependent.add(d.variable());
      } else if (s instanceof KernelStmt.Assign a && readsThread(a.value(), threadDependent)) {
        threadDependent.add(a.variable());
      } else if (s instanceof KernelStmt.If i) {
        boolean under = dependent || readsThread(i.condition(), threadDependent);
        barriers +=
            barriersUnderThreadDependentControl(i.thenBody(), under, threadDependent)
                + barriersUnderThreadDependentControl(i.elseBody(), under, threadDependent);
      } else if (s instanceof KernelStmt.For f) {
        boolean under =
            dependent
                || readsThread(f.start(), threadDependent)
                || readsThread(f.bound(), threadDependent)
                || readsThread(f.step(), threadDependent);
        if (under) {
          threadDependent.add(f.counter());
        }
        barriers += barriersUnderThreadDependentControl(f.body(), under, threadDependent);
      } else if (s instanceof KernelStmt.While w) {
        boolean under = dependent || readsThread(w.condition(), threadDependent);
        barriers += barriersUnderThreadDependentControl(w.body(), under, threadDependent);
      }
    }
    return barriers;
  }

  private static boolean readsThread(KernelExpr e, Set<KernelExpr.Var> threadDependent) {
    return (e instanceof KernelExpr.Thread t && t.index() == ThreadIndex.THREAD_IDX)
        || (e instanceof KernelExpr.Var v && threadDependent.contains(v))
        || e.children().stream().anyMatch(c -> readsThread(c, threadDependent));
  }

  static void forEachStatement(List<KernelStmt> body, Consumer<KernelStmt> action) {
    for (KernelStmt s : body) {
      action.accept(s);
      if (s instanceof KernelStmt.If i) {
        forEachStatement(i.thenBody(), action);
        forEachStatement(i.elseBody(), action);
      } else if (s instanceof KernelStmt.For f) {
        forEachStatement(f.body(), action);
      } else if (s instanceof KernelStmt.While w) {
        forEachStatement(w.body(), action);
      }
    }
  }

  static int count(List<KernelStmt> body, java.util.function.Predicate<KernelStmt> which) {
    int[] n = {0};
    forEachStatement(body, s -> n[0] += which.test(s) ? 1 : 0);
    return n[0];
  }

  private static List<HostStep.Launch> launches(KernelGroup group) {
    return group.steps().stream()
        .filter(s -> s instanceof HostStep.Launch)
        .map(s -> (HostStep.Launch) s)
        .toList();
  }

  private static <T> T single(List<T> items) {
    assertEquals(1, items.size(), "expected exactly one: " + items);
    return items.get(0);
  }
}
