package dev.l0.testing;

import dev.l0.ir.Dim;
import dev.l0.ir.ScalarType;
import dev.l0.ir.Type;
import java.util.ArrayList;
import java.util.List;

/**
 * Random sized types for generated programs: scalars of all five types, tuples, arrays of rank 1 to
 * 3 and arrays of tuples. Sizes stay small (at most 12, fewer for higher ranks) so that a thousand
 * programs run in seconds. Every array element type has constant sizes (see {@link SizedTypes}).
 */
final class TypeGenerator {
  /** The simplest first: a used-up tape yields {@code i32}. */
  private static final List<ScalarType> SCALARS =
      List.of(ScalarType.I32, ScalarType.F64, ScalarType.BOOL, ScalarType.I64, ScalarType.F32);

  private static final List<ScalarType> NUMERIC =
      List.of(ScalarType.I32, ScalarType.F64, ScalarType.I64, ScalarType.F32);
  private static final List<ScalarType> INTEGERS = List.of(ScalarType.I32, ScalarType.I64);
  private static final int MAX_RANK = 3;

  private final Choices choices;
  private final boolean wide;

  TypeGenerator(Choices choices) {
    this(choices, false);
  }

  /**
   * With {@code wide}, one in four one-dimensional arrays has 13 to 70 elements: more than a
   * reduction's first chunk ({@code ReductionOrder}'s 16 elements) and than the JVM backend's
   * vector lanes.
   */
  TypeGenerator(Choices choices, boolean wide) {
    this.choices = choices;
    this.wide = wide;
  }

  ScalarType scalar() {
    return choices.pick(SCALARS);
  }

  ScalarType numeric() {
    return choices.pick(NUMERIC);
  }

  ScalarType integer() {
    return choices.pick(INTEGERS);
  }

  /** A size for one dimension of an array of {@code rank} dimensions; 0 is the simplest. */
  long size(int rank) {
    return switch (rank) {
      case 1 -> wide && choices.percent(25) ? choices.between(13, 70) : choices.between(0, 12);
      case 2 -> choices.between(0, 6);
      default -> choices.between(0, 4);
    };
  }

  /** A size of at least 1, for arrays that are indexed or updated. */
  long positiveSize(int rank) {
    return 1 + choices.below((int) size(rank) + 1);
  }

  /**
   * The element type of an array: a scalar, a tuple of scalars (sometimes with a row), or a row of
   * rank 1 or 2.
   */
  Type element(int maxRank) {
    int kind = choices.weighted(12, 3, maxRank >= 1 ? 4 : 0, maxRank >= 2 ? 1 : 0);
    return switch (kind) {
      case 0 -> scalar();
      case 1 -> tupleElement();
      case 2 -> SizedTypes.arrayOf(scalar(), size(2));
      default -> SizedTypes.arrayOf(SizedTypes.arrayOf(scalar(), size(3)), size(3));
    };
  }

  /** A tuple that arrays may hold: scalars, sometimes one constant-size row. */
  private Type tupleElement() {
    int width = choices.between(2, 3);
    List<Type> parts = new ArrayList<>();
    for (int i = 0; i < width; i++) {
      parts.add(choices.percent(15) ? SizedTypes.arrayOf(scalar(), size(2)) : scalar());
    }
    return new Type.Tuple(parts);
  }

  /** A tuple of 2 or 3 scalars: what a reduction or scan with a tuple operator combines. */
  Type tupleOfScalars() {
    int width = choices.between(2, 3);
    List<Type> parts = new ArrayList<>();
    for (int i = 0; i < width; i++) {
      parts.add(scalar());
    }
    return new Type.Tuple(parts);
  }

  /**
   * An array type with outer size {@code outer} and a random element type within the rank limit.
   */
  Type.Array array(Dim outer) {
    return SizedTypes.arrayOf(element(MAX_RANK - 1), outer);
  }

  /** An array of scalars or of rows, never of tuples: one of the arrays a {@code zip} combines. */
  Type.Array zipComponent(Dim outer) {
    Type element = choices.percent(75) ? scalar() : SizedTypes.arrayOf(scalar(), size(2));
    return SizedTypes.arrayOf(element, outer);
  }

  /** The types of 2 or 3 arrays of one outer size that {@code unzip} can produce. */
  Type.Tuple zipComponents(Dim outer) {
    int width = choices.between(2, 3);
    List<Type> parts = new ArrayList<>();
    for (int i = 0; i < width; i++) {
      parts.add(zipComponent(outer));
    }
    return new Type.Tuple(parts);
  }

  /** Two arrays of one element type and any sizes: what {@code split} produces. */
  Type.Tuple splitHalves() {
    Type element = element(1);
    return Type.tuple(
        SizedTypes.arrayOf(element, Dim.UNKNOWN), SizedTypes.arrayOf(element, Dim.UNKNOWN));
  }

  /** An array type whose every size is a known constant. */
  Type.Array constantArray(int rank) {
    return (Type.Array)
        SizedTypes.arrayOf(rank == 1 ? element(0) : scalar(), constantDims(rank, false));
  }

  /** {@code rank} constant sizes, all positive when {@code positive}. */
  List<Dim> constantDims(int rank, boolean positive) {
    List<Dim> dims = new ArrayList<>();
    for (int i = 0; i < rank; i++) {
      dims.add(new Dim.Const(positive ? positiveSize(rank) : size(rank)));
    }
    return dims;
  }

  /** The type of a value bound by {@code let}: often an array of any size, for SOAC chains. */
  Type binding() {
    int kind = choices.weighted(4, 8, 2);
    return switch (kind) {
      case 0 -> scalar();
      case 1 -> array(Dim.UNKNOWN);
      default -> tuple(true);
    };
  }

  /** A tuple of scalars and arrays; array outer sizes are left open when {@code openSizes}. */
  Type.Tuple tuple(boolean openSizes) {
    int width = choices.between(2, 3);
    List<Type> parts = new ArrayList<>();
    boolean sameElements = choices.percent(30);
    Type shared = element(1);
    for (int i = 0; i < width; i++) {
      if (choices.percent(50)) {
        parts.add(scalar());
      } else {
        Dim outer = openSizes ? Dim.UNKNOWN : new Dim.Const(size(2));
        parts.add(SizedTypes.arrayOf(sameElements ? shared : element(1), outer));
      }
    }
    return new Type.Tuple(parts);
  }

  /** The type of a function parameter: every size known. */
  Type parameter() {
    int kind = choices.weighted(4, 6, 1);
    return switch (kind) {
      case 0 -> scalar();
      case 1 -> constantArray(1 + choices.below(MAX_RANK));
      default -> tuple(false);
    };
  }

  /** The type of a loop's accumulator: scalars, tuples of scalars, constant-size arrays. */
  Type accumulator() {
    int kind = choices.weighted(4, 2, 2);
    return switch (kind) {
      case 0 -> scalar();
      case 1 -> tupleOfScalars();
      default -> constantArray(1 + choices.below(2));
    };
  }
}
