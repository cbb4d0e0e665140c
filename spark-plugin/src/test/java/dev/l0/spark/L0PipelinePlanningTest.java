package dev.l0.spark;

import static dev.l0.dsl.L0.f64;
import static dev.l0.dsl.L0.filter;
import static dev.l0.dsl.L0.map;
import static dev.l0.dsl.L0.program;
import static dev.l0.dsl.L0.reduce;
import static dev.l0.dsl.L0.zip;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.l0.dsl.Arr;
import dev.l0.dsl.F64;
import dev.l0.ir.Program;
import dev.l0.spark.pipeline.PipelinePlanningException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.RowFactory;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.types.DataTypes;
import org.apache.spark.sql.types.StructType;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The user API: programs from text, files and the Java DSL; errors at planning time, in
 * df.transform, naming the call site.
 */
class L0PipelinePlanningTest {
  private static final String SUM =
      "fun f64 main([f64] q, [f64] p) = reduce(op +, 0.0, map(op *, zip(q, p)))";
  private static SparkSession spark;
  private static Dataset<Row> positions;

  @BeforeAll
  static void start() {
    spark = SparkTestSupport.startSession(L0PipelinePlanningTest.class, Map.of());
    StructType schema =
        new StructType()
            .add("quantity", DataTypes.DoubleType, false)
            .add("price", DataTypes.DoubleType, false)
            .add("name", DataTypes.StringType, false);
    positions =
        SparkTestSupport.frame(
            spark,
            List.of(
                RowFactory.create(1.0, 10.0, "a"),
                RowFactory.create(-2.0, 20.0, "b"),
                RowFactory.create(3.0, 30.0, "c")),
            schema,
            2);
  }

  @AfterAll
  static void stop() {
    SparkTestSupport.stopSession(spark);
  }

  @Test
  void aMissingColumnFailsInTransformAtTheUsersLine() {
    L0Pipeline pipeline = L0.pipeline(SUM).on("quantity", "cost");
    int line = callersLine() - 1;

    PipelinePlanningException error =
        assertThrows(PipelinePlanningException.class, () -> positions.transform(pipeline));
    assertTrue(
        error.getMessage().startsWith("L0 pipeline at L0PipelinePlanningTest.java:" + line + ": "),
        error.getMessage());
    assertTrue(error.getMessage().contains("cost"), error.getMessage());
  }

  @Test
  void aColumnOfTheWrongTypeIsNamedWithBothTypes() {
    PipelinePlanningException error =
        assertThrows(
            PipelinePlanningException.class,
            () -> positions.transform(L0.pipeline(SUM).on("quantity", "name")));
    assertTrue(error.getMessage().contains("name"), error.getMessage());
    assertTrue(error.getMessage().contains("string"), error.getMessage());
    assertTrue(error.getMessage().contains("f64"), error.getMessage());
  }

  @Test
  void anL0CompileErrorKeepsItsSourcePosition() {
    PipelinePlanningException error =
        assertThrows(
            PipelinePlanningException.class,
            () ->
                positions.transform(
                    L0.pipeline("fun f64 main([f64] q) =\n  reduce(op +, 0.0, nope)")
                        .on("quantity")));
    assertTrue(error.getMessage().contains(":2:"), error.getMessage());
    assertTrue(error.getMessage().contains("nope"), error.getMessage());
  }

  @Test
  void aProgramFromAFileIsCitedByItsFileName(@TempDir Path folder) throws Exception {
    Path file = folder.resolve("positions.l0");
    Files.writeString(file, SUM);
    List<Row> total =
        positions.transform(L0.pipeline(file).on("quantity", "price").as("total")).collectAsList();
    assertEquals(List.of(RowFactory.create(1.0 * 10.0 - 2.0 * 20.0 + 3.0 * 30.0)), total);

    Files.writeString(file, "fun f64 main([f64] q) = q");
    PipelinePlanningException error =
        assertThrows(
            PipelinePlanningException.class,
            () -> positions.transform(L0.pipeline(file).on("quantity")));
    assertTrue(error.getMessage().contains("positions.l0:1:"), error.getMessage());
  }

  @Test
  void aJavaDslProgramRunsLikeItsText() {
    Program portfolio =
        program(
            prog ->
                prog.fun(
                    "main",
                    Arr.of(F64.TYPE),
                    Arr.of(F64.TYPE),
                    (quantities, prices) -> {
                      Arr<F64> values = map(zip(quantities, prices), (q, p) -> q.mul(p));
                      Arr<F64> longs = filter(values, v -> f64(0.0).lt(v));
                      return reduce(longs, f64(0.0), (a, b) -> a.add(b));
                    }));
    List<Row> total =
        positions
            .transform(L0.pipeline(portfolio).on("quantity", "price").as("total"))
            .collectAsList();

    assertEquals(List.of(RowFactory.create(10.0 + 90.0)), total);
  }

  @Test
  void aTypeErrorInAJavaDslProgramNamesTheJavaLineThatStagedIt() {
    int stagingLine = callersLine() + 5;
    Program calledWithTwoArguments =
        program(
            prog ->
                prog.fun(
                    "main", Arr.of(F64.TYPE), xs -> prog.call("main", Arr.of(F64.TYPE), xs, xs)));
    int pipelineLine = callersLine() + 2;
    PipelinePlanningException error =
        assertThrows(PipelinePlanningException.class, () -> L0.pipeline(calledWithTwoArguments));

    assertEquals(
        "L0 pipeline at L0PipelinePlanningTest.java:"
            + pipelineLine
            + ": L0PipelinePlanningTest.java:"
            + stagingLine
            + ": function 'main' expects 1 argument, got 2",
        error.getMessage());
  }

  @Test
  void settingsAreReadFromTheSessionWhenAQueryRuns() {
    L0Pipeline total = L0.pipeline(SUM).on("quantity", "price");
    spark.conf().set(L0Settings.DEVICE, "gpu");
    try {
      Exception error =
          assertThrows(
              IllegalArgumentException.class, () -> positions.transform(total).collectAsList());
      assertEquals(
          "spark.l0.device: unknown device 'gpu'; expected one of auto, cuda, jvm",
          error.getMessage());
    } finally {
      spark.conf().unset(L0Settings.DEVICE);
    }
    assertEquals(
        List.of(RowFactory.create(1.0 * 10.0 - 2.0 * 20.0 + 3.0 * 30.0)),
        positions.transform(total).collectAsList());
  }

  @Test
  void nullAsTakesOnlyNumbersAndBooleans() {
    IllegalArgumentException error =
        assertThrows(
            IllegalArgumentException.class, () -> L0.pipeline(SUM).nullAs("quantity", "zero"));
    assertTrue(
        error
            .getMessage()
            .contains(
                "nullAs(\"quantity\", ...) needs a number or a boolean, not java.lang.String"),
        error.getMessage());
  }

  @Test
  void nullAsNamesAColumnOnce() {
    L0Pipeline once = L0.pipeline(SUM).nullAs("quantity", 1.0);
    IllegalArgumentException error =
        assertThrows(IllegalArgumentException.class, () -> once.nullAs("quantity", 2.0));
    assertTrue(
        error
            .getMessage()
            .endsWith(
                "nullAs(\"quantity\", ...) is declared twice, with 1.0 and 2.0; declare one "
                    + "replacement per column"),
        error.getMessage());
  }

  /**
   * A map of 7,500 distinct float constants, whose kernel's Java class the JVM refuses (its class
   * initialiser passes 64 KiB of bytecode): the planner compiles the program for the JVM backend as
   * an executor does, so df.transform fails at the user's line and the map's position, before any
   * task runs (it used to fail every task).
   */
  @Test
  void generatedJavaTheJvmRefusesFailsInTransformNotInTheTasks() {
    StringBuilder program =
        new StringBuilder("fun [f64] main([f64] q) =\n  map(fn f64 (f64 x) =>\n");
    for (int k = 0; k < 75; k++) {
      List<String> terms = new java.util.ArrayList<>();
      for (int j = 0; j < 100; j++) {
        terms.add("x * " + (1.0 + (k * 100 + j) / 1e8));
      }
      program
          .append("    let y")
          .append(k)
          .append(" = ")
          .append(String.join(" + ", terms))
          .append(" in\n");
    }
    program.append("    y0");
    for (int k = 1; k < 75; k++) {
      program.append(" + y").append(k);
    }
    program.append(", q)\n");
    L0Pipeline pipeline = L0.pipeline(program.toString()).on("quantity");
    int line = callersLine() - 1;

    PipelinePlanningException error =
        assertThrows(PipelinePlanningException.class, () -> positions.transform(pipeline));
    String start =
        "L0 pipeline at L0PipelinePlanningTest.java:"
            + line
            + ": <inline L0 program>:2:3: cannot lower the map at 2:3 in main to kernels for the jvm"
            + " backend: the JVM backend generated Java that does not compile: ";
    assertTrue(error.getMessage().startsWith(start), () -> error.getMessage().substring(0, 500));
    assertTrue(error.getMessage().contains("<clinit>"), () -> error.getMessage().substring(0, 500));
  }

  private static int callersLine() {
    return StackWalker.getInstance()
        .walk(frames -> frames.skip(1).findFirst().orElseThrow())
        .getLineNumber();
  }
}
