package dev.l0.opt.pass;

import dev.l0.ir.Builtin;
import dev.l0.ir.ScalarType;
import dev.l0.ir.SourcePos;
import dev.l0.ir.Type;
import dev.l0.opt.ir.Analysis;
import dev.l0.opt.ir.Body;
import dev.l0.opt.ir.Exp;
import dev.l0.opt.ir.Ident;
import dev.l0.opt.ir.InternalFunction;
import dev.l0.opt.ir.InternalProgram;
import dev.l0.opt.ir.Lambda;
import dev.l0.opt.ir.NameSource;
import dev.l0.opt.ir.Stm;
import dev.l0.opt.ir.SubExp;
import dev.l0.opt.ir.Traversal;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Costly math on the rows of a loop-invariant array moved out of a sequential loop: where a map in
 * the body of a {@code loop} (at any depth of nesting inside it) binds, in its function's own
 * statements, {@code exp}, {@code log}, {@code sin}, {@code cos} or {@code erf} of the row it takes
 * from an input bound outside the loop, the calls become one map over that input in front of the
 * loop, whose results the map takes as one more input. The {@link Hoister} moves only whole
 * statements, and such a call is invariant per row, not per iteration (LocVolCalib's {@code
 * log(x_i)} inside its volatility map, computed every time step, once per row of the grid). The
 * calls compute the same function of the same values, once instead of once per iteration: the
 * results are the same bits, and these calls cannot fail. The rule {@link
 * SimplificationRule#HOIST_INVARIANT_ROW_CALLS}, recorded in the {@link RuleLog} on each map it
 * adds and each map it rewrites.
 */
public final class LoopInvariantRowCalls implements Pass {
  private static final Set<Builtin> COSTLY =
      Set.of(Builtin.EXP, Builtin.LOG, Builtin.SIN, Builtin.COS, Builtin.ERF);

  private final RuleLog log;

  /** The pass recording in {@code log} each map it adds or rewrites. */
  public LoopInvariantRowCalls(RuleLog log) {
    this.log = log;
  }

  /** The pass applied alone, recording nothing. */
  public LoopInvariantRowCalls() {
    this(RuleLog.NONE);
  }

  @Override
  public String name() {
    return "hoist-row-calls";
  }

  @Override
  public InternalProgram apply(InternalProgram program, NameSource names) {
    List<InternalFunction> out = new ArrayList<>();
    boolean changed = false;
    for (InternalFunction f : program.functions()) {
      Body body = new Walk(names, Analysis.typesBound(f)).body(f.body());
      changed |= body != f.body();
      out.add(body == f.body() ? f : f.withBody(body));
    }
    return changed ? new InternalProgram(out) : program;
  }

  private final class Walk {
    private final NameSource names;
    private final Map<String, Type> types;

    Walk(NameSource names, Map<String, Type> types) {
      this.names = names;
      this.types = types;
    }

    /** {@code body} with the calls of every loop in it (inner loops first) moved out. */
    Body body(Body body) {
      List<Stm> out = new ArrayList<>();
      boolean changed = false;
      for (Stm stm : body.stms()) {
        Exp e = Traversal.mapNestedBodies(stm.exp(), this::body);
        if (e instanceof Exp.Loop l) {
          Set<String> inside = Analysis.boundInside(l);
          List<Stm> hoisted = new ArrayList<>();
          Body loopBody = new InLoop(inside, hoisted).body(l.body());
          out.addAll(hoisted);
          if (loopBody != l.body()) {
            e = new Exp.Loop(l.mergeParams(), l.init(), l.counter(), l.bound(), loopBody);
          }
        }
        changed |= e != stm.exp();
        out.add(Traversal.withExp(stm, e));
      }
      return changed ? new Body(out, body.result()) : body;
    }

    /** The rewrite of one loop's body: the maps' calls it moves out go to {@code hoisted}. */
    private final class InLoop {
      private final Set<String> inside;
      private final List<Stm> hoisted;

      InLoop(Set<String> inside, List<Stm> hoisted) {
        this.inside = inside;
        this.hoisted = hoisted;
      }

      Body body(Body body) {
        List<Stm> out = new ArrayList<>();
        boolean changed = false;
        for (Stm stm : body.stms()) {
          Exp e = Traversal.mapNestedBodies(stm.exp(), this::body);
          boolean rewritten = false;
          if (e instanceof Exp.Screma s && s.isMap()) {
            Exp moved = withRowCallsMovedOut(s);
            rewritten = moved != s;
            e = moved;
          }
          changed |= e != stm.exp();
          Stm rebuilt = Traversal.withExp(stm, e);
          if (rewritten) {
            log.shaped(SimplificationRule.HOIST_INVARIANT_ROW_CALLS, rebuilt);
          }
          out.add(rebuilt);
        }
        return changed ? new Body(out, body.result()) : body;
      }

      /** {@code map}, reading the results of its calls of invariant rows as inputs. */
      private Exp withRowCallsMovedOut(Exp.Screma map) {
        Lambda f = map.fold();
        List<Ident> params = new ArrayList<>(f.params());
        List<SubExp> inputs = new ArrayList<>(map.inputs());
        List<Stm> stms = new ArrayList<>();
        boolean changed = false;
        for (Stm stm : f.body().stms()) {
          int row = invariantRowOf(stm, f.params(), map.inputs());
          if (row < 0) {
            stms.add(stm);
            continue;
          }
          Exp.BuiltinCall call = (Exp.BuiltinCall) stm.exp();
          Ident result = stm.pattern().get(0);
          SubExp input = map.inputs().get(row);
          Ident rows =
              new Ident(
                  names.fresh("rows_" + call.function().functionName()),
                  arrayOf(result.type(), input));
          Ident element = new Ident(names.fresh("row"), f.params().get(row).type());
          Ident value = new Ident(names.fresh(call.function().functionName()), result.type());
          Exp.BuiltinCall onElement =
              (Exp.BuiltinCall)
                  call.mapOperands(a -> a.equals(f.params().get(row).var()) ? element.var() : a);
          Lambda perRow =
              new Lambda(
                  List.of(element),
                  new Body(List.of(new Stm(List.of(value), onElement)), List.of(value.var())),
                  List.of(result.type()));
          Stm rowsMap =
              new Stm(List.of(rows), Exp.Screma.map(perRow, List.of(input), SourcePos.NONE));
          log.shaped(SimplificationRule.HOIST_INVARIANT_ROW_CALLS, rowsMap);
          hoisted.add(rowsMap);
          Ident read =
              new Ident(names.fresh("row_" + call.function().functionName()), result.type());
          params.add(read);
          inputs.add(rows.var());
          stms.add(stm.withExp(new Exp.Atom(read.var())));
          changed = true;
        }
        if (!changed) {
          return map;
        }
        Lambda rebuilt = new Lambda(params, new Body(stms, f.body().result()), f.returnTypes());
        return Exp.Screma.map(rebuilt, inputs, map.pos()).fusedFrom(map);
      }

      /**
       * The input whose row {@code stm} applies a costly call to, every other operand bound outside
       * the loop; -1 where it is no such call.
       */
      private int invariantRowOf(Stm stm, List<Ident> params, List<SubExp> inputs) {
        if (!(stm.exp() instanceof Exp.BuiltinCall call)
            || !COSTLY.contains(call.function())
            || stm.pattern().size() != 1
            || !stm.certificates().isEmpty()) {
          return -1;
        }
        int row = -1;
        for (SubExp arg : call.args()) {
          int param = indexOfParam(arg, params);
          if (param >= 0) {
            String input = inputs.get(param).varName();
            if (row >= 0 && row != param || input == null || inside.contains(input)) {
              return -1;
            }
            row = param;
          } else if (arg.varName() != null && inside.contains(arg.varName())) {
            return -1;
          }
        }
        return row >= 0 && params.get(row).type() instanceof ScalarType ? row : -1;
      }

      private static int indexOfParam(SubExp arg, List<Ident> params) {
        for (int k = 0; k < params.size(); k++) {
          if (params.get(k).name().equals(arg.varName())) {
            return k;
          }
        }
        return -1;
      }

      /** The type of an array of {@code element} with as many rows as {@code input}. */
      private Type arrayOf(Type element, SubExp input) {
        Type inputType = types.get(input.varName());
        return inputType instanceof Type.Array a
            ? new Type.Array(element, a.size(), false)
            : Type.array(element);
      }
    }
  }
}
