package dev.l0.kernels.lower;

import dev.l0.ir.BinaryOperator;
import dev.l0.ir.Builtin;
import dev.l0.ir.PrefixOperator;
import dev.l0.ir.ScalarValue;
import dev.l0.kernels.ir.GroupInput;
import dev.l0.kernels.ir.Kernel;
import dev.l0.kernels.ir.KernelExpr;
import dev.l0.kernels.ir.KernelGroup;
import dev.l0.kernels.ir.KernelStmt;
import dev.l0.kernels.ir.ThreadIndex;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * Which group inputs a lowered kernel group should read from a copy with the row index innermost
 * ({@link TiledTranspose}): the rule of Futhark's coalescing transformation (T. Henriksen,
 * <i>Design and Implementation of the Futhark Programming Language</i>, PhD thesis, 2017, ch. 9),
 * that a kernel giving each thread a row, which the thread walks in a sequential loop, should read
 * a transposed copy, so that neighbouring threads read neighbouring addresses.
 *
 * <h2>The rule</h2>
 *
 * A warp's reads coalesce when neighbouring threads read neighbouring addresses. The address of
 * every load from a group input's buffer is written, where it can be, as the affine form {@code c +
 * t * threadIdx.x + sum_k s_k * iteration_k}, {@code iteration_k} counting the iterations of the
 * {@code k}-th enclosing {@code for} loop (run sequentially by the thread) and {@code c}, {@code
 * t}, {@code s_k} polynomials in values every thread of a block shares (host scalars, {@code
 * blockIdx.x}, {@code blockDim.x}, {@code gridDim.x}, constants). A load of an array of rank 2 or
 * more is {@link Pattern#ALONG_ROW_PER_THREAD} when {@code t} is the array's row stride {@code R}
 * (the product of its inner sizes: neighbouring threads read neighbouring rows, {@code R} elements
 * apart) and some {@code s_k} is 1 (the thread walks along its row): the thread-per-row {@code
 * map(fn f64 ([f64] row) => reduce(op +, 0.0, row), m)} reads {@code m[i][k]} at {@code i * R + k}.
 * In the copy the same element is at {@code k * n + i}: {@code t} becomes 1. An input is read from
 * a copy when one of its loads is along a row per thread and each of its other loads is {@link
 * Pattern#SAME_FOR_ALL_THREADS} (a broadcast, which the copy leaves a broadcast): a kernel that
 * also reads it another way (the block-per-row loop of {@link SegmentedRows}, a reduction's chunks)
 * keeps it, as the copy would not make those reads coalesce and could spread them further.
 *
 * <h2>Threshold</h2>
 *
 * Sizes are known only at run time, so the choice is static, on the access pattern alone. The copy
 * costs one more coalesced read and write of the array; reads along rows per thread fetch a whole
 * memory sector per element whenever the rows are longer than a sector and the cache does not keep
 * a warp's 32 rows between iterations, which is the case for the large arrays the kernels are for.
 * Short or few rows pay for a copy they did not need, and get the same results: the transpose is
 * exact for every size, 0 and 1 included.
 */
final class UncoalescedReads {
  private static final String THREAD_ATOM = "threadIdx.x";

  /** How the threads of a block read a buffer at one load. */
  enum Pattern {
    /** The address does not depend on the thread's index in its block: one element for the warp. */
    SAME_FOR_ALL_THREADS,
    /** Neighbouring threads read neighbouring elements: coalesced. */
    NEIGHBOURS_ADJACENT,
    /**
     * Neighbouring threads read neighbouring rows, each walking along its row: uncoalesced, which a
     * transposed copy fixes.
     */
    ALONG_ROW_PER_THREAD,
    /**
     * Another affine dependence on the thread (a stride a copy with the row index innermost does
     * not remove).
     */
    OTHER_STRIDE,
    /**
     * The address is not affine in the thread's indices (read from memory, a division, a local the
     * thread updates).
     */
    NOT_AFFINE
  }

  /** A load from global buffer {@code buffer} by {@code kernel}, read with {@code pattern}. */
  record Read(String kernel, String buffer, Pattern pattern) {}

  private final Map<String, GroupInput.Array> inputsByBuffer = new HashMap<>();
  private final List<Read> reads = new ArrayList<>();
  private Kernel kernel;
  private Set<String> assigned;
  private Map<String, Optional<Affine>> locals;

  private UncoalescedReads(KernelGroup group) {
    for (GroupInput input : group.inputs()) {
      if (input instanceof GroupInput.Array array) {
        inputsByBuffer.put(array.buffer().name(), array);
      }
    }
    for (Kernel k : group.kernels()) {
      kernel = k;
      assigned = new HashSet<>();
      collectAssigned(k.body());
      locals = new HashMap<>();
      statements(k.body());
    }
  }

  /**
   * Every load from a global buffer in {@code group}'s kernels, in order, with its pattern (along a
   * row per thread only for the inputs' buffers, the buffers whose sizes the group knows).
   */
  static List<Read> reads(KernelGroup group) {
    return List.copyOf(new UncoalescedReads(group).reads);
  }

  /**
   * The inputs (program names) the rule says {@code group} should read from a copy with the row
   * index innermost.
   */
  static Set<String> toTranspose(KernelGroup group) {
    UncoalescedReads analysis = new UncoalescedReads(group);
    Map<String, Set<Pattern>> patterns = new LinkedHashMap<>();
    for (Read read : analysis.reads) {
      if (analysis.inputsByBuffer.containsKey(read.buffer())) {
        patterns.computeIfAbsent(read.buffer(), name -> new HashSet<>()).add(read.pattern());
      }
    }
    Set<String> chosen = new LinkedHashSet<>();
    patterns.forEach(
        (buffer, seen) -> {
          if (seen.contains(Pattern.ALONG_ROW_PER_THREAD)
              && Set.of(Pattern.ALONG_ROW_PER_THREAD, Pattern.SAME_FOR_ALL_THREADS)
                  .containsAll(seen)) {
            chosen.add(analysis.inputsByBuffer.get(buffer).name());
          }
        });
    return chosen;
  }

  private void collectAssigned(List<KernelStmt> body) {
    for (KernelStmt s : body) {
      if (s instanceof KernelStmt.Assign a) {
        assigned.add(a.variable().name());
      } else if (s instanceof KernelStmt.If i) {
        collectAssigned(i.thenBody());
        collectAssigned(i.elseBody());
      } else if (s instanceof KernelStmt.For f) {
        collectAssigned(f.body());
      } else if (s instanceof KernelStmt.While w) {
        collectAssigned(w.body());
      }
    }
  }

  private void statements(List<KernelStmt> body) {
    for (KernelStmt s : body) {
      statement(s);
    }
  }

  private void statement(KernelStmt s) {
    if (s instanceof KernelStmt.Declare d) {
      loads(d.initial());
      String name = d.variable().name();
      locals.put(name, assigned.contains(name) ? Optional.empty() : affine(d.initial()));
    } else if (s instanceof KernelStmt.Assign a) {
      loads(a.value());
    } else if (s instanceof KernelStmt.Store st) {
      loads(st.index());
      loads(st.value());
    } else if (s instanceof KernelStmt.SharedStore st) {
      loads(st.index());
      loads(st.value());
    } else if (s instanceof KernelStmt.If i) {
      loads(i.condition());
      statements(i.thenBody());
      statements(i.elseBody());
    } else if (s instanceof KernelStmt.For f) {
      loads(f.start());
      loads(f.bound());
      loads(f.step());
      Optional<Affine> start = affine(f.start());
      Optional<Affine> step = affine(f.step());
      Optional<Affine> counter =
          start.isPresent() && step.isPresent() && step.get().isUniform()
              ? Optional.of(
                  start
                      .get()
                      .plus(
                          Affine.atom("iteration of " + f.counter().name())
                              .times(step.get().constant())))
              : Optional.empty();
      locals.put(f.counter().name(), counter);
      statements(f.body());
    } else if (s instanceof KernelStmt.While w) {
      loads(w.condition());
      statements(w.body());
    } else if (s instanceof KernelStmt.RaiseError r) {
      r.values().forEach(this::loads);
    }
  }

  /** Records every load from a global buffer inside {@code e}. */
  private void loads(KernelExpr e) {
    if (e instanceof KernelExpr.Load l) {
      reads.add(
          new Read(
              kernel.name(),
              l.buffer().name(),
              classify(inputsByBuffer.get(l.buffer().name()), affine(l.index()))));
    }
    e.children().forEach(this::loads);
  }

  /**
   * The pattern of a load at {@code address} from {@code input}'s buffer, or from another buffer
   * where {@code input} is null.
   */
  private static Pattern classify(GroupInput.Array input, Optional<Affine> address) {
    if (address.isEmpty()) {
      return Pattern.NOT_AFFINE;
    }
    Polynomial threadStride = address.get().coefficient(THREAD_ATOM);
    if (threadStride.isConstant(0)) {
      return Pattern.SAME_FOR_ALL_THREADS;
    }
    if (threadStride.isConstant(1)) {
      return Pattern.NEIGHBOURS_ADJACENT;
    }
    boolean walksAlongRow =
        address.get().coefficients().entrySet().stream()
            .anyMatch(term -> !term.getKey().equals(THREAD_ATOM) && term.getValue().isConstant(1));
    return input != null
            && input.shape().size() >= 2
            && walksAlongRow
            && threadStride.equals(rowStride(input))
        ? Pattern.ALONG_ROW_PER_THREAD
        : Pattern.OTHER_STRIDE;
  }

  /** The product of the sizes of {@code input}'s dimensions after the first. */
  private static Polynomial rowStride(GroupInput.Array input) {
    Polynomial stride = Polynomial.constant(1);
    for (KernelExpr.Var d : input.shape().subList(1, input.shape().size())) {
      stride = stride.times(Polynomial.symbol(symbolOf(d)));
    }
    return stride;
  }

  private static String symbolOf(KernelExpr.Var v) {
    return "value " + v;
  }

  /**
   * The affine form of the integer expression {@code e}, or empty where it has none. A
   * block-uniform value computed otherwise (a division of sizes, a select) is a symbol of its own.
   */
  private Optional<Affine> affine(KernelExpr e) {
    if (e instanceof KernelExpr.Constant c && c.value() instanceof ScalarValue.Int i) {
      return Optional.of(Affine.uniform(Polynomial.constant(i.value())));
    }
    if (e instanceof KernelExpr.Var v && locals.containsKey(v.name())) {
      return locals.get(v.name());
    }
    if (e instanceof KernelExpr.Thread t && t.index() == ThreadIndex.THREAD_IDX) {
      return Optional.of(Affine.atom(THREAD_ATOM));
    }
    if (e instanceof KernelExpr.Binary b
        && b.operandType().isInteger()
        && (b.op() == BinaryOperator.ADD
            || b.op() == BinaryOperator.SUB
            || b.op() == BinaryOperator.MUL)) {
      Optional<Affine> left = affine(b.left());
      Optional<Affine> right = affine(b.right());
      if (left.isPresent() && right.isPresent()) {
        return combine(b.op(), left.get(), right.get());
      }
    }
    if (e instanceof KernelExpr.Unary u
        && u.op() == PrefixOperator.NEG
        && u.operand().type().isInteger()) {
      return affine(u.operand()).map(a -> a.times(Polynomial.constant(-1)));
    }
    if (e instanceof KernelExpr.Call c
        && c.function().kind() == Builtin.Kind.CONVERSION
        && c.args().get(0).type().isInteger()
        && c.type().isInteger()) {
      return affine(c.args().get(0));
    }
    return isUniform(e)
        ? Optional.of(Affine.uniform(Polynomial.symbol("value " + e)))
        : Optional.empty();
  }

  private Optional<Affine> combine(BinaryOperator op, Affine left, Affine right) {
    if (op == BinaryOperator.ADD) {
      return Optional.of(left.plus(right));
    }
    if (op == BinaryOperator.SUB) {
      return Optional.of(left.plus(right.times(Polynomial.constant(-1))));
    }
    if (right.isUniform()) {
      return Optional.of(left.times(right.constant()));
    }
    return left.isUniform() ? Optional.of(right.times(left.constant())) : Optional.empty();
  }

  /**
   * Whether {@code e} has one value for all threads of a block (it reads no thread index, loop
   * counter, updated local or memory).
   */
  private boolean isUniform(KernelExpr e) {
    if (e instanceof KernelExpr.Constant) {
      return true;
    }
    if (e instanceof KernelExpr.Var v) {
      return locals.containsKey(v.name())
          ? locals.get(v.name()).map(Affine::isUniform).orElse(false)
          : !assigned.contains(v.name());
    }
    if (e instanceof KernelExpr.Thread t) {
      return t.index() != ThreadIndex.THREAD_IDX;
    }
    if (e instanceof KernelExpr.Binary b) {
      return isUniform(b.left()) && isUniform(b.right());
    }
    if (e instanceof KernelExpr.Unary u) {
      return isUniform(u.operand());
    }
    if (e instanceof KernelExpr.Call c) {
      return c.args().stream().allMatch(this::isUniform);
    }
    if (e instanceof KernelExpr.Select s) {
      return isUniform(s.condition()) && isUniform(s.ifTrue()) && isUniform(s.ifFalse());
    }
    return false;
  }

  /**
   * A polynomial with integer coefficients in named block-uniform symbols: each monomial is the
   * sorted list of its factors' names (empty for the constant term), mapped to its coefficient.
   */
  private record Polynomial(Map<List<String>, Long> terms) {
    Polynomial {
      Map<List<String>, Long> nonZero = new HashMap<>();
      terms.forEach(
          (monomial, coefficient) -> {
            if (coefficient != 0) {
              nonZero.put(List.copyOf(monomial), coefficient);
            }
          });
      terms = Map.copyOf(nonZero);
    }

    static Polynomial constant(long value) {
      return new Polynomial(Map.of(List.of(), value));
    }

    static Polynomial symbol(String name) {
      return new Polynomial(Map.of(List.of(name), 1L));
    }

    boolean isConstant(long value) {
      return terms.equals(constant(value).terms());
    }

    Polynomial plus(Polynomial other) {
      Map<List<String>, Long> sum = new HashMap<>(terms);
      other.terms().forEach((monomial, coefficient) -> sum.merge(monomial, coefficient, Long::sum));
      return new Polynomial(sum);
    }

    Polynomial times(Polynomial other) {
      Map<List<String>, Long> product = new HashMap<>();
      terms.forEach(
          (left, a) ->
              other
                  .terms()
                  .forEach(
                      (right, b) -> {
                        List<String> factors = new ArrayList<>(left);
                        factors.addAll(right);
                        factors.sort(null);
                        product.merge(factors, a * b, Long::sum);
                      }));
      return new Polynomial(product);
    }
  }

  /**
   * {@code constant + sum(coefficient(atom) * atom)}: the atoms vary within a block (the thread's
   * index, a loop's iteration count), the polynomials do not.
   */
  private record Affine(Polynomial constant, Map<String, Polynomial> coefficients) {
    Affine {
      Map<String, Polynomial> nonZero = new HashMap<>();
      coefficients.forEach(
          (atom, coefficient) -> {
            if (!coefficient.isConstant(0)) {
              nonZero.put(atom, coefficient);
            }
          });
      coefficients = Map.copyOf(nonZero);
    }

    static Affine uniform(Polynomial value) {
      return new Affine(value, Map.of());
    }

    static Affine atom(String name) {
      return new Affine(Polynomial.constant(0), Map.of(name, Polynomial.constant(1)));
    }

    boolean isUniform() {
      return coefficients.isEmpty();
    }

    Polynomial coefficient(String atom) {
      return coefficients.getOrDefault(atom, Polynomial.constant(0));
    }

    Affine plus(Affine other) {
      Map<String, Polynomial> sum = new HashMap<>(coefficients);
      other
          .coefficients()
          .forEach((atom, coefficient) -> sum.merge(atom, coefficient, Polynomial::plus));
      return new Affine(constant.plus(other.constant()), sum);
    }

    Affine times(Polynomial factor) {
      Map<String, Polynomial> scaled = new HashMap<>();
      coefficients.forEach((atom, coefficient) -> scaled.put(atom, coefficient.times(factor)));
      return new Affine(constant.times(factor), scaled);
    }
  }
}
