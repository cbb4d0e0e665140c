package dev.l0.dsl;

import dev.l0.ir.Expr;
import dev.l0.ir.L0CompileError;
import dev.l0.ir.SourcePos;
import dev.l0.ir.Type;
import dev.l0.syntax.L0Printer;
import java.util.Arrays;
import java.util.List;

/**
 * A staged array whose elements are staged as {@code T}: {@code Arr<F64>} is {@code [f64]}, {@code
 * Arr<Arr<I32>>} is {@code [[i32]]}. Arrays are regular (thesis §2.1).
 *
 * @param <T> the element handle class
 */
public final class Arr<T extends Val> extends Val {
  private final ValType<T> elementType;

  private Arr(Parts parts, ValType<T> elementType) {
    super(parts);
    this.elementType = elementType;
  }

  /** The type of arrays of {@code element}: {@code Arr.of(F64.TYPE)} is {@code [f64]}. */
  public static <T extends Val> ValType<Arr<T>> of(ValType<T> element) {
    CallSite.nonNull("Arr.of(element)", element);
    element.requireUnnamed("an array's element type");
    if (element.isUnique()) {
      throw CallSite.error(
          "uniqueness applies to the outermost array only: write Arr.of(Arr.of(t)).unique(), not"
              + " Arr.of(Arr.of(t).unique())");
    }
    return ofElements(element);
  }

  /**
   * The type of arrays of values of type {@code element}, unique or not (a unique parameter's
   * value, say): the elements are not, as uniqueness applies to the outermost array only.
   */
  static <T extends Val> ValType<Arr<T>> ofElements(ValType<T> element) {
    ValType<T> plain = element.nonUnique();
    return new ValType<>(Type.array(plain.l0Type()), List.of(), parts -> new Arr<>(parts, plain));
  }

  public ValType<T> elementType() {
    return elementType;
  }

  /** {@code this[i]}: an element, or for a multi-dimensional array a row. */
  public T get(I32 i) {
    CallSite.nonNull("get(i)", i);
    SourcePos pos = CallSite.current();
    return stage(elementType, new Expr.Index(use(pos), List.of(i.use(pos)), pos));
  }

  public T get(int i) {
    return get(L0.i32(i));
  }

  /** {@code size(0, this)}. */
  public I32 size() {
    return size(0);
  }

  /** {@code size(dimension, this)}; the dimension must be below the rank. */
  public I32 size(int dimension) {
    SourcePos pos = CallSite.current();
    if (dimension < 0 || dimension >= l0Type().rank()) {
      throw new L0CompileError(
          pos, "size(" + dimension + ", a) of an array of rank " + l0Type().rank());
    }
    return stage(I32.TYPE, new Expr.Size(dimension, use(pos), pos));
  }

  /**
   * In-place update {@code let b = this with [i] <- value in ...} (thesis §2.1.2): the returned
   * array is this one with element {@code i} replaced; this array is consumed and must be unique.
   */
  public Arr<T> with(I32 i, T value) {
    CallSite.nonNull("with(i, value)", i, value);
    SourcePos pos = CallSite.current();
    // Array handles always stand for variables (see Stager#reflect), as an update's source must.
    String source = ((Expr.Var) use(pos)).name();
    Stager stager = Stager.active(pos);
    String dest = stager.fresh("a");
    stager.bind(
        new Statement.InPlaceUpdate(dest, source, List.of(i.use(pos)), value.use(pos), pos));
    return typeOf(this).wrap(new Expr.Var(dest, pos), stager.currentBlock(pos));
  }

  /**
   * {@code reshape((d1, ..., dn), this)} to the array type {@code shape}, whose rank must be the
   * number of dimensions given and whose innermost element type must be this array's.
   */
  public <A extends Val> A reshape(ValType<A> shape, I32... dims) {
    CallSite.nonNull("reshape(shape, dims)", shape, dims);
    SourcePos pos = CallSite.current();
    Type target = shape.l0Type();
    if (target.rank() != dims.length || target.rank() == 0) {
      throw new L0CompileError(
          pos,
          "reshape to "
              + dims.length
              + " dimensions needs an array type of that rank, not "
              + L0Printer.print(target));
    }
    if (!target.baseElement().sameShapeAs(l0Type().baseElement())) {
      throw new L0CompileError(
          pos,
          "reshape cannot change the element type "
              + L0Printer.print(l0Type().baseElement())
              + " to "
              + L0Printer.print(target.baseElement()));
    }
    List<Expr> shapeExprs = Arrays.stream(dims).map(d -> d.use(pos)).toList();
    return stage(shape, new Expr.Reshape(shapeExprs, use(pos), pos));
  }
}
