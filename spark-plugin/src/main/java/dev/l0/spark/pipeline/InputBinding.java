package dev.l0.spark.pipeline;

import dev.l0.ir.ScalarType;
import java.io.Serializable;
import java.util.List;
import java.util.stream.Collectors;
import org.apache.spark.sql.types.DataType;

/**
 * One input of the entry function, a leaf of a parameter's type (the parameter itself when it is an
 * array of scalars; one per tuple leaf of an array of tuples or a tuple of arrays), fed from one
 * leaf of a child column: its path ({@code "opt.strike"}), the ordinals that reach it (top-level
 * ordinal in the child schema, then struct field ordinals), the leaf's Spark type ({@code
 * DoubleType}, or {@code ArrayType(DoubleType)} for inner dimensions), the L0 element type, the
 * input's rank (1: a column of scalars, 2: a column of arrays, ...) and the boxed null replacement
 * (null: none, so a null is an error).
 */
public record InputBinding(
    String columnPath,
    List<Integer> fieldPath,
    DataType leafType,
    ScalarType elementType,
    int rank,
    Object nullReplacement)
    implements Serializable {

  /** Copies the field path. */
  public InputBinding {
    fieldPath = List.copyOf(fieldPath);
  }

  /**
   * The path of the struct column or field {@code depth} names down this leaf's column path, as the
   * column path writes it: {@code "opt"} for depth 1 of {@code "opt.leg.strike"}, {@code "opt.leg"}
   * for depth 2.
   */
  public String structPath(int depth) {
    return ColumnBinder.nameParts(columnPath).subList(0, depth).stream()
        .map(ColumnBinder::quoted)
        .collect(Collectors.joining("."));
  }
}
