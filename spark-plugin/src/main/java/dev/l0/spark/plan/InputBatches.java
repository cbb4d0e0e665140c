package dev.l0.spark.plan;

import dev.l0.spark.pipeline.ColumnBatch;
import dev.l0.spark.pipeline.InputBinding;
import dev.l0.spark.pipeline.PipelineMessages;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.NoSuchElementException;
import org.apache.spark.sql.vectorized.ColumnVector;
import org.apache.spark.sql.vectorized.ColumnarBatch;

/**
 * A partition's Spark column batches regrouped into runtime batches of at most {@code batchRows}
 * rows (one column per input binding), read lazily: a task holds one runtime batch at a time,
 * whatever the size of its partition. A batch of an array column ends early where more rows would
 * make its elements more than one Java array holds. With {@code reuseColumns} (the caller is done
 * with a batch when it asks for the next one) a full batch's scalar columns are refilled for the
 * next batch. Where input columns are carried to the output ({@code carry(...)}), a runtime batch
 * never spans two Spark batches, so that the carried columns are slices of the Spark batch's own
 * vectors ({@link #carried()}), read in place until the next batch is asked for. Rows the pipeline
 * cannot take ({@link InputDataException}) are reported with the pipeline's call site.
 */
final class InputBatches implements Iterator<ColumnBatch> {
  private final Iterator<ColumnarBatch> input;
  private final List<ColumnReader> readers;
  private final int batchRows;
  private final int[] carriedOrdinals;

  /** The user's line that called {@code L0.pipeline}, which input errors name first. */
  private final String callSite;

  private final InputPaths paths = new InputPaths();
  private ColumnarBatch current;

  /**
   * The rows of {@link #current}, read when it arrived: a reader may reset its batch once
   * exhausted.
   */
  private int currentRows;

  private int currentOffset;
  private long rowsRead;
  private ColumnBatch pending;
  private ColumnVector[] pendingCarried;
  private ColumnVector[] carried;

  InputBatches(
      Iterator<ColumnarBatch> input,
      List<InputBinding> bindings,
      int[] topOrdinals,
      int[] carriedOrdinals,
      int batchRows,
      int partition,
      boolean reuseColumns,
      String callSite) {
    this.input = input;
    this.callSite = callSite;
    this.batchRows = batchRows;
    this.carriedOrdinals = carriedOrdinals.clone();
    this.readers = new ArrayList<>(bindings.size());
    for (int b = 0; b < bindings.size(); b++) {
      readers.add(
          new ColumnReader(
              bindings.get(b), topOrdinals[b], partition, batchRows, reuseColumns, paths));
    }
  }

  @Override
  public boolean hasNext() {
    if (pending == null) {
      pending = fill();
    }
    return pending.rows() > 0;
  }

  @Override
  public ColumnBatch next() {
    if (!hasNext()) {
      throw new NoSuchElementException("no more input rows");
    }
    ColumnBatch batch = pending;
    carried = pendingCarried;
    pending = null;
    return batch;
  }

  /**
   * The carried input columns of the batch {@link #next()} returned last: the rows of that batch in
   * the Spark batch they came from.
   */
  ColumnVector[] carried() {
    return carried;
  }

  /** The rows read so far. */
  long rowsRead() {
    return rowsRead;
  }

  /** How the scalar slices read so far were read. */
  InputPaths paths() {
    return paths;
  }

  private ColumnBatch fill() {
    int rows = 0;
    int firstOffset = currentOffset;
    while (rows < batchRows) {
      if (currentOffset == currentRows) {
        if (rows > 0 && carriedOrdinals.length > 0) {
          break;
        }
        if (!input.hasNext()) {
          break;
        }
        current = input.next();
        currentRows = current.numRows();
        currentOffset = 0;
        continue;
      }
      int take = Math.min(batchRows - rows, currentRows - currentOffset);
      if (rows == 0) {
        firstOffset = currentOffset;
      }
      try {
        for (ColumnReader reader : readers) {
          take = reader.rowsThatFit(current, currentOffset, take, rowsRead, rows);
        }
        if (take == 0) {
          break;
        }
        for (ColumnReader reader : readers) {
          reader.append(current, currentOffset, take, rowsRead);
        }
      } catch (InputDataException e) {
        throw new InputDataException(PipelineMessages.at(callSite, e.getMessage()));
      }
      currentOffset += take;
      rowsRead += take;
      rows += take;
    }
    List<Object> columns = new ArrayList<>(readers.size());
    for (ColumnReader reader : readers) {
      columns.add(reader.drain(rows));
    }
    pendingCarried = new ColumnVector[carriedOrdinals.length];
    for (int c = 0; c < carriedOrdinals.length && rows > 0; c++) {
      pendingCarried[c] =
          new InputSliceColumnVector(current.column(carriedOrdinals[c]), firstOffset, rows);
    }
    return new ColumnBatch(rows, columns);
  }
}
