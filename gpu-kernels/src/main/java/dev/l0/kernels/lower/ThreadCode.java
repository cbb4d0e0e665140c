package dev.l0.kernels.lower;

import static dev.l0.kernels.lower.KernelExprs.and;
import static dev.l0.kernels.lower.KernelExprs.convert;
import static dev.l0.kernels.lower.KernelExprs.eq;
import static dev.l0.kernels.lower.KernelExprs.not;
import static dev.l0.kernels.lower.KernelExprs.zeroOf;

import dev.l0.ir.BinaryOperator;
import dev.l0.ir.Dim;
import dev.l0.ir.ScalarType;
import dev.l0.ir.SourcePos;
import dev.l0.ir.Type;
import dev.l0.kernels.ir.CapacityReruns;
import dev.l0.kernels.ir.KernelExpr;
import dev.l0.kernels.ir.KernelGroup;
import dev.l0.kernels.ir.KernelStmt;
import dev.l0.kernels.ir.ReductionOrder;
import dev.l0.kernels.ir.SharedArray;
import dev.l0.opt.ir.Analysis;
import dev.l0.opt.ir.Body;
import dev.l0.opt.ir.Exp;
import dev.l0.opt.ir.Ident;
import dev.l0.opt.ir.InternalTypes;
import dev.l0.opt.ir.Lambda;
import dev.l0.opt.ir.Stm;
import dev.l0.opt.ir.SubExp;
import dev.l0.semantics.FailureDetails;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.function.Function;
import java.util.function.Supplier;

/**
 * Lowers the code of SOAC functions to the statements one kernel thread runs: scalar code, branches
 * and sequential loops become locals, ifs and for loops; arrays are views (index functions) of
 * global buffers, so indexing, {@code transpose}, {@code split}, {@code reshape}, {@code replicate}
 * and {@code iota} copy nothing. A map whose arrays are results is written straight into its
 * destination, and one whose result updates a row of an array straight into that row where that
 * gives the same values ({@link MapIntoUpdatedRow}); a redomap, reduce, scan, scanomap or filter
 * inside a thread runs sequentially in the interpreter's order (thesis §2.2), with scalar or array
 * accumulators. Arrays a thread makes (copies before an in-place update, array loop variables,
 * array-valued branches, concatenations, array literals, nested SOAC results it reads) live in its
 * {@link ThreadScratch} and are updated in place (thesis ch. 3's uniqueness makes that safe). Their
 * space is a host bound of their sizes ({@link #bound}): a filter keeps at most its input's rows, a
 * loop that filters its array accumulator keeps it within its initial rows (the live rows in a
 * local), one that appends to it keeps it within its initial rows plus the trip count times the
 * bound of the rows appended (or, appending it to itself a constant number of times, its initial
 * rows times two to that power; where the rows appended or the trip count have no host bound, a
 * first capacity that the host grows by rerunning the group when a thread overflows it, {@link
 * CapacityReruns}), and an array result whose sizes only the code that makes it knows ({@link
 * UnsizedResult}) gets the largest bound of the arrays written to it; over no rows, a map's such
 * results take the sizes of its function's results on the zero row, as the interpreter's. Failing
 * operations are guarded and raise the group's errors. What has no such form (sizes without a host
 * bound, arrays of tuples, calls) is rejected, naming the construct and its nearest source
 * position.
 */
final class ThreadCode {
  private final GroupContext group;
  private final Map<String, Binding> env = new HashMap<>();

  /** Arrays the running thread made and alone holds, which an in-place update may overwrite. */
  private final Set<String> owned = new HashSet<>();

  /**
   * A host expression at least as large as each local that holds a size the thread computes: the
   * kept rows of a filter (at most its input's rows), the live rows of an array a loop shrinks (at
   * most its initial rows).
   */
  private final Map<KernelExpr.Var, KernelExpr> sizeBounds = new HashMap<>();

  /**
   * The locals counting the live rows of arrays that loops resize ({@link
   * Destination.ToResizable}).
   */
  private final Set<KernelExpr.Var> liveRows = new HashSet<>();

  /**
   * The locals holding the live inner sizes of arrays that loops resize in every dimension ({@link
   * #withLiveInnerSizes}), each with the size its rows are laid out for (its capacity).
   */
  private final Map<KernelExpr.Var, KernelExpr> innerCapacities = new HashMap<>();

  /**
   * The live inner sizes of {@link #innerCapacities} that the loop's type leaves unknown, so that
   * its body may also make them larger: their capacity grows with {@link
   * KernelGroup#CAPACITY_SCALE}, and a write past it raises the capacity overflow that reruns the
   * group with a larger scale ({@link #resized}).
   */
  private final Set<KernelExpr.Var> growableInner = new HashSet<>();

  /**
   * The error codes of growing arrays that may outgrow their capacity (a host expression of {@link
   * KernelGroup#CAPACITY_SCALE}, by which they are keyed): a write past it raises the code.
   */
  private final Map<KernelExpr, Integer> overflows = new HashMap<>();

  /** The arrays that are rows of others ({@code let r = a[i]}), for {@link MapIntoUpdatedRow}. */
  private final Map<String, MapIntoUpdatedRow.RowOf> rowsOf = new HashMap<>();

  private ThreadScratch scratch;

  /**
   * Where the arrays of a row a whole block runs go ({@link BlockRows}), while the code is at the
   * row's own level ({@link #atBlockLevel}); null in a thread per row.
   */
  private ThreadScratch blockScratch;

  /**
   * Whether the code being lowered is a block's row at its own level, run by all its threads alike,
   * where maps run their rows strided over the threads; false inside those maps.
   */
  private boolean atBlockLevel;

  /**
   * The counters of the loops that run rows strided over a block's threads: a map's, or a copy's.
   */
  private final Set<KernelExpr.Var> stridedLoops = new HashSet<>();

  /** Whether a map runs its rows strided over a block's threads. */
  private boolean stridesAMap;

  /**
   * The locals that the rows of a map lowered strided may set, each thread its own: what they note
   * of the shapes of their rows ({@link UnsizedResult}, {@link Destination.IrregularRows}), which
   * {@link #agreeOnShapes} then makes the block's.
   */
  private final Set<KernelExpr.Var> shapesNotedPerThread = new HashSet<>();

  /**
   * Where failures set a flag instead of raising the group's error ({@link #resultSizes}); none
   * otherwise.
   */
  private KernelExpr.Var failures;

  ThreadCode(GroupContext group) {
    this.group = group;
  }

  GroupContext group() {
    return group;
  }

  /** Starts the code of a new kernel: the arrays its threads make go to a scratch of its own. */
  ThreadScratch beginKernel() {
    scratch = new ThreadScratch(group);
    return scratch;
  }

  /**
   * Starts the code of a row that all the threads of a block run ({@link BlockRows}): the arrays
   * made at the row's level go to the returned scratch of the block, the rows of its maps are
   * strided over the threads, and the arrays made inside those rows go to the thread's scratch
   * ({@link #beginKernel}, called before).
   */
  ThreadScratch beginBlockRow() {
    blockScratch = ThreadScratch.perBlock(group);
    atBlockLevel = true;
    return blockScratch;
  }

  /** The counters of the loops that run rows strided over a block's threads. */
  Set<KernelExpr.Var> stridedLoops() {
    return Set.copyOf(stridedLoops);
  }

  /** Whether a map at a block's row level runs its rows strided over the block's threads. */
  boolean stridesAMap() {
    return stridesAMap;
  }

  /** The scalar an operand stands for. */
  KernelExpr scalar(SubExp s) {
    if (s instanceof SubExp.Const c) {
      return new KernelExpr.Constant(c.value());
    }
    if (lookup(s.varName()) instanceof Binding.Scalar scalar) {
      return scalar.value();
    }
    throw new UnsupportedKernelException("an array where a scalar was expected: " + s);
  }

  /** The array view an operand stands for. */
  ArrayView array(SubExp s) {
    if (s instanceof SubExp.Var v && lookup(v.name()) instanceof ArrayView view) {
      return view;
    }
    throw new UnsupportedKernelException("a scalar where an array was expected: " + s);
  }

  private Binding lookup(String name) {
    Binding local = env.get(name);
    return local != null ? local : group.input(name);
  }

  /** {@link #lookup}, or null for a name that binds no value the kernel reads (a certificate). */
  private Binding lookupOrNull(String name) {
    try {
      return lookup(name);
    } catch (UnsupportedKernelException notAValue) {
      return null;
    }
  }

  /** Row {@code index} (in bounds) of {@code view}: a scalar load for a one-dimensional view. */
  static Binding row(ArrayView view, KernelExpr index) {
    ArrayView row = view.rowInBounds(index);
    return row.rank() == 0 ? new Binding.Scalar(row.load()) : row;
  }

  /** Binds the parameters of {@code f} to {@code args} and lowers its body into {@code dests}. */
  void apply(Lambda f, List<Binding> args, List<Destination> dests, List<KernelStmt> out) {
    bind(f, args);
    lowerBody(f.body(), dests, out);
  }

  /**
   * Binds the parameters of {@code f} to {@code args}, for code that lowers its body's parts
   * itself.
   */
  void bind(Lambda f, List<Binding> args) {
    for (int i = 0; i < args.size(); i++) {
      env.put(f.params().get(i).name(), args.get(i));
    }
  }

  /**
   * Applies {@code f}, whose results must be scalars, into fresh locals declared in {@code out}.
   */
  List<KernelExpr.Var> applyToLocals(Lambda f, List<Binding> args, List<KernelStmt> out) {
    List<KernelExpr.Var> results = new ArrayList<>();
    List<Destination> dests = new ArrayList<>();
    for (Type t : f.returnTypes()) {
      KernelExpr.Var local = group.fresh("res", scalarType(t, "a function with array results"));
      out.add(new KernelStmt.Declare(local, zeroOf(local.type())));
      results.add(local);
      dests.add(new Destination.ToLocal(local));
    }
    apply(f, args, dests, out);
    return results;
  }

  static ScalarType scalarType(Type t, String construct) {
    if (t instanceof ScalarType s) {
      return s;
    }
    throw new UnsupportedKernelException(construct + " inside a kernel");
  }

  void lowerBody(Body body, List<Destination> dests, List<KernelStmt> out) {
    Set<String> writtenInPlace = new HashSet<>();
    Map<String, Integer> uses = Analysis.useCounts(body);
    List<Stm> stms = body.stms();
    for (int s = 0; s < stms.size(); s++) {
      Stm stm = stms.get(s);
      List<ArrayView> targets = stm.exp().isMap() ? resultTargets(stm, body, dests, uses) : null;
      Destination.ToResizable growing =
          stm.exp() instanceof Exp.Concat ? growingTarget(stm, body, dests, uses) : null;
      int next = s + 1;
      while (targets == null
          && stm.exp().isMap()
          && next < stms.size()
          && MapIntoUpdatedRow.movesBefore(stms.get(next), stm)) {
        next++;
      }
      Exp.Update rowUpdate =
          targets == null && stm.exp().isMap() && next < stms.size()
              ? MapIntoUpdatedRow.updateOf(
                  stm,
                  stms.get(next),
                  uses,
                  this::lookupOrNull,
                  owned,
                  rowsOf,
                  group.interleavesRows())
              : null;
      if (targets != null) {
        lowerMapInto((Exp.Screma) stm.exp(), targets, out);
        stm.pattern().forEach(id -> writtenInPlace.add(id.name()));
      } else if (growing != null) {
        lowerConcatInto((Exp.Concat) stm.exp(), growing, out);
        writtenInPlace.add(stm.pattern().get(0).name());
      } else if (rowUpdate != null) {
        for (Stm scalar : stms.subList(s + 1, next)) {
          lowerStm(scalar, out);
        }
        lowerMapIntoUpdatedRow(stm, stms.get(next), rowUpdate, out);
        s = next;
      } else {
        lowerStm(stm, out);
      }
    }
    for (int i = 0; i < dests.size(); i++) {
      SubExp result = body.result().get(i);
      if (!writtenInPlace.contains(result.varName())) {
        write(result, dests.get(i), out);
      }
    }
  }

  /**
   * The memory destinations of a map's results when each is used once, as a result of the body
   * going to memory: then the map writes there directly. {@code null} otherwise.
   */
  private static List<ArrayView> resultTargets(
      Stm stm, Body body, List<Destination> dests, Map<String, Integer> uses) {
    List<ArrayView> targets = new ArrayList<>();
    for (Ident id : stm.pattern()) {
      int position = body.result().indexOf(id.var());
      if (position < 0
          || uses.getOrDefault(id.name(), 0) != 1
          || !(dests.get(position) instanceof Destination.ToMemory memory)) {
        return null;
      }
      targets.add(memory.view());
    }
    return targets;
  }

  /**
   * The destination of a concat that is a body's result, used once, going to a growing array that
   * may outgrow its capacity: the concat writes there directly, as its own rows have no host bound.
   * {@code null} otherwise.
   */
  private Destination.ToResizable growingTarget(
      Stm stm, Body body, List<Destination> dests, Map<String, Integer> uses) {
    Ident id = stm.pattern().get(0);
    int position = body.result().indexOf(id.var());
    return position >= 0
            && uses.getOrDefault(id.name(), 0) == 1
            && dests.get(position) instanceof Destination.ToResizable r
            && overflows.containsKey(r.capacity())
        ? r
        : null;
  }

  private void write(SubExp result, Destination dest, List<KernelStmt> out) {
    if (dest instanceof Destination.ToLocal local) {
      out.add(new KernelStmt.Assign(local.local(), scalar(result)));
      return;
    }
    if (dest instanceof Destination.ToResizable resizable) {
      writeResizable(array(result), resizable, out);
      return;
    }
    if (dest instanceof Destination.ToUnsized unsized) {
      writeUnsized(array(result), unsized, out);
      return;
    }
    if (dest instanceof Destination.ToChosen chosen) {
      KernelExpr value = scalar(result);
      out.add(
          new KernelStmt.If(
              chosen.condition(),
              List.of(
                  new KernelStmt.Store(chosen.ifTrue().buffer(), chosen.ifTrue().offset(), value)),
              List.of(
                  new KernelStmt.Store(
                      chosen.ifFalse().buffer(), chosen.ifFalse().offset(), value))));
      return;
    }
    ArrayView target = ((Destination.ToMemory) dest).view();
    if (target.rank() == 0) {
      out.add(new KernelStmt.Store(target.buffer(), target.offset(), scalar(result)));
    } else {
      copy(array(result), target, out);
    }
  }

  /**
   * Copies {@code source} into {@code target}, raising an error where their shapes differ, also
   * below an empty dimension: an empty array keeps its inner sizes, so {@code [0][0]} and {@code
   * [0][1]} are different values.
   */
  private void copy(ArrayView source, ArrayView target, List<KernelStmt> out) {
    copy(source, target, shapeError(), out);
  }

  /**
   * {@link #copy(ArrayView, ArrayView, List)} raising {@code differentShape} where the shapes
   * differ.
   */
  private void copy(
      ArrayView source, ArrayView target, KernelStmt differentShape, List<KernelStmt> out) {
    if (source.equals(target)) {
      return;
    }
    KernelExpr sameShape = KernelExprs.TRUE;
    for (int d = target.rank() - 1; d >= 0; d--) {
      sameShape = and(eq(source.dims().get(d), target.dims().get(d)), sameShape);
    }
    List<KernelStmt> body = new ArrayList<>();
    copyElements(source, target, body);
    List<KernelStmt> guarded = new ArrayList<>();
    addGuarded(source.valid(), body, List.of(), guarded);
    addGuarded(sameShape, guarded, List.of(differentShape), out);
  }

  /**
   * Copies {@code source} into a region with a live row count: its rows must fit the capacity and
   * its rows' shape be the region's (else the shape error), then the count becomes its rows.
   */
  private void writeResizable(
      ArrayView source, Destination.ToResizable dest, List<KernelStmt> out) {
    ArrayView region = dest.region();
    KernelExpr rows = source.dims().get(0);
    List<KernelStmt> body = new ArrayList<>();
    body.add(new KernelStmt.Assign((KernelExpr.Var) region.dims().get(0), rows));
    body.addAll(liveInnerSizesOf(source.dims(), region));
    copyElements(source, region, body);
    List<KernelStmt> guarded = new ArrayList<>();
    addGuarded(source.valid(), body, List.of(), guarded);
    addWithinCapacity(source.dims(), guarded, dest, out);
  }

  /**
   * Whether {@code dims}, sizes of an array of {@code region}'s rank, fit those of its inner sizes
   * that are (or are not, by {@code growable}) {@link #growableInner}: each the region's, or at
   * most its capacity where the region's is live ({@link #withLiveInnerSizes}).
   */
  private KernelExpr innerSizesFit(List<KernelExpr> dims, ArrayView region, boolean growable) {
    KernelExpr fit = KernelExprs.TRUE;
    for (int d = region.rank() - 1; d >= 1; d--) {
      KernelExpr size = region.dims().get(d);
      if (growableInner.contains(size) != growable) {
        continue;
      }
      KernelExpr capacity = size instanceof KernelExpr.Var v ? innerCapacities.get(v) : null;
      fit =
          and(
              fit,
              capacity == null
                  ? eq(dims.get(d), size)
                  : not(KernelExprs.lt(capacity, dims.get(d))));
    }
    return fit;
  }

  /**
   * The assignments of {@code region}'s live inner sizes to {@code dims}' (none if it has none).
   */
  private List<KernelStmt> liveInnerSizesOf(List<KernelExpr> dims, ArrayView region) {
    List<KernelStmt> assignments = new ArrayList<>();
    for (int d = 1; d < region.rank(); d++) {
      if (region.dims().get(d) instanceof KernelExpr.Var v && innerCapacities.containsKey(v)) {
        assignments.add(new KernelStmt.Assign(v, dims.get(d)));
      }
    }
    return assignments;
  }

  /**
   * {@code write} (of an array of sizes {@code dims}) guarded by {@code dest}'s capacity: the shape
   * error where the inner sizes differ from the region's ({@link #innerSizesFit}); past the
   * capacity of its rows or of a {@link #growableInner} size, the shape error, or the capacity
   * overflow of a growing array that may outgrow it ({@link #overflows}).
   */
  private void addWithinCapacity(
      List<KernelExpr> dims,
      List<KernelStmt> write,
      Destination.ToResizable dest,
      List<KernelStmt> out) {
    KernelExpr sameInner = innerSizesFit(dims, dest.region(), false);
    KernelExpr fits =
        and(
            not(KernelExprs.lt(dest.capacity(), dims.get(0))),
            innerSizesFit(dims, dest.region(), true));
    Integer overflow = overflows.get(dest.capacity());
    if (overflow == null) {
      addGuarded(and(fits, sameInner), write, List.of(shapeError()), out);
      return;
    }
    List<KernelStmt> fitting = new ArrayList<>();
    addGuarded(fits, write, List.of(new KernelStmt.RaiseError(overflow)), fitting);
    addGuarded(sameInner, fitting, List.of(shapeError()), out);
  }

  /**
   * Copies {@code source} into {@code target} of the same shape, element by element; at a block's
   * row level into the block's memory, its rows strided over the block's threads between barriers,
   * as a map's.
   */
  void copyElements(ArrayView source, ArrayView target, List<KernelStmt> out) {
    if (target.rank() == 0) {
      out.add(new KernelStmt.Store(target.buffer(), target.offset(), source.load()));
      return;
    }
    KernelExpr.Var j = group.fresh("j", ScalarType.I64);
    List<KernelStmt> body =
        inOneThread(
            () -> {
              List<KernelStmt> rowCopy = new ArrayList<>();
              copyElements(source.rowInBounds(j), target.rowInBounds(j), rowCopy);
              return rowCopy;
            });
    KernelExpr rows = target.dims().get(0);
    if (atBlockLevel && !target.buffer().isThreadPrivate()) {
      out.addAll(stridedOverBlock(j, rows, body));
    } else {
      out.add(new KernelStmt.For(j, KernelExprs.ZERO, rows, KernelExprs.ONE, body));
    }
  }

  /**
   * What {@code lowering} gives lowered as code one thread runs by itself: in a block's row, below
   * its own level (a strided row's code, or code every thread runs alike in its own scratch).
   */
  private <T> T inOneThread(Supplier<T> lowering) {
    boolean byBlock = atBlockLevel;
    atBlockLevel = false;
    try {
      return lowering.get();
    } finally {
      atBlockLevel = byBlock;
    }
  }

  /**
   * The loop running rows {@code j < rows} of {@code body} strided over a block's threads, between
   * two barriers: none starts before the block's code before it is done, and the code after reads
   * what they wrote only once all are done.
   */
  private List<KernelStmt> stridedOverBlock(
      KernelExpr.Var j, KernelExpr rows, List<KernelStmt> body) {
    stridedLoops.add(j);
    return List.of(
        new KernelStmt.Barrier(),
        new KernelStmt.For(j, KernelExprs.THREAD_IDX, rows, KernelExprs.BLOCK_DIM, body),
        new KernelStmt.Barrier());
  }

  /**
   * The error of an array result whose shape differs from its declared type, at the group's SOAC:
   * in a reduce or scan, the operator's result of another shape than the accumulator (as the
   * interpreter reports it, {@code ArrayOperations.requireAccumulatorShape}).
   */
  KernelStmt shapeError() {
    String operation = group.soacOperation();
    return operation.equals("reduce") || operation.equals("scan")
        ? raise(
            operation,
            group.soacPos(),
            "the operator returned a value of another shape than its accumulator;"
                + " it must keep the accumulator's shape")
        : shapeError(group.soacPos());
  }

  /**
   * The error of a map's row {@code row} whose sizes {@code rowSizes} differ from row 0's {@code
   * firstSizes}, in the interpreter's words with those values ({@link FailureDetails#irregular});
   * in a reduce or scan, {@link #shapeError()}.
   */
  KernelStmt irregularRow(KernelExpr row, List<KernelExpr> rowSizes, List<KernelExpr> firstSizes) {
    String operation = group.soacOperation();
    if (operation.equals("reduce") || operation.equals("scan")) {
      return shapeError();
    }
    return irregular("map", group.soacPos(), row, rowSizes, firstSizes);
  }

  /**
   * {@code operation}'s error at {@code pos} for its element {@code element} whose sizes {@code
   * sizes} differ from element 0's {@code firstSizes}, in the interpreter's words with those values
   * ({@link FailureDetails#irregular}; without them beyond {@link KernelStmt#MAX_ERROR_VALUES}).
   */
  private KernelStmt irregular(
      String operation,
      SourcePos pos,
      KernelExpr element,
      List<KernelExpr> sizes,
      List<KernelExpr> firstSizes) {
    List<KernelExpr> values = new ArrayList<>();
    values.add(element);
    values.addAll(sizes);
    values.addAll(firstSizes);
    return raise(
        operation,
        pos,
        FailureDetails.irregular(sizes.size()),
        values.size() <= KernelStmt.MAX_ERROR_VALUES ? values : List.of());
  }

  private KernelStmt shapeError(SourcePos pos) {
    return raise("map", pos, "an array result's shape differs from its declared type");
  }

  private KernelStmt raise(String operation, SourcePos pos, String detail) {
    return raise(operation, pos, detail, List.of());
  }

  /**
   * The raise of {@code operation}'s error at {@code pos}, whose {@code detail} names {@code
   * values} ({@code FailureDetails}).
   */
  private KernelStmt raise(
      String operation, SourcePos pos, String detail, List<KernelExpr> values) {
    if (failures != null) {
      return new KernelStmt.Assign(failures, KernelExprs.TRUE);
    }
    return new KernelStmt.RaiseError(
        group.error(operation, pos, detail),
        values.stream().map(v -> convert(v, ScalarType.I64)).toList());
  }

  /**
   * The raise of an index out of bounds for {@code indices} into dimensions of sizes {@code sizes}
   * (the first index outside its dimension named, as the interpreter does: {@code
   * FailureDetails.INDICES}); without values beyond {@link KernelStmt#MAX_ERROR_VALUES}.
   */
  private KernelStmt outOfBounds(
      String operation, SourcePos pos, List<KernelExpr> indices, List<KernelExpr> sizes) {
    if (indices.size() == 1) {
      return raise(operation, pos, FailureDetails.index(0), List.of(indices.get(0), sizes.get(0)));
    }
    List<KernelExpr> values = new ArrayList<>();
    for (int k = 0; k < indices.size(); k++) {
      values.add(indices.get(k));
      values.add(sizes.get(k));
    }
    return raise(
        operation,
        pos,
        FailureDetails.INDICES,
        values.size() <= KernelStmt.MAX_ERROR_VALUES ? values : List.of());
  }

  /**
   * Applies {@code f} to {@code args} into fresh arrays and locals of this thread named by {@code
   * results} and returns the sizes of each result (none for a scalar); a failure there sets {@code
   * failed} instead of raising the group's error, as a function that only sizes rows may fail
   * without failing the program ({@link MapLowering}).
   */
  List<List<KernelExpr>> resultSizes(
      Lambda f,
      List<Binding> args,
      List<Ident> results,
      KernelExpr.Var failed,
      List<KernelStmt> out) {
    KernelExpr.Var enclosing = failures;
    failures = failed;
    List<Destination> dests = results.stream().map(id -> destination(id, out)).toList();
    apply(f, args, dests, out);
    failures = enclosing;
    List<List<KernelExpr>> sizes = new ArrayList<>();
    for (Destination d : dests) {
      if (d instanceof Destination.ToUnsized unsized) {
        finish(unsized.result());
        sizes.add(List.copyOf(unsized.result().dims()));
      } else if (d instanceof Destination.ToMemory memory) {
        sizes.add(memory.view().dims());
      } else {
        sizes.add(List.of());
      }
    }
    return sizes;
  }

  /** A map inside a thread whose results go to {@code targets}: a loop over its rows. */
  private void lowerMapInto(Exp.Screma map, List<ArrayView> targets, List<KernelStmt> out) {
    lowerMapInto(
        map,
        targets,
        targets.stream()
            .map(
                t ->
                    (Function<KernelExpr, Destination>)
                        j -> new Destination.ToMemory(t.rowInBounds(j)))
            .toList(),
        out);
  }

  /**
   * A map inside a thread whose result {@code k} goes, row {@code j}, to {@code
   * rowDestinations(k)(j)}; {@code targets} are those of known rows, which must be the map's.
   */
  private void lowerMapInto(
      Exp.Screma map,
      List<ArrayView> targets,
      List<Function<KernelExpr, Destination>> rowDestinations,
      List<KernelStmt> out) {
    List<ArrayView> inputs = map.inputs().stream().map(this::array).toList();
    KernelExpr rows = inputs.get(0).dims().get(0);
    KernelExpr sameRows = KernelExprs.TRUE;
    for (ArrayView target : targets) {
      sameRows = and(sameRows, eq(target.dims().get(0), rows));
    }
    KernelExpr.Var j = group.fresh("j", ScalarType.I64);
    List<KernelStmt> body = inOneThread(() -> rowCode(map.function(), inputs, rowDestinations, j));
    List<KernelStmt> rowsLoop =
        List.of(new KernelStmt.For(j, KernelExprs.ZERO, rows, KernelExprs.ONE, body));
    if (atBlockLevel) {
      Set<KernelExpr.Var> setOutside = new HashSet<>(BlockRows.assignedOutside(body));
      setOutside.removeAll(shapesNotedPerThread);
      if (!setOutside.isEmpty()) {
        throw new UnsupportedKernelException(
            "a map inside a block's row whose rows set values outside their own code");
      }
      stridesAMap = true;
      rowsLoop = stridedOverBlock(j, rows, body);
    } else if (group.interleavesRows() && InterleavedRows.gains(map.function())) {
      // rows j, j + 1, ...; past the last row the last one again (the same values twice)
      List<List<KernelStmt>> rowsCode = new ArrayList<>(List.of(body));
      List<KernelStmt> together = new ArrayList<>();
      KernelExpr last = KernelExprs.sub(rows, KernelExprs.ONE);
      for (int r = 1; r < InterleavedRows.ROWS; r++) {
        KernelExpr.Var next = group.fresh("j", ScalarType.I64);
        together.add(
            new KernelStmt.Declare(
                next, KernelExprs.min(KernelExprs.add(j, KernelExprs.i64(r)), last)));
        rowsCode.add(rowCode(map.function(), inputs, rowDestinations, next));
      }
      List<KernelExpr.Var> failed = new ArrayList<>();
      List<List<KernelStmt>> deferred = new ArrayList<>();
      for (List<KernelStmt> rowCode : rowsCode) {
        KernelExpr.Var rowFailed = group.fresh("failed", ScalarType.I64);
        failed.add(rowFailed);
        deferred.add(InterleavedRows.deferFailures(rowCode, rowFailed));
      }
      List<KernelStmt> interleaved = InterleavedRows.interleave(deferred);
      if (interleaved != null) {
        failed.forEach(f -> together.add(new KernelStmt.Declare(f, KernelExprs.ZERO)));
        together.addAll(interleaved);
        together.addAll(InterleavedRows.raiseInRowOrder(failed, rowsCode));
        rowsLoop =
            List.of(
                new KernelStmt.For(
                    j, KernelExprs.ZERO, rows, KernelExprs.i64(InterleavedRows.ROWS), together));
      }
    }
    // Inputs of different sizes failed the size check before the map (thesis §4.2's certificates):
    // their rows are not read.
    KernelExpr inputsAgree = KernelExprs.TRUE;
    for (ArrayView input : inputs.subList(1, inputs.size())) {
      inputsAgree = and(inputsAgree, eq(input.dims().get(0), rows));
    }
    List<KernelStmt> guarded = new ArrayList<>();
    addGuarded(and(allValid(inputs), inputsAgree), rowsLoop, List.of(), guarded);
    addGuarded(
        sameRows,
        guarded,
        List.of(shapeError(map.pos().equals(SourcePos.NONE) ? group.soacPos() : map.pos())),
        out);
  }

  /** The code of row {@code j} of a map with function {@code f}: its results to their rows. */
  private List<KernelStmt> rowCode(
      Lambda f,
      List<ArrayView> inputs,
      List<Function<KernelExpr, Destination>> rowDestinations,
      KernelExpr.Var j) {
    List<KernelStmt> body = new ArrayList<>();
    List<Destination> dests = rowDestinations.stream().map(d -> d.apply(j)).toList();
    apply(f, inputs.stream().map(in -> row(in, j)).toList(), dests, body);
    return body;
  }

  /**
   * {@code if (condition) then else otherwise}, appended to {@code out}; just {@code then} where
   * the condition is the constant true.
   */
  static void addGuarded(
      KernelExpr condition,
      List<KernelStmt> then,
      List<KernelStmt> otherwise,
      List<KernelStmt> out) {
    if (condition.equals(KernelExprs.TRUE)) {
      out.addAll(then);
    } else if (then.isEmpty()) {
      out.add(new KernelStmt.If(not(condition), otherwise, List.of()));
    } else {
      out.add(new KernelStmt.If(condition, then, otherwise));
    }
  }

  static KernelExpr allValid(List<ArrayView> views) {
    KernelExpr valid = KernelExprs.TRUE;
    for (ArrayView v : views) {
      valid = and(valid, v.valid());
    }
    return valid;
  }

  private void declare(Ident id, KernelExpr value, List<KernelStmt> out) {
    KernelExpr.Var local =
        group.fresh(id.name(), scalarType(id.type(), "an array-valued expression"));
    out.add(new KernelStmt.Declare(local, value));
    env.put(id.name(), new Binding.Scalar(local));
    if (local.type().isInteger()) {
      // An integer the host can bound (say min(n, size(0, xs))) may size an array later.
      KernelExpr bound = bound(value);
      if (bound != null) {
        sizeBounds.put(local, bound);
      }
    }
  }

  /** Declares a zero-initialised local for the scalar {@code id}, bound to its name. */
  private KernelExpr.Var declareZero(Ident id, List<KernelStmt> out) {
    KernelExpr.Var local =
        group.fresh(id.name(), scalarType(id.type(), "an array-valued expression"));
    out.add(new KernelStmt.Declare(local, zeroOf(local.type())));
    env.put(id.name(), new Binding.Scalar(local));
    return local;
  }

  private void lowerStm(Stm stm, List<KernelStmt> out) {
    try {
      lowerExp(stm, out);
    } catch (UnsupportedKernelException rejected) {
      throw rejected.near(SourcePositions.ofStatement(stm.exp()));
    }
  }

  private void lowerExp(Stm stm, List<KernelStmt> out) {
    Exp e = stm.exp();
    List<Ident> pattern = stm.pattern();
    if (e instanceof Exp.Atom atom) {
      Ident id = pattern.get(0);
      if (id.type() instanceof ScalarType) {
        declare(id, scalar(atom.value()), out);
      } else {
        env.put(id.name(), array(atom.value()));
      }
    } else if (e instanceof Exp.Copy copy) {
      env.put(pattern.get(0).name(), array(copy.array()));
    } else if (e instanceof Exp.BinOp b) {
      lowerBinOp(pattern.get(0), b, out);
    } else if (e instanceof Exp.UnOp u) {
      declare(pattern.get(0), new KernelExpr.Unary(u.op(), scalar(u.operand())), out);
    } else if (e instanceof Exp.BuiltinCall call) {
      declare(
          pattern.get(0),
          new KernelExpr.Call(call.function(), call.args().stream().map(this::scalar).toList()),
          out);
    } else if (e instanceof Exp.If branch) {
      List<Destination> results = pattern.stream().map(id -> destination(id, out)).toList();
      List<KernelStmt> thenBody = new ArrayList<>();
      lowerBody(branch.thenBody(), results, thenBody);
      List<KernelStmt> elseBody = new ArrayList<>();
      lowerBody(branch.elseBody(), results, elseBody);
      out.add(new KernelStmt.If(scalar(branch.condition()), thenBody, elseBody));
      results.stream()
          .filter(d -> d instanceof Destination.ToUnsized)
          .forEach(d -> finish(((Destination.ToUnsized) d).result()));
    } else if (e instanceof Exp.Loop loop) {
      lowerLoop(pattern, loop, out);
    } else if (e instanceof Exp.Index index) {
      lowerIndex(pattern.get(0), index, out);
    } else if (e instanceof Exp.Size size) {
      lowerSize(pattern.get(0), size, out);
    } else if (e instanceof Exp.Replicate r) {
      KernelExpr count = checkedCount("replicate", r.count(), r.pos(), out);
      ArrayView rows = scalarOrArray(r.value());
      env.put(
          pattern.get(0).name(),
          rows != null
              ? rows.replicated(count)
              : new ArrayView(
                  new ArrayView.Replicated(scalar(r.value())),
                  KernelExprs.ZERO,
                  List.of(count),
                  List.of(KernelExprs.ZERO),
                  KernelExprs.TRUE));
    } else if (e instanceof Exp.Iota iota) {
      KernelExpr count = checkedCount("iota", iota.count(), iota.pos(), out);
      env.put(
          pattern.get(0).name(),
          new ArrayView(
              new ArrayView.Iota(scalar(iota.count()).type()),
              KernelExprs.ZERO,
              List.of(count),
              List.of(KernelExprs.ONE),
              KernelExprs.TRUE));
    } else if (e instanceof Exp.Assert check) {
      out.add(
          new KernelStmt.If(
              not(scalar(check.condition())),
              List.of(
                  raise(
                      check.operation(),
                      check.pos(),
                      check.detail(),
                      check.values().stream().map(this::scalar).toList())),
              List.of()));
    } else if (e instanceof Exp.Screma s && s.reducesAndMaps()) {
      throw new UnsupportedKernelException(
          "a reduce of a map whose rows are used elsewhere too (the optimiser fused them into one"
              + " pass) inside a kernel");
    } else if (e instanceof Exp.Screma s && s.folds()) {
      lowerSequentialFold(pattern, s.fold(), s.neutral(), s.inputs(), s.scans(), out);
    } else if (e instanceof Exp.FilterMap f) {
      lowerSequentialFilter(pattern, f, out);
    } else if (e instanceof Exp.Transpose t) {
      env.put(pattern.get(0).name(), array(t.array()).transposed(t.k(), t.n()));
    } else if (e instanceof Exp.Split split) {
      lowerSplit(pattern, split, out);
    } else if (e instanceof Exp.Reshape reshape) {
      lowerReshape(pattern.get(0), reshape, out);
    } else if (e instanceof Exp.Concat concat) {
      lowerConcat(pattern.get(0), concat, out);
    } else if (e instanceof Exp.Screma map && map.isMap()) {
      lowerMapToScratch(pattern, map, out);
    } else if (e instanceof Exp.Update update) {
      lowerUpdate(pattern.get(0), update, out);
    } else if (e instanceof Exp.ArrayLit literal) {
      lowerArrayLiteral(pattern.get(0), literal, out);
    } else if (e instanceof Exp.Apply call) {
      throw new UnsupportedKernelException(
          "a call of '"
              + call.function()
              + "' inside a kernel, which the optimiser did not inline (it does not inline"
              + " recursive functions; write the recursion as a loop)");
    } else {
      throw new UnsupportedKernelException(
          e.getClass().getSimpleName().toLowerCase() + " inside a kernel");
    }
  }

  /**
   * A fresh row-major array of {@code dims} in the thread's scratch, which holds as many elements
   * as the host bounds of the sizes ({@link #bound}) allow.
   */
  private ArrayView allocate(ScalarType type, List<KernelExpr> dims) {
    List<KernelExpr> bounds = new ArrayList<>();
    for (KernelExpr d : dims) {
      KernelExpr b = bound(d);
      if (b == null) {
        throw new UnsupportedKernelException(
            "an array inside a kernel thread whose size depends on values the kernel computes,"
                + " so the host cannot bound it before the kernel runs");
      }
      bounds.add(b);
    }
    ArrayView region = (atBlockLevel ? blockScratch : scratch).allocate(type, bounds);
    return bounds.equals(dims)
        ? region
        : ArrayView.rowMajor(region.buffer(), region.offset(), dims);
  }

  /**
   * A host expression at least {@code size} (a size, never negative), or {@code null} where none is
   * known: sums, products, conversions and choices of bounded sizes are bounded.
   */
  private KernelExpr bound(KernelExpr size) {
    if (group.isHostExpression(size)) {
      return size;
    }
    if (size instanceof KernelExpr.Var v) {
      return sizeBounds.get(v);
    }
    if (size instanceof KernelExpr.Binary b
        && (b.op() == BinaryOperator.ADD || b.op() == BinaryOperator.MUL)) {
      KernelExpr left = bound(b.left());
      KernelExpr right = bound(b.right());
      return left == null || right == null
          ? null
          : new KernelExpr.Binary(b.op(), b.operandType(), left, right);
    }
    if (size instanceof KernelExpr.Binary b
        && (b.op() == BinaryOperator.SUB && constantAtLeast(b.right(), 0)
            || b.op() == BinaryOperator.DIV && constantAtLeast(b.right(), 1))) {
      // A size less a non-negative constant, or divided by a positive one, is at most the size.
      return bound(b.left());
    }
    if (size instanceof KernelExpr.Select s) {
      KernelExpr ifTrue = bound(s.ifTrue());
      KernelExpr ifFalse = bound(s.ifFalse());
      return ifTrue == null || ifFalse == null ? null : KernelExprs.max(ifTrue, ifFalse);
    }
    if (size instanceof KernelExpr.Call c
        && c.args().size() == 1
        && (c.function() == dev.l0.ir.Builtin.TO_I64 || c.function() == dev.l0.ir.Builtin.TO_I32)) {
      KernelExpr inner = bound(c.args().get(0));
      return inner == null ? null : convert(inner, c.type());
    }
    if (size instanceof KernelExpr.Call c && c.function() == dev.l0.ir.Builtin.MIN) {
      // min(x, y) is at most either operand: the host bound of whichever it has (the smaller if
      // both).
      KernelExpr left = bound(c.args().get(0));
      KernelExpr right = bound(c.args().get(1));
      if (left == null || right == null) {
        return left == null
            ? (right == null ? null : convert(right, c.type()))
            : convert(left, c.type());
      }
      return new KernelExpr.Call(
          dev.l0.ir.Builtin.MIN, List.of(convert(left, c.type()), convert(right, c.type())));
    }
    return null;
  }

  /** Whether {@code e} is an integer constant of at least {@code least}. */
  private static boolean constantAtLeast(KernelExpr e, long least) {
    return e instanceof KernelExpr.Constant c
        && c.value() instanceof dev.l0.ir.ScalarValue.Int i
        && i.value() >= least;
  }

  /** The view {@code s} stands for, or {@code null} where it is a scalar. */
  private ArrayView scalarOrArray(SubExp s) {
    return s instanceof SubExp.Var v && lookup(v.name()) instanceof ArrayView view ? view : null;
  }

  /**
   * {@code count} as an {@code i64}, raising {@code operation}'s error where it is negative; the
   * size of the array it makes is 0 there, so that what reads the array (a map, a concat) and the
   * host's scratch sizes never meet a negative size. The size is chosen in the count's own type and
   * then widened, so that an {@code i32} count stays an {@code i32} widened to {@code i64}, which
   * the JVM backend counts loops over with an {@code int}.
   */
  private KernelExpr checkedCount(
      String operation, SubExp count, SourcePos pos, List<KernelStmt> out) {
    KernelExpr given = scalar(count);
    KernelExpr n = convert(given, ScalarType.I64);
    if (constantAtLeast(n, 0)) {
      return n;
    }
    KernelExpr zero = KernelExprs.zeroOf(given.type());
    KernelExpr negative = KernelExprs.lt(given, zero);
    out.add(
        new KernelStmt.If(
            negative,
            List.of(raise(operation, pos, FailureDetails.NEGATIVE_SIZE, List.of(n))),
            List.of()));
    return convert(new KernelExpr.Select(negative, zero, given), ScalarType.I64);
  }

  /** {@code size(d, a)}: an array keeps its inner sizes also when it has no elements. */
  private void lowerSize(Ident id, Exp.Size size, List<KernelStmt> out) {
    KernelExpr result = array(size.array()).dims().get(size.dimension());
    ScalarType type = scalarType(id.type(), "a size");
    declare(id, convert(result, type), out);
  }

  private void lowerBinOp(Ident id, Exp.BinOp b, List<KernelStmt> out) {
    KernelExpr left = scalar(b.left());
    KernelExpr right = scalar(b.right());
    KernelExpr value = new KernelExpr.Binary(b.op(), b.operandType(), left, right);
    boolean integer = b.operandType().isInteger();
    KernelExpr failure = null;
    String detail = null;
    List<KernelExpr> values = List.of();
    if (integer && (b.op() == BinaryOperator.DIV || b.op() == BinaryOperator.MOD)) {
      failure = eq(right, zeroOf(b.operandType()));
      detail = "integer division by zero";
    } else if (integer && b.op() == BinaryOperator.POW) {
      failure =
          new KernelExpr.Binary(BinaryOperator.LT, b.operandType(), right, zeroOf(b.operandType()));
      detail = FailureDetails.NEGATIVE_EXPONENT;
      values = List.of(right);
    }
    if (failure == null) {
      declare(id, value, out);
      return;
    }
    KernelExpr.Var result = declareZero(id, out);
    String operation = b.op() == BinaryOperator.POW ? "pow" : b.op().symbol();
    out.add(
        new KernelStmt.If(
            failure,
            List.of(raise(operation, b.pos(), detail, values)),
            List.of(new KernelStmt.Assign(result, value))));
  }

  /**
   * A sequential loop (thesis §2.1.1): scalar merge variables are locals, array ones regions of the
   * thread's scratch; each iteration's results go to temporaries first, as the body may still read
   * the merge variables while it makes them. An array merge variable whose rows the body may drop
   * ({@link #neverGrows}: a filter) keeps its initial size as its capacity and its live number of
   * rows in a local.
   */
  private void lowerLoop(List<Ident> pattern, Exp.Loop loop, List<KernelStmt> out) {
    List<Binding> merge = new ArrayList<>();
    Map<KernelExpr.Var, Growth> growths = new java.util.LinkedHashMap<>();
    for (int i = 0; i < loop.mergeParams().size(); i++) {
      Ident param = loop.mergeParams().get(i);
      SubExp init = loop.init().get(i);
      Binding binding;
      if (param.type() instanceof ScalarType type) {
        KernelExpr.Var local = group.fresh(param.name(), type);
        out.add(new KernelStmt.Declare(local, scalar(init)));
        binding = new Binding.Scalar(local);
      } else {
        SubExp result = loop.body().result().get(i);
        boolean keepsRows =
            sameOuterSize(param.type(), result, loop.body())
                || updatedInPlace(loop.body(), result, param.name());
        Exp.Concat concat = keepsRows ? null : growingConcat(loop.body(), result, param.name());
        ArrayView region;
        if (concat != null) {
          region = growing(param.name(), array(init), loop, concat, growths, out);
        } else if (innerSizesUnknown(param.type())
            && LoopRowGrowth.mayResizeRows(loop.body(), result)) {
          region = resized(param.name(), array(init), param.type(), loop, out);
        } else if (keepsRows && reusesInitial(loop, i)) {
          region = array(init);
        } else if (!keepsRows && neverGrows(loop.body(), result, param.name())) {
          region = materialize(array(init), out);
          region = resizable(region, bound(region.dims().get(0)), param.name(), out);
        } else if (keepsRows || keepsOrFixesRows(result, param.name(), loop.body(), array(init))) {
          region = materialize(array(init), out);
        } else {
          region = resized(param.name(), array(init), param.type(), loop, out);
        }
        binding = region;
        owned.add(param.name());
      }
      env.put(param.name(), binding);
      merge.add(binding);
    }
    KernelExpr.Var counter = group.fresh(loop.counter().name(), ScalarType.I64);
    env.put(
        loop.counter().name(),
        new Binding.Scalar(convert(counter, scalarType(loop.counter().type(), "a loop counter"))));
    List<KernelStmt> body = new ArrayList<>();
    List<Destination> next = new ArrayList<>();
    for (int i = 0; i < merge.size(); i++) {
      boolean inPlace =
          merge.get(i) instanceof ArrayView view
              && view.rank() > 0
              && !isResizable(view)
              && updatedInPlace(
                  loop.body(), loop.body().result().get(i), loop.mergeParams().get(i).name());
      next.add(
          inPlace
              ? new Destination.ToMemory((ArrayView) merge.get(i))
              : temporary(merge.get(i), body));
    }
    lowerBody(loop.body(), next, body);
    growths.forEach(
        (growth, appended) -> {
          KernelExpr rows = bound(array(appended.rows()).dims().get(0));
          boolean bounded =
              rows != null && growths.keySet().stream().noneMatch(g -> mentions(rows, g));
          group.defineDeferred(
              growth,
              bounded
                  ? rows
                  : ReductionOrder.ceilDivExpr(
                      firstRows(), KernelExprs.max(appended.trips(), KernelExprs.ONE)));
        });
    commit(next, merge, body);
    out.add(
        new KernelStmt.For(
            counter,
            KernelExprs.ZERO,
            convert(scalar(loop.bound()), ScalarType.I64),
            KernelExprs.ONE,
            body));
    for (int i = 0; i < pattern.size(); i++) {
      env.put(pattern.get(i).name(), merge.get(i));
      if (merge.get(i) instanceof ArrayView) {
        owned.add(pattern.get(i).name());
      }
    }
  }

  /**
   * Whether array merge variable {@code i} of {@code loop} may live in its initial value's array
   * instead of a copy: the body updates the merge variable in place, so the loop consumes the
   * initial value (the type checker's rule: neither the body nor anything after the loop reads it
   * or an alias of it again), and that value is a whole array of the thread's own scratch (not an
   * input, a view of another array or one with a live row count) that no other merge variable
   * starts from.
   */
  private boolean reusesInitial(Exp.Loop loop, int i) {
    SubExp init = loop.init().get(i);
    String param = loop.mergeParams().get(i).name();
    if (!(init instanceof SubExp.Var v)
        || !owned.contains(v.name())
        || Collections.frequency(loop.init(), init) != 1
        || !(env.get(v.name()) instanceof ArrayView view)
        || view.rank() == 0
        || isResizable(view)
        || !view.valid().equals(KernelExprs.TRUE)) {
      return false;
    }
    return dev.l0.opt.ir.Traversal.statements(loop.body()).stream()
        .anyMatch(
            stm ->
                stm.exp() instanceof Exp.Update u
                    && u.array() instanceof SubExp.Var a
                    && a.name().equals(param));
  }

  /**
   * The most iterations of a loop that appends its accumulator to itself (doubling it) that get
   * exact room.
   */
  private static final int MOST_DOUBLINGS = 20;

  /**
   * The rows a loop appends per iteration ({@code rows}) over {@code trips} iterations (host
   * bound).
   */
  private record Growth(SubExp rows, KernelExpr trips) {}

  /**
   * The array a loop grows by {@code concat} ({@link #growingConcat}): a scratch copy of {@code
   * initial} with room for its rows plus what the loop may append, its live rows in a local.
   * Appending the array to itself (doubling it) a constant number of times, at most {@value
   * #MOST_DOUBLINGS}, needs its initial rows times two to that power. Over a trip count the host
   * bounds, it needs, per iteration, the bound of the rows appended ({@code growth}, a host scalar
   * defined once the body is lowered). Where either has no host bound (the rows appended depend on
   * the array or the data, or the trip count on the data), the room is a first guess, {@link
   * CapacityReruns#FIRST_ROWS} rows times {@link KernelGroup#CAPACITY_SCALE}, and a thread that
   * would outgrow it raises the capacity overflow that reruns the group with a larger scale.
   */
  private ArrayView growing(
      String name,
      ArrayView initial,
      Exp.Loop loop,
      Exp.Concat concat,
      Map<KernelExpr.Var, Growth> growths,
      List<KernelStmt> out) {
    KernelExpr initialRows = bound(initial.dims().get(0));
    if (initialRows == null) {
      throw new UnsupportedKernelException(
          "a loop that appends to an array whose initial rows the host cannot bound");
    }
    SubExp appended = neverGrows(loop.body(), concat.left(), name) ? concat.right() : concat.left();
    boolean doubling = neverGrows(loop.body(), appended, name);
    if (doubling
        && scalar(loop.bound()) instanceof KernelExpr.Constant c
        && c.value() instanceof dev.l0.ir.ScalarValue.Int trips
        && trips.value() <= MOST_DOUBLINGS) {
      return withRoom(
          name,
          initial,
          roomForRows(
              initial,
              KernelExprs.mul(initialRows, KernelExprs.i64(1L << Math.max(trips.value(), 0)))),
          out);
    }
    KernelExpr trips = bound(convert(scalar(loop.bound()), ScalarType.I64));
    KernelExpr.Var growth = group.deferredHostScalar(name + "_growth");
    KernelExpr capacity;
    if (doubling || trips == null) {
      group.defineDeferred(growth, firstRows());
      capacity = KernelExprs.add(initialRows, growth);
    } else {
      growths.put(growth, new Growth(appended, trips));
      capacity =
          KernelExprs.add(
              initialRows, KernelExprs.mul(KernelExprs.max(trips, KernelExprs.ZERO), growth));
    }
    overflows.put(
        capacity,
        group.capacityOverflow(
            "concat",
            concat.pos(),
            "the array a loop inside a kernel grows by this concat outgrew its per-thread"
                + " capacity"));
    return withRoom(name, initial, roomForRows(initial, capacity), out);
  }

  /**
   * The array a loop carries whose rows the body may change other than by a filter or a concat (a
   * map over {@code iota(size(acc) - 1)}, as a binomial tree's step makes), or whose rows' sizes
   * its type {@code param} leaves unknown and the body may change ({@link LoopRowGrowth}: a map
   * that appends to each row): a scratch copy of {@code initial} with room for its rows plus {@link
   * #firstRows()}, its live rows in a local; a thread whose array would outgrow the room raises the
   * capacity overflow that reruns the group with a larger scale, as a growing array's does ({@link
   * #growing}). Its inner sizes may shrink too ({@link #withLiveInnerSizes}: a step over {@code
   * iota(size(m) - 1)} in each dimension); those the type leaves unknown may also grow, into room
   * that the reruns' scale adds ({@link #growableInner}).
   */
  private ArrayView resized(
      String name, ArrayView initial, Type param, Exp.Loop loop, List<KernelStmt> out) {
    KernelExpr initialRows = bound(initial.dims().get(0));
    if (initialRows == null) {
      throw new UnsupportedKernelException(
          "a loop whose array changes its rows, starting from rows the host cannot bound");
    }
    KernelExpr capacity = KernelExprs.add(initialRows, firstRows());
    overflows.put(
        capacity,
        group.capacityOverflow(
            "loop",
            SourcePositions.of(loop),
            "the array a loop inside a kernel carries outgrew its per-thread capacity"));
    List<KernelExpr> dims = new ArrayList<>(List.of(capacity));
    List<Boolean> growable = new ArrayList<>(List.of(false));
    Type row = ((Type.Array) param).element();
    for (int d = 1; d < initial.rank(); d++, row = ((Type.Array) row).element()) {
      KernelExpr size = initial.dims().get(d);
      KernelExpr hostBound = bound(size);
      boolean grows = ((Type.Array) row).size() instanceof Dim.Unknown && hostBound != null;
      dims.add(grows ? KernelExprs.add(hostBound, extraRoom()) : size);
      growable.add(grows);
    }
    return withLiveInnerSizes(withRoom(name, initial, dims, out), dims, growable, name, out);
  }

  /** Whether an inner size of the array type {@code t} is unknown (a loop may change it). */
  private static boolean innerSizesUnknown(Type t) {
    for (Type row = ((Type.Array) t).element(); row instanceof Type.Array a; row = a.element()) {
      if (a.size() instanceof Dim.Unknown) {
        return true;
      }
    }
    return false;
  }

  /**
   * {@code view} with each inner size the host can bound held in a local of its own, starting at
   * its size in {@code view}; the rows are laid out for {@code capacities}, each inner size's
   * capacity ({@link #innerCapacities}): a loop's next value may have smaller inner sizes, as its
   * rows may be fewer, and larger ones where {@code growable} says so ({@link #growableInner}).
   */
  private ArrayView withLiveInnerSizes(
      ArrayView view,
      List<KernelExpr> capacities,
      List<Boolean> growable,
      String name,
      List<KernelStmt> out) {
    List<KernelExpr> dims = new ArrayList<>(view.dims());
    for (int d = 1; d < dims.size(); d++) {
      KernelExpr capacity = capacities.get(d);
      KernelExpr hostBound = bound(capacity);
      if (hostBound == null) {
        continue;
      }
      KernelExpr.Var live = group.fresh(name + "_size" + d, ScalarType.I64);
      out.add(new KernelStmt.Declare(live, dims.get(d)));
      sizeBounds.put(live, hostBound);
      innerCapacities.put(live, capacity);
      if (growable.get(d)) {
        growableInner.add(live);
      }
      dims.set(d, live);
    }
    return new ArrayView(view.source(), view.offset(), dims, view.strides(), view.valid());
  }

  /** The rows a growing array without a host bound may gain at first, times the rerun's scale. */
  private static KernelExpr firstRows() {
    return KernelExprs.mul(KernelExprs.i64(CapacityReruns.FIRST_ROWS), KernelGroup.CAPACITY_SCALE);
  }

  /**
   * The room a {@link #growableInner} size has past its initial size: none at first, {@link
   * #firstRows()} less its first value once a rerun has scaled it.
   */
  private static KernelExpr extraRoom() {
    return KernelExprs.sub(firstRows(), KernelExprs.i64(CapacityReruns.FIRST_ROWS));
  }

  /**
   * A scratch copy of {@code initial} laid out for the sizes {@code room} (its capacity of rows
   * first, then room for each inner size, at least the initial one), its live rows in a local.
   */
  private ArrayView withRoom(
      String name, ArrayView initial, List<KernelExpr> room, List<KernelStmt> out) {
    ArrayView space = allocate(initial.elementType(), room);
    ArrayView copy =
        new ArrayView(
            space.source(), space.offset(), initial.dims(), space.strides(), KernelExprs.TRUE);
    List<KernelStmt> body = new ArrayList<>();
    copyElements(initial, copy, body);
    addGuarded(initial.valid(), body, List.of(), out);
    return resizable(copy, room.get(0), name, out);
  }

  /** The sizes of {@code initial} with its rows' count {@code capacity}: room for more rows. */
  private static List<KernelExpr> roomForRows(ArrayView initial, KernelExpr capacity) {
    List<KernelExpr> room = new ArrayList<>(initial.dims());
    room.set(0, capacity);
    return room;
  }

  /** Whether {@code e} reads {@code variable}. */
  static boolean mentions(KernelExpr e, KernelExpr.Var variable) {
    if (e.equals(variable)) {
      return true;
    }
    if (e instanceof KernelExpr.Binary b) {
      return mentions(b.left(), variable) || mentions(b.right(), variable);
    }
    if (e instanceof KernelExpr.Unary u) {
      return mentions(u.operand(), variable);
    }
    if (e instanceof KernelExpr.Call c) {
      return c.args().stream().anyMatch(a -> mentions(a, variable));
    }
    if (e instanceof KernelExpr.Select s) {
      return mentions(s.condition(), variable)
          || mentions(s.ifTrue(), variable)
          || mentions(s.ifFalse(), variable);
    }
    return false;
  }

  /**
   * The concat by which {@code result} appends rows to {@code from} ({@code concat(from, x)} or
   * {@code concat(x, from)}, possibly after filters, copies and updates of {@code from}), or {@code
   * null}.
   */
  private static Exp.Concat growingConcat(Body body, SubExp result, String from) {
    if (!(result instanceof SubExp.Var v)) {
      return null;
    }
    for (Stm stm : body.stms()) {
      if (stm.pattern().size() == 1 && stm.pattern().get(0).name().equals(v.name())) {
        Exp e = stm.exp();
        if (e instanceof Exp.Concat c) {
          return neverGrows(body, c.left(), from) || neverGrows(body, c.right(), from) ? c : null;
        }
        SubExp source =
            e instanceof Exp.Copy c
                ? c.array()
                : e instanceof Exp.Atom a
                    ? a.value()
                    : e instanceof Exp.Update u ? u.array() : null;
        return source == null ? null : growingConcat(body, source, from);
      }
    }
    return null;
  }

  /**
   * {@code region} with its rows counted by a fresh local, at most {@code capacity} (a host
   * expression).
   */
  private ArrayView resizable(
      ArrayView region, KernelExpr capacity, String name, List<KernelStmt> out) {
    KernelExpr.Var live = group.fresh(name + "_rows", ScalarType.I64);
    out.add(new KernelStmt.Declare(live, region.dims().get(0)));
    if (capacity == null) {
      throw new UnsupportedKernelException("a loop over an array whose rows the host cannot bound");
    }
    sizeBounds.put(live, capacity);
    liveRows.add(live);
    List<KernelExpr> dims = new ArrayList<>(region.dims());
    dims.set(0, live);
    return new ArrayView(region.source(), region.offset(), dims, region.strides(), region.valid());
  }

  /** Whether the loop's result {@code result} has, by its type, the merge variable's outer size. */
  private static boolean sameOuterSize(Type param, SubExp result, Body body) {
    Type resultType = typeIn(body, result);
    return resultType instanceof Type.Array r
        && param instanceof Type.Array p
        && (p.size() instanceof Dim.Const
            || p.size() instanceof Dim.Named n && !boundIn(body, n.variable()))
        && p.size().equals(r.size());
  }

  /**
   * Whether the loop's result {@code result} has, by its type, the outer size of merge variable
   * {@code param} ({@code size(0, param)} in the body), or one the body does not make (a constant
   * or a variable from outside the loop, the same in every iteration) that is {@code initial}'s:
   * then the merge variable keeps its initial rows in a region of their size.
   */
  private boolean keepsOrFixesRows(SubExp result, String param, Body body, ArrayView initial) {
    if (!(typeIn(body, result) instanceof Type.Array r)) {
      return false;
    }
    KernelExpr rows = initial.dims().get(0);
    if (r.size() instanceof Dim.Const c) {
      return rows.equals(KernelExprs.i64(c.size()));
    }
    if (!(r.size() instanceof Dim.Named n)) {
      return false;
    }
    for (Stm stm : body.stms()) {
      if (stm.pattern().stream().anyMatch(id -> id.name().equals(n.variable()))) {
        return stm.exp() instanceof Exp.Size size
            && size.dimension() == 0
            && size.array() instanceof SubExp.Var array
            && array.name().equals(param);
      }
    }
    return lookup(n.variable()) instanceof Binding.Scalar size
        && rows.equals(convert(size.value(), ScalarType.I64));
  }

  /** Whether a statement of {@code body} binds {@code name}. */
  private static boolean boundIn(Body body, String name) {
    return body.stms().stream()
        .anyMatch(stm -> stm.pattern().stream().anyMatch(id -> id.name().equals(name)));
  }

  private static Type typeIn(Body body, SubExp s) {
    for (Stm stm : body.stms()) {
      for (Ident id : stm.pattern()) {
        if (id.var().equals(s)) {
          return id.type();
        }
      }
    }
    return null;
  }

  /**
   * Whether {@code result} of {@code body} has at most as many rows as the array {@code from} by
   * construction: it is {@code from}, or made of it by filters, copies, in-place updates and maps
   * (a filter never grows its input).
   */
  static boolean neverGrows(Body body, SubExp result, String from) {
    if (!(result instanceof SubExp.Var v)) {
      return false;
    }
    if (v.name().equals(from)) {
      return true;
    }
    for (Stm stm : body.stms()) {
      int position = stm.pattern().stream().map(Ident::name).toList().indexOf(v.name());
      if (position >= 0) {
        Exp e = stm.exp();
        SubExp source =
            e instanceof Exp.FilterMap f && f.isFilter()
                ? f.inputs().get(position)
                : e instanceof Exp.Copy c
                    ? c.array()
                    : e instanceof Exp.Atom a
                        ? a.value()
                        : e instanceof Exp.Update u
                            ? u.array()
                            : e instanceof Exp.Screma m && m.isMap() ? m.inputs().get(0) : null;
        return source != null && neverGrows(body, source, from);
      }
    }
    return false;
  }

  /**
   * Where the next value of accumulator {@code acc} goes while the old one may still be read: a
   * fresh local for a scalar, a fresh scratch array of the accumulator's shape (its capacity, for
   * one with a live row count) for an array.
   */
  private Destination temporary(Binding acc, List<KernelStmt> out) {
    if (acc instanceof Binding.Scalar s) {
      KernelExpr.Var temp = group.fresh("next", s.value().type());
      out.add(new KernelStmt.Declare(temp, zeroOf(temp.type())));
      return new Destination.ToLocal(temp);
    }
    ArrayView view = (ArrayView) acc;
    if (view.rank() == 0) {
      KernelExpr.Var temp = group.fresh("next", view.elementType());
      out.add(new KernelStmt.Declare(temp, zeroOf(temp.type())));
      return new Destination.ToLocal(temp);
    }
    if (isResizable(view)) {
      KernelExpr capacity = sizeBounds.get((KernelExpr.Var) view.dims().get(0));
      List<KernelExpr> dims = new ArrayList<>(view.dims());
      dims.set(0, capacity);
      List<Boolean> growable = new ArrayList<>(List.of(false));
      boolean liveInner = false;
      for (int d = 1; d < dims.size(); d++) {
        growable.add(growableInner.contains(dims.get(d)));
        if (dims.get(d) instanceof KernelExpr.Var v && innerCapacities.containsKey(v)) {
          dims.set(d, innerCapacities.get(v));
          liveInner = true;
        }
      }
      ArrayView region = resizable(allocate(view.elementType(), dims), capacity, "next", out);
      if (liveInner) {
        region = withLiveInnerSizes(region, dims, growable, "next", out);
      }
      return new Destination.ToResizable(region, capacity);
    }
    return new Destination.ToMemory(allocate(view.elementType(), view.dims()));
  }

  /**
   * Whether {@code result} of a loop body is the merge variable {@code param} itself or made from
   * it by a chain of in-place updates (thesis §2.1.2), so that the body's updates, written in place
   * into the merge variable's array, already are its next value: it needs no temporary and no copy.
   */
  private static boolean updatedInPlace(Body body, SubExp result, String param) {
    if (!(result instanceof SubExp.Var v)) {
      return false;
    }
    String name = v.name();
    while (!name.equals(param)) {
      Exp producer = null;
      for (Stm stm : body.stms()) {
        if (stm.pattern().size() == 1 && stm.pattern().get(0).name().equals(name)) {
          producer = stm.exp();
        }
      }
      if (!(producer instanceof Exp.Update update)
          || !(update.array() instanceof SubExp.Var source)) {
        return false;
      }
      name = source.name();
    }
    return true;
  }

  /**
   * Whether {@code view}'s rows are a live count that a filter or concat changes (see {@link
   * #resizable}).
   */
  private boolean isResizable(ArrayView view) {
    return view.dims().get(0) instanceof KernelExpr.Var live && liveRows.contains(live);
  }

  /**
   * Copies each temporary of {@link #temporary} into its accumulator (nothing where the accumulator
   * was the destination).
   */
  private void commit(List<Destination> next, List<Binding> accs, List<KernelStmt> out) {
    for (int i = 0; i < accs.size(); i++) {
      Destination d = next.get(i);
      Binding acc = accs.get(i);
      if (d instanceof Destination.ToMemory memory && memory.view().equals(acc)) {
        continue;
      }
      if (d instanceof Destination.ToLocal temp) {
        if (acc instanceof Binding.Scalar s) {
          out.add(new KernelStmt.Assign((KernelExpr.Var) s.value(), temp.local()));
        } else {
          ArrayView cell = (ArrayView) acc;
          out.add(new KernelStmt.Store(cell.buffer(), cell.offset(), temp.local()));
        }
      } else if (d instanceof Destination.ToResizable grown) {
        ArrayView target = (ArrayView) acc;
        out.add(
            new KernelStmt.Assign(
                (KernelExpr.Var) target.dims().get(0), grown.region().dims().get(0)));
        out.addAll(liveInnerSizesOf(grown.region().dims(), target));
        copyElements(grown.region(), target, out);
      } else {
        copyElements(((Destination.ToMemory) d).view(), (ArrayView) acc, out);
      }
    }
  }

  /** The accumulators' values as arguments of a function: a scalar in memory is loaded. */
  static Binding asArgument(Binding acc) {
    return acc instanceof ArrayView view && view.rank() == 0
        ? new Binding.Scalar(view.load())
        : acc;
  }

  /**
   * {@code accs = f(accs, others)}: {@code f}'s results go to temporaries, then into the
   * accumulators (locals, cells of memory, or arrays in memory).
   */
  void accumulate(Lambda f, List<Binding> accs, List<Binding> others, List<KernelStmt> out) {
    accumulate(f, accs, others, List.of(), out);
  }

  /**
   * {@link #accumulate}, where {@code f} returns after the accumulators values of the row (a
   * screma's map part), written to {@code rowValues}.
   */
  private void accumulate(
      Lambda f,
      List<Binding> accs,
      List<Binding> others,
      List<Destination> rowValues,
      List<KernelStmt> out) {
    List<Binding> args = new ArrayList<>();
    accs.forEach(a -> args.add(asArgument(a)));
    args.addAll(others);
    List<Destination> next = new ArrayList<>();
    accs.forEach(a -> next.add(temporary(a, out)));
    next.addAll(rowValues);
    apply(f, args, next, out);
    commit(next, accs, out);
  }

  /**
   * Where a branch puts result {@code id}: a fresh local, a scratch array of its declared shape, or
   * one whose shape the branch taken decides ({@link UnsizedResult}).
   */
  private Destination destination(Ident id, List<KernelStmt> out) {
    if (id.type() instanceof ScalarType) {
      return new Destination.ToLocal(declareZero(id, out));
    }
    ScalarType element = scalarType(id.type().baseElement(), "an array of tuples");
    List<KernelExpr> shape = group.knownHostShape(id.type());
    owned.add(id.name());
    if (shape != null) {
      ArrayView region = allocate(element, shape);
      env.put(id.name(), region);
      return new Destination.ToMemory(region);
    }
    UnsizedResult r = unsized(id.name(), id.type().rank(), out);
    ArrayView region = allocate(element, List.of(r.capacity()));
    UnsizedResult placed = r.in(region.buffer());
    env.put(
        id.name(),
        ArrayView.rowMajor(
            region.buffer(),
            region.offset(),
            placed.dims().stream().map(d -> (KernelExpr) d).toList()));
    return new Destination.ToUnsized(placed, region.offset());
  }

  /** A fresh scratch copy of {@code source}, owned by the thread. */
  private ArrayView materialize(ArrayView source, List<KernelStmt> out) {
    ArrayView region = allocate(source.elementType(), source.dims());
    List<KernelStmt> body = new ArrayList<>();
    copyElements(source, region, body);
    addGuarded(source.valid(), body, List.of(), out);
    return region;
  }

  /**
   * {@code split(at, a)}: two views of {@code a}'s rows; a split point outside {@code 0..n} raises.
   */
  private void lowerSplit(List<Ident> pattern, Exp.Split split, List<KernelStmt> out) {
    ArrayView view = array(split.array());
    KernelExpr at = convert(scalar(split.at()), ScalarType.I64);
    KernelExpr rows = view.dims().get(0);
    KernelExpr ok = and(not(KernelExprs.lt(at, KernelExprs.ZERO)), not(KernelExprs.lt(rows, at)));
    addGuarded(
        ok,
        List.of(),
        List.of(raise("split", split.pos(), FailureDetails.SPLIT, List.of(at, rows))),
        out);
    KernelExpr first = at;
    KernelExpr rest = KernelExprs.sub(rows, at);
    if (!(at instanceof KernelExpr.Constant c
        && c.value() instanceof dev.l0.ir.ScalarValue.Int point
        && point.value() >= 0
        && constantAtLeast(rows, point.value()))) {
      // A split that may fail: each part is empty where it does, so that what reads a part (a map,
      // a concat) and the host's scratch sizes never meet a negative size or one beyond the rows.
      first = new KernelExpr.Select(ok, first, KernelExprs.ZERO);
      rest = new KernelExpr.Select(ok, rest, KernelExprs.ZERO);
    }
    KernelExpr rowsBound = bound(rows);
    if (rowsBound != null && bound(at) == null) {
      // A split point the thread computes: where it is valid, each part has at most the array's
      // rows, so a part is a size the host bounds, as a concat needs.
      first = boundedSize(pattern.get(0).name(), first, rowsBound, out);
      rest = boundedSize(pattern.get(1).name(), rest, rowsBound, out);
    }
    env.put(pattern.get(0).name(), view.slice(KernelExprs.ZERO, first, ok));
    env.put(pattern.get(1).name(), view.slice(at, rest, ok));
  }

  /** A local holding the size {@code value}, which is at most the host expression {@code bound}. */
  private KernelExpr.Var boundedSize(
      String base, KernelExpr value, KernelExpr bound, List<KernelStmt> out) {
    KernelExpr.Var local = group.fresh(base + "_rows", ScalarType.I64);
    out.add(new KernelStmt.Declare(local, value));
    sizeBounds.put(local, bound);
    return local;
  }

  /**
   * {@code reshape(shape, a)}: a view with new sizes over the same row-major elements (a copy first
   * where they are not contiguous); negative sizes or another element count raise.
   */
  private void lowerReshape(Ident id, Exp.Reshape reshape, List<KernelStmt> out) {
    ArrayView view = array(reshape.array());
    ArrayView contiguous = view.isContiguous() ? view : materialize(view, out);
    List<KernelExpr> newDims =
        reshape.shape().stream().map(s -> convert(scalar(s), ScalarType.I64)).toList();
    KernelExpr nonNegative = KernelExprs.TRUE;
    for (KernelExpr d : newDims) {
      KernelExpr negative = KernelExprs.lt(d, KernelExprs.ZERO);
      out.add(
          new KernelStmt.If(
              and(nonNegative, negative),
              List.of(
                  raise("reshape", reshape.pos(), FailureDetails.NEGATIVE_NEW_SIZE, List.of(d))),
              List.of()));
      nonNegative = and(nonNegative, not(negative));
    }
    KernelExpr count = product(view.dims());
    KernelExpr newCount = product(newDims);
    List<KernelExpr> values = new ArrayList<>(view.dims());
    values.add(count);
    values.addAll(newDims);
    values.add(newCount);
    KernelStmt mismatch =
        raise(
            "reshape",
            reshape.pos(),
            FailureDetails.reshape(view.dims().size(), newDims.size()),
            values.size() <= KernelStmt.MAX_ERROR_VALUES ? values : List.of());
    KernelExpr ok = and(nonNegative, eq(newCount, count));
    addGuarded(ok, List.of(), List.of(mismatch), out);
    List<KernelExpr> shape = newDims;
    if (!(newDims.stream().allMatch(d -> constantAtLeast(d, 0))
        && constantValue(newCount) != null
        && constantValue(newCount).equals(constantValue(count)))) {
      // A reshape that may fail: its sizes are 0 where it does, so that what reads it (a map, a
      // concat) and the host's scratch sizes never meet a negative size or more elements than the
      // array has.
      shape =
          newDims.stream()
              .map(d -> (KernelExpr) new KernelExpr.Select(ok, d, KernelExprs.ZERO))
              .toList();
    }
    env.put(id.name(), contiguous.reshaped(shape, ok));
  }

  /** The value of an {@code i64} product of constants, or null where a factor is not constant. */
  private static Long constantValue(KernelExpr e) {
    if (e instanceof KernelExpr.Constant c && c.value() instanceof dev.l0.ir.ScalarValue.Int i) {
      return i.value();
    }
    if (e instanceof KernelExpr.Binary b && b.op() == BinaryOperator.MUL) {
      Long left = constantValue(b.left());
      Long right = constantValue(b.right());
      return left == null || right == null ? null : left * right;
    }
    return null;
  }

  /** The number of elements of an array of sizes {@code dims}. */
  static KernelExpr product(List<KernelExpr> dims) {
    KernelExpr p = KernelExprs.ONE;
    for (KernelExpr d : dims) {
      p = KernelExprs.mul(p, d);
    }
    return p;
  }

  /**
   * {@code concat(a, b)}: both copied into a fresh scratch array; rows of different shapes raise
   * where both arrays have rows.
   */
  private void lowerConcat(Ident id, Exp.Concat concat, List<KernelStmt> out) {
    ArrayView left = array(concat.left());
    ArrayView right = array(concat.right());
    List<KernelExpr> dims = concatenatedSizes(left, right);
    ArrayView region = allocate(left.elementType(), dims);
    addConcatenated(concat, left, right, concatenated(left, right, region), out);
    env.put(id.name(), region);
    owned.add(id.name());
  }

  /**
   * {@code concat(a, b)} written straight into a growing array's next value ({@link
   * #growingTarget}): its rows become the live rows where they fit the capacity ({@link
   * #addWithinCapacity}).
   */
  private void lowerConcatInto(
      Exp.Concat concat, Destination.ToResizable dest, List<KernelStmt> out) {
    ArrayView left = array(concat.left());
    ArrayView right = array(concat.right());
    List<KernelExpr> dims = concatenatedSizes(left, right);
    ArrayView region = dest.region();
    List<KernelStmt> write = new ArrayList<>();
    write.add(new KernelStmt.Assign((KernelExpr.Var) region.dims().get(0), dims.get(0)));
    write.addAll(liveInnerSizesOf(dims, region));
    write.addAll(concatenated(left, right, region));
    List<KernelStmt> fitting = new ArrayList<>();
    addWithinCapacity(dims, write, dest, fitting);
    addConcatenated(concat, left, right, fitting, out);
  }

  /**
   * The sizes of {@code concat(left, right)}: the rows of both, then the inner sizes of the first
   * with rows.
   */
  private static List<KernelExpr> concatenatedSizes(ArrayView left, ArrayView right) {
    KernelExpr leftHasRows = KernelExprs.lt(KernelExprs.ZERO, left.dims().get(0));
    List<KernelExpr> dims =
        new ArrayList<>(List.of(KernelExprs.add(left.dims().get(0), right.dims().get(0))));
    for (int d = 1; d < left.rank(); d++) {
      dims.add(new KernelExpr.Select(leftHasRows, left.dims().get(d), right.dims().get(d)));
    }
    return dims;
  }

  /** The copies of {@code left}'s rows, then {@code right}'s, into {@code region}. */
  private List<KernelStmt> concatenated(ArrayView left, ArrayView right, ArrayView region) {
    KernelExpr leftRows = left.dims().get(0);
    List<KernelStmt> copies = new ArrayList<>();
    List<KernelStmt> copyLeft = new ArrayList<>();
    copyElements(left, region.slice(KernelExprs.ZERO, leftRows, KernelExprs.TRUE), copyLeft);
    addGuarded(left.valid(), copyLeft, List.of(), copies);
    List<KernelStmt> copyRight = new ArrayList<>();
    copyElements(right, region.slice(leftRows, right.dims().get(0), KernelExprs.TRUE), copyRight);
    addGuarded(right.valid(), copyRight, List.of(), copies);
    return copies;
  }

  /**
   * {@code write} guarded by {@code concat}'s check: where both arrays have rows, their rows'
   * shapes agree (else the interpreter's error, naming both shapes).
   */
  private void addConcatenated(
      Exp.Concat concat,
      ArrayView left,
      ArrayView right,
      List<KernelStmt> write,
      List<KernelStmt> out) {
    KernelExpr leftHasRows = KernelExprs.lt(KernelExprs.ZERO, left.dims().get(0));
    KernelExpr sameRows = KernelExprs.TRUE;
    for (int d = 1; d < left.rank(); d++) {
      sameRows = and(sameRows, eq(left.dims().get(d), right.dims().get(d)));
    }
    KernelExpr ok =
        KernelExprs.or(
            KernelExprs.or(not(leftHasRows), eq(right.dims().get(0), KernelExprs.ZERO)), sameRows);
    List<KernelExpr> rowSizes = new ArrayList<>(left.dims().subList(1, left.rank()));
    rowSizes.addAll(right.dims().subList(1, right.rank()));
    addGuarded(
        ok,
        write,
        List.of(
            raise(
                "concat",
                concat.pos(),
                FailureDetails.concat(left.rank() - 1),
                rowSizes.size() <= KernelStmt.MAX_ERROR_VALUES ? rowSizes : List.of())),
        out);
  }

  /**
   * {@code [e1, ..., en]}: the elements written into a fresh scratch array with the first element's
   * shape; an element of another shape raises the literal's error, naming both shapes.
   */
  private void lowerArrayLiteral(Ident id, Exp.ArrayLit literal, List<KernelStmt> out) {
    List<KernelExpr> dims = new ArrayList<>(List.of(KernelExprs.i64(literal.elements().size())));
    ArrayView first =
        literal.elements().isEmpty() ? null : scalarOrArray(literal.elements().get(0));
    if (first != null) {
      dims.addAll(first.dims());
    }
    ScalarType element = scalarType(literal.rowType().baseElement(), "an array literal of tuples");
    ArrayView region = allocate(element, dims);
    for (int k = 0; k < literal.elements().size(); k++) {
      ArrayView row = region.rowInBounds(KernelExprs.i64(k));
      SubExp value = literal.elements().get(k);
      if (first == null) {
        out.add(new KernelStmt.Store(row.buffer(), row.offset(), scalar(value)));
      } else {
        ArrayView rowValue = array(value);
        copy(
            rowValue,
            row,
            irregular(
                "array literal", literal.pos(), KernelExprs.i64(k), rowValue.dims(), first.dims()),
            out);
      }
    }
    env.put(id.name(), region);
    owned.add(id.name());
  }

  /** A map inside a thread whose results the thread reads: written into scratch arrays. */
  private void lowerMapToScratch(List<Ident> pattern, Exp.Screma map, List<KernelStmt> out) {
    KernelExpr rows = array(map.inputs().get(0)).dims().get(0);
    List<ArrayView> targets = new ArrayList<>();
    List<Function<KernelExpr, Destination>> rowDestinations = new ArrayList<>();
    List<UnsizedResult> unsized =
        new ArrayList<>(); // by position; null where the rows' shape is known
    List<Destination.IrregularRows> irregular = new ArrayList<>(); // by position, as unsized
    for (int k = 0; k < pattern.size(); k++) {
      Type row = map.function().returnTypes().get(k);
      ScalarType element = scalarType(row.baseElement(), "a map of tuples");
      List<KernelExpr> shape = group.knownHostShape(row);
      ArrayView result;
      if (shape != null) {
        List<KernelExpr> dims = new ArrayList<>(List.of(rows));
        dims.addAll(shape);
        result = allocate(element, dims);
        targets.add(result);
        unsized.add(null);
        irregular.add(null);
        rowDestinations.add(j -> new Destination.ToMemory(result.rowInBounds(j)));
      } else {
        UnsizedResult r = unsized(pattern.get(k).name(), row.rank(), out);
        ArrayView region = allocate(element, List.of(rows, r.capacity()));
        UnsizedResult placed = r.in(region.buffer());
        unsized.add(placed);
        Destination.IrregularRows irregularRows = irregularRows(row.rank(), out);
        irregular.add(irregularRows);
        rowDestinations.add(
            j ->
                new Destination.ToUnsized(
                    placed,
                    KernelExprs.add(region.offset(), KernelExprs.mul(j, r.capacity())),
                    j,
                    irregularRows));
        ArrayView rowView =
            ArrayView.rowMajor(
                region.buffer(),
                region.offset(),
                placed.dims().stream().map(d -> (KernelExpr) d).toList());
        List<KernelExpr> dims = new ArrayList<>(List.of(rows));
        dims.addAll(rowView.dims());
        List<KernelExpr> strides = new ArrayList<>(List.of(r.capacity()));
        strides.addAll(rowView.strides());
        result = new ArrayView(rowView.source(), region.offset(), dims, strides, KernelExprs.TRUE);
      }
      env.put(pattern.get(k).name(), result);
      owned.add(pattern.get(k).name());
    }
    boolean strided = atBlockLevel;
    if (strided) {
      for (int k = 0; k < unsized.size(); k++) {
        if (unsized.get(k) != null) {
          shapesNotedPerThread.addAll(unsized.get(k).dims());
          shapesNotedPerThread.add(unsized.get(k).written());
          shapesNotedPerThread.add(irregular.get(k).first());
          shapesNotedPerThread.addAll(irregular.get(k).sizes());
        }
      }
    }
    lowerMapInto(map, targets, rowDestinations, out);
    if (strided) {
      for (int k = 0; k < unsized.size(); k++) {
        if (unsized.get(k) != null) {
          agreeOnShapes(unsized.get(k), irregular.get(k), out);
        }
      }
    }
    SourcePos pos = map.pos().equals(SourcePos.NONE) ? group.soacPos() : map.pos();
    for (int k = 0; k < unsized.size(); k++) {
      Destination.IrregularRows rowsSeen = irregular.get(k);
      if (rowsSeen == null) {
        continue;
      }
      out.add(
          new KernelStmt.If(
              not(KernelExprs.lt(rowsSeen.first(), KernelExprs.ZERO)),
              List.of(
                  irregular(
                      "map",
                      pos,
                      rowsSeen.first(),
                      rowsSeen.sizes().stream().map(d -> (KernelExpr) d).toList(),
                      unsized.get(k).dims().stream().map(d -> (KernelExpr) d).toList())),
              List.of()));
    }
    if (unsized.stream().anyMatch(Objects::nonNull)) {
      sizeRowsOverNoRows(pattern, map, rows, unsized, out);
    }
    unsized.stream().filter(Objects::nonNull).forEach(this::finish);
  }

  /**
   * After a map whose rows ran strided over a block's threads, each thread having noted the shape
   * of its first row of {@code result} and the first of its rows of another shape ({@code
   * irregular}): the block's shape is thread 0's (row 0's, where there are rows), which it shares
   * through shared memory; a thread whose first row has another shape notes that row as irregular
   * (it comes before the thread's other rows). As in the thread per row, the rows are then
   * irregular where any thread noted one, and the error names one of those rows.
   */
  private void agreeOnShapes(
      UnsizedResult result, Destination.IrregularRows irregular, List<KernelStmt> out) {
    int rank = result.dims().size();
    SharedArray shared =
        SharedArray.ofFixedSize(group.freshName("block_shape"), ScalarType.I64, rank + 1);
    List<KernelStmt> publish = new ArrayList<>();
    for (int d = 0; d < rank; d++) {
      publish.add(new KernelStmt.SharedStore(shared, KernelExprs.i64(d), result.dims().get(d)));
    }
    publish.add(
        new KernelStmt.SharedStore(
            shared,
            KernelExprs.i64(rank),
            new KernelExpr.Select(result.written(), KernelExprs.ONE, KernelExprs.ZERO)));
    out.add(new KernelStmt.If(eq(KernelExprs.THREAD_IDX, KernelExprs.ZERO), publish, List.of()));
    out.add(new KernelStmt.Barrier());
    KernelExpr sameShape = KernelExprs.TRUE;
    for (int d = 0; d < rank; d++) {
      sameShape =
          and(
              sameShape,
              eq(result.dims().get(d), new KernelExpr.SharedLoad(shared, KernelExprs.i64(d))));
    }
    List<KernelStmt> firstRowIrregular =
        new ArrayList<>(List.of(new KernelStmt.Assign(irregular.first(), KernelExprs.THREAD_IDX)));
    for (int d = 0; d < rank; d++) {
      firstRowIrregular.add(new KernelStmt.Assign(irregular.sizes().get(d), result.dims().get(d)));
    }
    out.add(new KernelStmt.If(and(result.written(), not(sameShape)), firstRowIrregular, List.of()));
    for (int d = 0; d < rank; d++) {
      out.add(
          new KernelStmt.Assign(
              result.dims().get(d), new KernelExpr.SharedLoad(shared, KernelExprs.i64(d))));
    }
    out.add(
        new KernelStmt.Assign(
            result.written(),
            eq(new KernelExpr.SharedLoad(shared, KernelExprs.i64(rank)), KernelExprs.ONE)));
    // thread 0 writes the shape again only after every thread has read it
    out.add(new KernelStmt.Barrier());
  }

  /**
   * Locals, declared in {@code out}, that note the first row of a map inside a thread whose array
   * result of {@code rank} dimensions has another shape than its first row's.
   */
  private Destination.IrregularRows irregularRows(int rank, List<KernelStmt> out) {
    KernelExpr.Var first = group.fresh("irregular_row", ScalarType.I64);
    out.add(new KernelStmt.Declare(first, KernelExprs.i64(-1)));
    List<KernelExpr.Var> sizes = new ArrayList<>();
    for (int d = 0; d < rank; d++) {
      KernelExpr.Var size = group.fresh("irregular_d" + d, ScalarType.I64);
      out.add(new KernelStmt.Declare(size, KernelExprs.ZERO));
      sizes.add(size);
    }
    return new Destination.IrregularRows(first, sizes);
  }

  /**
   * Over no rows, the results in {@code unsized} (by position in {@code pattern}; null for rows of
   * known shape) take the sizes of the function's results on the zero row of the inputs, as the
   * interpreter's empty map does, or where the function fails there the sizes their type gives: an
   * empty array keeps its inner sizes.
   */
  private void sizeRowsOverNoRows(
      List<Ident> pattern,
      Exp.Screma map,
      KernelExpr rows,
      List<UnsizedResult> unsized,
      List<KernelStmt> out) {
    KernelExpr.Var failed = group.fresh("fails_on_zero", ScalarType.BOOL);
    List<KernelStmt> body = new ArrayList<>();
    // in a block's row, every thread sizes the zero row alike in its own scratch
    Map<ScalarType, KernelExpr> before = scratch.usedSoFar();
    List<List<KernelExpr>> sizes =
        inOneThread(
            () ->
                sizesOnZeroRow(
                    pattern, map, map.inputs().stream().map(this::array).toList(), failed, body));
    // a failure there only sets the flag and the code goes on: it reads zeros where the failed
    // operation wrote nothing
    body.addAll(0, scratch.zeroFillSince(before));
    for (int k = 0; k < pattern.size(); k++) {
      UnsizedResult r = unsized.get(k);
      if (r == null) {
        continue;
      }
      List<KernelExpr> fromType = group.staticShape(((Type.Array) pattern.get(k).type()).element());
      r.boundsSeen().add(hostBounds(sizes.get(k)));
      r.boundsSeen().add(fromType);
      List<KernelStmt> computed = new ArrayList<>();
      List<KernelStmt> typed = new ArrayList<>();
      for (int d = 0; d < r.dims().size(); d++) {
        computed.add(new KernelStmt.Assign(r.dims().get(d), sizes.get(k).get(d)));
        typed.add(new KernelStmt.Assign(r.dims().get(d), fromType.get(d)));
      }
      body.add(new KernelStmt.If(failed, typed, computed));
    }
    out.add(new KernelStmt.If(eq(rows, KernelExprs.ZERO), body, List.of()));
  }

  /**
   * Declares {@code failed} (false) and applies {@code map}'s function to the zero row of its
   * {@code inputs} (every number 0, every bool false, of the inputs' row sizes: the row the
   * interpreter sizes a map over no rows with) into fresh arrays and locals named after {@code
   * pattern}; returns the sizes of each result ({@link #resultSizes}).
   */
  List<List<KernelExpr>> sizesOnZeroRow(
      List<Ident> pattern,
      Exp.Screma map,
      List<ArrayView> inputs,
      KernelExpr.Var failed,
      List<KernelStmt> out) {
    out.add(new KernelStmt.Declare(failed, zeroOf(ScalarType.BOOL)));
    List<Ident> results = new ArrayList<>();
    for (int k = 0; k < pattern.size(); k++) {
      results.add(
          new Ident(pattern.get(k).name() + "_on_zero", map.function().returnTypes().get(k)));
    }
    return resultSizes(map.function(), zeroRow(map.function(), inputs), results, failed, out);
  }

  private static List<Binding> zeroRow(Lambda f, List<ArrayView> inputs) {
    List<Binding> zeros = new ArrayList<>();
    for (int j = 0; j < inputs.size(); j++) {
      ScalarType element = scalarType(f.params().get(j).type().baseElement(), "a map of tuples");
      List<KernelExpr> rowDims = inputs.get(j).dims().subList(1, inputs.get(j).dims().size());
      zeros.add(
          rowDims.isEmpty()
              ? new Binding.Scalar(zeroOf(element))
              : new ArrayView(
                  new ArrayView.Replicated(zeroOf(element)),
                  KernelExprs.ZERO,
                  rowDims,
                  Collections.nCopies(rowDims.size(), KernelExprs.ZERO),
                  KernelExprs.TRUE));
    }
    return zeros;
  }

  /**
   * A fresh {@link UnsizedResult} of {@code rank} whose size locals and flag are declared in {@code
   * out}; its buffer is set by {@link UnsizedResult#in}.
   */
  UnsizedResult unsized(String name, int rank, List<KernelStmt> out) {
    UnsizedResult r = UnsizedResult.of(group, rank, name);
    r.dims().forEach(d -> out.add(new KernelStmt.Declare(d, KernelExprs.ZERO)));
    out.add(
        new KernelStmt.Declare(
            r.written(), new KernelExpr.Constant(dev.l0.ir.ScalarValue.bool(false))));
    return r;
  }

  /**
   * After every write of {@code r} is lowered: its capacity's definition, and its sizes' bounds.
   */
  void finish(UnsizedResult r) {
    group.defineDeferred(r.capacity(), r.capacityValue());
    List<KernelExpr> bounds = r.dimBounds();
    for (int d = 0; d < bounds.size(); d++) {
      sizeBounds.put(r.dims().get(d), bounds.get(d));
    }
  }

  /** Host bounds of the sizes {@code dims} of an array result ({@link #bound}). */
  private List<KernelExpr> hostBounds(List<KernelExpr> dims) {
    List<KernelExpr> bounds = new ArrayList<>();
    for (KernelExpr d : dims) {
      KernelExpr b = bound(d);
      if (b == null) {
        throw new UnsupportedKernelException(
            "an array result whose size depends on values the kernel computes, so the host"
                + " cannot bound it before the kernel runs");
      }
      bounds.add(b);
    }
    return bounds;
  }

  /**
   * Writes {@code source} as result {@code dest}: the first write sets the result's sizes, a later
   * one of another shape raises the map's shape error.
   */
  private void writeUnsized(ArrayView source, Destination.ToUnsized dest, List<KernelStmt> out) {
    UnsizedResult r = dest.result();
    r.boundsSeen().add(hostBounds(source.dims()));
    List<KernelExpr> dims = source.dims();
    KernelExpr same = KernelExprs.TRUE;
    List<KernelStmt> setSizes = new ArrayList<>();
    for (int d = 0; d < dims.size(); d++) {
      same = and(same, eq(r.dims().get(d), dims.get(d)));
      setSizes.add(new KernelStmt.Assign(r.dims().get(d), dims.get(d)));
    }
    setSizes.add(new KernelStmt.Assign(r.written(), KernelExprs.TRUE));
    List<KernelStmt> write = new ArrayList<>();
    write.add(new KernelStmt.If(not(r.written()), setSizes, List.of()));
    copyElements(
        source,
        ArrayView.rowMajor(
            r.buffer(), dest.offset(), r.dims().stream().map(d -> (KernelExpr) d).toList()),
        write);
    List<KernelStmt> valid = new ArrayList<>();
    addGuarded(source.valid(), write, List.of(), valid);
    addGuarded(
        KernelExprs.or(not(r.written()), same),
        valid,
        dest.rows() == null ? List.of(shapeError()) : noteIrregular(dest, dims),
        out);
  }

  /**
   * Notes row {@code dest.row()} of sizes {@code dims} as its map's first irregular row where no
   * row before it is.
   */
  private static List<KernelStmt> noteIrregular(Destination.ToUnsized dest, List<KernelExpr> dims) {
    Destination.IrregularRows rows = dest.rows();
    List<KernelStmt> note = new ArrayList<>();
    note.add(new KernelStmt.Assign(rows.first(), dest.row()));
    for (int d = 0; d < dims.size(); d++) {
      note.add(new KernelStmt.Assign(rows.sizes().get(d), convert(dims.get(d), ScalarType.I64)));
    }
    KernelExpr firstSoFar =
        KernelExprs.or(
            KernelExprs.lt(rows.first(), KernelExprs.ZERO),
            KernelExprs.lt(dest.row(), rows.first()));
    return List.of(new KernelStmt.If(firstSoFar, note, List.of()));
  }

  /**
   * {@code a with [i...] <- v} (thesis §2.1.2): written in place into {@code a} where the thread
   * owns it, else into a fresh copy; out-of-bounds indices raise the update's error.
   */
  private void lowerUpdate(Ident id, Exp.Update update, List<KernelStmt> out) {
    ArrayView source = array(update.array());
    ArrayView target = owned.contains(update.array().varName()) ? source : materialize(source, out);
    updateInto(id, update, target, out);
  }

  /**
   * {@code let r = map(f, xs) in let id = w with [i...] <- r} with the map writing its rows
   * straight into row {@code w[i...]} ({@link MapIntoUpdatedRow}) where that row is in bounds and
   * of the map's size; where it is not, the map writes into scratch, and the update then raises its
   * error, as {@link #lowerUpdate} does after the map's own failures.
   */
  private void lowerMapIntoUpdatedRow(
      Stm mapStm, Stm updateStm, Exp.Update update, List<KernelStmt> out) {
    try {
      Exp.Screma map = (Exp.Screma) mapStm.exp();
      ArrayView source = array(update.array());
      ArrayView target =
          owned.contains(update.array().varName()) ? source : materialize(source, out);
      Indexed updated = indexed(target, update.indices());
      ArrayView cell = updated.cell();
      KernelExpr rows = array(map.inputs().get(0)).dims().get(0);
      KernelExpr.Var fits = group.fresh("in_place", ScalarType.BOOL);
      out.add(new KernelStmt.Declare(fits, and(cell.valid(), eq(cell.dims().get(0), rows))));
      // a scalar: MapIntoUpdatedRow takes maps of scalars only
      ScalarType element = (ScalarType) map.function().returnTypes().get(0);
      ArrayView scratchRow = allocate(element, List.of(rows));
      lowerMapInto(
          map,
          List.of(scratchRow),
          List.of(
              j -> new Destination.ToChosen(fits, cell.rowInBounds(j), scratchRow.rowInBounds(j))),
          out);
      KernelStmt failure =
          new KernelStmt.If(
              cell.valid(),
              List.of(updateShapeError(update, scratchRow, cell)),
              List.of(outOfBounds("update", update.pos(), updated.indices(), updated.sizes())));
      out.add(new KernelStmt.If(not(fits), List.of(failure), List.of()));
      Ident id = updateStm.pattern().get(0);
      env.put(id.name(), target);
      owned.add(id.name());
    } catch (UnsupportedKernelException rejected) {
      throw rejected.near(SourcePositions.ofStatement(mapStm.exp()));
    }
  }

  /** {@code id = w with [i...] <- v} written into {@code target}, {@code w} or a copy of it. */
  private void updateInto(Ident id, Exp.Update update, ArrayView target, List<KernelStmt> out) {
    Indexed updated = indexed(target, update.indices());
    ArrayView cell = updated.cell();
    List<KernelStmt> write = new ArrayList<>();
    if (cell.rank() == 0) {
      write.add(new KernelStmt.Store(cell.buffer(), cell.offset(), scalar(update.value())));
    } else {
      ArrayView value = array(update.value());
      copy(value, cell, updateShapeError(update, value, cell), write);
    }
    addGuarded(
        cell.valid(),
        write,
        List.of(outOfBounds("update", update.pos(), updated.indices(), updated.sizes())),
        out);
    env.put(id.name(), target);
    owned.add(id.name());
  }

  /**
   * The element or row {@code cell} of an array that indices select, with the indices and the sizes
   * they index (for the error of one out of bounds).
   */
  private record Indexed(ArrayView cell, List<KernelExpr> indices, List<KernelExpr> sizes) {}

  /** {@code array[i...]}: its validity includes each index's bounds check. */
  private Indexed indexed(ArrayView array, List<SubExp> indexOperands) {
    ArrayView cell = array;
    List<KernelExpr> indices = new ArrayList<>();
    List<KernelExpr> sizes = new ArrayList<>();
    for (SubExp i : indexOperands) {
      indices.add(convert(scalar(i), ScalarType.I64));
      sizes.add(cell.dims().get(0));
      cell = cell.row(indices.get(indices.size() - 1));
    }
    return new Indexed(cell, indices, sizes);
  }

  /**
   * The error of {@code update} writing {@code value} into the row {@code cell} of another shape.
   */
  private KernelStmt updateShapeError(Exp.Update update, ArrayView value, ArrayView cell) {
    List<KernelExpr> shapes = new ArrayList<>(value.dims());
    shapes.addAll(cell.dims());
    return raise(
        "update",
        update.pos(),
        FailureDetails.update(cell.rank()),
        shapes.size() <= KernelStmt.MAX_ERROR_VALUES ? shapes : List.of());
  }

  /** Indexing: a view of a row, or a guarded load of an element (thesis §2.1, bounds-checked). */
  private void lowerIndex(Ident id, Exp.Index index, List<KernelStmt> out) {
    Indexed indexed = indexed(array(index.array()), index.indices());
    ArrayView view = indexed.cell();
    List<KernelExpr> indices = indexed.indices();
    KernelStmt outOfBounds = outOfBounds("index", index.pos(), indices, indexed.sizes());
    if (view.rank() > 0) {
      env.put(id.name(), view);
      if (index.array() instanceof SubExp.Var array) {
        MapIntoUpdatedRow.RowOf of = rowsOf.get(array.name());
        rowsOf.put(
            id.name(),
            of != null
                ? new MapIntoUpdatedRow.RowOf(of.root(), of.depth() + indices.size())
                : new MapIntoUpdatedRow.RowOf(array.name(), indices.size()));
      }
      addGuarded(view.valid(), List.of(), List.of(outOfBounds), out);
      return;
    }
    KernelExpr.Var result = declareZero(id, out);
    addGuarded(
        view.valid(),
        List.of(new KernelStmt.Assign(result, view.load())),
        List.of(outOfBounds),
        out);
  }

  /**
   * A redomap, reduce, scan or scanomap inside a thread: {@code acc = fold(acc, row j)} for every
   * row in order. Array accumulators start as scratch copies of their neutral arrays. A scan puts
   * every accumulator after each step into row {@code j} of its result; an array accumulator
   * ({@link #prefixRows}) lives in its result, its neutral array in a row before the first, so that
   * step {@code j} reads row {@code j - 1} and writes row {@code j} without copying.
   */
  private void lowerSequentialFold(
      List<Ident> pattern,
      Lambda fold,
      List<SubExp> neutral,
      List<SubExp> inputs,
      boolean prefixes,
      List<KernelStmt> out) {
    if (inputs.isEmpty()) {
      throw new UnsupportedKernelException("a reduction without inputs");
    }
    List<ArrayView> views = inputs.stream().map(this::array).toList();
    KernelExpr rows = views.get(0).dims().get(0);
    KernelExpr.Var j = group.fresh("j", ScalarType.I64);
    List<KernelStmt> body = new ArrayList<>();
    List<Binding> results = new ArrayList<>();
    if (!prefixes) {
      List<Binding> accs = initialAccumulators(neutral, out);
      foldInto(fold, accs, views, j, body);
      results.addAll(accs);
    } else {
      List<Binding> accs = new ArrayList<>();
      List<Destination> next = new ArrayList<>();
      for (SubExp value : neutral) {
        ArrayView array = scalarOrArray(value);
        if (array != null && array.rank() > 0 && !isResizable(array)) {
          ArrayView region = prefixRows(array, rows, out);
          accs.add(region.rowInBounds(j));
          next.add(
              new Destination.ToMemory(region.rowInBounds(KernelExprs.add(j, KernelExprs.ONE))));
          results.add(region.slice(KernelExprs.ONE, rows, KernelExprs.TRUE));
        } else {
          Binding acc = initialAccumulators(List.of(value), out).get(0);
          ArrayView accView = acc instanceof ArrayView v ? v : null;
          ScalarType type =
              accView != null ? accView.elementType() : ((Binding.Scalar) acc).value().type();
          List<KernelExpr> dims = new ArrayList<>(List.of(rows));
          if (accView != null) {
            dims.addAll(accView.dims());
          }
          accs.add(acc);
          next.add(temporary(acc, body));
          results.add(allocate(type, dims));
        }
      }
      List<Binding> args = new ArrayList<>();
      accs.forEach(a -> args.add(asArgument(a)));
      views.forEach(v -> args.add(row(v, j)));
      apply(fold, args, next, body);
      for (int k = 0; k < accs.size(); k++) {
        if (next.get(k) instanceof Destination.ToMemory) {
          continue;
        }
        commit(List.of(next.get(k)), List.of(accs.get(k)), body);
        ArrayView row = ((ArrayView) results.get(k)).rowInBounds(j);
        if (accs.get(k) instanceof ArrayView accView) {
          copyElements(accView, row, body);
        } else {
          body.add(
              new KernelStmt.Store(
                  row.buffer(), row.offset(), ((Binding.Scalar) accs.get(k)).value()));
        }
      }
    }
    KernelStmt loop = new KernelStmt.For(j, KernelExprs.ZERO, rows, KernelExprs.ONE, body);
    addGuarded(allValid(views), List.of(loop), List.of(), out);
    for (int i = 0; i < results.size(); i++) {
      env.put(pattern.get(i).name(), results.get(i));
      if (results.get(i) instanceof ArrayView) {
        owned.add(pattern.get(i).name());
      }
    }
  }

  /**
   * The scratch array of a scan's array accumulator: {@code rows + 1} rows of the neutral array's
   * shape, the neutral array copied into the first; the scan's result is the rows after it.
   */
  private ArrayView prefixRows(ArrayView neutral, KernelExpr rows, List<KernelStmt> out) {
    List<KernelExpr> dims = new ArrayList<>(List.of(KernelExprs.add(rows, KernelExprs.ONE)));
    dims.addAll(neutral.dims());
    ArrayView region = allocate(neutral.elementType(), dims);
    List<KernelStmt> copy = new ArrayList<>();
    copyElements(neutral, region.rowInBounds(KernelExprs.ZERO), copy);
    addGuarded(neutral.valid(), copy, List.of(), out);
    return region;
  }

  /** A local per scalar neutral element, a scratch copy per array one. */
  private List<Binding> initialAccumulators(List<SubExp> neutral, List<KernelStmt> out) {
    List<Binding> accs = new ArrayList<>();
    for (SubExp value : neutral) {
      ArrayView array = scalarOrArray(value);
      accs.add(
          array != null
              ? materialize(array, out)
              : new Binding.Scalar(declareAccumulators(List.of(scalar(value)), out).get(0)));
    }
    return accs;
  }

  /**
   * A filter or a filtermap inside a thread: the kept rows (a filter's input rows, a filtermap's
   * values) copied in order into scratch arrays as long as the input, each filter of a filtermap
   * keeping its own count.
   */
  private void lowerSequentialFilter(
      List<Ident> pattern, Exp.FilterMap filter, List<KernelStmt> out) {
    List<ArrayView> views = filter.inputs().stream().map(this::array).toList();
    KernelExpr length = views.get(0).dims().get(0);
    FilterResults filters = FilterResults.of(filter);
    List<ArrayView> regions =
        filters.mapsRows()
            ? pattern.subList(filters.accumulators(), pattern.size()).stream()
                .map(
                    p ->
                        allocate(
                            scalarType(InternalTypes.row(p.type()), "a filtermap"),
                            List.of(length)))
                .toList()
            : views.stream().map(v -> allocate(v.elementType(), v.dims())).toList();
    KernelExpr keptBound = bound(length);
    KernelExpr.Var j = group.fresh("j", ScalarType.I64);
    List<KernelStmt> body = new ArrayList<>();
    List<KernelExpr.Var> accs =
        declareAccumulators(filter.neutral().stream().map(this::scalar).toList(), out);
    List<Binding> args = new ArrayList<>();
    accs.forEach(a -> args.add(new Binding.Scalar(a)));
    views.forEach(v -> args.add(row(v, j)));
    List<KernelExpr.Var> flagged = applyToLocals(filters.function(), args, body);
    for (int a = 0; a < accs.size(); a++) {
      body.add(new KernelStmt.Assign(accs.get(a), flagged.get(a)));
      env.put(pattern.get(a).name(), new Binding.Scalar(accs.get(a)));
    }
    List<KernelExpr.Var> keptCounts = new ArrayList<>();
    for (int k = 0; k < filters.count(); k++) {
      KernelExpr.Var kept = group.fresh("kept", ScalarType.I64);
      out.add(new KernelStmt.Declare(kept, KernelExprs.ZERO));
      if (keptBound != null) {
        sizeBounds.put(kept, keptBound);
      }
      keptCounts.add(kept);
      int flag = filters.flags().get(k);
      int first = filters.firstResults().get(k);
      List<KernelStmt> copyRow = new ArrayList<>();
      for (int r = first; r < first + filters.sizes().get(k); r++) {
        ArrayView target = regions.get(r - accs.size()).rowInBounds(kept);
        if (filters.mapsRows()) {
          copyRow.add(
              new KernelStmt.Store(
                  target.buffer(), target.offset(), flagged.get(flag + 1 + r - first)));
        } else {
          copyElements(views.get(r).rowInBounds(j), target, copyRow);
        }
      }
      copyRow.add(new KernelStmt.Assign(kept, KernelExprs.add(kept, KernelExprs.ONE)));
      body.add(new KernelStmt.If(flagged.get(flag), copyRow, List.of()));
    }
    KernelStmt loop = new KernelStmt.For(j, KernelExprs.ZERO, length, KernelExprs.ONE, body);
    addGuarded(allValid(views), List.of(loop), List.of(), out);
    for (int r = accs.size(); r < pattern.size(); r++) {
      ArrayView region = regions.get(r - accs.size());
      List<KernelExpr> dims = new ArrayList<>(List.of(keptCounts.get(filters.filterOf(r))));
      dims.addAll(region.dims().subList(1, region.rank()));
      env.put(
          pattern.get(r).name(),
          new ArrayView(region.source(), region.offset(), dims, region.strides(), region.valid()));
      owned.add(pattern.get(r).name());
    }
  }

  /** Declares one accumulator local per initial value, initialised to it. */
  List<KernelExpr.Var> declareAccumulators(List<KernelExpr> initial, List<KernelStmt> out) {
    List<KernelExpr.Var> accs = new ArrayList<>();
    for (KernelExpr value : initial) {
      KernelExpr.Var acc = group.fresh("acc", value.type());
      out.add(new KernelStmt.Declare(acc, value));
      accs.add(acc);
    }
    return accs;
  }

  /**
   * {@code accs = fold(accs, rows j of inputs)} for scalar accumulators in locals, appended to
   * {@code out}.
   */
  void foldStep(
      Lambda fold,
      List<KernelExpr.Var> accs,
      List<ArrayView> inputs,
      KernelExpr j,
      List<KernelStmt> out) {
    foldStepYielding(fold, accs, inputs, j, List.of(), out);
  }

  /**
   * {@link #foldStep}, where the fold returns after the accumulators each row's values (a screma's
   * map part, {@link Exp.Screma#reducesAndMaps}), written to {@code rowValues}.
   */
  void foldStepYielding(
      Lambda fold,
      List<KernelExpr.Var> accs,
      List<ArrayView> inputs,
      KernelExpr j,
      List<Destination> rowValues,
      List<KernelStmt> out) {
    accumulate(
        fold,
        accs.stream().map(a -> (Binding) new Binding.Scalar(a)).toList(),
        inputs.stream().map(in -> row(in, j)).toList(),
        rowValues,
        out);
  }

  /**
   * {@code accs = fold(accs, rows j of inputs)}, accumulators being locals or views of memory
   * ({@link #accumulate}).
   */
  void foldInto(
      Lambda fold, List<Binding> accs, List<ArrayView> inputs, KernelExpr j, List<KernelStmt> out) {
    accumulate(fold, accs, inputs.stream().map(in -> row(in, j)).toList(), out);
  }

  /** Whether {@code v} names an array. */
  boolean isArray(SubExp.Var v) {
    return lookup(v.name()) instanceof ArrayView;
  }
}
