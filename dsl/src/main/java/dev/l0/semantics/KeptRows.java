package dev.l0.semantics;

import dev.l0.ir.SourcePos;
import dev.l0.ir.Value;
import java.util.ArrayList;
import java.util.List;

/**
 * The rows a filter keeps, one list per result, grown as a list grows (by half) but refused, at the
 * filter and before the list grows, where the grown lists or the arrays made of them at the end
 * could not fit in the heap ({@link ArrayOperations#requireHeapFor}). A filter that kept most of
 * hundreds of millions of rows ran for minutes until the heap ran out.
 */
public final class KeptRows {
  private final String operation;
  private final int inputRows;
  private final SourcePos pos;
  private final List<ArrayList<Value>> columns = new ArrayList<>();
  private int capacity;

  /**
   * Rows of {@code width} values, kept by {@code operation} at {@code pos} of {@code inputRows}.
   */
  public KeptRows(String operation, int width, int inputRows, SourcePos pos) {
    this.operation = operation;
    this.inputRows = inputRows;
    this.pos = pos;
    for (int c = 0; c < width; c++) {
      columns.add(new ArrayList<>());
    }
  }

  /** Keeps {@code row}, one value per result. */
  public void add(List<Value> row) {
    if (size() == capacity) {
      capacity = (int) Math.min(inputRows, capacity + (capacity >> 1) + 16L);
      ArrayOperations.requireHeapFor(
          operation, (long) capacity * columns.size(), ArrayOperations.BYTES_PER_REFERENCE, pos);
      columns.forEach(c -> c.ensureCapacity(capacity));
    }
    for (int c = 0; c < columns.size(); c++) {
      columns.get(c).add(row.get(c));
    }
  }

  public int size() {
    return columns.isEmpty() ? 0 : columns.get(0).size();
  }

  /**
   * The kept values of each result, once the arrays to be made of them are known to fit: {@link
   * Value.Array} copies each list twice.
   */
  public List<List<Value>> columns() {
    ArrayOperations.requireHeapFor(
        operation, (long) size() * columns.size(), 2 * ArrayOperations.BYTES_PER_REFERENCE, pos);
    return List.copyOf(columns);
  }
}
