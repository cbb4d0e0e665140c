package dev.l0.opt.pass;

import dev.l0.ir.Dim;
import dev.l0.ir.ScalarType;
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
 * host. Only bodies whose SOACs are kernels (not a SOAC's functions) are rewritten. This is the
 * rule {@link SimplificationRule#MATERIALISE_TRANSPOSE}, recorded in the {@link RuleLog} on each
 * copy it adds.
 */
public final class TransposeMaterialisation implements Pass {
  private final RuleLog log;

  /** The pass recording in {@code log} each copy it adds. */
  public TransposeMaterialisation(RuleLog log) {
    this.log = log;
  }

  /** The pass applied alone, recording nothing. */
  public TransposeMaterialisation() {
    this(RuleLog.NONE);
  }

  @Override
  public String name() {
    return "materialise-transposes";
  }

  @Override
  public InternalProgram apply(InternalProgram program, NameSource names) {
    return new InternalProgram(
        program.functions().stream().map(f -> f.withBody(rewrite(f.body(), names))).toList());
  }

  private Body rewrite(Body body, NameSource names) {
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
      List<Stm> sizes = new ArrayList<>();
      Type sized = sizedFromOperand((Exp.Transpose) stms.get(i).exp(), transposed, sizes, names);
      Ident copy = new Ident(names.fresh(name + "_copy"), sized);
      Substitution toCopy = new Substitution(Map.of(name, copy.var()));
      for (int j = i + 1; j < stms.size(); j++) {
        if (!(stms.get(j).exp() instanceof Exp.Soac)) {
          stms.set(j, toCopy.apply(stms.get(j)));
        }
      }
      result = toCopy.applyAll(result);
      Stm copying = new Stm(List.of(copy), List.of(), rowsCopied(transposed.var(), sized, names));
      log.shaped(SimplificationRule.MATERIALISE_TRANSPOSE, copying);
      sizes.add(copying);
      stms.addAll(i + 1, sizes);
    }
    return new Body(stms, result);
  }

  /**
   * The type of {@code transposed}, bound to {@code transpose}, with each size it does not know
   * named by a {@code size(d, a)} of the transpose's operand {@code a} (the dimension that the
   * transposition moves there), whose statements are added to {@code sizes}: the copy's rows then
   * have sizes the host knows before the kernel runs, so it lowers as one launch.
   */
  private static Type sizedFromOperand(
      Exp.Transpose transpose, Ident transposed, List<Stm> sizes, NameSource names) {
    List<Integer> operandDimension = new ArrayList<>();
    for (int d = 0; d < transposed.type().rank(); d++) {
      operandDimension.add(d);
    }
    operandDimension.add(transpose.k() + transpose.n(), operandDimension.remove(transpose.k()));
    return sized(transposed.type(), 0, operandDimension, transpose.array(), sizes, names);
  }

  private static Type sized(
      Type type,
      int depth,
      List<Integer> operandDimension,
      SubExp operand,
      List<Stm> sizes,
      NameSource names) {
    if (!(type instanceof Type.Array array)) {
      return type;
    }
    Type element = sized(array.element(), depth + 1, operandDimension, operand, sizes, names);
    if (!(array.size() instanceof Dim.Unknown)) {
      return new Type.Array(element, array.size(), array.unique());
    }
    Ident size = new Ident(names.fresh("transposed_size"), ScalarType.I32);
    sizes.add(new Stm(List.of(size), new Exp.Size(operandDimension.get(depth), operand)));
    return new Type.Array(element, new Dim.Named(size.name()), array.unique());
  }

  /** {@code map(fn r => r, t)}: the rows of {@code t}, of type {@code type}, copied in order. */
  private static Exp.Screma rowsCopied(SubExp t, Type type, NameSource names) {
    Type row = InternalTypes.row(type);
    Ident r = new Ident(names.fresh("row"), row);
    Lambda identity = new Lambda(List.of(r), new Body(List.of(), List.of(r.var())), List.of(row));
    return Exp.Screma.map(identity, List.of(t), SourcePos.NONE);
  }
}
