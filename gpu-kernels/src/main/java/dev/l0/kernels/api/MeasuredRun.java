package dev.l0.kernels.api;

/**
 * The result of one {@link CompiledProgram#runMeasured} call, in the Java form {@link
 * CompiledProgram} documents, and what that call alone spent ({@link RunMeasurements}), however
 * many other threads ran the same program at the time.
 */
public record MeasuredRun(Object result, RunMeasurements measurements) {}
