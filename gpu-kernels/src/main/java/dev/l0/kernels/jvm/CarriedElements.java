package dev.l0.kernels.jvm;

import dev.l0.ir.BinaryOperator;
import dev.l0.ir.Builtin;
import dev.l0.ir.ScalarType;
import dev.l0.ir.ScalarValue;
import dev.l0.kernels.ir.Buffer;
import dev.l0.kernels.ir.Kernel;
import dev.l0.kernels.ir.KernelExpr;
import dev.l0.kernels.ir.KernelStmt;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;

/**
 * A loop inside a thread that reads back the element its previous iteration stored (a sequential
 * sweep such as {@code b[i] = b[i] - a[i] / b[i - 1] * c[i - 1]}) takes that value from a local
 * instead of from memory: the store also keeps its value in a local, and the read uses it when the
 * previous iteration stored. HotSpot keeps the local in a register, so the sweep's chain of
 * dependent operations no longer waits each iteration for a store to reach a load through memory.
 * The values are the same ones, so the results are the same bits.
 *
 * <p>A loop qualifies when its step is a constant, its body has no loops, {@code while}s or
 * barriers, and it stores an {@code f64} to a thread's own buffer at an index whose value at
 * iteration {@code k} an earlier read of the body (a declaration or assignment whose whole value is
 * the load) has at iteration {@code k + 1}: both indices are sums of the counter times a nonzero
 * constant, the body's own single-assignment locals, and values the body does not change, which
 * differ by the counter's coefficient times the step. No other store of the body may reach the part
 * of the buffer that store writes ({@link ThreadPrivateParts}), so memory and the local hold the
 * same value whenever the previous iteration stored. (Integer conversions count as the value
 * itself: an index that overflowed would be out of its array's bounds and raise the kernel's error
 * anyway.)
 */
final class CarriedElements {
  private final Map<String, Integer> names = new HashMap<>();

  private CarriedElements() {}

  /** {@code kernel} with every qualifying loop rewritten (see the class comment). */
  static Kernel of(Kernel kernel) {
    List<KernelStmt> body = new CarriedElements().rewritten(kernel.body());
    return body.equals(kernel.body())
        ? kernel
        : new Kernel(kernel.name(), kernel.buffers(), kernel.scalars(), kernel.shared(), body);
  }

  private List<KernelStmt> rewritten(List<KernelStmt> body) {
    List<KernelStmt> out = new ArrayList<>();
    for (KernelStmt s : body) {
      if (s instanceof KernelStmt.If i) {
        out.add(new KernelStmt.If(i.condition(), rewritten(i.thenBody()), rewritten(i.elseBody())));
      } else if (s instanceof KernelStmt.While w) {
        out.add(new KernelStmt.While(w.condition(), rewritten(w.body())));
      } else if (s instanceof KernelStmt.For f) {
        KernelStmt.For inner =
            new KernelStmt.For(f.counter(), f.start(), f.bound(), f.step(), rewritten(f.body()));
        out.addAll(carried(inner));
      } else {
        out.add(s);
      }
    }
    return out;
  }

  /** A store of the loop whose element the next iteration reads, with those reads. */
  private record Pair(KernelStmt.Store store, List<KernelStmt> reads) {}

  /** {@code loop} with its carried elements in locals, or as it is where none qualifies. */
  private List<KernelStmt> carried(KernelStmt.For loop) {
    if (!(loop.step() instanceof KernelExpr.Constant c)
        || !(c.value() instanceof ScalarValue.Int step)
        || step.value() == 0
        || !InnerLoopStages.straightLine(loop.body())) {
      return List.of(loop);
    }
    List<KernelStmt> flat = new ArrayList<>();
    flatten(loop.body(), flat);
    Map<String, KernelExpr> singleDefinitions = singleDefinitions(flat);
    Set<String> assigned = assignedOrDeclared(flat);
    assigned.removeAll(singleDefinitions.keySet());
    Linear.Context context = new Linear.Context(loop.counter().name(), singleDefinitions, assigned);
    List<Pair> pairs = new ArrayList<>();
    for (int k = 0; k < flat.size(); k++) {
      if (flat.get(k) instanceof KernelStmt.Store store && qualifies(store, flat)) {
        Optional<Linear> stored = Linear.of(store.index(), context);
        if (stored.isEmpty() || stored.get().coefficient(loop.counter().name()) == 0) {
          continue;
        }
        Linear previous =
            stored.get().plus(-stored.get().coefficient(loop.counter().name()) * step.value());
        List<KernelStmt> reads = new ArrayList<>();
        for (KernelStmt earlier : flat.subList(0, k)) {
          KernelExpr value = wholeValue(earlier);
          if (value instanceof KernelExpr.Load load
              && load.buffer().equals(store.buffer())
              && Linear.of(load.index(), context).filter(previous::equals).isPresent()) {
            reads.add(earlier);
          }
        }
        if (!reads.isEmpty()) {
          pairs.add(new Pair(store, reads));
        }
      }
    }
    if (pairs.isEmpty()) {
      return List.of(loop);
    }
    return rewrite(loop, pairs);
  }

  /**
   * Whether {@code store} writes an {@code f64} of a thread's own buffer to a part no other store
   * of the body reaches.
   */
  private static boolean qualifies(KernelStmt.Store store, List<KernelStmt> flat) {
    Buffer buffer = store.buffer();
    if (!buffer.isThreadPrivate() || buffer.elementType() != ScalarType.F64) {
      return false;
    }
    for (KernelStmt s : flat) {
      if (s != store
          && s instanceof KernelStmt.Store other
          && other.buffer().equals(buffer)
          && ThreadPrivateParts.mayOverlap(buffer, other.index(), store.index())) {
        return false;
      }
    }
    return true;
  }

  private List<KernelStmt> rewrite(KernelStmt.For loop, List<Pair> pairs) {
    List<KernelStmt> before = new ArrayList<>();
    List<KernelStmt> top = new ArrayList<>();
    Map<KernelStmt, List<KernelStmt>> replacements = new java.util.IdentityHashMap<>();
    for (Pair pair : pairs) {
      KernelExpr.Var value = fresh("carried$", ScalarType.F64);
      KernelExpr.Var stored = fresh("stored$", ScalarType.BOOL);
      KernelExpr.Var previous = fresh("previous$", ScalarType.BOOL);
      before.add(new KernelStmt.Declare(value, new KernelExpr.Constant(ScalarValue.f64(0.0))));
      before.add(new KernelStmt.Declare(stored, constant(false)));
      top.add(new KernelStmt.Declare(previous, stored));
      top.add(new KernelStmt.Assign(stored, constant(false)));
      for (KernelStmt read : pair.reads()) {
        List<KernelStmt> replaced = new ArrayList<>();
        KernelExpr.Var target;
        if (read instanceof KernelStmt.Declare d) {
          target = d.variable();
          replaced.add(new KernelStmt.Declare(target, zero(target.type())));
        } else {
          target = ((KernelStmt.Assign) read).variable();
        }
        replaced.add(
            new KernelStmt.If(
                previous,
                List.of(new KernelStmt.Assign(target, value)),
                List.of(new KernelStmt.Assign(target, wholeValue(read)))));
        replacements.put(read, replaced);
      }
      KernelStmt.Store store = pair.store();
      List<KernelStmt> keeping = new ArrayList<>();
      KernelExpr v = store.value();
      if (!(v instanceof KernelExpr.Var || v instanceof KernelExpr.Constant)) {
        KernelExpr.Var temp = fresh("storing$", ScalarType.F64);
        keeping.add(new KernelStmt.Declare(temp, v));
        v = temp;
      }
      keeping.add(new KernelStmt.Store(store.buffer(), store.index(), v));
      keeping.add(new KernelStmt.Assign(value, v));
      keeping.add(new KernelStmt.Assign(stored, constant(true)));
      replacements.put(store, keeping);
    }
    List<KernelStmt> body = new ArrayList<>(top);
    body.addAll(replaced(loop.body(), replacements));
    before.add(new KernelStmt.For(loop.counter(), loop.start(), loop.bound(), loop.step(), body));
    // a block of its own, so that the locals stay with the loop wherever it is printed
    return List.of(new KernelStmt.If(constant(true), before, List.of()));
  }

  private static List<KernelStmt> replaced(
      List<KernelStmt> body, Map<KernelStmt, List<KernelStmt>> replacements) {
    List<KernelStmt> out = new ArrayList<>();
    for (KernelStmt s : body) {
      List<KernelStmt> replacement = replacements.get(s);
      if (replacement != null) {
        out.addAll(replacement);
      } else if (s instanceof KernelStmt.If i) {
        out.add(
            new KernelStmt.If(
                i.condition(),
                replaced(i.thenBody(), replacements),
                replaced(i.elseBody(), replacements)));
      } else {
        out.add(s);
      }
    }
    return out;
  }

  private KernelExpr.Var fresh(String base, ScalarType type) {
    int n = names.merge(base, 1, Integer::sum) - 1;
    return new KernelExpr.Var(base + n, type);
  }

  private static KernelExpr constant(boolean value) {
    return new KernelExpr.Constant(ScalarValue.bool(value));
  }

  private static KernelExpr zero(ScalarType type) {
    return new KernelExpr.Constant(
        type == ScalarType.F32 ? ScalarValue.f32(0f) : ScalarValue.f64(0.0));
  }

  /** The value of a declaration or an assignment, else null. */
  private static KernelExpr wholeValue(KernelStmt s) {
    if (s instanceof KernelStmt.Declare d) {
      return d.initial();
    }
    return s instanceof KernelStmt.Assign a ? a.value() : null;
  }

  /** The statements of {@code body} in the order they are written, the ifs' bodies included. */
  private static void flatten(List<KernelStmt> body, List<KernelStmt> out) {
    for (KernelStmt s : body) {
      out.add(s);
      if (s instanceof KernelStmt.If i) {
        flatten(i.thenBody(), out);
        flatten(i.elseBody(), out);
      }
    }
  }

  /** The locals the body declares once and never assigns, with their values. */
  private static Map<String, KernelExpr> singleDefinitions(List<KernelStmt> flat) {
    Map<String, KernelExpr> declared = new HashMap<>();
    Set<String> changed = new HashSet<>();
    for (KernelStmt s : flat) {
      if (s instanceof KernelStmt.Declare d
          && declared.put(d.variable().name(), d.initial()) != null) {
        changed.add(d.variable().name());
      } else if (s instanceof KernelStmt.Assign a) {
        changed.add(a.variable().name());
      }
    }
    declared.keySet().removeAll(changed);
    return declared;
  }

  private static Set<String> assignedOrDeclared(List<KernelStmt> flat) {
    Set<String> names = new HashSet<>();
    for (KernelStmt s : flat) {
      if (s instanceof KernelStmt.Declare d) {
        names.add(d.variable().name());
      } else if (s instanceof KernelStmt.Assign a) {
        names.add(a.variable().name());
      }
    }
    return names;
  }

  /**
   * An integer index as a sum: a constant plus coefficients times variables (the loop's counter and
   * values the loop does not change).
   */
  record Linear(long constant, Map<String, Long> coefficients) {
    Linear {
      Map<String, Long> nonzero = new HashMap<>();
      coefficients.forEach(
          (name, c) -> {
            if (c != 0) {
              nonzero.put(name, c);
            }
          });
      coefficients = Map.copyOf(nonzero);
    }

    /** The counter, the body's single definitions, and the names the body changes otherwise. */
    record Context(String counter, Map<String, KernelExpr> definitions, Set<String> changed) {}

    long coefficient(String name) {
      return coefficients.getOrDefault(name, 0L);
    }

    Linear plus(long c) {
      return new Linear(constant + c, coefficients);
    }

    private Linear plus(Linear other, long sign) {
      Map<String, Long> sum = new HashMap<>(coefficients);
      other.coefficients.forEach((name, c) -> sum.merge(name, sign * c, Long::sum));
      return new Linear(constant + sign * other.constant, sum);
    }

    private Linear times(long c) {
      Map<String, Long> product = new HashMap<>();
      coefficients.forEach((name, k) -> product.put(name, k * c));
      return new Linear(constant * c, product);
    }

    /** {@code e} as a sum, or empty where it is not one of integer values. */
    static Optional<Linear> of(KernelExpr e, Context context) {
      if (e instanceof KernelExpr.Constant c && c.value() instanceof ScalarValue.Int i) {
        return Optional.of(new Linear(i.value(), Map.of()));
      }
      if (e instanceof KernelExpr.Var v) {
        if (!v.type().isInteger()) {
          return Optional.empty();
        }
        KernelExpr definition = context.definitions().get(v.name());
        if (definition != null) {
          return of(definition, context);
        }
        if (context.changed().contains(v.name())) {
          return Optional.empty();
        }
        return Optional.of(new Linear(0, Map.of(v.name(), 1L)));
      }
      if (e instanceof KernelExpr.Call call
          && (call.function() == Builtin.TO_I32 || call.function() == Builtin.TO_I64)
          && call.args().get(0).type().isInteger()) {
        return of(call.args().get(0), context);
      }
      if (e instanceof KernelExpr.Binary b && b.operandType().isInteger()) {
        Optional<Linear> left = of(b.left(), context);
        Optional<Linear> right = of(b.right(), context);
        if (left.isEmpty() || right.isEmpty()) {
          return Optional.empty();
        }
        if (b.op() == BinaryOperator.ADD) {
          return Optional.of(left.get().plus(right.get(), 1));
        }
        if (b.op() == BinaryOperator.SUB) {
          return Optional.of(left.get().plus(right.get(), -1));
        }
        if (b.op() == BinaryOperator.MUL && right.get().coefficients.isEmpty()) {
          return Optional.of(left.get().times(right.get().constant));
        }
        if (b.op() == BinaryOperator.MUL && left.get().coefficients.isEmpty()) {
          return Optional.of(right.get().times(left.get().constant));
        }
        if (b.op() == BinaryOperator.MUL
            && left.get().coefficient(context.counter()) == 0
            && right.get().coefficient(context.counter()) == 0) {
          // a product of values the loop does not change: one unknown of its own
          String product = "(" + left.get().key() + ")*(" + right.get().key() + ")";
          return Optional.of(new Linear(0, Map.of(product, 1L)));
        }
      }
      return Optional.empty();
    }

    /** The sum written out with its terms in the order of their names. */
    private String key() {
      return constant + "+" + new java.util.TreeMap<>(coefficients);
    }

    @Override
    public boolean equals(Object o) {
      return o instanceof Linear l && l.constant == constant && l.coefficients.equals(coefficients);
    }

    @Override
    public int hashCode() {
      return Objects.hash(constant, coefficients);
    }
  }
}
