package dev.l0.spark.pipeline;

import java.io.Serializable;

/**
 * One {@code with(parameter, value)} of a pipeline as the user gave it: the entry parameter's
 * source name and the driver-side Java value (a boxed scalar, a primitive array, regular nested
 * primitive arrays or a {@code FlatArray}); checked against the entry when the pipeline is planned.
 */
public record BoundArgument(String parameter, Object value) implements Serializable {}
