package dev.l0.spark.parquet;

import java.io.Closeable;
import java.io.IOException;
import java.io.Serializable;
import java.util.NoSuchElementException;
import java.util.Optional;
import java.util.concurrent.atomic.LongAdder;
import org.apache.hadoop.conf.Configuration;
import org.apache.spark.TaskContext;
import org.apache.spark.broadcast.Broadcast;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.catalyst.InternalRow;
import org.apache.spark.sql.execution.datasources.FileFormat$;
import org.apache.spark.sql.execution.datasources.PartitionedFile;
import org.apache.spark.sql.execution.datasources.parquet.ParquetFileFormat;
import org.apache.spark.sql.execution.vectorized.OnHeapColumnVector;
import org.apache.spark.sql.internal.SQLConf;
import org.apache.spark.sql.sources.Filter;
import org.apache.spark.sql.types.StructType;
import org.apache.spark.sql.vectorized.ColumnarBatch;
import org.apache.spark.util.SerializableConfiguration;
import org.apache.spark.util.TaskCompletionListener;
import scala.Function1;
import scala.collection.AbstractIterator;
import scala.collection.Iterator;
import scala.collection.immutable.Map;
import scala.collection.immutable.Seq;
import scala.runtime.AbstractFunction1;

/**
 * Spark's Parquet file format, whose reader function reads each file with {@link
 * ParquetSplitReader} where that reader can read it exactly as Spark would, and with Spark's own
 * reader where it cannot (the decision is per file, from its footer). Its batches are Spark's
 * on-heap column vectors of {@code spark.sql.parquet.columnarReaderBatchSize} rows, as Spark's
 * vectorized reader gives, so everything above the scan reads them as it reads Spark's. Only scans
 * that return batches, read no partition columns and keep vectors on the heap are given this format
 * (the planner rule checks); for any other schema the function is Spark's own.
 */
public final class L0ParquetFileFormat extends ParquetFileFormat {
  private static final long serialVersionUID = 1L;

  private static final LongAdder FILES_READ_BY_L0 = new LongAdder();
  private static final LongAdder FILES_READ_BY_SPARK = new LongAdder();

  /**
   * How many file splits this JVM's scans of this format have read so far with each reader.
   *
   * @param byL0Reader the splits {@link ParquetSplitReader} read
   * @param bySparkReader the splits handed to Spark's reader
   */
  public record FilesRead(long byL0Reader, long bySparkReader) {}

  /** The file splits read in this JVM so far, by reader (the executor's own count). */
  public static FilesRead filesReadInThisJvm() {
    return new FilesRead(FILES_READ_BY_L0.sum(), FILES_READ_BY_SPARK.sum());
  }

  @Override
  public Function1<PartitionedFile, Iterator<InternalRow>> buildReaderWithPartitionValues(
      SparkSession session,
      StructType dataSchema,
      StructType partitionSchema,
      StructType requiredSchema,
      Seq<Filter> filters,
      Map<String, String> options,
      Configuration hadoopConf) {
    Function1<PartitionedFile, Iterator<InternalRow>> sparkReader =
        super.buildReaderWithPartitionValues(
            session, dataSchema, partitionSchema, requiredSchema, filters, options, hadoopConf);
    SQLConf conf = session.sessionState().conf();
    if (!partitionSchema.isEmpty()
        || conf.offHeapColumnVectorEnabled()
        || !options.get(FileFormat$.MODULE$.OPTION_RETURNING_BATCH()).contains("true")) {
      return sparkReader;
    }
    return new ReaderFunction(
        sparkReader,
        SerializableConfiguration.broadcast(session.sparkContext(), hadoopConf),
        requiredSchema,
        conf.parquetVectorizedReaderBatchSize(),
        conf.caseSensitiveAnalysis());
  }

  @Override
  public String toString() {
    return "Parquet, L0 reader";
  }

  /**
   * Equal only to this format: Spark's own format counts every subclass as equal to itself, so a
   * plan rewritten to this format would otherwise compare equal to the plan it replaces, and
   * Spark's tree transformations keep the old node where the new one is equal.
   */
  @Override
  public boolean equals(Object other) {
    return other instanceof L0ParquetFileFormat;
  }

  @Override
  public int hashCode() {
    return L0ParquetFileFormat.class.hashCode();
  }

  /**
   * {@code error} itself, thrown past the Scala signatures that declare no checked exceptions, as
   * Spark's own reader throws it: Spark's file scan tells a missing file ({@code
   * FileNotFoundException}, skipped under {@code spark.sql.files.ignoreMissingFiles}) and a corrupt
   * one ({@code IOException}, skipped under {@code spark.sql.files.ignoreCorruptFiles}) by type.
   */
  private static RuntimeException asThrownBySpark(IOException error) {
    throw L0ParquetFileFormat.<RuntimeException>uncheckedly(error);
  }

  @SuppressWarnings("unchecked")
  private static <T extends Throwable> T uncheckedly(Throwable error) throws T {
    throw (T) error;
  }

  /** Reads one file of a split with L0's reader, or hands it to Spark's. */
  private static final class ReaderFunction
      extends AbstractFunction1<PartitionedFile, Iterator<InternalRow>> implements Serializable {
    private static final long serialVersionUID = 1L;

    private final Function1<PartitionedFile, Iterator<InternalRow>> sparkReader;
    private final Broadcast<SerializableConfiguration> hadoopConf;
    private final StructType requiredSchema;
    private final int batchRows;
    private final boolean caseSensitive;

    ReaderFunction(
        Function1<PartitionedFile, Iterator<InternalRow>> sparkReader,
        Broadcast<SerializableConfiguration> hadoopConf,
        StructType requiredSchema,
        int batchRows,
        boolean caseSensitive) {
      this.sparkReader = sparkReader;
      this.hadoopConf = hadoopConf;
      this.requiredSchema = requiredSchema;
      this.batchRows = batchRows;
      this.caseSensitive = caseSensitive;
    }

    @Override
    public Iterator<InternalRow> apply(PartitionedFile file) {
      Optional<ParquetSplitReader> reader;
      try {
        reader =
            ParquetSplitReader.open(
                hadoopConf.value().value(),
                file.toPath().toString(),
                file.start(),
                file.length(),
                requiredSchema,
                caseSensitive);
      } catch (IOException e) {
        throw asThrownBySpark(e);
      }
      if (reader.isEmpty()) {
        FILES_READ_BY_SPARK.increment();
        return sparkReader.apply(file);
      }
      FILES_READ_BY_L0.increment();
      Batches batches = new Batches(reader.get(), requiredSchema, batchRows);
      TaskContext task = TaskContext.get();
      if (task != null) {
        task.addTaskCompletionListener((TaskCompletionListener) context -> batches.close());
      }
      @SuppressWarnings("unchecked")
      Iterator<InternalRow> rows = (Iterator<InternalRow>) (Iterator<?>) batches;
      return rows;
    }
  }

  /**
   * A split's batches, each the same vectors refilled (as Spark's reader does: a consumer is done
   * with a batch when it asks for the next). The reader is closed, and its buffers and the vectors
   * let go (the task's completion listener keeps only this emptied iterator), once the split is
   * read, when Spark's file scan moves to its next file (it closes a {@code Closeable} iterator) or
   * when the task ends; a closed iterator has no more batches.
   */
  private static final class Batches extends AbstractIterator<ColumnarBatch> implements Closeable {
    private ParquetSplitReader reader;
    private OnHeapColumnVector[] vectors;
    private ColumnarBatch batch;
    private final int batchRows;
    private boolean filled;
    private boolean closed;

    Batches(ParquetSplitReader reader, StructType schema, int batchRows) {
      this.reader = reader;
      this.batchRows = batchRows;
      this.vectors = OnHeapColumnVector.allocateColumns(batchRows, schema);
      this.batch = new ColumnarBatch(vectors);
    }

    @Override
    public boolean hasNext() {
      if (!filled && !closed) {
        for (OnHeapColumnVector vector : vectors) {
          vector.reset();
        }
        int rows;
        try {
          rows = reader.read(vectors, batchRows);
        } catch (IOException e) {
          close();
          throw asThrownBySpark(e);
        }
        batch.setNumRows(rows);
        filled = rows > 0;
        if (!filled) {
          close();
        }
      }
      return filled;
    }

    @Override
    public ColumnarBatch next() {
      if (!hasNext()) {
        throw new NoSuchElementException("no more batches in the split");
      }
      filled = false;
      return batch;
    }

    @Override
    public void close() {
      if (closed) {
        return;
      }
      closed = true;
      filled = false;
      vectors = null;
      batch = null;
      ParquetSplitReader open = reader;
      reader = null;
      try {
        open.close();
      } catch (IOException e) {
        throw asThrownBySpark(e);
      }
    }
  }
}
