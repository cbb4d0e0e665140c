package dev.l0.spark.pipeline;

import dev.l0.ir.Expr;
import dev.l0.ir.FunArg;
import dev.l0.ir.FunDef;
import dev.l0.ir.L0CompileError;
import dev.l0.ir.Pattern;
import dev.l0.ir.Program;
import dev.l0.ir.SourcePos;
import dev.l0.ir.Type;
import dev.l0.types.TypeChecker;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.stream.Collectors;
import java.util.stream.IntStream;

/**
 * Composes a ROWS pipeline with the pipeline that reads its output: one program holding both
 * programs' functions renamed apart ({@code s1_}, {@code s2_}) and a new entry that calls the first
 * entry (with the first's own parameters, tuples and arrays of tuples included), takes its result
 * apart into output columns and passes the columns the second reads, in its parameter order and
 * rebuilt into its parameters' tuples and arrays of tuples, to the second entry.
 */
final class PipelineComposer {
  private static final String ENTRY = "l0_pipeline_merged";
  private static final String FIRST = "s1_";
  private static final String SECOND = "s2_";

  private PipelineComposer() {}

  /**
   * {@code first} then {@code second} (whose parameters read first's outputs as {@code
   * secondInputs} say); empty if first's outputs cannot be taken apart.
   */
  static Optional<L0Source> compose(
      PipelineSpec first, L0Source second, List<InputBinding> secondInputs) {
    L0Source one = first.programs().main();
    Program firstProgram = renamed(one.program(), FIRST);
    Program secondProgram = renamed(second.program(), SECOND);
    FunDef firstEntry = firstProgram.function(FIRST + one.entry()).orElseThrow();
    FunDef secondEntry = secondProgram.function(SECOND + second.entry()).orElseThrow();
    List<Binding> bindings = new ArrayList<>();
    List<String> leafNames = new ArrayList<>();
    Expr call =
        new Expr.Call(
            firstEntry.name(),
            firstEntry.params().stream()
                .map(p -> (Expr) new Expr.Var(p.name(), SourcePos.NONE))
                .toList(),
            SourcePos.NONE);
    if (!takeApart(firstEntry.returnType(), call, bindings, leafNames)) {
      return Optional.empty();
    }
    List<String> outputs = first.outputNames();
    Iterator<String> secondLeaves =
        secondInputs.stream()
            .map(input -> leafNames.get(outputs.indexOf(ColumnBinder.topLevelColumn(input))))
            .iterator();
    List<Expr> secondArguments =
        secondEntry.params().stream()
            .map(p -> TupleLeaves.rebuild(p.type(), secondLeaves))
            .toList();
    Expr body = new Expr.Call(secondEntry.name(), secondArguments, SourcePos.NONE);
    for (int k = bindings.size() - 1; k >= 0; k--) {
      body = new Expr.Let(bindings.get(k).pattern(), bindings.get(k).value(), body, SourcePos.NONE);
    }
    FunDef entry =
        new FunDef(ENTRY, secondEntry.returnType(), firstEntry.params(), body, SourcePos.NONE);
    List<FunDef> functions = new ArrayList<>(firstProgram.functions());
    functions.addAll(secondProgram.functions());
    functions.add(entry);
    L0Source composed =
        L0Source.generated(
            new Program(functions),
            "merged(" + one.sourceName() + ", " + second.sourceName() + ")",
            ENTRY,
            one,
            second);
    try {
      TypeChecker.check(composed.program());
    } catch (L0CompileError e) {
      throw new IllegalStateException(
          "the composition of two planned pipelines does not type-check: "
              + e.getMessage()
              + "\n"
              + composed.text(),
          e);
    }
    return Optional.of(composed);
  }

  private record Binding(Pattern pattern, Expr value) {}

  /**
   * Adds the let-bindings that take {@code value}, of type {@code type}, apart into its leaves
   * (named {@code l0_out_k} into {@code leafNames}, in order); false for an array of arrays of
   * tuples.
   */
  private static boolean takeApart(
      Type type, Expr value, List<Binding> bindings, List<String> leafNames) {
    if (type instanceof Type.Tuple tuple) {
      String prefix = "l0_part_" + bindings.size() + "_";
      List<Type> parts = tuple.elements();
      bindings.add(
          new Binding(
              new Pattern.Tuple(
                  IntStream.range(0, parts.size())
                      .mapToObj(k -> (Pattern) new Pattern.Name(prefix + k, SourcePos.NONE))
                      .toList(),
                  SourcePos.NONE),
              value));
      boolean takenApart = true;
      for (int k = 0; k < parts.size(); k++) {
        takenApart &=
            takeApart(parts.get(k), new Expr.Var(prefix + k, SourcePos.NONE), bindings, leafNames);
      }
      return takenApart;
    }
    if (type.baseElement() instanceof Type.Tuple tuple) {
      Type.Array array = (Type.Array) type;
      if (!(array.element() instanceof Type.Tuple)) {
        return false;
      }
      Type columns =
          new Type.Tuple(tuple.elements().stream().map(t -> (Type) Type.array(t)).toList());
      return takeApart(columns, new Expr.Unzip(value, SourcePos.NONE), bindings, leafNames);
    }
    String name = "l0_out_" + leafNames.size();
    leafNames.add(name);
    bindings.add(new Binding(new Pattern.Name(name, SourcePos.NONE), value));
    return true;
  }

  /**
   * {@code program} with {@code prefix} before every function name, in definitions, calls and SOAC
   * function arguments.
   */
  private static Program renamed(Program program, String prefix) {
    Set<String> names = program.functions().stream().map(FunDef::name).collect(Collectors.toSet());
    Program bodies =
        program.transformUp(
            e -> {
              if (e instanceof Expr.Call call && names.contains(call.function())) {
                return new Expr.Call(prefix + call.function(), call.args(), call.pos());
              }
              if (e instanceof Expr.Map map) {
                return new Expr.Map(renamed(map.function(), names, prefix), map.array(), map.pos());
              }
              if (e instanceof Expr.Filter filter) {
                return new Expr.Filter(
                    renamed(filter.function(), names, prefix), filter.array(), filter.pos());
              }
              if (e instanceof Expr.Reduce reduce) {
                return new Expr.Reduce(
                    renamed(reduce.function(), names, prefix),
                    reduce.neutral(),
                    reduce.array(),
                    reduce.pos());
              }
              if (e instanceof Expr.Scan scan) {
                return new Expr.Scan(
                    renamed(scan.function(), names, prefix),
                    scan.neutral(),
                    scan.array(),
                    scan.pos());
              }
              return e;
            });
    return new Program(
        bodies.functions().stream()
            .map(f -> new FunDef(prefix + f.name(), f.returnType(), f.params(), f.body(), f.pos()))
            .toList());
  }

  private static FunArg renamed(FunArg function, Set<String> names, String prefix) {
    if (function instanceof FunArg.FunctionRef ref && names.contains(ref.name())) {
      return new FunArg.FunctionRef(prefix + ref.name(), ref.curried(), ref.pos());
    }
    return function;
  }
}
