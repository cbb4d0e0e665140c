package dev.l0.testing;

import dev.l0.ir.FunDef;
import dev.l0.ir.Program;
import dev.l0.ir.Value;
import dev.l0.syntax.L0Printer;
import dev.l0.values.ValueWriter;
import java.util.List;
import java.util.stream.Collectors;

/**
 * A generated well-typed program with arguments for its entry function (see {@link
 * RandomPrograms}).
 */
public record ProgramCase(Program program, String entry, List<Value> args) {
  public ProgramCase {
    args = List.copyOf(args);
  }

  public FunDef entryFunction() {
    return program.function(entry).orElseThrow();
  }

  /** The program as L0 text followed by the call, so that jqwik reports read like source. */
  @Override
  public String toString() {
    String arguments = args.stream().map(ValueWriter::write).collect(Collectors.joining(", "));
    return L0Printer.print(program) + "\n// " + entry + "(" + arguments + ")";
  }
}
