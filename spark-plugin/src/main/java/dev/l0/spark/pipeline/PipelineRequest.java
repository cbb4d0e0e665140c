package dev.l0.spark.pipeline;

import dev.l0.ir.Program;
import dev.l0.ir.SourcePos;
import java.io.Serializable;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * What the user asked for: an L0 program, its entry, the DataFrame columns that feed the entry's
 * parameters, the output column names (empty: defaults {@code _1}, {@code _2}, ...), the null
 * replacements by column path ({@code "col"} or {@code "col.field"}), the user's call site ({@code
 * "MyJob.java:42"}) for error messages, the driver-side values bound to entry parameters with
 * {@code with(...)}, in call order, how float sums are combined, and the input columns carried
 * through to the output unchanged ({@code carry(...)}), and, for a program built with the Java DSL,
 * where each expression of the printed text was staged ({@link #stagedAt}; empty for L0 text the
 * user wrote). Immutable and serializable.
 */
public record PipelineRequest(
    String programText,
    String sourceName,
    String entry,
    List<String> inputColumns,
    List<String> outputNames,
    Map<String, Object> nullReplacements,
    String callSite,
    List<BoundArgument> boundArguments,
    FloatSums floatSums,
    List<String> carriedColumns,
    Map<SourcePos, SourcePos> origins)
    implements Serializable {

  /**
   * For {@code text}, a Java DSL {@code program} printed and cited as {@code sourceName}: each
   * printed expression's position mapped to the Java line that staged it, so that a run-time error
   * cites that line, as the runtime API's errors do.
   */
  public static Map<SourcePos, SourcePos> stagedAt(
      Program program, String text, String sourceName) {
    return L0Source.origins(program, text, sourceName);
  }

  /** Checks that no component is null and copies the collections. */
  public PipelineRequest {
    Objects.requireNonNull(programText, "programText");
    Objects.requireNonNull(sourceName, "sourceName");
    Objects.requireNonNull(entry, "entry");
    inputColumns = List.copyOf(inputColumns);
    outputNames = List.copyOf(outputNames);
    nullReplacements = Collections.unmodifiableMap(new LinkedHashMap<>(nullReplacements));
    Objects.requireNonNull(callSite, "callSite");
    boundArguments = List.copyOf(boundArguments);
    Objects.requireNonNull(floatSums, "floatSums");
    carriedColumns = List.copyOf(carriedColumns);
    origins = Map.copyOf(origins);
  }

  /** This request with {@code boundArguments} as its values bound with {@code with(...)}. */
  public PipelineRequest withBoundArguments(List<BoundArgument> boundArguments) {
    return new PipelineRequest(
        programText,
        sourceName,
        entry,
        inputColumns,
        outputNames,
        nullReplacements,
        callSite,
        boundArguments,
        floatSums,
        carriedColumns,
        origins);
  }
}
