package dev.l0.cli;

import dev.l0.ir.FunDef;
import dev.l0.ir.Program;
import dev.l0.syntax.L0Parser;
import dev.l0.types.TypeChecker;
import dev.l0.types.TypedProgram;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.Optional;

/** Reading, parsing and checking the program file a verb names; choosing its entry function. */
final class ProgramFiles {
  private ProgramFiles() {}

  static Program parse(String file) throws IOException {
    return L0Parser.parse(read(file), file);
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
              () -> new CliArgs.UsageError("no function '" + requested.get() + "' in " + file));
    }
    if (program.functions().isEmpty()) {
      throw new CliArgs.UsageError(file + " defines no functions");
    }
    return program
        .function("main")
        .orElse(program.functions().get(program.functions().size() - 1));
  }

  private static String read(String file) throws IOException {
    try {
      return Files.readString(Path.of(file), StandardCharsets.UTF_8);
    } catch (NoSuchFileException e) {
      throw new NoSuchFileException(file, null, "no such file");
    }
  }
}
