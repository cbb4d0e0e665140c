package dev.l0.testing;

/**
 * A generated well-typed program whose entry always fails at run time in {@code operation} (the
 * name an {@link dev.l0.ir.L0RuntimeError} reports: {@code "index"}, {@code "/"}, {@code "%"},
 * {@code "zip"}, {@code "reshape"}, {@code "split"}, {@code "iota"}, {@code "replicate"}) before
 * anything else can fail.
 */
public record FailingProgramCase(ProgramCase program, String operation) {}
