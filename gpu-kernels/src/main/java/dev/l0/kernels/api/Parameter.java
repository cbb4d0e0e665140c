package dev.l0.kernels.api;

import dev.l0.ir.Type;
import dev.l0.syntax.L0Printer;

/** One parameter of a compiled program's entry function: its name and L0 type. */
public record Parameter(String name, Type type) {
  /** {@code name: type}, the type in L0 syntax, e.g. {@code xs: [f64]}. */
  @Override
  public String toString() {
    return name + ": " + L0Printer.print(type);
  }
}
