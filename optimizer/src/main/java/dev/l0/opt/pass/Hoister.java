package dev.l0.opt.pass;

import dev.l0.ir.BinaryOperator;
import dev.l0.ir.ScalarType;
import dev.l0.ir.ScalarValue;
import dev.l0.ir.SourcePos;
import dev.l0.opt.ir.Analysis;
import dev.l0.opt.ir.Body;
import dev.l0.opt.ir.Exp;
import dev.l0.opt.ir.Ident;
import dev.l0.opt.ir.InternalProgram;
import dev.l0.opt.ir.Lambda;
import dev.l0.opt.ir.NameSource;
import dev.l0.opt.ir.Stm;
import dev.l0.opt.ir.SubExp;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * Hoisting of loop- and lambda-invariant bindings (the rebinder of thesis ch. 6, §6.1): a binding
 * inside a sequential loop or a SOAC's function whose free names are all bound outside moves in
 * front of the loop or SOAC. The restrictions of §6.1.1 hold: nothing consumed inside is hoisted,
 * nothing that may fail is hoisted, except assertions, and those are hoisted as {@code assert(no
 * iteration || condition)} so a loop that runs zero times still cannot fail (the thesis ignores
 * that case; we must not, as results and failures may not change).
 */
public final class Hoister implements Pass {
  @Override
  public String name() {
    return "hoist";
  }

  @Override
  public InternalProgram apply(InternalProgram program, NameSource names) {
    return program.mapBodies(b -> new Walk(names).body(b));
  }

  private static final class Walk {
    private final NameSource names;

    Walk(NameSource names) {
      this.names = names;
    }

    Body body(Body body) {
      List<Stm> out = new ArrayList<>();
      for (Stm stm : body.stms()) {
        Exp e = stm.exp().mapBodies(this::body);
        if (e instanceof Exp.Loop l) {
          Set<String> variant = new HashSet<>();
          l.mergeParams().forEach(p -> variant.add(p.name()));
          variant.add(l.counter().name());
          Split split =
              split(
                  l.body(),
                  variant,
                  new Guard() {
                    @Override
                    public boolean mayRunNoIteration() {
                      return !(l.bound() instanceof SubExp.Const c
                          && c.value() instanceof ScalarValue.Int bound
                          && bound.value() > 0);
                    }

                    @Override
                    public SubExp noIteration() {
                      return loopNeverRuns(l, out);
                    }
                  });
          out.addAll(split.hoisted);
          e = new Exp.Loop(l.mergeParams(), l.init(), l.counter(), l.bound(), split.remaining);
        } else if (e instanceof Exp.Soac soac) {
          e = hoistFromSoac(soac, out);
        }
        out.add(stm.withExp(e));
      }
      return new Body(out, body.result());
    }

    private Exp hoistFromSoac(Exp.Soac soac, List<Stm> out) {
      // A redomap's or scanomap's combining operator never runs in the sequential semantics; hoist
      // only from the fold.
      Lambda target = soac.rowFunction();
      Lambda inner = target.withBody(body(target.body()));
      Set<String> variant = new HashSet<>();
      inner.params().forEach(p -> variant.add(p.name()));
      Split split =
          split(
              inner.body(),
              variant,
              new Guard() {
                @Override
                public boolean mayRunNoIteration() {
                  return true;
                }

                @Override
                public SubExp noIteration() {
                  return soacNeverRuns(soac.inputs().get(0), out);
                }
              });
      out.addAll(split.hoisted);
      Lambda rebuilt = inner.withBody(split.remaining);
      return soac.mapLambdas(l -> l == target ? rebuilt : l.withBody(body(l.body())));
    }

    private record Split(List<Stm> hoisted, Body remaining) {}

    private interface Guard {
      /** Whether the loop or SOAC may run no iteration (false only where that is certain). */
      boolean mayRunNoIteration();

      /**
       * A boolean that is true when the loop or SOAC runs no iteration (emitting what it needs).
       */
      SubExp noIteration();
    }

    /**
     * The invariant bindings of {@code body} moved out, the rest kept. A hoisted assertion is
     * guarded by the loop or SOAC running no iteration, so where that may happen its certificate
     * outside no longer proves its condition: an invariant assertion whose certificate an invariant
     * binding needs (a SOAC over a zip whose sizes it checks, say) stays inside, and so does that
     * binding, which would otherwise run on unchecked operands where the loop runs zero times.
     */
    private Split split(Body body, Set<String> variantParams, Guard guard) {
      Set<String> consumed = Analysis.consumedNames(body);
      List<Set<String>> free = body.stms().stream().map(Analysis::freeVariables).toList();
      Set<String> pinned =
          guard.mayRunNoIteration()
              ? certificatesOfHoistableBindings(body, free, variantParams, consumed)
              : Set.of();
      Set<String> variant = new HashSet<>(variantParams);
      List<Stm> hoisted = new ArrayList<>();
      List<Stm> kept = new ArrayList<>();
      SubExp empty = null;
      for (int k = 0; k < body.stms().size(); k++) {
        Stm stm = body.stms().get(k);
        Move move = move(stm, free.get(k), variant, consumed);
        if (move == Move.HOIST) {
          hoisted.add(stm);
        } else if (move == Move.HOIST_GUARDED
            && stm.pattern().stream().noneMatch(p -> pinned.contains(p.name()))) {
          if (empty == null) {
            empty = guard.noIteration();
          }
          hoisted.add(guardedAssert(stm, (Exp.Assert) stm.exp(), empty, hoisted));
        } else {
          kept.add(stm);
          stm.pattern().forEach(p -> variant.add(p.name()));
        }
      }
      return new Split(hoisted, new Body(kept, body.result()));
    }

    /** Where a binding of a loop's or SOAC's body goes. */
    private enum Move {
      /** Out, as it is: invariant, not consumed inside, and it cannot fail. */
      HOIST,
      /** Out, guarded by "no iteration": an invariant assertion. */
      HOIST_GUARDED,
      /** It stays. */
      KEEP
    }

    /**
     * Where {@code stm}, whose free names are {@code free}, goes, given the names that vary from
     * one iteration to the next so far and the names the body consumes.
     */
    private static Move move(Stm stm, Set<String> free, Set<String> variant, Set<String> consumed) {
      if (free.stream().anyMatch(variant::contains)) {
        return Move.KEEP;
      }
      boolean isConsumed = stm.pattern().stream().anyMatch(p -> consumed.contains(p.name()));
      if (!isConsumed && !Analysis.mayFail(stm.exp()) && !(stm.exp() instanceof Exp.Copy)) {
        return Move.HOIST;
      }
      return stm.exp() instanceof Exp.Assert ? Move.HOIST_GUARDED : Move.KEEP;
    }

    /**
     * The certificates of the invariant assertions of {@code body} that an invariant binding which
     * may be hoisted needs, were every invariant assertion hoisted ({@code free}: each binding's
     * free names).
     */
    private static Set<String> certificatesOfHoistableBindings(
        Body body, List<Set<String>> free, Set<String> variantParams, Set<String> consumed) {
      Set<String> variant = new HashSet<>(variantParams);
      Set<String> assertions = new HashSet<>();
      Set<String> needed = new HashSet<>();
      for (int k = 0; k < body.stms().size(); k++) {
        Stm stm = body.stms().get(k);
        switch (move(stm, free.get(k), variant, consumed)) {
          case HOIST -> free.get(k).stream().filter(assertions::contains).forEach(needed::add);
          case HOIST_GUARDED -> stm.pattern().forEach(p -> assertions.add(p.name()));
          case KEEP -> stm.pattern().forEach(p -> variant.add(p.name()));
        }
      }
      return needed;
    }

    private Stm guardedAssert(Stm stm, Exp.Assert a, SubExp empty, List<Stm> hoisted) {
      Ident ok = new Ident(names.fresh("hoisted_ok"), ScalarType.BOOL);
      hoisted.add(
          new Stm(
              List.of(ok),
              new Exp.BinOp(BinaryOperator.OR, ScalarType.BOOL, empty, a.condition(), a.pos())));
      return stm.withExp(a.withCondition(ok.var()));
    }

    /** {@code bound <= 0}: a loop with this bound runs no iteration. */
    private SubExp loopNeverRuns(Exp.Loop l, List<Stm> out) {
      ScalarType t = (ScalarType) l.counter().type();
      Ident empty = new Ident(names.fresh("no_iteration"), ScalarType.BOOL);
      out.add(
          new Stm(
              List.of(empty),
              new Exp.BinOp(
                  BinaryOperator.LEQ,
                  t,
                  l.bound(),
                  SubExp.constant(new ScalarValue.Int(t, 0)),
                  SourcePos.NONE)));
      return empty.var();
    }

    /** {@code size(0, input) = 0}: a SOAC over this input runs its function on no row. */
    private SubExp soacNeverRuns(SubExp input, List<Stm> out) {
      Ident width = new Ident(names.fresh("width"), ScalarType.I32);
      Ident empty = new Ident(names.fresh("no_iteration"), ScalarType.BOOL);
      out.add(new Stm(List.of(width), new Exp.Size(0, input)));
      out.add(
          new Stm(
              List.of(empty),
              new Exp.BinOp(
                  BinaryOperator.EQ,
                  ScalarType.I32,
                  width.var(),
                  SubExp.constant(ScalarValue.i32(0)),
                  SourcePos.NONE)));
      return empty.var();
    }
  }
}
