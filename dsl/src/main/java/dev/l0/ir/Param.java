package dev.l0.ir;

/** A typed function or lambda parameter, {@code t v}. */
public record Param(Type type, String name, SourcePos pos) {}
