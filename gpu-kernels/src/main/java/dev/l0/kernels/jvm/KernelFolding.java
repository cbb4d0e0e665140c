package dev.l0.kernels.jvm;

import dev.l0.ir.BinaryOperator;
import dev.l0.ir.Builtin;
import dev.l0.ir.L0RuntimeError;
import dev.l0.ir.ScalarType;
import dev.l0.ir.ScalarValue;
import dev.l0.ir.SourcePos;
import dev.l0.kernels.ir.Kernel;
import dev.l0.kernels.ir.KernelExpr;
import dev.l0.kernels.ir.KernelStmt;
import dev.l0.semantics.ScalarOperations;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Constant folding and dead-branch elimination on a kernel before it is printed as Java: what the
 * kernel's constants decide (a form specialised to its launch's scalars, {@link
 * dev.l0.kernels.ir.ScalarSpecialisation}, fixes its loops' trip counts, and with them most of its
 * bounds and size checks) is decided here instead of being left to the JIT compiler. HotSpot
 * interprets, compiles and inlines by bytecode size and never compiles a method over 8,000 bytes,
 * so statements that no launch can run cost warm-up time and force statements into methods of their
 * own ({@link OutlinedStatements}). The rules, applied until none applies:
 *
 * <ul>
 *   <li>An operation on constants whose value is an integer or a boolean is that value, computed by
 *       {@link ScalarOperations} (the interpreter's arithmetic, which the printed code implements);
 *       one that would raise an error stays.
 *   <li>A comparison of integers whose ranges decide it is that answer. Inside a loop whose body
 *       never assigns its counter, the counter is at least the loop's start and below its bound
 *       (the kernel IR's loops step forward, and their bounds read nothing the body assigns): so
 *       {@code counter < bound} is true there, and where start and bound are constants the counter
 *       ranges over {@code [start, bound - 1]}. A conversion keeps a range that fits its type.
 *   <li>{@code true && x} and {@code x && true} are {@code x}, {@code false && x} is false, as is
 *       {@code x && false} where {@code x} reads no memory; the same for {@code ||}; a choice
 *       ({@code c ? a : b}) on a constant is the branch it takes.
 *   <li>A local declared once, with a constant, and never assigned is that constant, and its
 *       declaration goes.
 *   <li>An {@code if} on a constant is the branch it takes: its statements in place of the {@code
 *       if} where no local they declare is declared anywhere else in the kernel, else as {@code if
 *       (true)}, which keeps the branch's own scope. An {@code if} with two empty branches, and a
 *       loop whose constant bounds give it no iteration, go.
 * </ul>
 *
 * Every rule keeps what each thread computes, stores and raises, so the folded kernel runs as the
 * given one does.
 */
final class KernelFolding {
  private static final KernelExpr TRUE = new KernelExpr.Constant(ScalarValue.bool(true));
  private static final KernelExpr FALSE = new KernelExpr.Constant(ScalarValue.bool(false));

  /** Passes after which folding stops even if a rule still applies (each pass is linear). */
  private static final int MOST_PASSES = 8;

  private KernelFolding() {}

  /** {@code kernel} folded. */
  static Kernel of(Kernel kernel) {
    List<KernelStmt> body = kernel.body();
    for (int pass = 0; pass < MOST_PASSES; pass++) {
      Map<String, KernelExpr> initial = new HashMap<>();
      Set<String> notConstant = new HashSet<>();
      Set<String> declaredTwice = new HashSet<>();
      collectDeclarations(body, initial, notConstant, declaredTwice);
      initial.keySet().removeAll(notConstant);
      List<KernelStmt> folded = new Pass(initial, declaredTwice).statements(body);
      if (folded.equals(body)) {
        break;
      }
      body = folded;
    }
    return new Kernel(kernel.name(), kernel.buffers(), kernel.scalars(), kernel.shared(), body);
  }

  /**
   * Adds to {@code initial} the first initial value of every local {@code body} declares, to {@code
   * notConstant} the locals that are not declared once with a constant and never assigned, and to
   * {@code declaredTwice} the names declared more than once (loop counters included).
   */
  private static void collectDeclarations(
      List<KernelStmt> body,
      Map<String, KernelExpr> initial,
      Set<String> notConstant,
      Set<String> declaredTwice) {
    for (KernelStmt s : body) {
      if (s instanceof KernelStmt.Declare d) {
        String name = d.variable().name();
        if (initial.putIfAbsent(name, d.initial()) != null) {
          declaredTwice.add(name);
          notConstant.add(name);
        } else if (!(d.initial() instanceof KernelExpr.Constant)) {
          notConstant.add(name);
        }
      } else if (s instanceof KernelStmt.Assign a) {
        notConstant.add(a.variable().name());
      } else if (s instanceof KernelStmt.For f) {
        String name = f.counter().name();
        if (initial.putIfAbsent(name, f.start()) != null) {
          declaredTwice.add(name);
        }
        notConstant.add(name);
      }
      s.withParts(
          e -> e,
          b -> {
            collectDeclarations(b, initial, notConstant, declaredTwice);
            return b;
          });
    }
  }

  /** Whether {@code body} declares (at any depth) one of {@code names}. */
  private static boolean declaresAny(List<KernelStmt> body, Set<String> names) {
    for (KernelStmt s : body) {
      boolean[] found = {
        (s instanceof KernelStmt.Declare d && names.contains(d.variable().name()))
            || (s instanceof KernelStmt.For f && names.contains(f.counter().name()))
      };
      s.withParts(
          e -> e,
          b -> {
            found[0] |= declaresAny(b, names);
            return b;
          });
      if (found[0]) {
        return true;
      }
    }
    return false;
  }

  /**
   * What is known of a loop counter inside its loop's body: it lies in {@code [first, last]} and
   * below {@code bound} (without the conversions that keep its value).
   */
  private record Counter(long first, long last, KernelExpr bound) {}

  /** One pass over a kernel's statements. */
  private static final class Pass {
    private final Map<String, KernelExpr> constantLocals;
    private final Set<String> declaredTwice;

    /** What is known of the loop counters in scope. */
    private final Map<String, Counter> counters = new HashMap<>();

    Pass(Map<String, KernelExpr> constantLocals, Set<String> declaredTwice) {
      this.constantLocals = constantLocals;
      this.declaredTwice = declaredTwice;
    }

    List<KernelStmt> statements(List<KernelStmt> body) {
      List<KernelStmt> out = new ArrayList<>();
      for (KernelStmt s : body) {
        statement(s, out);
      }
      return out;
    }

    private void statement(KernelStmt s, List<KernelStmt> out) {
      if (s instanceof KernelStmt.Declare d && constantLocals.containsKey(d.variable().name())) {
        return;
      }
      if (s instanceof KernelStmt.If i) {
        KernelExpr condition = expr(i.condition());
        if (condition.equals(TRUE) || condition.equals(FALSE)) {
          List<KernelStmt> taken = statements(condition.equals(TRUE) ? i.thenBody() : i.elseBody());
          if (!declaresAny(taken, declaredTwice)) {
            out.addAll(taken);
          } else if (!taken.isEmpty()) {
            out.add(new KernelStmt.If(TRUE, taken, List.of()));
          }
          return;
        }
        List<KernelStmt> thenBody = statements(i.thenBody());
        List<KernelStmt> elseBody = statements(i.elseBody());
        if (!thenBody.isEmpty() || !elseBody.isEmpty() || readsMemory(condition)) {
          out.add(new KernelStmt.If(condition, thenBody, elseBody));
        }
        return;
      }
      if (s instanceof KernelStmt.For f) {
        KernelExpr start = expr(f.start());
        KernelExpr bound = expr(f.bound());
        KernelExpr step = expr(f.step());
        String name = f.counter().name();
        Counter counter =
            assigns(f.body(), name)
                ? null
                : new Counter(range(start)[0], range(bound)[1] - 1, strip(bound));
        if (counter != null && counter.first() > counter.last()) {
          return;
        }
        Counter outer = counter == null ? counters.remove(name) : counters.put(name, counter);
        List<KernelStmt> body = statements(f.body());
        if (outer == null) {
          counters.remove(name);
        } else {
          counters.put(name, outer);
        }
        out.add(new KernelStmt.For(f.counter(), start, bound, step, body));
        return;
      }
      out.add(s.withParts(this::expr, this::statements));
    }

    private static boolean assigns(List<KernelStmt> body, String name) {
      for (KernelStmt s : body) {
        boolean[] found = {s instanceof KernelStmt.Assign a && a.variable().name().equals(name)};
        s.withParts(
            e -> e,
            b -> {
              found[0] |= assigns(b, name);
              return b;
            });
        if (found[0]) {
          return true;
        }
      }
      return false;
    }

    KernelExpr expr(KernelExpr e) {
      if (e instanceof KernelExpr.Var v) {
        return constantLocals.getOrDefault(v.name(), v);
      }
      KernelExpr folded = e.withChildren(e.children().stream().map(this::expr).toList());
      if (folded instanceof KernelExpr.Select s && isBool(s.condition())) {
        return s.condition().equals(TRUE) ? s.ifTrue() : s.ifFalse();
      }
      if (folded instanceof KernelExpr.Binary b && b.op().kind() == BinaryOperator.Kind.LOGICAL) {
        return logical(b);
      }
      ScalarValue value = value(folded);
      if (value != null) {
        return new KernelExpr.Constant(value);
      }
      if (folded instanceof KernelExpr.Binary b
          && b.op().kind() == BinaryOperator.Kind.COMPARISON
          && b.operandType().isInteger()) {
        return comparison(b);
      }
      return folded;
    }

    /** {@code b} (an {@code &&} or {@code ||}) where one side is a constant. */
    private static KernelExpr logical(KernelExpr.Binary b) {
      boolean and = b.op() == BinaryOperator.AND;
      KernelExpr absorbing = and ? FALSE : TRUE;
      KernelExpr neutral = and ? TRUE : FALSE;
      if (b.left().equals(neutral)) {
        return b.right();
      }
      if (b.right().equals(neutral)) {
        return b.left();
      }
      if (b.left().equals(absorbing) || (b.right().equals(absorbing) && !readsMemory(b.left()))) {
        return absorbing;
      }
      return b;
    }

    /**
     * {@code b} (an integer comparison) as a constant where its operands' ranges decide it, or
     * where it compares a loop's counter with that loop's bound.
     */
    private KernelExpr comparison(KernelExpr.Binary b) {
      if (belowItsBound(b.left(), b.right())) {
        return switch (b.op()) {
          case LT, NEQ -> TRUE;
          case GEQ, EQ -> FALSE;
          default -> b;
        };
      }
      if (belowItsBound(b.right(), b.left())) {
        return switch (b.op()) {
          case GT, NEQ -> TRUE;
          case LEQ, EQ -> FALSE;
          default -> b;
        };
      }
      long[] left = range(b.left());
      long[] right = range(b.right());
      Boolean answer =
          switch (b.op()) {
            case LT -> decided(left[1] < right[0], left[0] >= right[1]);
            case LEQ -> decided(left[1] <= right[0], left[0] > right[1]);
            case GT -> decided(left[0] > right[1], left[1] <= right[0]);
            case GEQ -> decided(left[0] >= right[1], left[1] < right[0]);
            case EQ ->
                decided(
                    left[0] == left[1] && right[0] == right[1] && left[0] == right[0],
                    left[1] < right[0] || right[1] < left[0]);
            case NEQ ->
                decided(
                    left[1] < right[0] || right[1] < left[0],
                    left[0] == left[1] && right[0] == right[1] && left[0] == right[0]);
            default -> null;
          };
      return answer == null ? b : (answer ? TRUE : FALSE);
    }

    /**
     * Whether {@code e} is the counter of a loop in scope (converted) and {@code bound} its bound.
     */
    private boolean belowItsBound(KernelExpr e, KernelExpr bound) {
      return strip(e) instanceof KernelExpr.Var v
          && counters.containsKey(v.name())
          && counters.get(v.name()).bound().equals(strip(bound));
    }

    private static Boolean decided(boolean alwaysTrue, boolean alwaysFalse) {
      return alwaysTrue ? Boolean.TRUE : alwaysFalse ? Boolean.FALSE : null;
    }

    /** {@code e} without the integer conversions that keep its value. */
    private KernelExpr strip(KernelExpr e) {
      if (e instanceof KernelExpr.Call c
          && (c.function() == Builtin.TO_I32 || c.function() == Builtin.TO_I64)
          && c.args().get(0).type().isInteger()
          && fits(range(c.args().get(0)), c.type())) {
        return strip(c.args().get(0));
      }
      return e;
    }

    /**
     * The least and greatest value of the integer {@code e} ({@code {least, greatest}}): exact for
     * a constant, the values a loop counter takes in its body, kept by a conversion that fits, else
     * all values of its type.
     */
    private long[] range(KernelExpr e) {
      if (e instanceof KernelExpr.Constant c && c.value() instanceof ScalarValue.Int i) {
        return new long[] {i.value(), i.value()};
      }
      if (e instanceof KernelExpr.Var v && counters.containsKey(v.name())) {
        Counter counter = counters.get(v.name());
        return new long[] {counter.first(), counter.last()};
      }
      if (e instanceof KernelExpr.Call c
          && (c.function() == Builtin.TO_I32 || c.function() == Builtin.TO_I64)
          && c.args().get(0).type().isInteger()) {
        long[] argument = range(c.args().get(0));
        if (fits(argument, c.type())) {
          return argument;
        }
      }
      return e.type() == ScalarType.I32
          ? new long[] {Integer.MIN_VALUE, Integer.MAX_VALUE}
          : new long[] {Long.MIN_VALUE, Long.MAX_VALUE};
    }

    private static boolean fits(long[] range, ScalarType type) {
      return type == ScalarType.I64
          || (range[0] >= Integer.MIN_VALUE && range[1] <= Integer.MAX_VALUE);
    }

    /** The value of {@code e} where it applies an operation to constants, or null. */
    private static ScalarValue value(KernelExpr e) {
      if (!(e instanceof KernelExpr.Binary
          || e instanceof KernelExpr.Unary
          || (e instanceof KernelExpr.Call c
              && c.args().stream().noneMatch(a -> a.type().isFloat())))) {
        return null;
      }
      List<ScalarValue> operands = new ArrayList<>();
      for (KernelExpr child : e.children()) {
        if (!(child instanceof KernelExpr.Constant c)) {
          return null;
        }
        operands.add(c.value());
      }
      if (e instanceof KernelExpr.Binary b
          && operands.stream().anyMatch(o -> o.type() != b.operandType())) {
        return null;
      }
      try {
        ScalarValue result;
        if (e instanceof KernelExpr.Binary b) {
          result =
              ScalarOperations.binary(b.op(), operands.get(0), operands.get(1), SourcePos.NONE);
        } else if (e instanceof KernelExpr.Unary u) {
          result = ScalarOperations.unary(u.op(), operands.get(0), SourcePos.NONE);
        } else {
          result =
              ScalarOperations.builtin(((KernelExpr.Call) e).function(), operands, SourcePos.NONE);
        }
        return result instanceof ScalarValue.Float ? null : result;
      } catch (L0RuntimeError raised) {
        return null;
      }
    }

    private static boolean isBool(KernelExpr e) {
      return e.equals(TRUE) || e.equals(FALSE);
    }

    private static boolean readsMemory(KernelExpr e) {
      return e instanceof KernelExpr.Load
          || e instanceof KernelExpr.SharedLoad
          || e.children().stream().anyMatch(Pass::readsMemory);
    }
  }
}
