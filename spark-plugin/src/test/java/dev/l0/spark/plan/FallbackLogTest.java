package dev.l0.spark.plan;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.ArrayList;
import java.util.List;
import org.apache.logging.log4j.Level;
import org.apache.logging.log4j.LogManager;
import org.apache.logging.log4j.core.LogEvent;
import org.apache.logging.log4j.core.Logger;
import org.apache.logging.log4j.core.appender.AbstractAppender;
import org.apache.logging.log4j.core.config.Property;
import org.apache.spark.api.java.JavaSparkContext;
import org.apache.spark.sql.SparkSession;
import org.junit.jupiter.api.Test;

/**
 * Fallback reasons that tasks add reach the driver: merged from the tasks of a real local[2] stage,
 * kept distinct and bounded, and logged once each on the driver when the stage completes.
 */
class FallbackLogTest {
  @Test
  void reasonsFromTasksAreLoggedOnceEachOnTheDriver() {
    SparkSession spark =
        SparkSession.builder()
            .master("local[2]")
            .appName("FallbackLogTest")
            .config("spark.ui.enabled", "false")
            .getOrCreate();
    List<String> warnings = new ArrayList<>();
    AbstractAppender appender = recorder(warnings);
    Logger logger = (Logger) LogManager.getLogger(FallbackLog.class.getName());
    logger.addAppender(appender);
    try {
      FallbackReasons reasons = new FallbackReasons();
      spark.sparkContext().register(reasons, FallbackReasons.NAME);
      FallbackLog.watch(spark.sparkContext(), reasons);
      JavaSparkContext context = JavaSparkContext.fromSparkContext(spark.sparkContext());
      context
          .parallelize(List.of(1, 2, 3, 4), 4)
          .foreach(i -> reasons.add("main program: reason " + (i % 2)));
      assertEquals(
          List.of("main program: reason 0", "main program: reason 1"),
          reasons.value().stream().sorted().toList());
      context.parallelize(List.of(1, 2), 2).foreach(i -> reasons.add("main program: reason 1"));
      List<String> logged;
      synchronized (warnings) {
        logged = List.copyOf(warnings);
      }
      assertEquals(2, logged.size(), logged.toString());
      assertEquals(
          1,
          logged.stream().filter(m -> m.endsWith("): main program: reason 1")).count(),
          logged.toString());
      assertEquals(
          1,
          logged.stream()
              .filter(m -> m.startsWith("L0 fallback (stage "))
              .filter(m -> m.endsWith("reason 0"))
              .count(),
          logged.toString());
    } finally {
      logger.removeAppender(appender);
      spark.stop();
      SparkSession.clearActiveSession();
      SparkSession.clearDefaultSession();
    }
  }

  @Test
  void reasonsAreDistinctAndBounded() {
    FallbackReasons reasons = new FallbackReasons();
    for (int i = 0; i < 3 * FallbackReasons.LIMIT; i++) {
      reasons.add("reason " + (i % (2 * FallbackReasons.LIMIT)));
    }
    assertEquals(FallbackReasons.LIMIT, reasons.value().size());
    assertEquals("reason 0", reasons.value().get(0));
    FallbackReasons merged = (FallbackReasons) reasons.copy();
    merged.merge(reasons);
    assertEquals(reasons.value(), merged.value());
  }

  private static AbstractAppender recorder(List<String> messages) {
    AbstractAppender appender =
        new AbstractAppender("fallbacks", null, null, true, Property.EMPTY_ARRAY) {
          @Override
          public void append(LogEvent event) {
            if (event.getLevel().isMoreSpecificThan(Level.WARN)) {
              synchronized (messages) {
                messages.add(event.getMessage().getFormattedMessage());
              }
            }
          }
        };
    appender.start();
    return appender;
  }
}
