package dev.l0.kernels.cuda;

import dev.l0.math.L0Math;
import java.util.function.DoubleBinaryOperator;

/**
 * A function of {@code l0_math.cuh} together with the JVM function it must equal bit for bit:
 * {@link L0Math}, which is {@link StrictMath} for all but {@code erf} (fdlibm's s_erf.c).
 */
public enum CudaMathFunction {
  EXP("l0_exp", 1, (x, unused) -> L0Math.exp(x)),
  LOG("l0_log", 1, (x, unused) -> L0Math.log(x)),
  POW("l0_pow", 2, L0Math::pow),
  SIN("l0_sin", 1, (x, unused) -> L0Math.sin(x)),
  COS("l0_cos", 1, (x, unused) -> L0Math.cos(x)),
  ERF("l0_erf", 1, (x, unused) -> L0Math.erf(x)),
  SQRT("l0_sqrt", 1, (x, unused) -> L0Math.sqrt(x)),
  FLOOR("l0_floor", 1, (x, unused) -> L0Math.floor(x));

  private final String doubleName;
  private final int arity;
  private final DoubleBinaryOperator reference;

  CudaMathFunction(String doubleName, int arity, DoubleBinaryOperator reference) {
    this.doubleName = doubleName;
    this.arity = arity;
    this.reference = reference;
  }

  /** The C name of the f64 version; the f32 version appends {@code f}. */
  public String cName(boolean singlePrecision) {
    return singlePrecision ? doubleName + "f" : doubleName;
  }

  /** 1 or 2 arguments ({@code pow}). */
  public int arity() {
    return arity;
  }

  /**
   * The JVM's result: the f64 function, or for f32 the f64 function of the float arguments rounded
   * to float (the product's definition of f32 math, as {@code L0Math.expf} etc.). The second
   * argument is ignored by unary functions.
   */
  public double reference(double first, double second, boolean singlePrecision) {
    if (singlePrecision) {
      return (float) reference.applyAsDouble((float) first, (float) second);
    }
    return reference.applyAsDouble(first, second);
  }
}
