package dev.l0.testing;

import java.util.List;

/**
 * The ISWIM examples (thesis §8.3): scans whose operator is a map nest of depth 1 (Fig. 35), 2 and
 * 3 (Fig. 36), one with a map producer and one with a map consumer, with an input for each; the
 * optimiser's golden tests and the backends' tests run them.
 */
public final class IswimPrograms {
  private IswimPrograms() {}

  /** Fig. 35: a scan of rows with {@code zipWith (+)}. */
  public static final String FIG_35 =
      """
      fun [[real]] main([[real]] a) =
        let m = size(1, a) in
        scan(fn [real] ([real] x, [real] y) => map(op +, zip(x, y)), replicate(m, 0.0), a)
      """;

  /**
   * Fig. 35 on integers: the map of scans that the kernels run as segmented scans (a block per
   * column where there are few columns).
   */
  public static final String FIG_35_INT =
      """
      fun [[int]] main([[int]] a) =
        let m = size(1, a) in
        scan(fn [int] ([int] x, [int] y) => map(op +, zip(x, y)), replicate(m, 0), a)
      """;

  /** Fig. 36 with {@code n = 1}: the operator is a map of maps. */
  public static final String FIG_36_DEPTH_2 =
      """
      fun [[[real]]] main([[[real]]] a) =
        let m = size(1, a) in
        let k = size(2, a) in
        scan(fn [[real]] ([[real]] x, [[real]] y) =>
               map(fn [real] ([real] xr, [real] yr) => map(op +, zip(xr, yr)), zip(x, y)),
             replicate(m, replicate(k, 0.0)), a)
      """;

  /** Fig. 36 with {@code n = 2}: a product scan under three maps. */
  public static final String DEPTH_3 =
      """
      fun [[[[real]]]] main([[[[real]]]] a) =
        let {p, q, r} = {size(1, a), size(2, a), size(3, a)} in
        scan(fn [[[real]]] ([[[real]]] x, [[[real]]] y) =>
               map(fn [[real]] ([[real]] x1, [[real]] y1) =>
                     map(fn [real] ([real] x2, [real] y2) => map(op *, zip(x2, y2)), zip(x1, y1)),
                   zip(x, y)),
             replicate(p, replicate(q, replicate(r, 1.0))), a)
      """;

  /** The Fig. 35 scan inside a map: ISWIM puts it under two maps (§8.3: a deeper map nest). */
  public static final String SCAN_IN_A_MAP =
      """
      fun [[[real]]] main([[[real]]] b) =
        map(fn [[real]] ([[real]] a) =>
              let m = size(1, a) in
              scan(fn [real] ([real] x, [real] y) => map(op +, zip(x, y)), replicate(m, 0.0), a),
            b)
      """;

  /** A map of maps feeding the Fig. 35 scan. */
  public static final String CONSUMER =
      """
      fun [[real]] main([[real]] b) =
        let m = size(1, b) in
        let a = map(fn [real] ([real] r) => map(fn real (real x) => x * 0.1, r), b) in
        scan(fn [real] ([real] x, [real] y) => map(op +, zip(x, y)), replicate(m, 0.0), a)
      """;

  /** The Fig. 35 scan feeding a map of maps over its elements and its input's. */
  public static final String PRODUCER =
      """
      fun [[real]] main([[real]] a) =
        let m = size(1, a) in
        let s = scan(fn [real] ([real] x, [real] y) => map(op +, zip(x, y)), replicate(m, 0.0), a) in
        map(fn [real] ([real] r, [real] q) => map(fn real (real x, real z) => x * x - z, zip(r, q)),
            zip(s, a))
      """;

  /** An input of {@link #FIG_35}, {@link #CONSUMER} and {@link #PRODUCER}: 3 rows of 2. */
  public static final String ROWS_3X2 = "[[1.5, 2.0], [3e-8, 0.1], [5.0, -6.25]]";

  /** An input of {@link #FIG_36_DEPTH_2}. */
  public static final String ROWS_3X2X2 =
      "[[[1.0, 2.0], [0.1, 4.0]], [[5.0, 6.0], [7.0, 0.3]], [[0.5, 0.25], [1e10, -1.0]]]";

  /** An input of {@link #DEPTH_3}. */
  public static final String ROWS_3X2X1X2 =
      "[[[[1.5, 2.0]], [[0.5, -1.0]]], [[[3.0, 0.1]], [[7.0, 1e-3]]], [[[0.3, 3.0]], [[-2.0, 1e300]]]]";

  /** Each program with its input. */
  public static List<List<String>> withInputs() {
    return List.of(
        List.of(FIG_35, ROWS_3X2),
        List.of(FIG_35_INT, "[[1, 2, -3], [4, 5, 6], [7, 8, 2147483647], [0, 1, 1]]"),
        List.of(FIG_36_DEPTH_2, ROWS_3X2X2),
        List.of(DEPTH_3, ROWS_3X2X1X2),
        List.of(SCAN_IN_A_MAP, ROWS_3X2X2),
        List.of(CONSUMER, ROWS_3X2),
        List.of(PRODUCER, ROWS_3X2));
  }
}
