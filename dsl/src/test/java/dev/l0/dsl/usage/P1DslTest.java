package dev.l0.dsl.usage;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.l0.interp.Interpreter;
import dev.l0.ir.ScalarType;
import dev.l0.ir.ScalarValue;
import dev.l0.ir.Type;
import dev.l0.ir.Value;
import dev.l0.testing.TestPrograms;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.IntRange;
import org.junit.jupiter.api.Test;

/** P1 in the DSL is the text P1, and multiplies matrices as the text P1 and plain Java do. */
class P1DslTest {
  @Test
  void stagedP1EqualsTheTextP1() {
    Canonical.assertSameProgram(TestPrograms.text(TestPrograms.P1_MATMUL), P1Dsl.program());
  }

  /**
   * The thesis's P1 replicates {@code transpose(b)} {@code size(0, a)} times where it means {@code
   * size(1, b)}, so (text and DSL alike) it multiplies n*k by k*n matrices only.
   */
  @Property(tries = 25)
  void stagedP1MultipliesLikeTheTextP1AndLikeJava(
      @ForAll @IntRange(min = 1, max = 6) int n,
      @ForAll @IntRange(min = 1, max = 6) int k,
      @ForAll long seed) {
    Random random = new Random(seed);
    int[][] x = randomMatrix(random, n, k);
    int[][] y = randomMatrix(random, k, n);
    List<Value> args = List.of(matrixValue(x), matrixValue(y));

    Value staged = new Interpreter(P1Dsl.program()).call("main", args);
    Value text = new Interpreter(TestPrograms.load(TestPrograms.P1_MATMUL)).call("main", args);

    assertEquals(text, staged);
    assertEquals(matrixValue(multiply(x, y)), staged);
  }

  private static int[][] randomMatrix(Random random, int rows, int columns) {
    int[][] m = new int[rows][columns];
    for (int[] row : m) {
      for (int j = 0; j < columns; j++) {
        row[j] = random.nextInt(201) - 100;
      }
    }
    return m;
  }

  private static int[][] multiply(int[][] x, int[][] y) {
    int[][] product = new int[x.length][y[0].length];
    for (int i = 0; i < x.length; i++) {
      for (int j = 0; j < y[0].length; j++) {
        for (int k = 0; k < y.length; k++) {
          product[i][j] += x[i][k] * y[k][j];
        }
      }
    }
    return product;
  }

  private static Value matrixValue(int[][] m) {
    Type row = Type.array(ScalarType.I32);
    List<Value> rows = new ArrayList<>();
    for (int[] r : m) {
      List<Value> elements = new ArrayList<>();
      for (int v : r) {
        elements.add(ScalarValue.i32(v));
      }
      rows.add(new Value.Array(ScalarType.I32, elements));
    }
    return new Value.Array(row, rows);
  }
}
