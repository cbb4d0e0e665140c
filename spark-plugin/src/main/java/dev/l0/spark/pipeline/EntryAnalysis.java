package dev.l0.spark.pipeline;

import dev.l0.ir.Expr;
import dev.l0.ir.FunArg;
import dev.l0.ir.FunDef;
import dev.l0.ir.Param;
import dev.l0.ir.Pattern;
import dev.l0.ir.SourcePos;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

/**
 * Decides a pipeline's {@link PipelineKind} from its entry function's body: top-level code may only
 * build row-wise arrays (map, filter, zip, unzip, let, tuples) from the parameters and reduce or
 * scan them as the final results; functions passed to SOACs may do anything per row but see no
 * whole column. Anything else is a {@link PipelinePlanningException} with the L0 position.
 */
final class EntryAnalysis {
  private static final String ALLOWED =
      "at the top level a pipeline may only use map, filter, zip, unzip, let and "
          + "tuples over its columns, and reduce or scan them as its results (per-row code belongs inside the "
          + "functions passed to map and filter)";

  /**
   * The outcome: the kind, the shape of the entry's result, its leaves (one per result, tuples
   * flattened) and the top-level {@code unzip}s of scans (a scan of tuples unzipped is that scan:
   * both are one column per component).
   */
  record Result(
      PipelineKind kind, RowShape result, List<RowShape> results, Set<Expr> unzippedScans) {
    Result {
      results = List.copyOf(results);
      unzippedScans = Set.copyOf(unzippedScans);
    }
  }

  private final String callSite;
  private final Map<String, RowShape> scope = new HashMap<>();
  private final Set<Expr> unzippedScans = new HashSet<>();

  private EntryAnalysis(String callSite) {
    this.callSite = callSite;
  }

  static Result analyse(FunDef entry, String callSite) {
    EntryAnalysis analysis = new EntryAnalysis(callSite);
    RowShape.Rows columns = new RowShape.Rows(entry.name());
    for (Param p : entry.params()) {
      analysis.scope.put(p.name(), columns);
    }
    RowShape result = analysis.shape(entry.body());
    return new Result(
        analysis.kindOf(entry, result), result, result.leaves(), analysis.unzippedScans);
  }

  private PipelineKind kindOf(FunDef entry, RowShape result) {
    List<RowShape> leaves = result.leaves();
    List<String> described = new ArrayList<>();
    boolean rows = false;
    boolean reduced = false;
    boolean scanned = false;
    for (int k = 0; k < leaves.size(); k++) {
      RowShape leaf = leaves.get(k);
      if (leaf instanceof RowShape.Constant) {
        throw error(
            "result "
                + (k + 1)
                + " of '"
                + entry.name()
                + "' (at "
                + entry.body().pos()
                + ") does not depend on the rows; every result must be row-wise, a reduce or a scan of the columns");
      }
      rows |= leaf instanceof RowShape.Rows;
      reduced |= leaf instanceof RowShape.Reduced;
      scanned |= leaf instanceof RowShape.Scanned;
      described.add("result " + (k + 1) + " is " + describe(leaf));
    }
    if ((rows ? 1 : 0) + (reduced ? 1 : 0) + (scanned ? 1 : 0) > 1) {
      throw error(
          "the results of '"
              + entry.name()
              + "' mix kinds: "
              + String.join(", ", described)
              + "; a pipeline's results must be all row-wise, all reduces or all scans");
    }
    if (rows) {
      checkSameRows(entry, leaves);
    }
    return rows ? PipelineKind.ROWS : reduced ? PipelineKind.REDUCE : PipelineKind.SCAN;
  }

  /**
   * Row-wise results become the columns of one output row each, so they must have the same rows:
   * two results a filter thinned differently (or one thinned and one not) would pair unrelated
   * elements, or fail in the task where their lengths differ.
   */
  private void checkSameRows(FunDef entry, List<RowShape> leaves) {
    RowShape.Rows first = (RowShape.Rows) leaves.get(0);
    for (int k = 1; k < leaves.size(); k++) {
      RowShape.Rows other = (RowShape.Rows) leaves.get(k);
      if (!other.rowSet().equals(first.rowSet())) {
        throw error(
            "results 1 and "
                + (k + 1)
                + " of '"
                + entry.name()
                + "' have different rows ("
                + rowsName(first.rowSet())
                + " and "
                + rowsName(other.rowSet())
                + "); a pipeline's row-wise results become the columns of its output rows, so "
                + "a filter must thin them all alike (zip them and filter once)");
      }
    }
  }

  private static String describe(RowShape leaf) {
    if (leaf instanceof RowShape.Reduced r) {
      return "a reduce (at " + r.reduction().pos() + ")";
    }
    if (leaf instanceof RowShape.Scanned s) {
      return "a scan (at " + s.scan().pos() + ")";
    }
    return "row-wise";
  }

  private RowShape shape(Expr e) {
    if (e instanceof Expr.Var var) {
      return scope.getOrDefault(var.name(), new RowShape.Constant());
    }
    if (e instanceof Expr.TupleLit tuple) {
      return new RowShape.TupleOf(tuple.elements().stream().map(this::shape).toList());
    }
    if (e instanceof Expr.Let let) {
      RowShape value = shape(let.value());
      Map<String, RowShape> saved = new HashMap<>(scope);
      bind(let.pattern(), value);
      RowShape body = shape(let.body());
      scope.clear();
      scope.putAll(saved);
      return body;
    }
    Expr binding = bindingPart(e);
    if (binding != e && !dependsOnRows(binding)) {
      return shapeOfBodyWithConstants(e);
    }
    return shapeOfTopLevel(binding);
  }

  /**
   * The shape of a top-level expression other than a let or a binding of bound values: a SOAC or
   * zip over the rows, a constant, or an error naming the columns it would look across.
   */
  private RowShape shapeOfTopLevel(Expr e) {
    List<String> rowVariables =
        FreeVariables.of(e).stream().filter(v -> shapeOf(v).dependsOnRows()).toList();
    if (rowVariables.isEmpty()) {
      return new RowShape.Constant();
    }
    if (e instanceof Expr.Unzip unzip && shape(unzip.array()) instanceof RowShape.Scanned scanned) {
      unzippedScans.add(unzip);
      return scanned;
    }
    for (String v : rowVariables) {
      shapeOf(v)
          .aggregate()
          .ifPresent(
              aggregate -> {
                throw error(
                    "'"
                        + v
                        + "', the result of the "
                        + soacName(aggregate)
                        + " at "
                        + aggregate.pos()
                        + ", is used by "
                        + form(e)
                        + " at "
                        + e.pos()
                        + "; a pipeline's reduces and scans can only be its results "
                        + "(feeding them into more work would need another pass over the rows)");
              });
    }
    for (Expr operand : operands(e)) {
      if ((operand instanceof Expr.Reduce || operand instanceof Expr.Scan)
          && shape(operand).aggregate().isPresent()) {
        throw error(
            "the result of the "
                + soacName(operand)
                + " at "
                + operand.pos()
                + " is used by "
                + form(e)
                + " at "
                + e.pos()
                + "; a pipeline's reduces and scans can only be its results "
                + "(feeding them into more work would need another pass over the rows)");
      }
    }
    if (e instanceof Expr.Map map) {
      RowShape.Rows rows = rowsOf(map.array(), "map", map.pos());
      checkPerRow(map.function(), "map", map.pos());
      return rows;
    }
    if (e instanceof Expr.Filter filter) {
      rowsOf(filter.array(), "filter", filter.pos());
      checkPerRow(filter.function(), "filter", filter.pos());
      return new RowShape.Rows(filter);
    }
    if (e instanceof Expr.Reduce reduce) {
      rowsOf(reduce.array(), "reduce", reduce.pos());
      checkPerRow(reduce.function(), "reduce", reduce.pos());
      checkConstant(reduce.neutral(), "the neutral element of the reduce at " + reduce.pos());
      return new RowShape.Reduced(reduce);
    }
    if (e instanceof Expr.Scan scan) {
      rowsOf(scan.array(), "scan", scan.pos());
      checkPerRow(scan.function(), "scan", scan.pos());
      checkConstant(scan.neutral(), "the neutral element of the scan at " + scan.pos());
      return new RowShape.Scanned(scan);
    }
    if (e instanceof Expr.Zip zip) {
      Object rowSet = null;
      for (Expr array : zip.arrays()) {
        RowShape.Rows rows = rowsOf(array, "zip", zip.pos());
        if (rowSet != null && !rowSet.equals(rows.rowSet())) {
          throw error(
              "zip at "
                  + zip.pos()
                  + " combines arrays with different rows ("
                  + rowsName(rowSet)
                  + " and "
                  + rowsName(rows.rowSet())
                  + "); zip only arrays that a filter has not thinned differently");
        }
        rowSet = rows.rowSet();
      }
      return new RowShape.Rows(rowSet);
    }
    if (e instanceof Expr.Unzip unzip) {
      return rowsOf(unzip.array(), "unzip", unzip.pos());
    }
    throw error(
        form(e)
            + " at "
            + e.pos()
            + " works on whole columns ('"
            + String.join("', '", rowVariables)
            + "'), which looks across rows; "
            + ALLOWED);
  }

  /**
   * The direct sub-expressions of top-level {@code e} that are evaluated at the top level: all its
   * children but those of a SOAC's function, which run per row.
   */
  private static List<Expr> operands(Expr e) {
    List<Expr> children = e.children();
    int perRow = e.soacFunction().map(function -> function.children().size()).orElse(0);
    return children.subList(perRow, children.size());
  }

  /**
   * For an in-place update ({@code let d = s with [i] <- v in body}) or a {@code loop ... in body},
   * the same construct with its {@code body} replaced by one that adds no free variable (the
   * updated name; the loop's initial value), so that its free variables are those the binding
   * reads; {@code e} itself for other expressions. Bound values (and constants) may be updated and
   * looped over at the top level; columns may not.
   */
  private static Expr bindingPart(Expr e) {
    if (e instanceof Expr.LetWith update) {
      return new Expr.LetWith(
          update.dest(),
          update.source(),
          update.indices(),
          update.value(),
          new Expr.Var(update.dest(), update.pos()),
          update.pos());
    }
    if (e instanceof Expr.Loop loop) {
      return new Expr.Loop(
          loop.pattern(),
          loop.init(),
          loop.counter(),
          loop.bound(),
          loop.loopBody(),
          loop.init(),
          loop.pos());
    }
    return e;
  }

  private boolean dependsOnRows(Expr e) {
    return FreeVariables.of(e).stream().anyMatch(v -> shapeOf(v).dependsOnRows());
  }

  /**
   * The shape of the body of an in-place update or loop whose binding reads no column: the names it
   * binds are constants there.
   */
  private RowShape shapeOfBodyWithConstants(Expr e) {
    Map<String, RowShape> saved = new HashMap<>(scope);
    Expr body;
    if (e instanceof Expr.LetWith update) {
      scope.put(update.dest(), new RowShape.Constant());
      body = update.body();
    } else {
      Expr.Loop loop = (Expr.Loop) e;
      bind(loop.pattern(), new RowShape.Constant());
      body = loop.body();
    }
    RowShape shape = shape(body);
    scope.clear();
    scope.putAll(saved);
    return shape;
  }

  private RowShape shapeOf(String variable) {
    return scope.getOrDefault(variable, new RowShape.Constant());
  }

  /**
   * The rows of {@code array}, the array argument of {@code soac}; an error unless it is a row-wise
   * array.
   */
  private RowShape.Rows rowsOf(Expr array, String soac, SourcePos soacPos) {
    RowShape shape = shape(array);
    if (shape instanceof RowShape.Rows rows) {
      return rows;
    }
    throw error(
        soac
            + " at "
            + soacPos
            + " mixes the rows with an array that is not over the rows (at "
            + array.pos()
            + "); "
            + ALLOWED);
  }

  /**
   * A SOAC's function sees one row (or two accumulated values): it may not read a whole column or a
   * reduction.
   */
  private void checkPerRow(FunArg function, String soac, SourcePos soacPos) {
    for (String v : FreeVariables.of(function)) {
      RowShape captured = shapeOf(v);
      if (captured.dependsOnRows()) {
        throw error(
            "the function of the "
                + soac
                + " at "
                + soacPos
                + " uses '"
                + v
                + "', "
                + (captured.aggregate().isPresent() ? "a reduce or scan result" : "a whole column")
                + ", but it sees one row at a time; pass '"
                + v
                + "' as an input of the "
                + soac
                + " (zip it) instead");
      }
    }
  }

  private void checkConstant(Expr e, String what) {
    for (String v : FreeVariables.of(e)) {
      if (shapeOf(v).dependsOnRows()) {
        throw error(what + " uses '" + v + "', which depends on the rows; it must be a constant");
      }
    }
  }

  private void bind(Pattern pattern, RowShape value) {
    if (pattern instanceof Pattern.Name name) {
      scope.put(name.name(), value);
      return;
    }
    Pattern.Tuple tuple = (Pattern.Tuple) pattern;
    if (value instanceof RowShape.TupleOf parts
        && parts.parts().size() == tuple.elements().size()) {
      for (int k = 0; k < parts.parts().size(); k++) {
        bind(tuple.elements().get(k), parts.parts().get(k));
      }
      return;
    }
    value
        .aggregate()
        .ifPresent(
            aggregate -> {
              throw takesApart("the tuple pattern at " + pattern.pos(), aggregate);
            });
    tuple.names().forEach(n -> scope.put(n.name(), value));
  }

  /**
   * The error for {@code what} taking apart the tuples of a reduce or scan result, which must be
   * returned whole; {@code hint} ends the parenthesis.
   */
  private PipelinePlanningException takesApart(String what, Expr aggregate) {
    return error(
        what
            + " takes apart the result of the "
            + soacName(aggregate)
            + " at "
            + aggregate.pos()
            + "; a pipeline must return its reduce and scan results whole "
            + "(each tuple component becomes an output column)");
  }

  private static String rowsName(Object rowSet) {
    return rowSet instanceof Expr.Filter filter
        ? "the rows the filter at " + filter.pos() + " kept"
        : "all rows";
  }

  private static String soacName(Expr aggregate) {
    return aggregate instanceof Expr.Reduce ? "reduce" : "scan";
  }

  /** How messages name a top-level construct. */
  private static String form(Expr e) {
    if (e instanceof Expr.Index) {
      return "indexing";
    }
    if (e instanceof Expr.Call call) {
      return "the call of '" + call.function() + "'";
    }
    if (e instanceof Expr.LetWith) {
      return "an in-place update (let-with)";
    }
    if (e instanceof Expr.Binary binary) {
      return "operator '" + binary.op().symbol() + "'";
    }
    if (e instanceof Expr.Unary) {
      return "a prefix operator";
    }
    if (e instanceof Expr.ArrayLit) {
      return "an array literal";
    }
    String simple = e.getClass().getSimpleName();
    return simple.substring(0, 1).toLowerCase(Locale.ROOT) + simple.substring(1);
  }

  private PipelinePlanningException error(String problem) {
    return new PipelinePlanningException(callSite, problem);
  }
}
