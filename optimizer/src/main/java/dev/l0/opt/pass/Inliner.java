package dev.l0.opt.pass;

import dev.l0.opt.ir.Analysis;
import dev.l0.opt.ir.Body;
import dev.l0.opt.ir.Exp;
import dev.l0.opt.ir.InternalFunction;
import dev.l0.opt.ir.InternalProgram;
import dev.l0.opt.ir.NameSource;
import dev.l0.opt.ir.Stm;
import dev.l0.opt.ir.SubExp;
import dev.l0.opt.ir.Substitution;
import dev.l0.opt.ir.Traversal;
import dev.l0.types.NestingLimit;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Inlining of non-recursive functions (thesis §5.1): a call {@code let {r} = f(a)} becomes the body
 * of {@code f} with its parameters replaced by the arguments and every bound name fresh, and
 * nothing more. Functions carry their certificates as parameters and results (§4.2.1), so a call is
 * not itself predicated, the certificate a caller passes ends up predicating exactly the inlined
 * statements that were predicated on the parameter, and the others stay free to move (e.g. be
 * hoisted). Recursive functions (those that can reach themselves in the call graph) stay calls. All
 * call sites are inlined, callees first, so one application leaves no call to a non-recursive
 * function, except where inlining would nest bodies deeper than {@link NestingLimit#MAX_DEPTH}:
 * that call stays a call, so that no pass meets nesting deeper than the checker allows in the
 * source and every program the checker accepts optimises on the stack {@link NestingLimit} sizes.
 */
public final class Inliner implements Pass {
  @Override
  public String name() {
    return "inline";
  }

  @Override
  public InternalProgram apply(InternalProgram program, NameSource names) {
    Map<String, Set<String>> calls = new HashMap<>();
    program.functions().forEach(f -> calls.put(f.name(), callees(f.body())));
    Set<String> recursive = new HashSet<>();
    for (String f : calls.keySet()) {
      if (reachable(f, calls).contains(f)) {
        recursive.add(f);
      }
    }
    Map<String, Inlined> done = new HashMap<>();
    List<InternalFunction> out = new ArrayList<>();
    for (InternalFunction f : program.functions()) {
      out.add(inlined(f, program, recursive, done, names).function());
    }
    return new InternalProgram(out);
  }

  /** A function with its calls inlined, and how deeply bodies nest in it. */
  private record Inlined(InternalFunction function, int nesting) {}

  private Inlined inlined(
      InternalFunction f,
      InternalProgram program,
      Set<String> recursive,
      Map<String, Inlined> done,
      NameSource names) {
    Inlined cached = done.get(f.name());
    if (cached != null) {
      return cached;
    }
    Callees callees =
        callee ->
            recursive.contains(callee)
                ? null
                : inlined(program.function(callee).orElseThrow(), program, recursive, done, names);
    Body body = inlineBody(f.body(), 0, callees, names);
    Inlined result = new Inlined(f.withBody(body), Analysis.nesting(body));
    done.put(f.name(), result);
    return result;
  }

  private interface Callees {
    /** The callee with its own calls already inlined, or {@code null} where the call must stay. */
    Inlined inlinable(String name);
  }

  /**
   * {@code body}, nested {@code level} bodies deep in its function, with its calls inlined where
   * the nesting stays within the limit.
   */
  private Body inlineBody(Body body, int level, Callees callees, NameSource names) {
    List<Stm> out = new ArrayList<>();
    Map<String, SubExp> results = new HashMap<>();
    for (Stm original : body.stms()) {
      Stm stm = new Substitution(results).apply(original);
      stm =
          Traversal.withExp(
              stm,
              Traversal.mapNestedBodies(stm.exp(), b -> inlineBody(b, level + 1, callees, names)));
      Inlined inlinable = stm.exp() instanceof Exp.Apply a ? callees.inlinable(a.function()) : null;
      InternalFunction callee =
          inlinable == null || level + inlinable.nesting() > NestingLimit.MAX_DEPTH
              ? null
              : inlinable.function();
      if (callee == null) {
        out.add(stm);
        continue;
      }
      Exp.Apply call = (Exp.Apply) stm.exp();
      Map<String, SubExp> renaming = new HashMap<>();
      for (int k = 0; k < callee.params().size(); k++) {
        renaming.put(callee.params().get(k).name(), call.args().get(k));
      }
      Substitution fresh = Renamer.freshNames(Analysis.boundIn(callee.body()), names);
      renaming.putAll(fresh.asMap());
      Body inlined = new Substitution(renaming).apply(callee.body());
      out.addAll(inlined.stms());
      for (int k = 0; k < stm.pattern().size(); k++) {
        results.put(stm.pattern().get(k).name(), inlined.result().get(k));
      }
    }
    return new Body(out, new Substitution(results).applyAll(body.result()));
  }

  private static Set<String> callees(Body body) {
    Set<String> out = new HashSet<>();
    for (Stm stm : Traversal.statements(body)) {
      if (stm.exp() instanceof Exp.Apply a) {
        out.add(a.function());
      }
    }
    return out;
  }

  private static Set<String> reachable(String from, Map<String, Set<String>> calls) {
    Set<String> seen = new HashSet<>();
    List<String> work = new ArrayList<>(calls.getOrDefault(from, Set.of()));
    while (!work.isEmpty()) {
      String f = work.remove(work.size() - 1);
      if (seen.add(f)) {
        work.addAll(calls.getOrDefault(f, Set.of()));
      }
    }
    return seen;
  }
}
