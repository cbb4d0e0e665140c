package dev.l0.kernels.lower;

import static dev.l0.kernels.lower.KernelExprs.BLOCK_DIM;
import static dev.l0.kernels.lower.KernelExprs.GLOBAL_THREAD;
import static dev.l0.kernels.lower.KernelExprs.GRID_DIM;
import static dev.l0.kernels.lower.KernelExprs.mul;

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
import dev.l0.opt.ir.Exp;
import dev.l0.opt.ir.Ident;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * A top-level map as one kernel: a grid-stride loop over the outer rows, a thread per row at a
 * time, whose function's code ({@link ThreadCode}, nested maps and reductions included) writes its
 * results into the rows of the output buffers. Result rows must have sizes the host knows before
 * the launch. Where the function is one integer or boolean reduction or scan over its row ({@link
 * SegmentedRows}), the kernel also holds the block-per-row loop, and the host gives the rows to one
 * loop or the other: to the blocks, a block per row, when the outer size is below the
 * configuration's threshold, else to the threads. Grids are capped at the configuration's {@code
 * maxBlocks}. Result rows whose sizes the host learns only from the rows themselves ({@link
 * UnsizedRows}) are written with a bounded stride and copied to their place by a second kernel once
 * the host has read the first row's sizes; over no rows, a one-thread kernel gives them the sizes
 * of the function's result on the zero row, as the interpreter does. Such rows keep a thread each
 * (the block per row writes its prefixes to rows of a known size): a scan of a filter's rows, whose
 * columns ISWIM scans, is one.
 */
final class MapLowering {
  private MapLowering() {}

  static KernelGroup lower(
      GroupContext group,
      String name,
      List<Ident> pattern,
      Exp.Screma map,
      LaunchConfiguration configuration) {
    ThreadCode code = new ThreadCode(group);
    List<ArrayView> inputs = map.inputs().stream().map(code::array).toList();
    KernelExpr n = inputs.get(0).dims().get(0);
    List<HostStep> steps = new ArrayList<>();
    List<ArrayView> targets = new ArrayList<>();
    List<GroupOutput> outputs = new ArrayList<>();
    List<UnsizedRows> unsizedRows = new ArrayList<>();
    for (int k = 0; k < pattern.size(); k++) {
      Type row = map.function().returnTypes().get(k);
      ScalarType element = ThreadCode.scalarType(row.baseElement(), "a map of tuples");
      Buffer buffer = group.freshBuffer("out_" + pattern.get(k).name(), element);
      List<KernelExpr> rowShape = group.knownHostShape(row);
      if (rowShape == null) {
        unsizedRows.add(
            new UnsizedRows(
                k,
                pattern.get(k).name(),
                row.rank(),
                buffer,
                group.freshBuffer("wide_" + pattern.get(k).name(), element),
                group.freshBuffer("sizes_" + pattern.get(k).name(), ScalarType.I64)));
        targets.add(null);
        outputs.add(null);
        continue;
      }
      targets.add(rowsOfResult(pattern.get(k).name(), buffer, n, rowShape, steps, outputs));
    }
    ThreadScratch scratch = code.beginKernel();
    KernelExpr.Var i = group.fresh("i", ScalarType.I64);
    List<KernelStmt> body = new ArrayList<>();
    List<Destination> dests =
        new ArrayList<>(
            targets.stream()
                .map(
                    t ->
                        t == null ? null : (Destination) new Destination.ToMemory(t.rowInBounds(i)))
                .toList());
    for (UnsizedRows u : unsizedRows) {
      dests.set(u.position(), u.destination(code, i, body));
    }
    code.apply(
        map.function(), inputs.stream().map(in -> ThreadCode.row(in, i)).toList(), dests, body);
    for (UnsizedRows u : unsizedRows) {
      body.addAll(u.storeSizes(i));
      code.finish(u.result());
      steps.addAll(u.allocate(group, n));
    }
    Optional<SegmentedRows> segmented =
        configuration.segmentedRowsBelow() > 0 && unsizedRows.isEmpty()
            ? SegmentedRows.of(map)
            : Optional.empty();
    KernelExpr fewRows =
        KernelExprs.lt(
            n,
            KernelExprs.i64(
                segmented.isPresent()
                    ? configuration.segmentedRowsBelow()
                    : configuration.blockRowsBelow()));
    Optional<BlockRows> blockRowsForm =
        configuration.blockRowsBelow() > 0 && segmented.isEmpty() && unsizedRows.isEmpty()
            ? BlockRows.of(group, map, targets)
            : Optional.empty();
    KernelExpr threadRows = n;
    KernelExpr grid = ReductionOrder.ceilDivExpr(n, KernelGroup.BLOCK_SIZE);
    List<KernelStmt> blockPerRow = List.of();
    if (segmented.isPresent() || blockRowsForm.isPresent()) {
      KernelExpr.Var blockRows =
          blockRowsForm.isPresent()
              ? blockRowsForm.get().rows()
              : group.fresh("block_rows", ScalarType.I64);
      KernelExpr.Var rowsForThreads = group.fresh("thread_rows", ScalarType.I64);
      steps.add(
          new HostStep.Define(blockRows, new KernelExpr.Select(fewRows, n, KernelExprs.ZERO)));
      steps.add(
          new HostStep.Define(rowsForThreads, new KernelExpr.Select(fewRows, KernelExprs.ZERO, n)));
      blockPerRow =
          segmented.isPresent()
              ? segmented.get().blockPerRow(code, inputs, blockRows, targets)
              : blockRowsForm.get().code();
      threadRows = rowsForThreads;
      grid = new KernelExpr.Select(fewRows, n, grid);
    }
    List<KernelStmt> kernelBody = new ArrayList<>();
    kernelBody.add(
        new KernelStmt.For(i, GLOBAL_THREAD, threadRows, mul(BLOCK_DIM, GRID_DIM), body));
    kernelBody.addAll(blockPerRow);
    Kernel kernel =
        KernelAssembler.assemble(
            name + (blockPerRow.isEmpty() ? "_map" : KernelLowering.SEGMENTED_KERNEL), kernelBody);
    KernelExpr.Var blocks = group.fresh("blocks", ScalarType.I64);
    steps.add(
        new HostStep.Define(
            blocks,
            KernelExprs.min(
                KernelExprs.max(grid, KernelExprs.ONE),
                KernelExprs.i64(configuration.maxBlocks()))));
    if (blockRowsForm.isPresent()) {
      // each form's scratch is sized only where the launch runs that form
      steps.addAll(group.takeDeferredDefinitions());
      steps.addAll(scratch.sizing(blocks, KernelExprs.not(fewRows)));
      steps.addAll(blockRowsForm.get().sizing(blocks, fewRows));
      steps.add(new HostStep.Launch(kernel, blocks));
    } else {
      steps.addAll(scratch.launch(kernel, blocks));
    }
    List<Kernel> kernels = new ArrayList<>(List.of(kernel));
    if (!unsizedRows.isEmpty()) {
      Kernel zeroRow = zeroRow(group, name, pattern, map, inputs, n, unsizedRows, steps);
      kernels.add(zeroRow);
    }
    for (UnsizedRows u : unsizedRows) {
      Kernel compact = u.compaction(code, name, n);
      steps.addAll(u.readSizesAndCompact(group, n, compact, blocks));
      kernels.add(compact);
      outputs.set(u.position(), u.output(n));
    }
    return new KernelGroup(name, group.inputs(), kernels, steps, outputs, group.errors());
  }

  /**
   * The one-thread kernel, launched after the map's, that sizes the rows of a map over no rows as
   * the interpreter does where only the rows tell their sizes ({@link UnsizedRows}): it applies the
   * function to the zero row of the inputs (every number 0, every bool false, of the inputs' row
   * sizes) and stores the sizes of its results as the first row's; where the function fails there,
   * the sizes the result type gives the host. With rows it does nothing.
   */
  private static Kernel zeroRow(
      GroupContext group,
      String name,
      List<Ident> pattern,
      Exp.Screma map,
      List<ArrayView> inputs,
      KernelExpr n,
      List<UnsizedRows> unsizedRows,
      List<HostStep> steps) {
    ThreadCode code = new ThreadCode(group);
    ThreadScratch scratch = code.beginKernel();
    KernelExpr.Var failed = group.fresh("fails_on_zero", ScalarType.BOOL);
    List<KernelStmt> body = new ArrayList<>();
    List<List<KernelExpr>> sizes = code.sizesOnZeroRow(pattern, map, inputs, failed, body);
    for (UnsizedRows u : unsizedRows) {
      Type rowType = ((Type.Array) pattern.get(u.position()).type()).element();
      body.add(u.storeZeroRowSizes(sizes.get(u.position()), failed, group.staticShape(rowType)));
    }
    KernelExpr noRows =
        KernelExprs.and(
            KernelExprs.eq(n, KernelExprs.ZERO), KernelExprs.eq(GLOBAL_THREAD, KernelExprs.ZERO));
    // a failure there only sets the flag and the code goes on: it reads zeros where the failed
    // operation wrote nothing
    List<KernelStmt> filledBody = new ArrayList<>(scratch.zeroFill());
    filledBody.addAll(body);
    Kernel kernel =
        KernelAssembler.assemble(
            name + "_zero_row", List.of(new KernelStmt.If(noRows, filledBody, List.of())));
    steps.addAll(scratch.launch(kernel, KernelExprs.ONE));
    return kernel;
  }

  /**
   * The result {@code name}'s {@code buffer} holding {@code rows} rows of shape {@code rowShape},
   * row after row: its allocation appended to {@code steps} and its output to {@code outputs}; the
   * view the rows are written through.
   */
  static ArrayView rowsOfResult(
      String name,
      Buffer buffer,
      KernelExpr rows,
      List<KernelExpr> rowShape,
      List<HostStep> steps,
      List<GroupOutput> outputs) {
    List<KernelExpr> shape = new ArrayList<>(List.of(rows));
    shape.addAll(rowShape);
    steps.add(new HostStep.Allocate(buffer, ThreadCode.product(shape)));
    outputs.add(new GroupOutput(name, buffer, shape));
    return ArrayView.rowMajor(buffer, KernelExprs.ZERO, shape);
  }
}
