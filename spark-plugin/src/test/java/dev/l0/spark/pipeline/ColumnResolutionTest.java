package dev.l0.spark.pipeline;

import static dev.l0.spark.pipeline.PipelineFixtures.CALL_SITE;
import static dev.l0.spark.pipeline.PipelineFixtures.doubles;
import static dev.l0.spark.pipeline.PipelineFixtures.field;
import static dev.l0.spark.pipeline.PipelineFixtures.request;
import static dev.l0.spark.pipeline.PipelineFixtures.schema;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Map;
import org.apache.spark.sql.types.DataTypes;
import org.apache.spark.sql.types.StructField;
import org.apache.spark.sql.types.StructType;
import org.junit.jupiter.api.Test;

/** Column names in on(...) and nullAs(...) resolve as Spark resolves df.col(name). */
class ColumnResolutionTest {
  private static final String SUM = "fun f64 main([f64] x) = reduce(op +, 0.0, x)";
  private static final String PREFIX = "L0 pipeline at " + CALL_SITE + ": ";

  private static PipelineSpec plan(StructType schema, boolean caseSensitive, String column) {
    return PipelinePlanner.plan(request(SUM, List.of(column), List.of()), schema, caseSensitive);
  }

  private static String failure(StructType schema, boolean caseSensitive, String column) {
    PipelinePlanningException e =
        assertThrows(PipelinePlanningException.class, () -> plan(schema, caseSensitive, column));
    assertTrue(e.getMessage().startsWith(PREFIX), e.getMessage());
    return e.getMessage().substring(PREFIX.length());
  }

  /**
   * A schema as a join gives it, where names may repeat ({@code DataTypes.createStructType} rejects
   * that).
   */
  private static StructType withDuplicates(StructField... fields) {
    return new StructType(fields);
  }

  /** The binding's column path and top-level ordinal, and the spec's read columns. */
  private static void assertBinds(PipelineSpec spec, String path, int ordinal, String readColumn) {
    InputBinding binding = spec.inputs().get(0);
    assertEquals(path, binding.columnPath());
    assertEquals(ordinal, binding.fieldPath().get(0));
    assertEquals(List.of(readColumn), spec.readColumns());
  }

  @Test
  void twoColumnsOfTheSameNameAreAmbiguous() {
    StructType joined =
        withDuplicates(
            field("k", DataTypes.LongType),
            field("x", DataTypes.DoubleType),
            field("x", DataTypes.DoubleType));
    for (boolean caseSensitive : new boolean[] {true, false}) {
      String message = failure(joined, caseSensitive, "x");
      assertTrue(
          message.startsWith("column 'x' is ambiguous: 2 of the input's columns match 'x'"),
          message);
      assertTrue(message.contains("x double (position 2), x double (position 3)"), message);
      assertTrue(
          message.contains("AMBIGUOUS_REFERENCE") && message.contains("select or alias"), message);
    }
    assertBinds(
        plan(schema(field("x", DataTypes.DoubleType), field("X", DataTypes.DoubleType)), true, "X"),
        "X",
        1,
        "X");
    String ignoringCase =
        failure(
            schema(field("x", DataTypes.DoubleType), field("X", DataTypes.DoubleType)), false, "x");
    assertTrue(
        ignoringCase.contains(
            "ignoring case (spark.sql.caseSensitive is false): x double (position 1), "
                + "X double (position 2)"),
        ignoringCase);
  }

  @Test
  void aNameWithADotIsATopLevelColumnFirst() {
    StructType dotted = schema(field("a.b", DataTypes.DoubleType));
    assertBinds(plan(dotted, true, "a.b"), "`a.b`", 0, "a.b");
    assertBinds(plan(dotted, true, "`a.b`"), "`a.b`", 0, "a.b");
    StructType both =
        schema(
            field("a", new StructType().add("b", DataTypes.DoubleType)),
            field("a.b", DataTypes.DoubleType));
    assertBinds(plan(both, true, "a.b"), "`a.b`", 1, "a.b");
    PipelineSpec field = plan(both, true, "`a`.b");
    assertEquals(List.of(0, 0), field.inputs().get(0).fieldPath());
    assertBinds(field, "a.b", 0, "a");
  }

  @Test
  void structFieldsWithDotsAndBackticksKeepTheirTopLevelColumn() {
    StructType nested =
        schema(
            field("s.t", new StructType().add("u.v", DataTypes.DoubleType)),
            field("w`x", DataTypes.DoubleType));
    PipelineSpec spec = plan(nested, true, "`s.t`.`u.v`");
    assertEquals(List.of(0, 0), spec.inputs().get(0).fieldPath());
    assertBinds(spec, "`s.t`.`u.v`", 0, "s.t");
    assertBinds(plan(nested, true, "`w``x`"), "`w``x`", 1, "w`x");
    String unclosed = failure(nested, true, "`s.t");
    assertTrue(
        unclosed.startsWith("the column name '`s.t' is not valid: ") && unclosed.contains("`s.t"),
        unclosed);
    assertEquals(
        "the input has no column 's.t.u.v'; its columns are s.t struct<u.v:double>, w`x double",
        failure(nested, true, "s.t.u.v"));
  }

  @Test
  void caseFollowsSparksCaseSensitivity() {
    StructType prices = schema(field("Price", DataTypes.DoubleType));
    assertBinds(plan(prices, false, "price"), "Price", 0, "Price");
    assertBinds(
        PipelinePlanner.plan(request(SUM, List.of("PRICE"), List.of()), prices),
        "Price",
        0,
        "Price");
    assertEquals(
        "the input has no column 'price'; its columns are Price double",
        failure(prices, true, "price"));
    StructType legs = schema(field("Leg", new StructType().add("Rate", DataTypes.DoubleType)));
    assertBinds(plan(legs, false, "leg.rate"), "Leg.Rate", 0, "Leg");
    assertEquals(
        "the input has no column 'leg.rate'; its columns are Leg struct<Rate:double>",
        failure(legs, true, "leg.rate"));
    StructType twoFields =
        schema(
            field(
                "s",
                new StructType().add("a", DataTypes.DoubleType).add("A", DataTypes.DoubleType)));
    String ambiguous = failure(twoFields, false, "s.a");
    assertTrue(
        ambiguous.startsWith(
            "column 's.a' is ambiguous: 2 fields of struct column 's' match 'a' ignoring case"),
        ambiguous);
  }

  @Test
  void nullReplacementsResolveLikeColumns() {
    String nullable = "fun [f64] main([f64] x) = map(fn f64 (f64 v) => v, x)";
    StructType prices = schema(field("Price", DataTypes.DoubleType));
    PipelineSpec spec =
        PipelinePlanner.plan(
            request(nullable, "test.l0", "main", List.of("price"), List.of(), Map.of("PRICE", 1)),
            prices,
            false);
    assertEquals(1.0, spec.inputs().get(0).nullReplacement());
    PipelineSpec dotted =
        PipelinePlanner.plan(
            request(nullable, "test.l0", "main", List.of("a.b"), List.of(), Map.of("`a.b`", 2.0)),
            doubles("a.b"),
            true);
    assertEquals(2.0, dotted.inputs().get(0).nullReplacement());
    PipelinePlanningException exact =
        assertThrows(
            PipelinePlanningException.class,
            () ->
                PipelinePlanner.plan(
                    request(
                        nullable,
                        "test.l0",
                        "main",
                        List.of("Price"),
                        List.of(),
                        Map.of("price", 1.0)),
                    prices,
                    true));
    assertEquals(
        PREFIX + "nullAs(...) names price, which the pipeline does not read; it reads Price",
        exact.getMessage());
  }
}
