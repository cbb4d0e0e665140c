package dev.l0.cli;

import dev.l0.ir.FunDef;
import dev.l0.ir.L0CompileError;
import dev.l0.ir.Program;
import dev.l0.ir.SourcePos;
import dev.l0.syntax.L0Parser;
import dev.l0.types.TypeChecker;
import dev.l0.types.TypedProgram;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.CharBuffer;
import java.nio.charset.CharsetDecoder;
import java.nio.charset.CoderResult;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Optional;

/** Reading, parsing and checking the program file a verb names; choosing its entry function. */
final class ProgramFiles {
  private ProgramFiles() {}

  /** The program in {@code file}; a file with no function in it is an ill-formed program. */
  static Program parse(String file) throws IOException {
    Program program = L0Parser.parse(read(file), file);
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
              () -> new CliArgs.UsageError("no function '" + requested.get() + "' in " + file));
    }
    return program.function("main").orElse(program.functions().get(program.functions().size() - 1));
  }

  /** The file's text; bytes that are not UTF-8 are an ill-formed program, at their byte offset. */
  private static String read(String file) throws IOException {
    // a file that is not there is named with why by Main, as every verb's files are
    byte[] bytes = Files.readAllBytes(Path.of(file));
    CharsetDecoder decoder =
        StandardCharsets.UTF_8
            .newDecoder()
            .onMalformedInput(CodingErrorAction.REPORT)
            .onUnmappableCharacter(CodingErrorAction.REPORT);
    ByteBuffer in = ByteBuffer.wrap(bytes);
    CharBuffer text = CharBuffer.allocate(bytes.length);
    CoderResult result = decoder.decode(in, text, true);
    if (result.isError()) {
      text.flip();
      String before = text.toString();
      int line = 1 + (int) before.chars().filter(c -> c == '\n').count();
      int column = before.length() - before.lastIndexOf('\n');
      throw new L0CompileError(
          new SourcePos(file, line, column),
          "the file is not UTF-8 text: invalid byte sequence at byte offset "
              + in.position()
              + " (0x"
              + String.format("%02x", bytes[in.position()] & 0xff)
              + ")");
    }
    decoder.flush(text);
    return text.flip().toString();
  }
}
