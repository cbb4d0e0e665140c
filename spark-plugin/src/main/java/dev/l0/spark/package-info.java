/**
 * L0 in Spark jobs: the user API ({@code df.transform(L0.pipeline(...).on(...))}, {@code L0.explain}),
 * the SQL extension, the executor plugin, the Kryo registrator and the {@code spark.l0.*} settings.
 */
package dev.l0.spark;
