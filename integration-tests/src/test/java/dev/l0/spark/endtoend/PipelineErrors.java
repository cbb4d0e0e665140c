package dev.l0.spark.endtoend;

import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.l0.spark.L0Pipeline;
import dev.l0.spark.pipeline.PipelinePlanningException;
import org.apache.spark.SparkException;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;

/** The errors a pipeline gives on Spark, each asserted to name the user's call site. */
final class PipelineErrors {
  private PipelineErrors() {}

  /**
   * The message of the planning error {@code input.transform(pipeline)} throws, which must start by
   * naming the pipeline's call site, {@code callSite} ("Test.java:").
   */
  static String planningError(String callSite, Dataset<Row> input, L0Pipeline pipeline) {
    String message =
        assertThrows(PipelinePlanningException.class, () -> input.transform(pipeline)).getMessage();
    assertTrue(message.startsWith("L0 pipeline at " + callSite), message);
    return message;
  }

  /**
   * The message of the error collecting {@code input.transform(pipeline)} fails with, which must
   * name the pipeline's call site, {@code callSite}.
   */
  static String runError(String callSite, Dataset<Row> input, L0Pipeline pipeline) {
    String message =
        assertThrows(SparkException.class, () -> input.transform(pipeline).collectAsList())
            .getMessage();
    assertTrue(message.contains("L0 pipeline at " + callSite), message);
    return message;
  }
}
