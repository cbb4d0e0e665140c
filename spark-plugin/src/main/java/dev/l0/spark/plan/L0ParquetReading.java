package dev.l0.spark.plan;

import dev.l0.spark.L0Settings;
import dev.l0.spark.parquet.L0ParquetFileFormat;
import java.util.Arrays;
import java.util.Optional;
import org.apache.spark.sql.catalyst.rules.Rule;
import org.apache.spark.sql.execution.FileSourceScanExec;
import org.apache.spark.sql.execution.SparkPlan;
import org.apache.spark.sql.execution.datasources.HadoopFsRelation;
import org.apache.spark.sql.execution.datasources.parquet.ParquetFileFormat;
import org.apache.spark.sql.internal.SQLConf;
import org.apache.spark.sql.types.BooleanType;
import org.apache.spark.sql.types.DataType;
import org.apache.spark.sql.types.DoubleType;
import org.apache.spark.sql.types.FloatType;
import org.apache.spark.sql.types.IntegerType;
import org.apache.spark.sql.types.LongType;

/**
 * Physical rule, run before Spark puts its columnar-to-row transitions in: a Parquet file scan
 * whose batches go straight into an {@link L0PipelineExec} reads with {@link L0ParquetFileFormat}
 * (L0's own reader for each file whose columns it can read, Spark's for the others). The scan must
 * return batches, read only flat boolean, int, bigint, float or double columns, no partition or
 * metadata columns, keep its vectors on the heap and match columns by name; {@value
 * L0Settings#PARQUET_OWN_READER}{@code =false}, any other scan or any other parent leave the plan
 * as it is.
 */
public final class L0ParquetReading extends Rule<SparkPlan> {

  @Override
  public SparkPlan apply(SparkPlan plan) {
    SQLConf conf = SQLConf.get();
    if (!L0Settings.parquetOwnReader(key -> Optional.ofNullable(conf.getConfString(key, null)))
        || conf.offHeapColumnVectorEnabled()
        || conf.parquetFieldIdReadEnabled()) {
      return plan;
    }
    return readingBelow(plan);
  }

  private static SparkPlan readingBelow(SparkPlan plan) {
    SparkPlan withChildren =
        plan.children().isEmpty() ? plan : plan.mapChildren(child -> readingBelow(child));
    if (withChildren instanceof L0PipelineExec pipeline
        && pipeline.child() instanceof FileSourceScanExec scan
        && readable(scan)) {
      return pipeline.withNewChildInternal(withOwnReader(scan));
    }
    return withChildren;
  }

  private static boolean readable(FileSourceScanExec scan) {
    HadoopFsRelation relation = scan.relation();
    return relation.fileFormat().getClass() == ParquetFileFormat.class
        && relation.partitionSchema().isEmpty()
        && scan.stream().isEmpty()
        && scan.supportsColumnar()
        && scan.output().size() == scan.requiredSchema().size()
        && Arrays.stream(scan.requiredSchema().fields())
            .allMatch(
                field ->
                    primitive(field.dataType())
                        && !field
                            .name()
                            .equals(ParquetFileFormat.ROW_INDEX_TEMPORARY_COLUMN_NAME()));
  }

  private static boolean primitive(DataType type) {
    return type instanceof BooleanType
        || type instanceof IntegerType
        || type instanceof LongType
        || type instanceof FloatType
        || type instanceof DoubleType;
  }

  private static FileSourceScanExec withOwnReader(FileSourceScanExec scan) {
    HadoopFsRelation relation = scan.relation();
    HadoopFsRelation ownReader =
        relation.copy(
            relation.location(),
            relation.partitionSchema(),
            relation.dataSchema(),
            relation.bucketSpec(),
            new L0ParquetFileFormat(),
            relation.options(),
            relation.sparkSession());
    return scan.copy(
        ownReader,
        scan.stream(),
        scan.output(),
        scan.requiredSchema(),
        scan.partitionFilters(),
        scan.optionalBucketSet(),
        scan.optionalNumCoalescedBuckets(),
        scan.dataFilters(),
        scan.tableIdentifier(),
        scan.disableBucketedScan());
  }
}
