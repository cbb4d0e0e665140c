package dev.l0.values;

import dev.l0.ir.SourcePos;
import dev.l0.syntax.Excerpt;
import dev.l0.syntax.LineEnds;
import java.util.ArrayList;
import java.util.List;

/**
 * Splits data-format text into tokens (shared/data/README.md, section 1): the punctuation {@code [
 * ] { } , ( )} and atoms (numbers, {@code true}, {@code inf}, ...: maximal runs of other non-blank
 * characters). Comments run from {@code //} to the end of the line (the only form the FinPar data
 * sets use). Any other {@code /}, or a {@code --}, is not part of any value: it is an error at its
 * position rather than a comment, so that {@code 1/3} or {@code 7 --8} is not read as {@code 1} or
 * {@code 7}.
 */
final class ValueLexer {
  /** One token; {@code text} is {@code null} at the end of the input. */
  record Token(String text, SourcePos pos) {
    boolean is(String punctuation) {
      return punctuation.equals(text);
    }

    boolean isEnd() {
      return text == null;
    }

    /** How an error message shows this token. */
    String describe() {
      return isEnd() ? "end of input" : "'" + Excerpt.of(text) + "'";
    }
  }

  private static final String PUNCTUATION = "[]{},()";

  private ValueLexer() {}

  static List<Token> tokenize(String text, String sourceName) {
    List<Token> tokens = new ArrayList<>();
    int line = 1;
    int lineStart = 0;
    int i = 0;
    while (i < text.length()) {
      char c = text.charAt(i);
      if (LineEnds.endsLine(text, i)) {
        line++;
        lineStart = i + 1;
        i++;
      } else if (Character.isWhitespace(c)) {
        i++;
      } else if (text.startsWith("//", i)) {
        while (i < text.length() && !LineEnds.startsLineEnd(text, i)) {
          i++;
        }
      } else {
        SourcePos pos = new SourcePos(sourceName, line, i - lineStart + 1);
        if (c == '/' || text.startsWith("--", i)) {
          throw new ValueFormatError(
              pos,
              "'"
                  + (c == '/' ? "/" : "--")
                  + "' is not part of a value (a comment starts with //)");
        }
        int end = PUNCTUATION.indexOf(c) >= 0 ? i + 1 : atomEnd(text, i);
        tokens.add(new Token(text.substring(i, end), pos));
        i = end;
      }
    }
    tokens.add(new Token(null, new SourcePos(sourceName, line, i - lineStart + 1)));
    return tokens;
  }

  private static int atomEnd(String text, int start) {
    int i = start + 1;
    while (i < text.length()) {
      char c = text.charAt(i);
      if (Character.isWhitespace(c)
          || PUNCTUATION.indexOf(c) >= 0
          || c == '/'
          || text.startsWith("--", i)) {
        break;
      }
      i++;
    }
    return i;
  }
}
