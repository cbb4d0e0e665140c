package dev.l0.kernels.lower;

import static dev.l0.kernels.lower.KernelExprs.BLOCK_DIM;
import static dev.l0.kernels.lower.KernelExprs.BLOCK_IDX;
import static dev.l0.kernels.lower.KernelExprs.GRID_DIM;
import static dev.l0.kernels.lower.KernelExprs.THREAD_IDX;
import static dev.l0.kernels.lower.KernelExprs.add;
import static dev.l0.kernels.lower.KernelExprs.and;
import static dev.l0.kernels.lower.KernelExprs.div;
import static dev.l0.kernels.lower.KernelExprs.i64;
import static dev.l0.kernels.lower.KernelExprs.lt;
import static dev.l0.kernels.lower.KernelExprs.mod;
import static dev.l0.kernels.lower.KernelExprs.mul;

import dev.l0.ir.ScalarType;
import dev.l0.kernels.ir.Buffer;
import dev.l0.kernels.ir.HostStep;
import dev.l0.kernels.ir.Kernel;
import dev.l0.kernels.ir.KernelExpr;
import dev.l0.kernels.ir.KernelGroup;
import dev.l0.kernels.ir.KernelStmt;
import dev.l0.kernels.ir.ReductionOrder;
import dev.l0.kernels.ir.SharedArray;
import java.util.ArrayList;
import java.util.List;

/**
 * The tiled shared-memory transpose that makes the copies {@link UncoalescedReads} asks for. An
 * array of sizes {@code [n][d1]...[dk]} in a row-major buffer is the matrix {@code [n][R]}, {@code
 * R = d1 * ... * dk}; its copy is the row-major {@code [R][n]} matrix, read through {@link
 * ArrayView#rowIndexInnermost}. Moving the outermost index innermost is one 2-D transpose whatever
 * the rank, so no batching over leading dimensions is needed.
 *
 * <p>The kernel cuts the matrix into {@code TILE x TILE} tiles and gives each block a tile at a
 * time (grid-stride over the tiles; the grid is capped at the configuration's {@code maxBlocks}).
 * Its threads load the tile row by row into a shared {@code [TILE][TILE + 1]} array (neighbouring
 * threads read neighbouring elements of a source row: coalesced), wait at a barrier, then write the
 * tile's columns as rows of the copy (neighbouring threads write neighbouring elements: coalesced),
 * reading the shared tile down a column, which the padding column spreads over all banks; a second
 * barrier keeps the next tile's loads from overwriting elements still to be read. A block of {@code
 * B} threads covers a tile's {@code TILE * TILE} elements in steps of {@code B}, so every block
 * size works. Elements outside the matrix (edge tiles, where a size is not a multiple of {@code
 * TILE}) are neither loaded nor stored, so every size, 0 and 1 included, is copied exactly, and the
 * barriers sit under block-uniform control flow only.
 */
final class TiledTranspose {
  /** The side of a tile: a warp's width, so a warp reads or writes one row of a tile. */
  static final int TILE = 32;

  /**
   * The copy of {@code source}, an array of sizes {@code shape} stored row-major, into {@code
   * target} with the row index innermost.
   */
  record Copy(Buffer source, Buffer target, List<KernelExpr.Var> shape) {
    Copy {
      shape = List.copyOf(shape);
      if (shape.size() < 2) {
        throw new IllegalArgumentException(
            "a transposed copy needs an array of rank 2 or more, not " + shape.size());
      }
    }
  }

  private TiledTranspose() {}

  /**
   * {@code lowered} with the transposes of {@code context}'s copies allocated and launched before
   * its own steps.
   */
  static KernelGroup runFirst(
      GroupContext context, KernelGroup lowered, LaunchConfiguration configuration) {
    List<Kernel> kernels = new ArrayList<>();
    List<HostStep> steps = new ArrayList<>();
    for (Copy copy : context.transposedCopies()) {
      steps.addAll(transpose(context, lowered.name(), copy, configuration));
    }
    steps.stream()
        .filter(HostStep.Launch.class::isInstance)
        .forEach(s -> kernels.add(((HostStep.Launch) s).kernel()));
    kernels.addAll(lowered.kernels());
    steps.addAll(lowered.steps());
    return new KernelGroup(
        lowered.name(), lowered.inputs(), kernels, steps, lowered.outputs(), lowered.errors());
  }

  /**
   * The host steps that size the tiles, allocate {@code copy}'s target and launch its transpose.
   */
  private static List<HostStep> transpose(
      GroupContext context, String groupName, Copy copy, LaunchConfiguration configuration) {
    KernelExpr.Var rows = copy.shape().get(0);
    KernelExpr rowElements = KernelExprs.ONE;
    for (KernelExpr.Var d : copy.shape().subList(1, copy.shape().size())) {
      rowElements = mul(rowElements, d);
    }
    KernelExpr.Var columns = context.fresh("columns", ScalarType.I64);
    KernelExpr.Var tileColumns = context.fresh("tile_columns", ScalarType.I64);
    KernelExpr.Var tiles = context.fresh("tiles", ScalarType.I64);
    KernelExpr.Var blocks = context.fresh("blocks", ScalarType.I64);
    KernelExpr tile = i64(TILE);
    List<HostStep> steps = new ArrayList<>();
    steps.add(new HostStep.Define(columns, rowElements));
    steps.add(new HostStep.Define(tileColumns, ReductionOrder.ceilDivExpr(columns, tile)));
    steps.add(new HostStep.Define(tiles, mul(ReductionOrder.ceilDivExpr(rows, tile), tileColumns)));
    steps.add(
        new HostStep.Define(
            blocks,
            KernelExprs.min(
                KernelExprs.max(tiles, KernelExprs.ONE), i64(configuration.maxBlocks()))));
    steps.add(new HostStep.Allocate(copy.target(), mul(rows, columns)));
    Kernel kernel =
        KernelAssembler.assemble(
            context.freshName(groupName + KernelLowering.TRANSPOSE_KERNEL),
            body(context, copy, rows, columns, tileColumns, tiles));
    steps.add(new HostStep.Launch(kernel, blocks));
    return steps;
  }

  /**
   * For each tile of the block: load the source's {@code [rows][columns]} tile, barrier, store it
   * transposed into the target's {@code [columns][rows]}, barrier.
   */
  private static List<KernelStmt> body(
      GroupContext context,
      Copy copy,
      KernelExpr rows,
      KernelExpr columns,
      KernelExpr tileColumns,
      KernelExpr tiles) {
    SharedArray shared =
        SharedArray.ofFixedSize(
            context.freshName("tile"), copy.source().elementType(), TILE * (TILE + 1));
    KernelExpr.Var tile = context.fresh("tile", ScalarType.I64);
    KernelExpr.Var firstRow = context.fresh("first_row", ScalarType.I64);
    KernelExpr.Var firstColumn = context.fresh("first_column", ScalarType.I64);
    KernelExpr.Var load = context.fresh("e", ScalarType.I64);
    KernelExpr.Var store = context.fresh("e", ScalarType.I64);
    KernelExpr loadRow = add(firstRow, tileRow(load));
    KernelExpr loadColumn = add(firstColumn, tileColumn(load));
    KernelStmt loadElement =
        new KernelStmt.If(
            and(lt(loadRow, rows), lt(loadColumn, columns)),
            List.of(
                new KernelStmt.SharedStore(
                    shared,
                    paddedIndex(tileRow(load), tileColumn(load)),
                    new KernelExpr.Load(copy.source(), add(mul(loadRow, columns), loadColumn)))),
            List.of());
    KernelExpr storeRow = add(firstColumn, tileRow(store));
    KernelExpr storeColumn = add(firstRow, tileColumn(store));
    KernelStmt storeElement =
        new KernelStmt.If(
            and(lt(storeRow, columns), lt(storeColumn, rows)),
            List.of(
                new KernelStmt.Store(
                    copy.target(),
                    add(mul(storeRow, rows), storeColumn),
                    new KernelExpr.SharedLoad(
                        shared, paddedIndex(tileColumn(store), tileRow(store))))),
            List.of());
    List<KernelStmt> perTile =
        List.of(
            new KernelStmt.Declare(firstRow, mul(div(tile, tileColumns), i64(TILE))),
            new KernelStmt.Declare(firstColumn, mul(mod(tile, tileColumns), i64(TILE))),
            overTile(load, loadElement),
            new KernelStmt.Barrier(),
            overTile(store, storeElement),
            new KernelStmt.Barrier());
    return List.of(new KernelStmt.For(tile, BLOCK_IDX, tiles, GRID_DIM, perTile));
  }

  /**
   * {@code for (e = threadIdx.x; e < TILE * TILE; e += blockDim.x) element}: the block's threads
   * over one tile.
   */
  private static KernelStmt overTile(KernelExpr.Var element, KernelStmt body) {
    return new KernelStmt.For(
        element, THREAD_IDX, i64((long) TILE * TILE), BLOCK_DIM, List.of(body));
  }

  /** The row within its tile of the tile's element {@code e}, counted row by row. */
  private static KernelExpr tileRow(KernelExpr e) {
    return div(e, i64(TILE));
  }

  /** The column within its tile of the tile's element {@code e}. */
  private static KernelExpr tileColumn(KernelExpr e) {
    return mod(e, i64(TILE));
  }

  /**
   * Where element {@code [row][column]} of a tile lies in the shared array, whose rows are padded
   * by one.
   */
  private static KernelExpr paddedIndex(KernelExpr row, KernelExpr column) {
    return add(mul(row, i64(TILE + 1)), column);
  }
}
