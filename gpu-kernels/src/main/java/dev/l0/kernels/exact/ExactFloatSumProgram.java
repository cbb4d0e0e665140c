package dev.l0.kernels.exact;

import dev.l0.ir.BinaryOperator;
import dev.l0.ir.Expr;
import dev.l0.ir.FunArg;
import dev.l0.ir.FunDef;
import dev.l0.ir.L0CompileError;
import dev.l0.ir.L0RuntimeError;
import dev.l0.ir.Param;
import dev.l0.ir.Program;
import dev.l0.ir.ScalarType;
import dev.l0.ir.ScalarValue;
import dev.l0.ir.SourcePos;
import dev.l0.ir.Type;
import dev.l0.kernels.exec.HostValue;
import dev.l0.kernels.jvm.FlatArray;
import dev.l0.opt.ir.InternalTypes;
import dev.l0.syntax.L0Printer;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * A program whose entry's float sums are exact: each result of the entry that is a float sum (a
 * {@code reduce} whose operator is {@code +} on {@code f32} or {@code f64}, written {@code op +} or
 * as a function adding its two arguments, component-wise for tuples of floats, and whose neutral
 * element is 0), written as a result (the entry's body, or a component of the tuple it returns,
 * after its {@code let}s), returns its summands instead: the {@link #summands()} program, whose
 * kernels compute them on any device. {@link #finish} then adds each result's summands exactly
 * ({@link ExactFloatSum}, on {@link #summedOn} threads) and rounds once to its type: the correctly
 * rounded sum, the same bits on every device and thread count. Other results are unchanged.
 */
public final class ExactFloatSumProgram {
  private final Program summands;
  private final Type resultType;
  private final Type summandsType;

  /** Per component of the result: the float type of an exact sum, or null. */
  private final ScalarType[] exactComponents;

  /** Per component of the result: where its exact sum's reduce is written, or null. */
  private final SourcePos[] exactPositions;

  private final List<String> notes;
  private final int hostThreads;

  private ExactFloatSumProgram(
      Program summands,
      Type resultType,
      Type summandsType,
      ScalarType[] exactComponents,
      SourcePos[] exactPositions,
      List<String> notes,
      int hostThreads) {
    this.summands = summands;
    this.resultType = resultType;
    this.summandsType = summandsType;
    this.exactComponents = exactComponents;
    this.exactPositions = exactPositions;
    this.notes = List.copyOf(notes);
    this.hostThreads = hostThreads;
  }

  /**
   * These exact sums with {@link #finish} adding each result's summands on at most {@code threads}
   * threads (default 1).
   */
  public ExactFloatSumProgram summedOn(int threads) {
    if (threads < 1) {
      throw new IllegalArgumentException(
          "exact float sums need at least one thread, not " + threads);
    }
    return new ExactFloatSumProgram(
        summands, resultType, summandsType, exactComponents, exactPositions, notes, threads);
  }

  /**
   * The exact float sums of function {@code entry} of the checked {@code program}; an {@link
   * L0CompileError} at the entry where none of its results is a float sum.
   */
  public static ExactFloatSumProgram of(Program program, String entry) {
    FunDef function =
        program
            .function(entry)
            .orElseThrow(() -> new IllegalArgumentException("no function '" + entry + "'"));
    List<Expr> lets = new ArrayList<>();
    Expr result = function.body();
    while (result instanceof Expr.Let let) {
      lets.add(let);
      result = let.body();
    }
    boolean tuple = result instanceof Expr.TupleLit && function.returnType() instanceof Type.Tuple;
    List<Expr> results = tuple ? ((Expr.TupleLit) result).elements() : List.of(result);
    List<Type> types =
        tuple ? ((Type.Tuple) function.returnType()).elements() : List.of(function.returnType());
    List<Expr> summandResults = new ArrayList<>();
    List<Type> summandTypes = new ArrayList<>();
    List<ScalarType> components = new ArrayList<>();
    List<SourcePos> positions = new ArrayList<>();
    List<String> notes = new ArrayList<>();
    boolean any = false;
    for (int k = 0; k < results.size(); k++) {
      Expr r = results.get(k);
      Type type = types.get(k);
      List<Type> leaves = InternalTypes.components(type);
      Optional<String> whyNot =
          r instanceof Expr.Reduce reduce ? whyNotExact(reduce, type) : Optional.of("not a reduce");
      if (whyNot.isEmpty()) {
        any = true;
        summandResults.add(((Expr.Reduce) r).array());
        summandTypes.add(Type.array(type));
        leaves.forEach(t -> components.add((ScalarType) t));
        leaves.forEach(t -> positions.add(r.pos()));
        notes.add(
            "result "
                + (k + 1)
                + " (at "
                + r.pos()
                + ", "
                + L0Printer.print(type)
                + "): exact float sum");
      } else {
        summandResults.add(r);
        summandTypes.add(type);
        leaves.forEach(t -> components.add(null));
        leaves.forEach(t -> positions.add(null));
        notes.add(
            "result " + (k + 1) + " (at " + r.pos() + "): as compiled (" + whyNot.get() + ")");
      }
    }
    if (!any) {
      throw new L0CompileError(
          function.pos(),
          "exact float sums: no result of '"
              + entry
              + "' is a float sum ("
              + String.join("; ", notes)
              + "); an exact sum is a result that is a reduce with operator + on f32 or f64, "
              + "or on tuples of them, and neutral element 0");
    }
    Expr body = tuple ? new Expr.TupleLit(summandResults, result.pos()) : summandResults.get(0);
    for (int k = lets.size() - 1; k >= 0; k--) {
      Expr.Let let = (Expr.Let) lets.get(k);
      body = new Expr.Let(let.pattern(), let.value(), body, let.pos());
    }
    Type summandsType = tuple ? new Type.Tuple(summandTypes) : summandTypes.get(0);
    FunDef rewritten =
        new FunDef(function.name(), summandsType, function.params(), body, function.pos());
    List<FunDef> functions =
        program.functions().stream().map(f -> f.name().equals(entry) ? rewritten : f).toList();
    return new ExactFloatSumProgram(
        new Program(functions),
        function.returnType(),
        summandsType,
        components.toArray(new ScalarType[0]),
        positions.toArray(new SourcePos[0]),
        notes,
        1);
  }

  /**
   * Empty where {@code reduce}, whose values are of type {@code element}, is a float sum (operator
   * {@code +} on {@code f32} or {@code f64} or component-wise on tuples of them, neutral element
   * 0), else why not. The neutral element must be positive zero: the exact sum drops it, which
   * leaves the sum's value and, for {@code 0.0}, its sign as IEEE's left fold gives them, where a
   * {@code -0.0} would make an empty or all-negative-zero sum {@code -0.0}.
   */
  public static Optional<String> whyNotExact(Expr.Reduce reduce, Type element) {
    List<Type> leaves = InternalTypes.components(element);
    if (!leaves.stream().allMatch(t -> t == ScalarType.F64 || t == ScalarType.F32)) {
      return Optional.of(
          "its values are " + L0Printer.print(element) + ", not f32 or f64 or tuples of them");
    }
    if (!isZero(reduce.neutral())) {
      return Optional.of(
          "its neutral element " + L0Printer.print(reduce.neutral()) + " is not 0 (positive zero)");
    }
    if (!addsItsArguments(reduce.function(), leaves.size())) {
      return Optional.of("its operator is not +");
    }
    return Optional.empty();
  }

  private static boolean isZero(Expr neutral) {
    if (neutral instanceof Expr.TupleLit tuple) {
      return tuple.elements().stream().allMatch(ExactFloatSumProgram::isZero);
    }
    return neutral instanceof Expr.Literal literal
        && literal.value() instanceof ScalarValue.Float value
        && Double.doubleToRawLongBits(value.value()) == 0;
  }

  /**
   * Whether {@code operator} adds its two values of {@code leaves} float components, component by
   * component.
   */
  private static boolean addsItsArguments(FunArg operator, int leaves) {
    if (operator instanceof FunArg.OperatorRef section) {
      return section.operator() == BinaryOperator.ADD && section.curried().isEmpty() && leaves == 1;
    }
    if (!(operator instanceof FunArg.Lambda lambda) || lambda.params().size() != 2 * leaves) {
      return false;
    }
    List<String> names = lambda.params().stream().map(Param::name).toList();
    List<Expr> components =
        leaves == 1
            ? List.of(lambda.body())
            : lambda.body() instanceof Expr.TupleLit tuple ? tuple.elements() : List.of();
    if (components.size() != leaves) {
      return false;
    }
    for (int k = 0; k < leaves; k++) {
      if (!(components.get(k) instanceof Expr.Binary add)
          || add.op() != BinaryOperator.ADD
          || !addsNames(add, names.get(k), names.get(leaves + k))) {
        return false;
      }
    }
    return true;
  }

  private static boolean addsNames(Expr.Binary add, String a, String b) {
    return add.left() instanceof Expr.Var left
        && add.right() instanceof Expr.Var right
        && (left.name().equals(a) && right.name().equals(b)
            || left.name().equals(b) && right.name().equals(a));
  }

  /**
   * The program to compile and run: the entry returns each exact sum's summands (an array) in its
   * place.
   */
  public Program summands() {
    return summands;
  }

  /** The entry's own result type. */
  public Type resultType() {
    return resultType;
  }

  /** The result type of the {@link #summands()} program's entry. */
  public Type summandsType() {
    return summandsType;
  }

  /** One line per result of the entry: an exact float sum, or as compiled and why. */
  public List<String> notes() {
    return notes;
  }

  /**
   * The components of the entry's result (tuples and arrays of tuples taken apart, as the host
   * runner gives them) from those of the summands program's: each exact sum's summands added
   * exactly and rounded once, the other components as they are. A sum whose exact value passes the
   * largest {@code f64} while adding finite values is an {@link L0RuntimeError} at its reduce.
   */
  public List<HostValue> finish(List<HostValue> summandComponents) {
    List<HostValue> out = new ArrayList<>(summandComponents.size());
    for (int k = 0; k < summandComponents.size(); k++) {
      HostValue component = summandComponents.get(k);
      if (exactComponents[k] == null) {
        out.add(component);
      } else {
        try {
          out.add(HostValue.of(exactSum(exactComponents[k], component.flat())));
        } catch (ArithmeticException overflow) {
          throw new L0RuntimeError("reduce", exactPositions[k], overflow.getMessage());
        }
      }
    }
    return out;
  }

  /** The {@code type} sum of {@code summands}, added exactly and rounded once. */
  private ScalarValue exactSum(ScalarType type, FlatArray summands) {
    return type == ScalarType.F64
        ? ScalarValue.f64(ExactFloatSum.of((double[]) summands.data(), hostThreads).value())
        : new ScalarValue.Float(
            ScalarType.F32,
            ExactFloatSum.roundedToFloat(ExactFloatSum.of((float[]) summands.data(), hostThreads)));
  }
}
