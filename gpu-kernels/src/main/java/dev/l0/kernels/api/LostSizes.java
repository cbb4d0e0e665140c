package dev.l0.kernels.api;

import dev.l0.ir.Expr;
import dev.l0.ir.FunDef;
import dev.l0.ir.ScalarType;
import dev.l0.syntax.Article;
import dev.l0.types.HiddenSizeUses;
import dev.l0.types.TypedProgram;
import java.util.Arrays;
import java.util.Optional;

/**
 * Says why nested Java arrays with an empty dimension above their last cannot be given to an entry
 * that could see the sizes below it: {@code new double[0][3]} is one empty {@code double[][]}, the
 * 3 is gone, so those sizes read as 0, while an L0 array keeps them ({@code size(1, a)} of an empty
 * {@code [0][3]} array is 3) and the result could differ. Which uses could see them is {@link
 * HiddenSizeUses}'s answer; the runtime API's arguments and the Spark plugin's {@code with(...)}
 * values both ask here.
 */
public final class LostSizes {
  private final TypedProgram typed;
  private final FunDef entry;

  /** For the entry function {@code entry} of {@code typed}. */
  public LostSizes(TypedProgram typed, FunDef entry) {
    this.typed = typed;
    this.entry = entry;
  }

  /**
   * Where the entry could see the sizes that nested Java arrays of {@code element}s and {@code
   * shape}, given for {@code parameter}, lost below dimension {@code knownDimensions - 1} (an empty
   * one): what was lost, where the entry sees it and the {@link dev.l0.kernels.jvm.FlatArray} to
   * give instead (e.g. {@code the value, a double[][] of shape [0][?], has no row under its empty
   * dimension ... bind a FlatArray ...}); empty where the entry cannot see them or nothing was
   * lost.
   */
  public Optional<String> problem(
      String parameter, ScalarType element, int[] shape, int knownDimensions) {
    if (knownDimensions >= shape.length) {
      return Optional.empty();
    }
    return HiddenSizeUses.firstUse(typed, entry, parameter, knownDimensions)
        .map(use -> describe(element, shape, knownDimensions, use));
  }

  private String describe(ScalarType element, int[] shape, int knownDimensions, Expr use) {
    StringBuilder known = new StringBuilder();
    int[] example = shape.clone();
    for (int d = 0; d < shape.length; d++) {
      known.append(d < knownDimensions ? "[" + shape[d] + "]" : "[?]");
      example[d] = d < knownDimensions ? shape[d] : 3;
    }
    boolean one = shape.length - knownDimensions == 1;
    String primitive = JavaScalars.arrayClass(element).getComponentType().getName();
    return "the value, "
        + Article.before(JavaScalars.nestedArrayClass(element, shape.length).getTypeName())
        + " of shape "
        + known
        + ", has no row under its empty dimension to give the "
        + (one
            ? "size of its dimension " + (knownDimensions + 1)
            : "sizes of its dimensions " + (knownDimensions + 1) + " to " + shape.length)
        + " (Java's new "
        + primitive
        + "[0][3] keeps no 3), but '"
        + entry.name()
        + "' can see "
        + (one ? "it" : "them")
        + " at "
        + use.pos()
        + ", where an L0 array would have "
        + (one ? "it" : "them")
        + "; bind a FlatArray, which keeps every size, e.g. new FlatArray(ScalarType."
        + element.name()
        + ", new "
        + primitive
        + "[0], new int[] "
        + Arrays.toString(example).replace('[', '{').replace(']', '}')
        + ")";
  }
}
