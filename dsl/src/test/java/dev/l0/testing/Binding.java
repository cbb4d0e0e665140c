package dev.l0.testing;

import dev.l0.ir.Type;

/**
 * A variable in scope during generation, with its statically known sized type (see {@link
 * SizedTypes}).
 */
record Binding(String name, Type type) {}
