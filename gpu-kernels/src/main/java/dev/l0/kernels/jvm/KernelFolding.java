package dev.l0.kernels.jvm;

import dev.l0.ir.BinaryOperator;
import dev.l0.ir.Builtin;
import dev.l0.ir.ScalarType;
import dev.l0.ir.ScalarValue;
import dev.l0.kernels.ir.Kernel;
import dev.l0.kernels.ir.KernelExpr;
import dev.l0.kernels.ir.KernelStmt;
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
 *       {@link dev.l0.semantics.ScalarOperations} (the interpreter's arithmetic, which the printed
 *       code implements); one that would raise an error stays.
 *   <li>A comparison of integers is decided where it compares a loop's counter with that loop's
 *       bound, or that bound plus a constant that is not negative (inside a loop whose body never
 *       assigns its counter, the counter is at least the loop's start and below its bound: the
 *       kernel IR's loops step forward, and their bounds read nothing the body assigns), where both
 *       sides add the same constant to values so decided without wrapping around, or where the
 *       operands' ranges decide it. Ranges follow constants, loop counters ({@code [start, bound -
 *       1]}), locals declared once and never assigned (their values), conversions, sums,
 *       differences, products, {@code min} and {@code max} wherever these do not wrap around, and
 *       are all values of the type elsewhere. Comparisons read through conversions that keep a
 *       value and through such locals whose values read only variables that cannot change in
 *       between, and no memory.
 *   <li>{@code true && x} and {@code x && true} are {@code x}, {@code false && x} is false, as is
 *       {@code x && false} where {@code x} reads no memory; the same for {@code ||}; a choice
 *       ({@code c ? a : b}) on a constant is the branch it takes.
 *   <li>A local declared once and never assigned whose value folds to a constant is that constant,
 *       and its declaration goes.
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
      Set<String> unchanging = new HashSet<>();
      Set<String> varying = new HashSet<>();
      Set<String> declaredTwice = new HashSet<>();
      collectDeclarations(body, unchanging, varying, declaredTwice);
      unchanging.removeAll(varying);
      List<KernelStmt> folded = new Pass(unchanging, varying, declaredTwice).statements(body);
      if (folded.equals(body)) {
        break;
      }
      body = folded;
    }
    return new Kernel(kernel.name(), kernel.buffers(), kernel.scalars(), kernel.shared(), body);
  }

  /**
   * Adds to {@code declared} every variable {@code body} declares (loop counters included), to
   * {@code varying} those declared more than once or assigned (loop counters included), and to
   * {@code declaredTwice} the names declared more than once.
   */
  private static void collectDeclarations(
      List<KernelStmt> body, Set<String> declared, Set<String> varying, Set<String> declaredTwice) {
    for (KernelStmt s : body) {
      String name =
          s instanceof KernelStmt.Declare d
              ? d.variable().name()
              : s instanceof KernelStmt.For f ? f.counter().name() : null;
      if (name != null && !declared.add(name)) {
        declaredTwice.add(name);
        varying.add(name);
      }
      if (s instanceof KernelStmt.For) {
        varying.add(name);
      } else if (s instanceof KernelStmt.Assign a) {
        varying.add(a.variable().name());
      }
      s.withParts(
          e -> e,
          b -> {
            collectDeclarations(b, declared, varying, declaredTwice);
            return b;
          });
    }
  }

  /** Whether {@code body} declares (at any depth) one of {@code names}. */
  private static boolean declaresAny(List<KernelStmt> body, Set<String> names) {
    return KernelStmt.anyIn(
        body,
        s ->
            (s instanceof KernelStmt.Declare d && names.contains(d.variable().name()))
                || (s instanceof KernelStmt.For f && names.contains(f.counter().name())));
  }

  /**
   * What is known of a loop counter inside its loop's body: it lies in {@code [first, last]} and
   * below {@code bound} (without the conversions that keep its value).
   */
  private record Counter(long first, long last, KernelExpr bound) {}

  /** One pass over a kernel's statements. */
  private static final class Pass {
    /** The locals declared once and never assigned. */
    private final Set<String> unchanging;

    /** The variables declared more than once or assigned (loop counters included). */
    private final Set<String> varying;

    private final Set<String> declaredTwice;

    /**
     * The values (folded) of the unchanging locals declared so far that are not constants, which
     * the pass reads through to find their ranges and to compare them.
     */
    private final Map<String, KernelExpr> unchangingValues = new HashMap<>();

    /** The unchanging locals declared with a constant: reads of them are that constant. */
    private final Map<String, KernelExpr> constantLocals = new HashMap<>();

    /** What is known of the loop counters in scope. */
    private final Map<String, Counter> counters = new HashMap<>();

    Pass(Set<String> unchanging, Set<String> varying, Set<String> declaredTwice) {
      this.unchanging = unchanging;
      this.varying = varying;
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
      if (s instanceof KernelStmt.Declare d && unchanging.contains(d.variable().name())) {
        KernelExpr value = expr(d.initial());
        if (value instanceof KernelExpr.Constant) {
          constantLocals.put(d.variable().name(), value);
          return;
        }
        unchangingValues.put(d.variable().name(), value);
        out.add(new KernelStmt.Declare(d.variable(), value));
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
            KernelStmt.assigns(f.body(), name)
                ? null
                : new Counter(range(start)[0], range(bound)[1] - 1, symbolic(bound));
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
     * {@code b} (an integer comparison) as a constant where its operands' ranges decide it, where
     * it compares a loop's counter with that loop's bound, or where both sides add the same
     * constant to values it decides (without wrapping around).
     */
    private KernelExpr comparison(KernelExpr.Binary b) {
      KernelExpr left = symbolic(b.left());
      KernelExpr right = symbolic(b.right());
      if (belowItsBound(left, right)) {
        return switch (b.op()) {
          case LT, NEQ -> TRUE;
          case GEQ, EQ -> FALSE;
          default -> b;
        };
      }
      if (belowItsBound(right, left)) {
        return switch (b.op()) {
          case GT, NEQ -> TRUE;
          case LEQ, EQ -> FALSE;
          default -> b;
        };
      }
      if (left instanceof KernelExpr.Binary l
          && right instanceof KernelExpr.Binary r
          && l.op() == BinaryOperator.ADD
          && r.op() == BinaryOperator.ADD
          && l.right() instanceof KernelExpr.Constant
          && l.right().equals(r.right())
          && exact(l)
          && exact(r)) {
        KernelExpr withoutTheConstant =
            comparison(new KernelExpr.Binary(b.op(), l.operandType(), l.left(), r.left()));
        if (withoutTheConstant instanceof KernelExpr.Constant) {
          return withoutTheConstant;
        }
      }
      long[] lr = range(b.left());
      long[] rr = range(b.right());
      Boolean answer =
          switch (b.op()) {
            case LT -> decided(lr[1] < rr[0], lr[0] >= rr[1]);
            case LEQ -> decided(lr[1] <= rr[0], lr[0] > rr[1]);
            case GT -> decided(lr[0] > rr[1], lr[1] <= rr[0]);
            case GEQ -> decided(lr[0] >= rr[1], lr[1] < rr[0]);
            case EQ ->
                decided(
                    lr[0] == lr[1] && rr[0] == rr[1] && lr[0] == rr[0],
                    lr[1] < rr[0] || rr[1] < lr[0]);
            case NEQ ->
                decided(
                    lr[1] < rr[0] || rr[1] < lr[0],
                    lr[0] == lr[1] && rr[0] == rr[1] && lr[0] == rr[0]);
            default -> null;
          };
      return answer == null ? b : (answer ? TRUE : FALSE);
    }

    /**
     * Whether {@code e} is the counter of a loop in scope and {@code limit} that loop's bound, or
     * that bound plus a constant that is not negative, without wrapping around (both {@link
     * #symbolic}).
     */
    private boolean belowItsBound(KernelExpr e, KernelExpr limit) {
      if (!(e instanceof KernelExpr.Var v && counters.containsKey(v.name()))) {
        return false;
      }
      KernelExpr bound = counters.get(v.name()).bound();
      return bound.equals(limit)
          || (limit instanceof KernelExpr.Binary sum
              && sum.op() == BinaryOperator.ADD
              && sum.left().equals(bound)
              && range(sum.right())[0] >= 0
              && exact(sum));
    }

    private static Boolean decided(boolean alwaysTrue, boolean alwaysFalse) {
      return alwaysTrue ? Boolean.TRUE : alwaysFalse ? Boolean.FALSE : null;
    }

    /**
     * {@code e} as the pass compares it: without the integer conversions that keep its value, and
     * an unchanging local read as its value.
     */
    private KernelExpr symbolic(KernelExpr e) {
      if (e instanceof KernelExpr.Call c
          && (c.function() == Builtin.TO_I32 || c.function() == Builtin.TO_I64)
          && c.args().get(0).type().isInteger()
          && fits(range(c.args().get(0)), c.type())) {
        return symbolic(c.args().get(0));
      }
      if (e instanceof KernelExpr.Var v
          && unchangingValues.containsKey(v.name())
          && readsOnlyStableVariables(unchangingValues.get(v.name()))) {
        return symbolic(unchangingValues.get(v.name()));
      }
      if (e instanceof KernelExpr.Binary b
          && b.op().kind() == BinaryOperator.Kind.ARITHMETIC
          && b.operandType().isInteger()) {
        return new KernelExpr.Binary(
            b.op(), b.operandType(), symbolic(b.left()), symbolic(b.right()));
      }
      return e;
    }

    /**
     * Whether every variable {@code e} reads holds one value wherever {@code e} can be read again:
     * a local declared once and never assigned, a scalar the kernel never assigns, or the counter
     * of a loop in scope; and {@code e} reads no memory (a store in between may change it).
     */
    private boolean readsOnlyStableVariables(KernelExpr e) {
      if (e instanceof KernelExpr.Load || e instanceof KernelExpr.SharedLoad) {
        return false;
      }
      if (e instanceof KernelExpr.Var v) {
        return !varying.contains(v.name()) || counters.containsKey(v.name());
      }
      return e.children().stream().allMatch(this::readsOnlyStableVariables);
    }

    /** Whether the integer sum {@code b} never wraps around. */
    private boolean exact(KernelExpr.Binary b) {
      long[] sum = exactSum(range(b.left()), range(b.right()));
      return sum != null && fits(sum, b.operandType());
    }

    /** The range of {@code a + b}, or null where it may wrap around a {@code long}. */
    private static long[] exactSum(long[] a, long[] b) {
      try {
        return new long[] {Math.addExact(a[0], b[0]), Math.addExact(a[1], b[1])};
      } catch (ArithmeticException overflow) {
        return null;
      }
    }

    /** The range of {@code a * b}, or null where it may wrap around a {@code long}. */
    private static long[] exactProduct(long[] a, long[] b) {
      try {
        long[] corners = {
          Math.multiplyExact(a[0], b[0]),
          Math.multiplyExact(a[0], b[1]),
          Math.multiplyExact(a[1], b[0]),
          Math.multiplyExact(a[1], b[1])
        };
        return new long[] {
          java.util.Arrays.stream(corners).min().getAsLong(),
          java.util.Arrays.stream(corners).max().getAsLong()
        };
      } catch (ArithmeticException overflow) {
        return null;
      }
    }

    /** The range of {@code a - b}, or null where it may wrap around a {@code long}. */
    private static long[] exactDifference(long[] a, long[] b) {
      try {
        return new long[] {Math.subtractExact(a[0], b[1]), Math.subtractExact(a[1], b[0])};
      } catch (ArithmeticException overflow) {
        return null;
      }
    }

    /**
     * The least and greatest value of the integer {@code e} ({@code {least, greatest}}): exact for
     * a constant, the values a loop counter takes in its body, an unchanging local's value's, a
     * conversion's, a sum's, difference's or product's, or a {@code min}'s or {@code max}'s where
     * it does not wrap around, else all values of its type.
     */
    private long[] range(KernelExpr e) {
      long[] all =
          e.type() == ScalarType.I32
              ? new long[] {Integer.MIN_VALUE, Integer.MAX_VALUE}
              : new long[] {Long.MIN_VALUE, Long.MAX_VALUE};
      long[] known = null;
      if (e instanceof KernelExpr.Constant c && c.value() instanceof ScalarValue.Int i) {
        known = new long[] {i.value(), i.value()};
      } else if (e instanceof KernelExpr.Var v && counters.containsKey(v.name())) {
        Counter counter = counters.get(v.name());
        known = new long[] {counter.first(), counter.last()};
      } else if (e instanceof KernelExpr.Var v && unchangingValues.containsKey(v.name())) {
        known = range(unchangingValues.get(v.name()));
      } else if (e instanceof KernelExpr.Call c
          && c.args().stream().allMatch(a -> a.type().isInteger())) {
        List<long[]> args = c.args().stream().map(this::range).toList();
        known =
            switch (c.function()) {
              case TO_I32, TO_I64 -> args.get(0);
              case MIN ->
                  new long[] {
                    Math.min(args.get(0)[0], args.get(1)[0]),
                    Math.min(args.get(0)[1], args.get(1)[1])
                  };
              case MAX ->
                  new long[] {
                    Math.max(args.get(0)[0], args.get(1)[0]),
                    Math.max(args.get(0)[1], args.get(1)[1])
                  };
              default -> null;
            };
      } else if (e instanceof KernelExpr.Binary b && b.operandType().isInteger()) {
        long[] l = range(b.left());
        long[] r = range(b.right());
        known =
            switch (b.op()) {
              case ADD -> exactSum(l, r);
              case SUB -> exactDifference(l, r);
              case MUL -> exactProduct(l, r);
              default -> null;
            };
      }
      return known != null && fits(known, e.type()) ? known : all;
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
      ScalarValue result = IntegerConstants.applied(e, operands);
      return result instanceof ScalarValue.Float ? null : result;
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
