package dev.l0.testing;

import dev.l0.ir.Program;
import dev.l0.syntax.L0Parser;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;

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

  private static String resourcePath(String name) {
    return "/programs/" + name + ".l0";
  }
}
