package dev.l0.syntax;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.l0.ir.L0CompileError;
import dev.l0.ir.SourcePos;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A byte that is not UTF-8 is placed at the line and column the lexer would give it, whatever the
 * file's line ends (a line feed, a carriage return and line feed, or a carriage return alone); a
 * byte order mark at the start (what some editors write) is left out of the text and its columns.
 */
class SourceFilesTest {
  @TempDir Path folder;

  private SourcePos badBytePosition(String before) throws IOException {
    byte[] text = before.getBytes(java.nio.charset.StandardCharsets.UTF_8);
    byte[] bytes = java.util.Arrays.copyOf(text, text.length + 1);
    bytes[text.length] = (byte) 0xff;
    Path file = folder.resolve("bad.l0");
    Files.write(file, bytes);
    return assertThrows(L0CompileError.class, () -> SourceFiles.read(file)).pos();
  }

  @Test
  void aBadByteIsAtItsLineAndColumnWhateverTheLineEnds() throws IOException {
    for (String lineEnd : new String[] {"\n", "\r\n", "\r"}) {
      SourcePos pos = badBytePosition("// one" + lineEnd + "// two" + lineEnd + "fun ");
      assertEquals(3, pos.line(), "line ends " + lineEnd.replace("\r", "CR").replace("\n", "LF"));
      assertEquals(5, pos.column(), "line ends " + lineEnd.replace("\r", "CR").replace("\n", "LF"));
    }
  }

  @Test
  void aByteOrderMarkIsNoPartOfTheText() throws IOException {
    Path file = folder.resolve("bom.l0");
    Files.writeString(file, "\uFEFFfun i32 main() = 1\n");
    assertEquals("fun i32 main() = 1\n", SourceFiles.read(file));
    SourcePos pos = badBytePosition("\uFEFFfun ");
    assertEquals(1, pos.line());
    assertEquals(5, pos.column());
  }
}
