package dev.l0.testing;

import dev.l0.ir.Type;
import dev.l0.ir.Value;

/** A generated value with its (size-erased) L0 type. */
public record TypedValue(Type type, Value value) {}
