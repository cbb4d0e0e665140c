package dev.l0.testing;

import dev.l0.ir.Program;
import dev.l0.syntax.L0Parser;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.List;

/**
 * The L0 programs and functions of the thesis's body (ch. 2-9: the language's examples, the
 * uniqueness figures, the optimisation and fusion examples), as test resources under {@code
 * /thesis/NAME.l0}, each with a comment naming its section or figure and what was added around it
 * (a wrapper {@code main}, the functions it calls) or fixed (extraction damage). The valid ones run
 * on arguments chosen for them; the ones the thesis presents as invalid are refused at the line and
 * column of the fault.
 */
public final class ThesisBodyPrograms {

  /**
   * A run of {@code entry} in {@code file} on {@code args} (the CLI's value format) that gives
   * {@code result} (the same format; a tuple in braces), or, where {@code result} starts with
   * {@code "fails: "}, a run-time error of that operation at that line:column.
   */
  public record Run(String file, String entry, String args, String result) {
    public boolean fails() {
      return result.startsWith("fails: ");
    }

    /** The failing operation and position, e.g. {@code zip at 4:9}. */
    public String failure() {
      return result.substring("fails: ".length());
    }

    @Override
    public String toString() {
      return file + " " + entry + "(" + args + ")";
    }
  }

  /**
   * A program the thesis presents as invalid: refused by the parser or the type checker at {@code
   * position} (line:column) with a message that contains {@code message}.
   */
  public record Refused(String file, String position, String message) {
    @Override
    public String toString() {
      return file;
    }
  }

  public static final List<Run> RUNS =
      List.of(
          new Run("s2_1_fact", "fact", "5", "120"),
          new Run("s2_1_fact", "fact", "13", "1932053504"),
          new Run("s2_1_arrays", "main", "", "{[1, 2, 3], [[1], [2], [3]]}"),
          new Run("s2_1_irregular_iota", "main", "", "fails: array literal at 3:3"),
          new Run("s2_1_sumpair", "sumpair", "{3, 4}", "7"),
          new Run("s2_1_1_fib", "fib", "10", "55"),
          new Run("s2_1_1_fig3_loop", "viaLoop", "4 1", "121"),
          new Run("s2_1_1_fig3_loop", "viaRecursion", "4 1", "121"),
          new Run("s2_1_1_fig3_loop", "viaLoop", "0 7", "7"),
          new Run(
              "s2_1_2_replace_row",
              "main",
              "[[0, 0, 0], [0, 0, 0], [0, 0, 0], [0, 0, 0]]",
              "[[0, 0, 0], [0, 0, 0], [1, 2, 3], [0, 0, 0]]"),
          new Run("s2_1_2_replace_row", "main", "[[0, 0], [0, 0], [0, 0]]", "fails: update at 4:3"),
          new Run(
              "s2_1_2_matmultimp",
              "matmultImp",
              "3 [[1, 2, 3], [4, 5, 6], [7, 8, 9]] [[1, 0, 2], [0, 1, 0], [3, 0, 1]]",
              "[[10, 2, 5], [22, 5, 14], [34, 8, 23]]"),
          new Run("s2_3_1_tuple_shimming", "main", "[1, 2, 3] [10, 20, 30]", "[11, 22, 33]"),
          new Run("s3_modify", "modify", "[1, 2, 3] 1 10", "[1, 12, 3]"),
          new Run("s3_modify", "modify", "[1, 2, 3] 3 10", "fails: index at 3:27"),
          new Run("s3_1_fig7_unique_arguments", "useF1", "[5, 6, 7]", "[0, 6, 7]"),
          new Run("s3_1_fig7_unique_arguments", "useF2", "[5, 6, 7]", "[6, 6, 7]"),
          new Run("s3_1_contrived", "contrived", "[[1, 2], [3, 4]] [1, 0] 0", "[3, 4]"),
          new Run("s3_2_replace", "main", "[1, 2, 3, 4] 0 10 3 40", "[10, 2, 3, 40]"),
          new Run("s3_2_replace2", "replace2", "[1, 2, 3] 2 7", "[1, 2, 7]"),
          new Run("s3_2_fibs_copy", "fibs", "3 100", "[1, 1, 2, 100, 5, 8, 13]"),
          new Run("s4_1_1_tuple_map", "main", "[1, 2, 3] [4, 5, 6]", "[14, 25, 36]"),
          new Run("s4_2_zip_index", "main", "[1, 2, 3] [4, 5, 6]", "{1, 4}"),
          new Run("s4_2_zip_index", "main", "[1, 2, 3] [4, 5]", "fails: zip at 4:9"),
          new Run("s4_2_1_call_zip", "main", "[1, 2, 3] [4, 5, 6]", "[5, 7, 9]"),
          new Run("s4_2_1_call_zip", "main", "[1, 2, 3] [4, 5]", "fails: zip at 6:3"),
          new Run("s4_2_1_return_zip", "main", "", "[0, 1, 4, 9, 16, 25, 36, 49, 64, 81]"),
          new Run("s5_3_fig13_folding", "copyprop", "", "5"),
          new Run("s5_3_fig13_folding", "constprop", "", "5"),
          new Run("s5_3_fig13_folding", "constfold", "", "5"),
          new Run("s5_3_fig14_index", "transposed", "[[1, 2, 3], [4, 5, 6]] 2 1", "6"),
          new Run(
              "s5_3_fig14_index",
              "transposed",
              "[[1, 2, 3], [4, 5, 6]] 0 2",
              "fails: index at 5:1"),
          new Run("s5_3_fig14_index", "reshaped", "[1, 2, 3, 4, 5, 6] 2 3 1 2", "6"),
          new Run(
              "s5_3_fig14_index",
              "reshaped",
              "[1, 2, 3, 4, 5, 6] 2 2 1 1",
              "fails: reshape at 7:9"),
          new Run("s6_1_fig15_hoisting", "main", "1 2 [10, 20, 30]", "[13, 23, 33]"),
          new Run(
              "s6_1_inner_zip",
              "main",
              "[[1, 2], [3, 4], [5, 6]] [10, 20]",
              "[[11, 22], [13, 24], [15, 26]]"),
          new Run(
              "s6_1_inner_zip",
              "main",
              "[[1, 2], [3, 4], [5, 6]] [10, 20, 30]",
              "fails: zip at 5:14"),
          new Run("s6_1_1_no_hoist", "main", "[1, 2, 3]", "[46, 47, 48]"),
          new Run("s6_2_cse", "twice", "7", "28"),
          new Run("s6_2_cse", "main", "", "[0, 2, 7, 6, 8, 10, 12, 14, 16, 18]"),
          new Run("s6_3_solve", "solve", "1.0 -3.0 2.0", "2.0"),
          new Run("s6_3_solve", "solve_anf", "1.0 -3.0 2.0", "2.0"),
          new Run("s6_3_fig17", "main", "2 3 4", "24"),
          new Run("s7_1_2_invalid_fusion", "main", "[1, 2, 3] 1 100", "[3, 5, 7]"),
          new Run("s7_1_3_duplicated", "main", "[1, 2, 3]", "{[3, 5, 7], [1, 3, 5]}"),
          new Run("s9_1_size_hindrance", "main", "[1, 2, 3] [10, 20, 30]", "[14, 25, 36]"),
          new Run("s9_1_size_hindrance", "main", "[1, 2, 3] [10, 20]", "fails: zip at 5:14"),
          new Run("s9_1_fig38", "main", "[1, 2, 3]", "[7, 8, 9]"),
          new Run("s9_2_index_inlining", "main", "[3, 1, 4, 1, 5]", "-2"));

  public static final List<Refused> REFUSED =
      List.of(
          new Refused("s2_1_irregular", "3:12", "irregular array literal"),
          new Refused(
              "s2_3_2_irregular_tuples",
              "7:1",
              "irregular array literal: elements 1 and 2 have sizes 1 and 2 in dimension 0 of"
                  + " tuple component 1"),
          new Refused("s2_1_sumpair_wrong", "2:28", "a parameter cannot be a tuple pattern"),
          new Refused(
              "s2_1_2_matmultimp_as_printed", "14:1", "expected 'in' after the body of the 'loop'"),
          new Refused(
              "s3_fig5_rule1", "6:5", "variable 'a' used at 6:5 after it was consumed at 5:9"),
          new Refused("s3_fig6_rule2", "3:2", "its result aliases parameter 'a'"),
          new Refused(
              "s3_2_fig8_consumed", "6:1", "variable 'b' used at 6:1 after it was consumed at 5:9"),
          new Refused("s3_2_replace2_composed", "6:12", "the result of 'replace2' is consumed"),
          new Refused("s3_2_sequence", "5:10", "variable 'a' used at 5:10 after it was consumed"),
          new Refused(
              "s3_2_fibs_literal", "4:9", "'a' is consumed at 4:9 but is not a unique array"),
          new Refused("s3_2_curry_consumed", "5:9", "consumes its parameter 'a'"),
          new Refused("s6_2_cse_invalid", "9:5", "variable 'b' used at 9:5 after it was consumed"));

  private ThesisBodyPrograms() {}

  /** The text of {@code /thesis/NAME.l0}. */
  public static String text(String name) {
    String resource = path(name);
    try (InputStream in = ThesisBodyPrograms.class.getResourceAsStream(resource)) {
      if (in == null) {
        throw new IllegalArgumentException("no thesis program " + resource + " on the classpath");
      }
      return new String(in.readAllBytes(), StandardCharsets.UTF_8);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** {@code /thesis/NAME.l0}, parsed, with positions naming its resource path. */
  public static Program load(String name) {
    return L0Parser.parse(text(name), path(name));
  }

  private static String path(String name) {
    return "/thesis/" + name + ".l0";
  }
}
