package dev.l0.testing;

import dev.l0.ir.Program;
import dev.l0.ir.ScalarType;
import dev.l0.ir.ScalarValue;
import dev.l0.ir.Type;
import dev.l0.ir.Value;
import dev.l0.syntax.L0Parser;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;

/**
 * The thesis's appendix programs as test resources: {@code p0_blackscholes}, {@code p1_matmul} and
 * {@code p2_shortest_paths}, stored under {@code /programs/NAME.l0} on the classpath
 * (dsl/src/main/resources/programs, shipped with the product as examples), and the seeds' examples
 * that several modules' tests share (dsl/src/test/resources/programs).
 */
public final class TestPrograms {
  public static final String P0_BLACKSCHOLES = "p0_blackscholes";
  public static final String P1_MATMUL = "p1_matmul";
  public static final String P2_SHORTEST_PATHS = "p2_shortest_paths";

  /** Seed 002's quadtree step (§5, Fig. 7), a test resource: four reductions, four filters. */
  public static final String ILP_QUADTREE = "ilp_quadtree";

  /** Seed 002's closest points (§5, Fig. 7), a test resource: three levels, four filters each. */
  public static final String ILP_CLOSEST_POINTS = "ilp_closest_points";

  /**
   * The element type of {@link #P0_BLACKSCHOLES}'s options: {call, spot, strike, years, rate,
   * volatility}.
   */
  public static final Type P0_OPTION =
      Type.tuple(
          ScalarType.BOOL,
          ScalarType.F64,
          ScalarType.F64,
          ScalarType.F64,
          ScalarType.F64,
          ScalarType.F64);

  private TestPrograms() {}

  /** The text of the program {@code name}. */
  public static String text(String name) {
    String resource = resourcePath(name);
    try (InputStream in = TestPrograms.class.getResourceAsStream(resource)) {
      if (in == null) {
        throw new IllegalArgumentException("no test program " + resource + " on the classpath");
      }
      return new String(in.readAllBytes(), StandardCharsets.UTF_8);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** The program {@code name}, parsed, with positions naming its resource path. */
  public static Program load(String name) {
    return L0Parser.parse(text(name), resourcePath(name));
  }

  /**
   * {@code n} random options for {@link #P0_BLACKSCHOLES}'s {@code blackscholes}: {call, spot in
   * [10, 100), strike in [10, 100), years in [0.1, 2.1), rate in [0.01, 0.11), volatility in [0.1,
   * 0.6)}, drawn from {@code random} in that order.
   */
  public static Value blackScholesOptions(int n, Random random) {
    List<Value> options = new ArrayList<>();
    for (int i = 0; i < n; i++) {
      options.add(
          new Value.Tuple(
              List.of(
                  ScalarValue.bool(random.nextBoolean()),
                  ScalarValue.f64(10 + 90 * random.nextDouble()),
                  ScalarValue.f64(10 + 90 * random.nextDouble()),
                  ScalarValue.f64(0.1 + 2 * random.nextDouble()),
                  ScalarValue.f64(0.01 + 0.1 * random.nextDouble()),
                  ScalarValue.f64(0.1 + 0.5 * random.nextDouble()))));
    }
    return new Value.Array(P0_OPTION, options);
  }

  private static String resourcePath(String name) {
    return "/programs/" + name + ".l0";
  }
}
