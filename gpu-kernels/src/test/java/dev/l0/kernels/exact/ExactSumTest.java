package dev.l0.kernels.exact;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Random;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import org.junit.jupiter.api.Test;

class ExactSumTest {

  /**
   * Finite doubles of every magnitude (mantissa times a power of two), small enough not to overflow
   * a sum of 200.
   */
  @Provide
  Arbitrary<List<Double>> values() {
    Arbitrary<Double> scaled =
        Combinators.combine(
                Arbitraries.longs().between(-(1L << 53), 1L << 53),
                Arbitraries.integers().between(-1126, 960))
            .as((mantissa, exponent) -> Math.scalb((double) mantissa, exponent));
    Arbitrary<Double> plain = Arbitraries.doubles().between(-1e6, 1e6);
    return Arbitraries.oneOf(
            scaled, plain, Arbitraries.of(0.0, -0.0, 1.0, -1.0, 1e-300, Double.MIN_VALUE))
        .list()
        .ofMaxSize(200);
  }

  private static double bigDecimalSum(List<Double> values) {
    BigDecimal sum = BigDecimal.ZERO;
    for (double v : values) {
      sum = sum.add(new BigDecimal(v));
    }
    return sum.doubleValue();
  }

  private static double exactSum(List<Double> values) {
    ExactSum sum = new ExactSum();
    values.forEach(sum::add);
    return sum.value();
  }

  @Property
  void isTheCorrectlyRoundedSum(@ForAll("values") List<Double> values) {
    double expected = bigDecimalSum(values);
    double actual = exactSum(values);
    // BigDecimal has no negative zero: compare zeros by value, everything else by bits.
    if (expected == 0.0) {
      assertEquals(0.0, actual, 0.0);
    } else {
      assertEquals(
          Double.doubleToLongBits(expected),
          Double.doubleToLongBits(actual),
          () -> "expected " + expected + " got " + actual);
    }
  }

  @Property
  void doesNotDependOnOrderOrGrouping(@ForAll("values") List<Double> values, @ForAll long seed) {
    List<Double> shuffled = new ArrayList<>(values);
    Random random = new Random(seed);
    Collections.shuffle(shuffled, random);
    int parts = 1 + random.nextInt(4);
    ExactSum merged = new ExactSum();
    for (int part = 0; part < parts; part++) {
      ExactSum partial = new ExactSum();
      for (int i = part; i < shuffled.size(); i += parts) {
        partial.add(shuffled.get(i));
      }
      merged.add(partial);
    }
    assertEquals(
        Double.doubleToLongBits(exactSum(values)), Double.doubleToLongBits(merged.value()));
  }

  @Test
  void catchesWhatANaiveSumLoses() {
    assertEquals(2.0, new ExactSum().add(1e100).add(2.0).add(-1e100).value());
    assertEquals(0.30000000000000004, 0.1 + 0.2);
    assertEquals(
        0.30000000000000004,
        new ExactSum().add(0.1).add(0.2).value()); // correctly rounded, not 0.3
  }

  @Test
  void specialValues() {
    assertEquals(
        Double.POSITIVE_INFINITY, new ExactSum().add(1.0).add(Double.POSITIVE_INFINITY).value());
    assertEquals(
        Double.NaN,
        new ExactSum().add(Double.POSITIVE_INFINITY).add(Double.NEGATIVE_INFINITY).value());
    assertEquals(Double.NaN, new ExactSum().add(Double.NaN).add(1.0).value());
    assertEquals(0.0, new ExactSum().value());
    ArithmeticException overflow =
        assertThrows(
            ArithmeticException.class,
            () -> new ExactSum().add(Double.MAX_VALUE).add(Double.MAX_VALUE));
    assertEquals(true, overflow.getMessage().contains("intermediate overflow"));
  }

  @Test
  void vectorsSumElementWiseAndRefuseOtherLengths() {
    ExactFloatSum sum =
        new ExactFloatSum()
            .addElementWise(new double[] {1e100, 1.0})
            .addElementWise(new double[] {1.0, 2.0});
    sum.add(new ExactFloatSum().addElementWise(new double[] {-1e100, 0.5}));
    assertArrayEquals(new double[] {1.0, 3.5}, sum.values());
    IllegalArgumentException wrong =
        assertThrows(IllegalArgumentException.class, () -> sum.addElementWise(new double[3]));
    assertEquals(
        "exact vector sum: a vector of length 3 added to sums of length 2", wrong.getMessage());
  }

  /** Per element, the values an {@link ExactSum} gives: the reference for {@link ExactFloatSum}. */
  private static long[] elementSumBits(List<double[]> vectors, int length) {
    long[] bits = new long[length];
    for (int e = 0; e < length; e++) {
      ExactSum sum = new ExactSum();
      for (double[] vector : vectors) {
        sum.add(vector[e]);
      }
      bits[e] = Double.doubleToRawLongBits(sum.value());
    }
    return bits;
  }

  private static long[] bitsOf(double[] values) {
    long[] bits = new long[values.length];
    for (int i = 0; i < values.length; i++) {
      bits[i] = Double.doubleToRawLongBits(values[i]);
    }
    return bits;
  }

  /** Vectors of 3 built from {@link #values()} with NaN and infinities mixed in. */
  @Provide
  Arbitrary<List<double[]>> vectors() {
    Arbitrary<Double> element =
        Arbitraries.oneOf(
            values().flatMap(list -> list.isEmpty() ? Arbitraries.just(0.0) : Arbitraries.of(list)),
            Arbitraries.of(
                Double.NaN,
                Double.POSITIVE_INFINITY,
                Double.NEGATIVE_INFINITY,
                -0.0,
                0x1p970,
                -0x1p1000));
    Arbitrary<double[]> vector =
        element
            .list()
            .ofSize(3)
            .map(list -> list.stream().mapToDouble(Double::doubleValue).toArray());
    return vector.list().ofMaxSize(60);
  }

  @Property
  void vectorElementsEqualAnExactSumPerElementWhateverTheGrouping(
      @ForAll("vectors") List<double[]> vectors, @ForAll long seed) {
    Random random = new Random(seed);
    int parts = 1 + random.nextInt(4);
    ExactFloatSum merged = new ExactFloatSum();
    for (int part = 0; part < parts; part++) {
      ExactFloatSum partial = new ExactFloatSum();
      for (int i = part; i < vectors.size(); i += parts) {
        partial.addElementWise(vectors.get(i));
      }
      merged.add(partial);
    }
    double[] values = merged.values();
    if (vectors.isEmpty()) {
      assertEquals(0, values.length);
    } else {
      assertArrayEquals(elementSumBits(vectors, 3), bitsOf(values));
    }
  }

  @Test
  void vectorSumsOfManyVectorsCarryWithoutLosingBits() {
    Random random = new Random(11);
    List<double[]> vectors = new ArrayList<>();
    for (int v = 0; v < 5000; v++) {
      double[] vector = new double[4];
      for (int e = 0; e < vector.length; e++) {
        // Near the fixed-point path's largest and smallest magnitudes, and cancelling pairs.
        vector[e] =
            switch (e) {
              case 0 -> Math.scalb(random.nextLong() >> 11, 959 - 53);
              case 1 -> Math.scalb((double) (random.nextLong() >> 11), -1074);
              case 2 -> (random.nextDouble() - 0.5) * Math.pow(10, random.nextInt(30) - 15);
              default -> v % 2 == 0 ? 0x1.fffffffffffffp900 : -0x1.fffffffffffffp900;
            };
      }
      vectors.add(vector);
    }
    ExactFloatSum first = new ExactFloatSum();
    ExactFloatSum second = new ExactFloatSum();
    for (int v = 0; v < vectors.size(); v++) {
      (v < 3000 ? first : second).addElementWise(vectors.get(v));
    }
    double[] values = first.add(second).values();
    assertArrayEquals(elementSumBits(vectors, 4), bitsOf(values));
    assertEquals(0.0, values[3]);
    assertEquals(0L, Double.doubleToRawLongBits(values[3]));
  }

  @Test
  void vectorZerosKeepTheSignOfAnIeeeSum() {
    assertEquals(
        Double.doubleToRawLongBits(-0.0),
        Double.doubleToRawLongBits(
            new ExactFloatSum()
                .addElementWise(new double[] {-0.0})
                .addElementWise(new double[] {-0.0})
                .values()[0]));
    assertEquals(
        0L,
        Double.doubleToRawLongBits(
            new ExactFloatSum()
                .addElementWise(new double[] {-0.0})
                .addElementWise(new double[] {1.5})
                .addElementWise(new double[] {-1.5})
                .values()[0]));
    assertEquals(
        0L,
        Double.doubleToRawLongBits(
            new ExactFloatSum()
                .addElementWise(new double[] {0.0})
                .addElementWise(new double[] {-0.0})
                .values()[0]));
  }
}
