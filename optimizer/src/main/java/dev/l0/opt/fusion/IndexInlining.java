package dev.l0.opt.fusion;

import dev.l0.opt.ir.Body;
import dev.l0.opt.ir.Exp;
import dev.l0.opt.ir.Ident;
import dev.l0.opt.ir.InternalProgram;
import dev.l0.opt.ir.Lambda;
import dev.l0.opt.ir.NameSource;
import dev.l0.opt.ir.Stm;
import dev.l0.opt.ir.SubExp;
import dev.l0.opt.ir.Traversal;
import dev.l0.opt.pass.Pass;
import dev.l0.opt.pass.Renamer;
import dev.l0.opt.pass.RuleLog;
import dev.l0.opt.pass.SimplificationRule;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Inlining of indexing into cheap maps (thesis §9.2), a pre-fusion hindrance removal: in {@code let
 * b = map(f, a) in reduce(min, b[0], b)} the index {@code b[0]} is a second use of {@code b} that
 * blocks map-reduce fusion; rewritten to {@code f(a[0])} it is gone. Applies to {@code b[i]} where
 * {@code b} is bound in the same body (never into a loop or a SOAC's function, which would repeat
 * the work) by a map whose function is cheap ({@link DuplicationCost}: straight-line scalar code
 * that cannot fail) over scalar rows. The indexing of each input keeps the original's position and
 * the map's certificates, so an index out of bounds fails as before, in {@code index}; the map's
 * operations run in their own order on the one element, so the value is bit-identical. This is the
 * rule {@link SimplificationRule#INLINE_INDEXING}, recorded in the {@link RuleLog} on the map whose
 * indexing it inlined (the map's kernel, or the kernel it fuses into, names it).
 */
public final class IndexInlining implements Pass {
  private final RuleLog log;

  /** The pass recording in {@code log} each map whose indexing it inlines. */
  public IndexInlining(RuleLog log) {
    this.log = log;
  }

  /** The pass applied alone, recording nothing. */
  public IndexInlining() {
    this(RuleLog.NONE);
  }

  @Override
  public String name() {
    return "inline-indexing";
  }

  @Override
  public InternalProgram apply(InternalProgram program, NameSource names) {
    return new InternalProgram(
        program.functions().stream()
            .map(
                f -> {
                  Body body = body(f.body(), names);
                  return body == f.body() ? f : f.withBody(body);
                })
            .toList());
  }

  private Body body(Body body, NameSource names) {
    Map<String, Stm> cheapMaps = new HashMap<>();
    List<Stm> out = new ArrayList<>();
    boolean changed = false;
    for (Stm stm : body.stms()) {
      Stm nested =
          Traversal.withExp(stm, Traversal.mapNestedBodies(stm.exp(), b -> body(b, names)));
      changed |= nested != stm;
      if (nested.exp() instanceof Exp.Index x
          && x.indices().size() == 1
          && x.array() instanceof SubExp.Var v
          && cheapMaps.containsKey(v.name())) {
        Stm map = cheapMaps.get(v.name());
        log.shaped(SimplificationRule.INLINE_INDEXING, map);
        out.addAll(inlined(nested, x, map, v.name(), names));
        changed = true;
        continue;
      }
      if (nested.exp() instanceof Exp.Screma m && m.isMap() && cheapOverScalars(m.function())) {
        nested.pattern().forEach(p -> cheapMaps.put(p.name(), nested));
      }
      out.add(nested);
    }
    return changed ? new Body(out, body.result()) : body;
  }

  private static boolean cheapOverScalars(Lambda f) {
    return f.params().stream().allMatch(p -> p.type().rank() == 0)
        && f.returnTypes().stream().allMatch(t -> t.rank() == 0)
        && DuplicationCost.cheap(f);
  }

  /**
   * {@code let x = b[i]} as {@code let p1 = a1[i] ... let pn = an[i]}, a fresh copy of the map's
   * function body, and {@code let x = r} for the function's result {@code r} that {@code b} holds.
   */
  private static List<Stm> inlined(
      Stm index, Exp.Index x, Stm map, String array, NameSource names) {
    Exp.Screma m = (Exp.Screma) map.exp();
    Lambda f = Renamer.fresh(m.function(), names);
    List<String> certs = new ArrayList<>(map.certificates());
    index.certificates().stream().filter(c -> !certs.contains(c)).forEach(certs::add);
    List<Stm> out = new ArrayList<>();
    for (int j = 0; j < f.params().size(); j++) {
      Ident p = f.params().get(j);
      out.add(new Stm(List.of(p), certs, new Exp.Index(m.inputs().get(j), x.indices(), x.pos())));
    }
    out.addAll(f.body().stms());
    int k = 0;
    while (!map.pattern().get(k).name().equals(array)) {
      k++;
    }
    out.add(new Stm(index.pattern(), new Exp.Atom(f.body().result().get(k))));
    return out;
  }
}
