package dev.l0.kernels.jvm;

import dev.l0.ir.BinaryOperator;
import dev.l0.ir.Builtin;
import dev.l0.ir.ScalarType;
import dev.l0.ir.ScalarValue;
import dev.l0.kernels.ir.Buffer;
import dev.l0.kernels.ir.Kernel;
import dev.l0.kernels.ir.KernelExpr;
import dev.l0.kernels.ir.KernelStmt;
import dev.l0.kernels.ir.ThreadIndex;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * A redomap's chunk kernel in staged form: the kernel of a thread per chunk of the reduction order
 * ({@code chunk = blockIdx.x}, accumulators declared, then {@code for (i = chunk*S; i <
 * min((chunk+1)*S, n); i++) foldBody}, then the block's combine), split in two. The map part
 * ({@link MapPart}: the statements of the fold body that compute locals from the row {@code i}, the
 * kernel's scalars, loads at {@code i} of buffers no statement of the kernel stores into, and the
 * map part's own locals) becomes a {@link StagedMap} ({@link #map}) that stores each local the rest
 * of the fold reads into a chunk-sized array ({@link #values}, indexed from the first row of the
 * chunk of rows). The rest, {@link #fold}, is the kernel itself with those locals declared from the
 * arrays at {@code i - staged_row_base[0]} (a one-element array after the value arrays among its
 * buffers) where the map part set them last: it folds every row in the same order as the kernel, so
 * results are the same bit for bit (the map part has no effects and does not read the accumulators,
 * so computing it earlier for a chunk of rows changes nothing).
 *
 * @param mapKernel the map part as a kernel over the rows, whose stores go to {@link #values}
 * @param chunkSize {@code S}, reading only the kernel's scalars
 * @param rows {@code n}, reading only the kernel's scalars
 */
record StagedRedomap(
    Kernel mapKernel,
    StagedMap map,
    Kernel fold,
    List<Buffer> values,
    KernelExpr chunkSize,
    KernelExpr rows) {

  private static final KernelExpr ONE = new KernelExpr.Constant(ScalarValue.i64(1));
  private static final KernelExpr ZERO = new KernelExpr.Constant(ScalarValue.i64(0));

  /**
   * The staged form of {@code kernel}, or empty when it is not a redomap chunk kernel with a map
   * part that stages.
   */
  static Optional<StagedRedomap> of(Kernel kernel) {
    List<KernelStmt> body = kernel.body();
    if (kernel.buffers().stream().anyMatch(Buffer::isThreadPrivate)
        || body.isEmpty()
        || !(body.get(0) instanceof KernelStmt.Declare first)
        || !JavaKernelIrPrinter.simplified(first.initial())
            .equals(new KernelExpr.Thread(ThreadIndex.BLOCK_IDX))) {
      return Optional.empty();
    }
    KernelExpr.Var chunk = first.variable();
    int at = 1;
    while (at < body.size() && body.get(at) instanceof KernelStmt.Declare) {
      at++;
    }
    if (at == body.size() || !(body.get(at) instanceof KernelStmt.For loop)) {
      return Optional.empty();
    }
    Set<KernelExpr.Var> scalars = Set.copyOf(kernel.scalars());
    if (!(loop.start() instanceof KernelExpr.Binary start)
        || start.op() != BinaryOperator.MUL
        || !start.left().equals(chunk)
        || !scalarsOnly(start.right(), scalars)
        || !loop.step().equals(ONE)
        || !(loop.bound() instanceof KernelExpr.Call bound)
        || bound.function() != Builtin.MIN
        || !bound
            .args()
            .get(0)
            .equals(
                new KernelExpr.Binary(
                    BinaryOperator.MUL,
                    ScalarType.I64,
                    new KernelExpr.Binary(BinaryOperator.ADD, ScalarType.I64, chunk, ONE),
                    start.right()))
        || !scalarsOnly(bound.args().get(1), scalars)) {
      return Optional.empty();
    }
    Set<Buffer> stored = new HashSet<>();
    if (!walk(body, stored, new HashSet<>(), new HashSet<>())) {
      return Optional.empty();
    }
    Set<KernelExpr.Var> base = new HashSet<>(scalars);
    base.add(loop.counter());
    MapPart part = MapPart.of(loop.body(), base, loop.counter(), stored);
    if (part == null) {
      return Optional.empty();
    }
    Map<KernelExpr.Var, Buffer> valueOf = new LinkedHashMap<>();
    part.readByRest().forEach(v -> valueOf.put(v, new Buffer("staged_" + v.name(), v.type())));
    if (valueOf.isEmpty()) {
      return Optional.empty();
    }
    List<KernelStmt> mapBody = new ArrayList<>(part.statements());
    valueOf.forEach((v, b) -> mapBody.add(new KernelStmt.Store(b, loop.counter(), v)));
    List<Buffer> mapBuffers = new ArrayList<>(kernel.buffers());
    mapBuffers.addAll(valueOf.values());
    Kernel mapKernel =
        new Kernel(
            kernel.name() + "_map",
            mapBuffers,
            kernel.scalars(),
            List.of(),
            List.of(
                new KernelStmt.For(
                    loop.counter(),
                    new KernelExpr.Thread(ThreadIndex.BLOCK_IDX),
                    bound.args().get(1),
                    new KernelExpr.Thread(ThreadIndex.GRID_DIM),
                    mapBody)));
    Optional<StagedMap> map = StagedMap.of(mapKernel);
    if (map.isEmpty()) {
      return Optional.empty();
    }
    Buffer rowBase = new Buffer("staged_row_base", ScalarType.I64);
    KernelExpr inChunk =
        new KernelExpr.Binary(
            BinaryOperator.SUB, ScalarType.I64, loop.counter(), new KernelExpr.Load(rowBase, ZERO));
    List<KernelStmt> foldBody = new ArrayList<>();
    for (int k = 0; k < loop.body().size(); k++) {
      if (!part.isMap(k)) {
        foldBody.add(loop.body().get(k));
      }
      for (KernelExpr.Var v : valueOf.keySet()) {
        if (part.definedAt().get(v) == k) {
          foldBody.add(new KernelStmt.Declare(v, new KernelExpr.Load(valueOf.get(v), inChunk)));
        }
      }
    }
    List<KernelStmt> foldKernelBody = new ArrayList<>(body);
    foldKernelBody.set(
        at, new KernelStmt.For(loop.counter(), loop.start(), loop.bound(), loop.step(), foldBody));
    List<Buffer> foldBuffers = new ArrayList<>(mapBuffers);
    foldBuffers.add(rowBase);
    Kernel fold =
        new Kernel(kernel.name(), foldBuffers, kernel.scalars(), kernel.shared(), foldKernelBody);
    return Optional.of(
        new StagedRedomap(
            mapKernel,
            map.get(),
            fold,
            List.copyOf(valueOf.values()),
            start.right(),
            bound.args().get(1)));
  }

  /**
   * The map part of a fold body: its statements at the indices {@code map} (in order), the index of
   * the statement that last sets each of its locals ({@code definedAt}), and the locals that the
   * other statements read ({@code readByRest}), each read only after that index.
   */
  private record MapPart(
      List<KernelStmt> statements,
      Set<Integer> map,
      Map<KernelExpr.Var, Integer> definedAt,
      Set<KernelExpr.Var> readByRest) {

    boolean isMap(int index) {
      return map.contains(index);
    }

    /**
     * The map part of {@code body}: {@code Declare}s of map values, and {@code If}s on map values
     * whose branches only declare locals and assign the map part's locals map values; a local that
     * another statement assigns, or reads before the map part sets it last, is left out, until none
     * is. Null where {@code body} has a statement this matcher does not know.
     */
    static MapPart of(
        List<KernelStmt> body, Set<KernelExpr.Var> base, KernelExpr.Var i, Set<Buffer> stored) {
      Set<KernelExpr.Var> excluded = new HashSet<>();
      while (true) {
        Set<KernelExpr.Var> locals = new HashSet<>(base);
        Map<KernelExpr.Var, Integer> definedAt = new LinkedHashMap<>();
        List<KernelStmt> statements = new ArrayList<>();
        Set<Integer> map = new HashSet<>();
        for (int k = 0; k < body.size(); k++) {
          KernelStmt s = body.get(k);
          Set<KernelExpr.Var> sets = new HashSet<>();
          boolean isMap;
          if (s instanceof KernelStmt.Declare d) {
            isMap = !excluded.contains(d.variable()) && mapValue(d.initial(), locals, i, stored);
            sets.add(d.variable());
          } else {
            isMap =
                s instanceof KernelStmt.If f && mapIf(f, locals, new HashSet<>(), i, stored, sets);
          }
          if (isMap) {
            map.add(k);
            statements.add(s);
            for (KernelExpr.Var v : sets) {
              locals.add(v);
              definedAt.put(v, k);
            }
          }
        }
        Set<KernelExpr.Var> readByRest = new LinkedHashSet<>();
        Set<KernelExpr.Var> newlyExcluded = new HashSet<>();
        for (int k = 0; k < body.size(); k++) {
          if (map.contains(k)) {
            continue;
          }
          Set<KernelExpr.Var> assigned = new HashSet<>();
          Set<KernelExpr.Var> read = new HashSet<>();
          if (!walk(List.of(body.get(k)), new HashSet<>(), assigned, read)) {
            return null;
          }
          for (KernelExpr.Var v : definedAt.keySet()) {
            if (assigned.contains(v) || read.contains(v) && definedAt.get(v) > k) {
              newlyExcluded.add(v);
            } else if (read.contains(v)) {
              readByRest.add(v);
            }
          }
        }
        if (definedAt.keySet().stream().anyMatch(base::contains)) {
          return null;
        }
        if (newlyExcluded.isEmpty()) {
          return new MapPart(statements, map, definedAt, readByRest);
        }
        excluded.addAll(newlyExcluded);
      }
    }

    /**
     * Whether {@code f} belongs to the map part: its condition a map value and its branches only
     * {@code Declare}s, {@code Assign}s of {@code outer} locals or the branch's own, and such
     * {@code If}s; the outer locals it assigns are added to {@code sets}.
     */
    private static boolean mapIf(
        KernelStmt.If f,
        Set<KernelExpr.Var> outer,
        Set<KernelExpr.Var> inner,
        KernelExpr.Var i,
        Set<Buffer> stored,
        Set<KernelExpr.Var> sets) {
      Set<KernelExpr.Var> visible = new HashSet<>(outer);
      visible.addAll(inner);
      if (!mapValue(f.condition(), visible, i, stored)) {
        return false;
      }
      for (List<KernelStmt> branch : List.of(f.thenBody(), f.elseBody())) {
        Set<KernelExpr.Var> own = new HashSet<>(inner);
        for (KernelStmt s : branch) {
          Set<KernelExpr.Var> readable = new HashSet<>(outer);
          readable.addAll(own);
          if (s instanceof KernelStmt.Declare d && mapValue(d.initial(), readable, i, stored)) {
            own.add(d.variable());
          } else if (s instanceof KernelStmt.Assign a
              && readable.contains(a.variable())
              && mapValue(a.value(), readable, i, stored)) {
            if (!own.contains(a.variable())) {
              sets.add(a.variable());
            }
          } else if (!(s instanceof KernelStmt.If nested
              && mapIf(nested, outer, own, i, stored, sets))) {
            return false;
          }
        }
      }
      return true;
    }
  }

  /** Whether {@code e} reads only constants and the variables {@code allowed}. */
  private static boolean scalarsOnly(KernelExpr e, Set<KernelExpr.Var> allowed) {
    Set<KernelExpr.Var> read = new HashSet<>();
    return vars(e, read) && allowed.containsAll(read);
  }

  /**
   * Whether {@code e} reads only {@code allowed} variables and loads at the row {@code i} of
   * buffers not in {@code stored}.
   */
  private static boolean mapValue(
      KernelExpr e, Set<KernelExpr.Var> allowed, KernelExpr.Var i, Set<Buffer> stored) {
    if (e instanceof KernelExpr.Load l) {
      return !stored.contains(l.buffer()) && JavaKernelIrPrinter.simplified(l.index()).equals(i);
    }
    if (e instanceof KernelExpr.Constant) {
      return true;
    }
    if (e instanceof KernelExpr.Var v) {
      return allowed.contains(v);
    }
    if (e instanceof KernelExpr.Binary b) {
      return mapValue(b.left(), allowed, i, stored) && mapValue(b.right(), allowed, i, stored);
    }
    if (e instanceof KernelExpr.Unary u) {
      return mapValue(u.operand(), allowed, i, stored);
    }
    if (e instanceof KernelExpr.Call c) {
      return c.args().stream().allMatch(a -> mapValue(a, allowed, i, stored));
    }
    if (e instanceof KernelExpr.Select s) {
      return mapValue(s.condition(), allowed, i, stored)
          && mapValue(s.ifTrue(), allowed, i, stored)
          && mapValue(s.ifFalse(), allowed, i, stored);
    }
    return false;
  }

  /**
   * Collects the buffers {@code body} stores into, the variables it assigns and the variables its
   * expressions read; false where it has a statement this matcher does not know.
   */
  private static boolean walk(
      List<KernelStmt> body,
      Set<Buffer> stored,
      Set<KernelExpr.Var> assigned,
      Set<KernelExpr.Var> read) {
    boolean known = true;
    for (KernelStmt s : body) {
      if (s instanceof KernelStmt.Declare d) {
        known &= vars(d.initial(), read);
      } else if (s instanceof KernelStmt.Assign a) {
        assigned.add(a.variable());
        known &= vars(a.value(), read);
      } else if (s instanceof KernelStmt.Store st) {
        stored.add(st.buffer());
        known &= vars(st.index(), read) & vars(st.value(), read);
      } else if (s instanceof KernelStmt.SharedStore st) {
        known &= vars(st.index(), read) & vars(st.value(), read);
      } else if (s instanceof KernelStmt.If f) {
        known &=
            vars(f.condition(), read)
                & walk(f.thenBody(), stored, assigned, read)
                & walk(f.elseBody(), stored, assigned, read);
      } else if (s instanceof KernelStmt.For f) {
        known &=
            vars(f.start(), read)
                & vars(f.bound(), read)
                & vars(f.step(), read)
                & walk(f.body(), stored, assigned, read);
      } else if (s instanceof KernelStmt.While w) {
        known &= vars(w.condition(), read) & walk(w.body(), stored, assigned, read);
      } else if (s instanceof KernelStmt.RaiseError r) {
        for (KernelExpr v : r.values()) {
          known &= vars(v, read);
        }
      } else if (!(s instanceof KernelStmt.Barrier)) {
        return false;
      }
    }
    return known;
  }

  /**
   * Adds the variables {@code e} reads to {@code out}; false where {@code e} has an expression this
   * matcher does not know.
   */
  private static boolean vars(KernelExpr e, Set<KernelExpr.Var> out) {
    if (e instanceof KernelExpr.Var v) {
      out.add(v);
      return true;
    }
    if (e instanceof KernelExpr.Constant || e instanceof KernelExpr.Thread) {
      return true;
    }
    if (e instanceof KernelExpr.Binary b) {
      return vars(b.left(), out) & vars(b.right(), out);
    }
    if (e instanceof KernelExpr.Unary u) {
      return vars(u.operand(), out);
    }
    if (e instanceof KernelExpr.Call c) {
      boolean known = true;
      for (KernelExpr a : c.args()) {
        known &= vars(a, out);
      }
      return known;
    }
    if (e instanceof KernelExpr.Select s) {
      return vars(s.condition(), out) & vars(s.ifTrue(), out) & vars(s.ifFalse(), out);
    }
    if (e instanceof KernelExpr.Load l) {
      return vars(l.index(), out);
    }
    if (e instanceof KernelExpr.SharedLoad l) {
      return vars(l.index(), out);
    }
    return false;
  }
}
