package dev.l0.spark.endtoend;

import static org.apache.spark.sql.functions.exp;
import static org.apache.spark.sql.functions.lit;
import static org.apache.spark.sql.functions.log;
import static org.apache.spark.sql.functions.negate;
import static org.apache.spark.sql.functions.sqrt;
import static org.apache.spark.sql.functions.when;

import org.apache.spark.sql.Column;

/**
 * The thesis's P0 ({@code /programs/p0_blackscholes.l0}) written as Spark SQL expressions,
 * operation for operation in the program's order. Spark computes {@code exp}, {@code log} and
 * {@code sqrt} with {@code StrictMath}, as L0 does on every device, so both give the same bits.
 */
final class SparkSqlBlackScholes {
  private SparkSqlBlackScholes() {}

  /** P0's {@code go}: the price of one option. */
  static Column price(
      Column call, Column price, Column strike, Column years, Column rate, Column volatility) {
    Column vSqrtT = volatility.multiply(sqrt(years));
    Column d1 =
        log(price.divide(strike))
            .plus(rate.plus(lit(0.5).multiply(volatility).multiply(volatility)).multiply(years))
            .divide(vSqrtT);
    Column d2 = d1.minus(vSqrtT);
    Column cndD1 = cnd(d1);
    Column cndD2 = cnd(d2);
    Column xExpRT = strike.multiply(exp(negate(rate).multiply(years)));
    return when(call, price.multiply(cndD1).minus(xExpRT.multiply(cndD2)))
        .otherwise(
            xExpRT.multiply(lit(1.0).minus(cndD2)).minus(price.multiply(lit(1.0).minus(cndD1))));
  }

  private static Column cnd(Column d) {
    Column c = cnd0(d);
    return when(lit(0.0).lt(d), lit(1.0).minus(c)).otherwise(c);
  }

  private static Column cnd0(Column d) {
    Column k = lit(1.0).divide(lit(1.0).plus(lit(0.2316419).multiply(abs(d))));
    Column p = horner(k);
    Column rsqrt2pi = lit(0.39894228040143267793994605993438);
    return rsqrt2pi.multiply(exp(lit(-0.5).multiply(d).multiply(d))).multiply(p);
  }

  private static Column horner(Column x) {
    Column c1 = lit(0.31938153);
    Column c2 = lit(-0.356563782);
    Column c3 = lit(1.781477937);
    Column c4 = lit(-1.821255978);
    Column c5 = lit(1.330274429);
    return x.multiply(
        c1.plus(x.multiply(c2.plus(x.multiply(c3.plus(x.multiply(c4.plus(x.multiply(c5)))))))));
  }

  /** P0's own {@code abs}, which keeps -0.0 (Spark's {@code abs} would not). */
  private static Column abs(Column x) {
    return when(x.lt(lit(0.0)), negate(x)).otherwise(x);
  }
}
