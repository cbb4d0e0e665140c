package dev.l0.syntax;

import dev.l0.ir.ScalarType;
import java.util.Optional;
import java.util.Set;

/**
 * The reserved words of L0 (thesis Fig. 1, Fig. 2 and §2.3) and the scalar type keywords. Names of
 * built-in functions such as {@code exp} or {@code abs} are not reserved: a program may define its
 * own (the thesis's P0 defines {@code abs}).
 */
final class Keywords {
  static final Set<String> RESERVED =
      Set.of(
          "fun",
          "let",
          "in",
          "if",
          "then",
          "else",
          "loop",
          "for",
          "do",
          "with",
          "fn",
          "op",
          "not",
          "pow",
          "true",
          "false",
          "True",
          "False",
          "int",
          "real",
          "bool",
          "char",
          "i32",
          "i64",
          "f32",
          "f64",
          "zip",
          "unzip",
          "iota",
          "replicate",
          "size",
          "reshape",
          "transpose",
          "split",
          "concat",
          "copy",
          "map",
          "filter",
          "reduce",
          "scan",
          "redomap");

  private Keywords() {}

  /**
   * The scalar type a type keyword names ({@code int} is i32, {@code real} is f64), if any; {@code
   * char} is not supported.
   */
  static Optional<ScalarType> scalarType(String word) {
    return switch (word) {
      case "int", "i32" -> Optional.of(ScalarType.I32);
      case "i64" -> Optional.of(ScalarType.I64);
      case "real", "f64" -> Optional.of(ScalarType.F64);
      case "f32" -> Optional.of(ScalarType.F32);
      case "bool" -> Optional.of(ScalarType.BOOL);
      default -> Optional.empty();
    };
  }
}
