package dev.l0.cli;

import dev.l0.ir.FunDef;
import dev.l0.ir.L0CompileError;
import dev.l0.ir.Program;
import dev.l0.ir.SourcePos;
import dev.l0.syntax.L0Parser;
import dev.l0.syntax.SourceFiles;
import dev.l0.types.TypeChecker;
import dev.l0.types.TypedProgram;
import java.io.IOException;
import java.nio.file.Path;
import java.util.Optional;

/** Reading, parsing and checking the program file a verb names; choosing its entry function. */
final class ProgramFiles {
  private ProgramFiles() {}

  /** The program in {@code file}; a file with no function in it is an ill-formed program. */
  static Program parse(String file) throws IOException {
    // a file that is not there is named with why by Main, as every verb's files are
    Program program = L0Parser.parse(SourceFiles.read(Path.of(file)), file);
    if (program.functions().isEmpty()) {
      throw new L0CompileError(
          new SourcePos(file, 1, 1),
          "the program defines no functions (a program is one or more 'fun' definitions)");
    }
    return program;
  }

  static TypedProgram parseAndCheck(String file) throws IOException {
    return TypeChecker.check(parse(file));
  }

  /** {@code --entry NAME} if given, else {@code main} if defined, else the last function. */
  static FunDef entry(Program program, Optional<String> requested, String file) {
    if (requested.isPresent()) {
      return program
          .function(requested.get())
          .orElseThrow(
              () ->
                  new CliArgs.UsageError(
                      "no function '"
                          + requested.get()
                          + "' in "
                          + file
                          + "; it defines "
                          + String.join(", ", program.functionNames())));
    }
    return program.function("main").orElse(program.functions().get(program.functions().size() - 1));
  }
}
