package dev.l0.opt.pass;

import dev.l0.ir.SourcePos;
import dev.l0.ir.Type;
import dev.l0.opt.ir.Analysis;
import dev.l0.opt.ir.Body;
import dev.l0.opt.ir.Exp;
import dev.l0.opt.ir.Ident;
import dev.l0.opt.ir.InternalProgram;
import dev.l0.opt.ir.InternalTypes;
import dev.l0.opt.ir.Lambda;
import dev.l0.opt.ir.NameSource;
import dev.l0.opt.ir.Stm;
import dev.l0.opt.ir.SubExp;
import dev.l0.opt.ir.Substitution;
import dev.l0.opt.ir.Traversal;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * Transposes stay index functions (thesis ch. 8): a kernel reads a {@code transpose} made outside
 * it as a view of its operand, so the host never computes one a kernel reads. Where a transposed
 * array is read as a value other than by a SOAC (a function's result, an index, a call, a loop, a
 * reshape), this pass, run after fusion, copies it into its own array by a kernel: {@code let t =
 * transpose(a) in {t}} becomes {@code let t = transpose(a) in let t' = map(fn r => r, t) in {t'}},
 * a map that reads {@code t} as a view and writes the rows in order, so no transpose runs on the
 * host. Only bodies whose SOACs are kernels (not a SOAC's functions) are rewritten.
 */
public final class TransposeMaterialisation implements Pass {
  @Override
  public String name() {
    return "materialise-transposes";
  }

  @Override
  public InternalProgram apply(InternalProgram program, NameSource names) {
    return new InternalProgram(
        program.functions().stream().map(f -> f.withBody(rewrite(f.body(), names))).toList());
  }

  private static Body rewrite(Body body, NameSource names) {
    List<Stm> stms = new ArrayList<>();
    for (Stm stm : body.stms()) {
      stms.add(
          stm.exp() instanceof Exp.Soac
              ? stm
              : Traversal.withExp(
                  stm, Traversal.mapNestedBodies(stm.exp(), b -> rewrite(b, names))));
    }
    List<SubExp> result = body.result();
    for (int i = 0; i < stms.size(); i++) {
      if (!(stms.get(i).exp() instanceof Exp.Transpose)) {
        continue;
      }
      Ident transposed = stms.get(i).pattern().get(0);
      String name = transposed.name();
      boolean readAsValue =
          result.stream().anyMatch(r -> name.equals(r.varName()))
              || stms.subList(i + 1, stms.size()).stream()
                  .anyMatch(
                      s ->
                          !(s.exp() instanceof Exp.Soac)
                              && Analysis.freeVariables(s).contains(name));
      if (!readAsValue) {
        continue;
      }
      Ident copy = new Ident(names.fresh(name + "_copy"), transposed.type());
      Substitution toCopy = new Substitution(Map.of(name, copy.var()));
      for (int j = i + 1; j < stms.size(); j++) {
        if (!(stms.get(j).exp() instanceof Exp.Soac)) {
          stms.set(j, toCopy.apply(stms.get(j)));
        }
      }
      result = toCopy.applyAll(result);
      stms.add(i + 1, new Stm(List.of(copy), List.of(), rowsCopied(transposed, names)));
    }
    return new Body(stms, result);
  }

  /** {@code map(fn r => r, t)}: the rows of {@code t} copied in order. */
  private static Exp.Screma rowsCopied(Ident t, NameSource names) {
    Type row = InternalTypes.row(t.type());
    Ident r = new Ident(names.fresh("row"), row);
    Lambda identity = new Lambda(List.of(r), new Body(List.of(), List.of(r.var())), List.of(row));
    return Exp.Screma.map(identity, List.of(t.var()), SourcePos.NONE);
  }
}
