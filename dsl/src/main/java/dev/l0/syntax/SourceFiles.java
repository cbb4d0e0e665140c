package dev.l0.syntax;

import dev.l0.ir.L0CompileError;
import dev.l0.ir.SourcePos;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.CharBuffer;
import java.nio.charset.CharsetDecoder;
import java.nio.charset.CoderResult;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.nio.file.AccessDeniedException;
import java.nio.file.FileSystemException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.NotDirectoryException;
import java.nio.file.Path;
import java.util.function.BiFunction;

/**
 * Reading L0 program files as the parser needs them, and data files as the value reader does:
 * strict UTF-8 (a bad byte is an ill-formed program, or bad input, at its line and column), and a
 * file that cannot be read named with why.
 */
public final class SourceFiles {
  private SourceFiles() {}

  /**
   * The text of {@code file}; bytes that are not UTF-8 are an {@link L0CompileError} at their line
   * and column, naming the byte offset. A file that cannot be read is the file system's {@link
   * IOException} ({@link #describe} words it).
   */
  public static String read(Path file) throws IOException {
    return read(file, L0CompileError::new);
  }

  /**
   * The text of {@code file} (a program, or data such as FinPar's {@code input.data}), a leading
   * byte order mark left out; bytes that are not UTF-8 are {@code notText}'s error at their line
   * and column, naming the byte offset. A file that cannot be read, a folder included, is a {@link
   * FileSystemException} naming the file and why ({@link #describe} words it).
   */
  public static String read(
      Path file, BiFunction<SourcePos, String, ? extends RuntimeException> notText)
      throws IOException {
    byte[] bytes;
    try {
      bytes = Files.readAllBytes(file);
    } catch (FileSystemException e) {
      throw e;
    } catch (IOException e) {
      throw new FileSystemException(file.toString(), null, e.getMessage());
    }
    return decode(bytes, file.toString(), "the file", notText);
  }

  /**
   * {@code bytes} read from {@code source} (a file's name, or {@code <stdin>}; {@code what} in
   * messages, e.g. {@code standard input}) as UTF-8 text, a leading byte order mark left out; bytes
   * that are not UTF-8 are {@code notText}'s error at their line and column, naming the byte
   * offset.
   */
  public static String decode(
      byte[] bytes,
      String source,
      String what,
      BiFunction<SourcePos, String, ? extends RuntimeException> notText) {
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
      String before = withoutByteOrderMark(text.toString());
      int line = 1;
      int lineStart = 0;
      for (int i = 0; i < before.length(); i++) {
        if (LineEnds.endsLine(before, i)) {
          line++;
          lineStart = i + 1;
        }
      }
      int column = before.length() - lineStart + 1;
      throw notText.apply(
          new SourcePos(source, line, column),
          what
              + " is not UTF-8 text: invalid byte sequence at byte offset "
              + in.position()
              + " (0x"
              + String.format("%02x", bytes[in.position()] & 0xff)
              + ")");
    }
    decoder.flush(text);
    return withoutByteOrderMark(text.flip().toString());
  }

  /**
   * {@code text} without the byte order mark that some editors write at the start of a UTF-8 file
   * (U+FEFF): it is no character of the program or data, and columns are counted without it.
   */
  private static String withoutByteOrderMark(String text) {
    return text.startsWith("\uFEFF") ? text.substring(1) : text;
  }

  /**
   * What went wrong with a file, as the user needs it: the file and why ("no such file",
   * "permission denied") where the exception gives only the file's name.
   */
  public static String describe(IOException e) {
    if (e instanceof FileSystemException failed && failed.getReason() == null) {
      String why =
          e instanceof NoSuchFileException
              ? "no such file"
              : e instanceof AccessDeniedException
                  ? "permission denied"
                  : e instanceof NotDirectoryException
                      ? "not a directory"
                      : e.getClass().getSimpleName();
      return failed.getFile() + ": " + why;
    }
    return e.getMessage();
  }
}
