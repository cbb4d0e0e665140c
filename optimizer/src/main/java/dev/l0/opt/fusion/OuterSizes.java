package dev.l0.opt.fusion;

import dev.l0.ir.Dim;
import dev.l0.ir.Type;
import dev.l0.opt.ir.Exp;
import dev.l0.opt.ir.SizeEquality;
import dev.l0.opt.ir.Stm;
import dev.l0.opt.ir.SubExp;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Which arrays have one outer size at a place of a function's body, where horizontal fusion would
 * read their rows in one pass ({@link FusionRule#FUSE_HORIZONTAL}, {@link
 * FusionRule#FUSE_HORIZONTAL_MAP}): an array and itself; arrays whose types give the same constant
 * size, or name one size variable; and arrays whose size variables the statements in scope there
 * show equal ({@link SizeEquality#holdingEverywhere}: one bound to the other or to a {@code size}
 * of an array of the other, or both compared by an assertion in scope, as a {@code zip} asserts).
 * An array whose type gives no outer size has one only with itself.
 */
public final class OuterSizes {
  /** What is known without the types of a scope: an array has one outer size with itself only. */
  public static final OuterSizes OF_ONE_ARRAY = new OuterSizes(Map.of(), List.of());

  private final Map<String, Type> types;
  private final List<Stm> inScope;

  /** The equalities {@link #inScope} shows, built the first time differently named sizes meet. */
  private SizeEquality equality;

  private OuterSizes(Map<String, Type> types, List<Stm> inScope) {
    this.types = types;
    this.inScope = List.copyOf(inScope);
  }

  /**
   * The outer sizes where the statements {@code inScope} are in scope (those before the place, in
   * its body and the bodies around it), {@code types} giving the types of the function's names.
   */
  public static OuterSizes of(Map<String, Type> types, List<Stm> inScope) {
    return new OuterSizes(types, inScope);
  }

  /** The outer sizes after {@code stms} too, which follow this place in one body. */
  OuterSizes after(List<Stm> stms) {
    List<Stm> all = new ArrayList<>(inScope);
    all.addAll(stms);
    return new OuterSizes(types, all);
  }

  /** Whether some input of {@code first} and some input of {@code second} have one outer size. */
  boolean shareOne(Exp.Soac first, Exp.Soac second) {
    return first.inputs().stream()
        .anyMatch(a -> second.inputs().stream().anyMatch(b -> same(a, b)));
  }

  /** Whether the arrays {@code a} and {@code b} have one outer size here. */
  boolean same(SubExp a, SubExp b) {
    if (a.equals(b)) {
      return true;
    }
    Dim n = outerSize(a);
    Dim m = outerSize(b);
    if (n instanceof Dim.Const || m instanceof Dim.Const) {
      return n.equals(m);
    }
    return n instanceof Dim.Named x
        && m instanceof Dim.Named y
        && (x.equals(y) || equality().known(x.variable(), y.variable()));
  }

  private Dim outerSize(SubExp array) {
    return array instanceof SubExp.Var v && types.get(v.name()) instanceof Type.Array t
        ? t.size()
        : Dim.UNKNOWN;
  }

  private SizeEquality equality() {
    if (equality == null) {
      Map<String, Exp> definitions = new HashMap<>();
      for (Stm stm : inScope) {
        if (stm.pattern().size() == 1) {
          definitions.put(stm.pattern().get(0).name(), stm.exp());
        }
      }
      equality = SizeEquality.holdingEverywhere(definitions, types);
    }
    return equality;
  }
}
