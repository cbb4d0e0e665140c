package dev.l0.spark.pipeline;

import dev.l0.ir.Builtin;
import dev.l0.ir.Expr;
import dev.l0.ir.FunArg;
import dev.l0.ir.FunDef;
import dev.l0.ir.L0CompileError;
import dev.l0.ir.Param;
import dev.l0.ir.Pattern;
import dev.l0.ir.Program;
import dev.l0.ir.SourcePos;
import dev.l0.ir.Type;
import dev.l0.types.TypeChecker;
import dev.l0.types.TypedProgram;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * The small L0 programs a REDUCE or SCAN pipeline needs besides its own, generated from the entry's
 * reduces and scans: the combiner {@code (partial a, partial b) -> partial} applying each result's
 * operator; for SCAN the offset program {@code (carry, columns) -> map(op(carry, x))} and the
 * totals program (the pipeline with each scan replaced by a reduce). Each is type-checked.
 */
final class DerivedPrograms {
  private static final String COMBINE = "l0_pipeline_combine";
  private static final String OFFSET = "l0_pipeline_offset";

  private final Program program;
  private final TypedProgram typed;
  private final String sourceName;
  private final String callSite;

  /**
   * Derivations for {@code typed}, the checked pipeline program (only the entry and what it
   * reaches).
   */
  DerivedPrograms(TypedProgram typed, String sourceName, String callSite) {
    this.program = typed.program();
    this.typed = typed;
    this.sourceName = sourceName;
    this.callSite = callSite;
  }

  /**
   * The combiner of the results {@code aggregates} (reduces or scans, one per result): leaves of a,
   * then leaves of b.
   */
  L0Source combiner(List<Expr> aggregates) {
    List<Param> left = new ArrayList<>();
    List<Param> right = new ArrayList<>();
    List<Expr> combined = new ArrayList<>();
    List<Type> types = new ArrayList<>();
    for (int g = 0; g < aggregates.size(); g++) {
      Expr aggregate = aggregates.get(g);
      Type element = elementType(aggregate);
      List<String> a = leafParams("l0_a" + g, element, left);
      List<String> b = leafParams("l0_b" + g, element, right);
      combined.add(apply(operatorOf(aggregate), aggregate.pos(), element, a, b));
      types.add(element);
    }
    List<Param> params = new ArrayList<>(left);
    params.addAll(right);
    FunDef combine =
        new FunDef(COMBINE, tupleType(types), params, tupleExpr(combined), SourcePos.NONE);
    return checked(combine, "combiner");
  }

  /**
   * SCAN: the offset program, carry leaves then column leaves, adding each carry to its column with
   * its scan's operator.
   */
  L0Source offset(List<Expr> scans) {
    List<Param> carries = new ArrayList<>();
    List<Param> columns = new ArrayList<>();
    List<Expr> shifted = new ArrayList<>();
    List<Type> types = new ArrayList<>();
    for (int g = 0; g < scans.size(); g++) {
      Expr scan = scans.get(g);
      Type element = elementType(scan);
      List<String> carry = leafParams("l0_carry" + g, element, carries);
      List<String> column = leafParams("l0_column" + g, Type.array(element), columns);
      List<Param> rowParams = new ArrayList<>();
      List<String> row = leafParams("l0_row" + g, element, rowParams);
      Expr body = apply(operatorOf(scan), scan.pos(), element, carry, row);
      FunArg.Lambda perRow = new FunArg.Lambda(element, rowParams, body, SourcePos.NONE);
      List<Expr> inputs = column.stream().map(n -> (Expr) new Expr.Var(n, SourcePos.NONE)).toList();
      Expr input = inputs.size() == 1 ? inputs.get(0) : new Expr.Zip(inputs, SourcePos.NONE);
      shifted.add(new Expr.Map(perRow, input, SourcePos.NONE));
      types.add(Type.array(element));
    }
    List<Param> params = new ArrayList<>(carries);
    params.addAll(columns);
    FunDef offset =
        new FunDef(OFFSET, tupleType(types), params, tupleExpr(shifted), SourcePos.NONE);
    return checked(offset, "offset program");
  }

  /**
   * SCAN: the pipeline's entry with each of its result scans replaced by a reduce of the same
   * operator, neutral element and input, and each of {@code unzippedScans} (an {@code unzip} of one
   * of them) by that reduce, whose total is the tuple the unzipped columns' totals make.
   */
  L0Source totals(FunDef entry, RowShape result, Set<Expr> unzippedScans) {
    Set<Expr> scans = new HashSet<>();
    result.leaves().forEach(leaf -> scans.add(((RowShape.Scanned) leaf).scan()));
    Expr body =
        withoutUnzips(entry.body(), unzippedScans)
            .transformUp(
                e -> {
                  if (e instanceof Expr.Scan scan && scans.contains(scan)) {
                    return new Expr.Reduce(
                        scan.function(), scan.neutral(), scan.array(), scan.pos());
                  }
                  return e;
                });
    FunDef totals = new FunDef(entry.name(), totalsType(result), entry.params(), body, entry.pos());
    List<FunDef> functions = new ArrayList<>();
    program.functions().forEach(f -> functions.add(f.name().equals(entry.name()) ? totals : f));
    L0Source source =
        L0Source.generated(new Program(functions), "totals program of " + sourceName, entry.name());
    check(source.program(), "totals program");
    return source;
  }

  /** {@code e} with each of {@code unzips} replaced by the array it unzips. */
  private static Expr withoutUnzips(Expr e, Set<Expr> unzips) {
    if (unzips.contains(e)) {
      return withoutUnzips(((Expr.Unzip) e).array(), unzips);
    }
    return e.mapChildren(child -> withoutUnzips(child, unzips));
  }

  private Type totalsType(RowShape shape) {
    if (shape instanceof RowShape.TupleOf tuple) {
      return new Type.Tuple(tuple.parts().stream().map(this::totalsType).toList());
    }
    return elementType(((RowShape.Scanned) shape).scan());
  }

  /** The type of the values a reduce or scan combines. */
  private Type elementType(Expr aggregate) {
    Type type = typed.typeOf(aggregate);
    return aggregate instanceof Expr.Scan ? ((Type.Array) type).element() : type;
  }

  private static FunArg operatorOf(Expr aggregate) {
    return L0Source.soacFunction(aggregate).orElseThrow();
  }

  /**
   * Adds one parameter per leaf of {@code type} to {@code params}, named {@code prefix_k}; returns
   * the names.
   */
  private static List<String> leafParams(String prefix, Type type, List<Param> params) {
    List<String> names = new ArrayList<>();
    List<Type> leaves = TupleLeaves.types(type);
    for (int k = 0; k < leaves.size(); k++) {
      String name = prefix + "_" + k;
      names.add(name);
      params.add(new Param(leaves.get(k), name, SourcePos.NONE));
    }
    return names;
  }

  /**
   * {@code operator} applied to the values of type {@code type} rebuilt from leaves {@code a} and
   * {@code b}.
   */
  private Expr apply(FunArg operator, SourcePos at, Type type, List<String> a, List<String> b) {
    Optional<String> captured = FreeVariables.of(operator).stream().findFirst();
    if (captured.isPresent()) {
      throw new PipelinePlanningException(
          callSite,
          "the operator of the reduce or scan at "
              + at
              + " uses '"
              + captured.get()
              + "' from the entry function; combining partial results needs an operator that uses only "
              + "its own parameters (write the constant inside the function)");
    }
    Expr whole = TupleLeaves.rebuild(type, a.iterator());
    Expr other = TupleLeaves.rebuild(type, b.iterator());
    List<Expr> spread = new ArrayList<>(TupleLeaves.components(type, a.iterator()));
    spread.addAll(TupleLeaves.components(type, b.iterator()));
    if (operator instanceof FunArg.OperatorRef section) {
      List<Expr> operands = new ArrayList<>(section.curried());
      operands.add(whole);
      operands.add(other);
      return new Expr.Binary(section.operator(), operands.get(0), operands.get(1), SourcePos.NONE);
    }
    if (operator instanceof FunArg.FunctionRef ref) {
      int arity =
          program
                  .function(ref.name())
                  .map(f -> f.params().size())
                  .orElseGet(() -> Builtin.byName(ref.name()).orElseThrow().arity())
              - ref.curried().size();
      List<Expr> args = new ArrayList<>(ref.curried());
      args.addAll(arity == 2 ? List.of(whole, other) : spread);
      return new Expr.Call(ref.name(), args, SourcePos.NONE);
    }
    FunArg.Lambda lambda = (FunArg.Lambda) operator;
    List<Expr> args = lambda.params().size() == 2 ? List.of(whole, other) : spread;
    Expr body = lambda.body();
    for (int k = lambda.params().size() - 1; k >= 0; k--) {
      Param p = lambda.params().get(k);
      body =
          new Expr.Let(
              new Pattern.Name(p.name(), SourcePos.NONE), args.get(k), body, SourcePos.NONE);
    }
    return body;
  }

  /** One type as itself, several as their tuple. */
  private static Type tupleType(List<Type> types) {
    return types.size() == 1 ? types.get(0) : new Type.Tuple(types);
  }

  /** One expression as itself, several as their tuple. */
  private static Expr tupleExpr(List<Expr> exprs) {
    return exprs.size() == 1 ? exprs.get(0) : new Expr.TupleLit(exprs, SourcePos.NONE);
  }

  /**
   * {@code function} with the pipeline's functions it calls, printed, parsed back and type-checked.
   */
  private L0Source checked(FunDef function, String role) {
    List<FunDef> functions = new ArrayList<>();
    Set<String> reached = reachableFromBody(function.body());
    program.functions().stream().filter(f -> reached.contains(f.name())).forEach(functions::add);
    functions.add(function);
    Program derived = new Program(functions);
    L0Source source = L0Source.generated(derived, role + " of " + sourceName, function.name());
    check(source.program(), role);
    return source;
  }

  private Set<String> reachableFromBody(Expr body) {
    Deque<String> callees = new ArrayDeque<>();
    L0Source.addCallees(body, callees);
    return L0Source.reachableFrom(program, List.copyOf(callees));
  }

  private void check(Program derived, String role) {
    try {
      TypeChecker.check(derived);
    } catch (L0CompileError e) {
      throw new PipelinePlanningException(
          callSite,
          "the " + role + " derived from the pipeline does not type-check: " + e.getMessage(),
          e);
    }
  }
}
