/**
 * L0 in Spark jobs: the user API ({@code df.transform(L0.pipeline(...).on(...))}, {@code
 * L0.explain}), the SQL extension, the executor plugin, the Kryo registrator, the {@code
 * spark.l0.*} settings, and exact (partition-independent) sums.
 */
package dev.l0.spark;
