package dev.l0.kernels.lower;

import static dev.l0.kernels.lower.KernelExprs.GLOBAL_THREAD;
import static dev.l0.kernels.lower.KernelExprs.ONE;
import static dev.l0.kernels.lower.KernelExprs.ZERO;
import static dev.l0.kernels.lower.KernelExprs.add;
import static dev.l0.kernels.lower.KernelExprs.div;
import static dev.l0.kernels.lower.KernelExprs.eq;
import static dev.l0.kernels.lower.KernelExprs.i64;
import static dev.l0.kernels.lower.KernelExprs.lt;
import static dev.l0.kernels.lower.KernelExprs.mod;
import static dev.l0.kernels.lower.KernelExprs.mul;

import dev.l0.ir.BinaryOperator;
import dev.l0.ir.Dim;
import dev.l0.ir.ScalarType;
import dev.l0.ir.Type;
import dev.l0.kernels.ir.Buffer;
import dev.l0.kernels.ir.GroupOutput;
import dev.l0.kernels.ir.HostStep;
import dev.l0.kernels.ir.Kernel;
import dev.l0.kernels.ir.KernelExpr;
import dev.l0.kernels.ir.KernelGroup;
import dev.l0.kernels.ir.KernelStmt;
import dev.l0.kernels.ir.ReductionOrder;
import dev.l0.opt.ir.Body;
import dev.l0.opt.ir.Exp;
import dev.l0.opt.ir.Ident;
import dev.l0.opt.ir.Lambda;
import dev.l0.opt.ir.Stm;
import dev.l0.opt.ir.SubExp;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * A top-level reduce of rows whose operator combines two rows element by element (its body a {@code
 * map} of a scalar function over the two rows, size checks aside) as a map of reduces (thesis §8):
 * a thread per pair of chunk and column folds the chunk's elements of its column (kernel {@code
 * _column_partials}, neighbouring threads reading neighbouring elements of a row, so the reads are
 * coalesced without a transpose; thread 0 first runs the operator's size checks on the neutral row
 * and the first row, which fail where the interpreter's first combine fails), then a thread per
 * column combines the column's chunk partials by the pairwise tree (kernel {@code _column_tree}).
 * Per element this is exactly the order of {@link ArrayAccumulatorLowering}'s per-thread array
 * accumulators (the same chunks of the reduction-order contract, each folded from the neutral
 * element in row order, then the same pairwise tree over the chunks), so both forms give
 * bit-identical results; this one has a thread per element of each partial rather than per chunk,
 * and no per-thread scratch. It is chosen on a GPU (and the simulator) where the operator's row
 * type has a constant size of at least {@link #MIN_COLUMNS}, or a size the host only learns at run
 * time; narrower constant rows keep the per-thread accumulators, whose slot of a few elements a
 * thread writes alone, and so does the JVM backend, whose threads each read whole rows in order, as
 * a CPU core reads best. A neutral row whose width differs from the rows' (where there are rows)
 * fails the operator's own size check, or, where it has none, raises the map's shape error; no
 * column is folded then.
 */
final class MapOfReducesLowering {
  /**
   * The narrowest constant row width that gets a map of reduces: a warp's 32 threads then read 32
   * neighbouring elements of a row, one coalesced transaction.
   */
  static final long MIN_COLUMNS = 32;

  /**
   * The scalar function the operator maps over two rows, the operator's other statements (its size
   * checks), and the width of the neutral row.
   */
  private record Columns(Lambda elementwise, Body checks, KernelExpr width) {}

  private MapOfReducesLowering() {}

  /**
   * The group for a reduce (its fold is its operator) of {@code views} with one array accumulator,
   * if its operator is element by element and its rows are wide enough; else empty.
   */
  static Optional<KernelGroup> lower(
      GroupContext group,
      ThreadCode code,
      String name,
      List<Ident> pattern,
      Lambda combine,
      Lambda fold,
      List<SubExp> neutral,
      List<ArrayView> views) {
    Optional<Columns> columns = columns(code, combine, fold, neutral, views);
    if (columns.isEmpty()) {
      return Optional.empty();
    }
    Lambda elementwise = columns.get().elementwise();
    KernelExpr width = columns.get().width();
    ArrayView rows = views.get(0);
    KernelExpr n = rows.dims().get(0);
    ArrayView neutralRow = code.array(neutral.get(0));
    Chunking chunking = Chunking.of(rows.dims().get(0), group);
    List<HostStep> steps = new ArrayList<>(chunking.define());
    KernelExpr.Var cells = group.fresh("cells", ScalarType.I64);
    steps.add(new HostStep.Define(cells, mul(chunking.chunks(), width)));
    Buffer partials =
        group.freshBuffer("partial_" + pattern.get(0).name(), neutralRow.elementType());
    steps.add(new HostStep.Allocate(partials, cells));

    ThreadScratch partialsScratch = code.beginKernel();
    KernelExpr.Var cell = group.fresh("cell", ScalarType.I64);
    KernelExpr.Var chunk = group.fresh("chunk", ScalarType.I64);
    KernelExpr.Var column = group.fresh("column", ScalarType.I64);
    KernelExpr.Var acc = group.fresh("acc", neutralRow.elementType());
    List<KernelStmt> work =
        new ArrayList<>(
            List.of(
                new KernelStmt.Declare(chunk, div(cell, width)),
                new KernelStmt.Declare(column, mod(cell, width)),
                new KernelStmt.Declare(acc, neutralRow.rowInBounds(column).load())));
    List<KernelStmt> firstCombineChecks = new ArrayList<>();
    code.bind(combine, List.of(neutralRow, rows.rowInBounds(ZERO)));
    code.lowerBody(columns.get().checks(), List.of(), firstCombineChecks);
    work.add(
        new KernelStmt.If(
            KernelExprs.and(eq(cell, ZERO), lt(ZERO, n)), firstCombineChecks, List.of()));
    KernelExpr.Var i = group.fresh("i", ScalarType.I64);
    List<KernelStmt> step = new ArrayList<>();
    combineInto(code, elementwise, acc, rows.rowInBounds(i).rowInBounds(column).load(), step);
    boolean checked =
        columns.get().checks().stms().stream().anyMatch(stm -> stm.exp() instanceof Exp.Assert);
    List<KernelStmt> otherWidth =
        checked
            ? List.of()
            : List.of(new KernelStmt.If(lt(ZERO, n), List.of(code.shapeError()), List.of()));
    work.add(
        new KernelStmt.If(
            eq(width, rows.dims().get(1)),
            List.of(chunking.overChunk(chunk, i, step)),
            otherWidth));
    work.add(new KernelStmt.Store(partials, cell, acc));
    List<KernelStmt> valid = new ArrayList<>();
    ThreadCode.addGuarded(ThreadCode.allValid(List.of(neutralRow, rows)), work, List.of(), valid);
    Kernel partialsKernel =
        KernelAssembler.assemble(
            name + "_column_partials",
            List.of(
                new KernelStmt.Declare(cell, GLOBAL_THREAD),
                new KernelStmt.If(lt(cell, cells), valid, List.of())));

    ThreadScratch treeScratch = code.beginKernel();
    Kernel treeKernel =
        KernelAssembler.assemble(
            name + "_column_tree",
            columnTree(code, elementwise, partials, width, chunking.chunks()));
    steps.addAll(partialsScratch.launch(partialsKernel, blocksFor(cells)));
    steps.addAll(treeScratch.launch(treeKernel, blocksFor(width)));
    List<GroupOutput> outputs =
        List.of(new GroupOutput(pattern.get(0).name(), partials, List.of(width)));
    return Optional.of(
        new KernelGroup(
            name,
            group.inputs(),
            List.of(partialsKernel, treeKernel),
            steps,
            outputs,
            group.errors()));
  }

  /**
   * A thread per column: for {@code s = 1, 2, 4, ...} below {@code chunks}, partial {@code c} of
   * the column becomes {@code f(partial c, partial c + s)} for every {@code c} that is a multiple
   * of {@code 2s} with {@code c + s < chunks}: the pairwise tree of the per-thread array form.
   */
  private static List<KernelStmt> columnTree(
      ThreadCode code, Lambda elementwise, Buffer partials, KernelExpr width, KernelExpr chunks) {
    GroupContext group = code.group();
    KernelExpr.Var column = group.fresh("column", ScalarType.I64);
    KernelExpr.Var s = group.fresh("s", ScalarType.I64);
    KernelExpr.Var c = group.fresh("c", ScalarType.I64);
    KernelExpr.Var acc = group.fresh("acc", partials.elementType());
    KernelExpr left = add(mul(c, width), column);
    KernelExpr right = add(mul(add(c, s), width), column);
    List<KernelStmt> pair = new ArrayList<>();
    pair.add(new KernelStmt.Declare(acc, new KernelExpr.Load(partials, left)));
    combineInto(code, elementwise, acc, new KernelExpr.Load(partials, right), pair);
    pair.add(new KernelStmt.Store(partials, left, acc));
    KernelExpr twice = mul(i64(2), s);
    KernelStmt level =
        new KernelStmt.For(
            c,
            ZERO,
            chunks,
            twice,
            List.of(new KernelStmt.If(lt(add(c, s), chunks), pair, List.of())));
    List<KernelStmt> work =
        List.of(
            new KernelStmt.Declare(s, ONE),
            new KernelStmt.While(lt(s, chunks), List.of(level, new KernelStmt.Assign(s, twice))));
    return List.of(
        new KernelStmt.Declare(column, GLOBAL_THREAD),
        new KernelStmt.If(lt(column, width), work, List.of()));
  }

  /** Blocks for a thread per element of {@code threads}, at least one (a launch needs a block). */
  private static KernelExpr blocksFor(KernelExpr threads) {
    return KernelExprs.max(ReductionOrder.ceilDivExpr(threads, KernelGroup.BLOCK_SIZE), ONE);
  }

  /** {@code acc = f(acc, element)}. */
  private static void combineInto(
      ThreadCode code, Lambda f, KernelExpr.Var acc, KernelExpr element, List<KernelStmt> out) {
    List<KernelExpr.Var> result =
        code.applyToLocals(f, List.of(new Binding.Scalar(acc), new Binding.Scalar(element)), out);
    out.add(new KernelStmt.Assign(acc, result.get(0)));
  }

  /**
   * The scalar function, the size checks and the width where this is a plain reduce ({@code fold}
   * is {@code combine}) of one input of rank 2 with one neutral row of a host width, whose
   * operator's row type has a constant size of at least {@link #MIN_COLUMNS} or a size it checks
   * (or that is the rows' own), and whose operator's body is size checks and one {@code map} of a
   * scalar function over its two parameters, in order.
   */
  private static Optional<Columns> columns(
      ThreadCode code, Lambda combine, Lambda fold, List<SubExp> neutral, List<ArrayView> views) {
    if (combine != fold
        || neutral.size() != 1
        || views.size() != 1
        || views.get(0).rank() != 2
        || !(neutral.get(0) instanceof SubExp.Var ne)
        || !code.isArray(ne)) {
      return Optional.empty();
    }
    ArrayView neutralRow = code.array(ne);
    ArrayView rows = views.get(0);
    if (neutralRow.rank() != 1 || !code.group().isHostExpression(neutralRow.dims().get(0))) {
      return Optional.empty();
    }
    KernelExpr width = neutralRow.dims().get(0);
    Optional<Long> typedWidth =
        combine.params().get(0).type() instanceof Type.Array row
                && row.size() instanceof Dim.Const c
            ? Optional.of(c.size())
            : Optional.empty();
    if (typedWidth.map(w -> w < MIN_COLUMNS).orElse(false)) {
      return Optional.empty();
    }
    Body checks = checks(combine);
    boolean checksWidths = checks.stms().stream().anyMatch(stm -> stm.exp() instanceof Exp.Assert);
    if (typedWidth.isEmpty() && !checksWidths && !width.equals(rows.dims().get(1))) {
      return Optional.empty();
    }
    return elementwise(combine).map(f -> new Columns(f, checks, width));
  }

  /** The statements of {@code combine}'s body other than its map: size checks. */
  private static Body checks(Lambda combine) {
    return new Body(
        combine.body().stms().stream().filter(stm -> !stm.exp().isMap()).toList(), List.of());
  }

  /**
   * The scalar function {@code f} where {@code combine} is {@code \(a, b) -> map(f, a, b)} with
   * size checks only besides.
   */
  private static Optional<Lambda> elementwise(Lambda combine) {
    if (combine.params().size() != 2 || combine.body().result().size() != 1) {
      return Optional.empty();
    }
    Exp.Screma map = null;
    for (Stm stm : combine.body().stms()) {
      Exp e = stm.exp();
      if (e instanceof Exp.Screma m
          && m.isMap()
          && map == null
          && stm.pattern().size() == 1
          && combine.body().result().get(0).equals(new SubExp.Var(stm.pattern().get(0).name()))) {
        map = m;
      } else if (!(e instanceof Exp.Size
          || e instanceof Exp.Assert
          || e instanceof Exp.BinOp b && b.op().kind() == BinaryOperator.Kind.COMPARISON)) {
        return Optional.empty();
      }
    }
    if (map == null
        || !map.inputs()
            .equals(
                List.of(
                    new SubExp.Var(combine.params().get(0).name()),
                    new SubExp.Var(combine.params().get(1).name())))) {
      return Optional.empty();
    }
    Lambda f = map.function();
    boolean scalar =
        f.params().size() == 2
            && f.returnTypes().size() == 1
            && f.params().stream().allMatch(p -> p.type() instanceof ScalarType)
            && f.returnTypes().get(0) instanceof ScalarType;
    return scalar ? Optional.of(f) : Optional.empty();
  }
}
