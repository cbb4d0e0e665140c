package dev.l0.syntax;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.List;
import org.junit.jupiter.api.Test;

/** The indefinite article error messages write before a type's name. */
class ArticleTest {
  @Test
  void theArticleFollowsHowTheNameIsRead() {
    assertEquals(
        List.of("an f64", "an f32", "an i32", "an i64", "a bool"),
        List.of("f64", "f32", "i32", "i64", "bool").stream().map(Article::before).toList());
    assertEquals(
        List.of("an int[]", "an Integer", "an IntBuffer", "a double[][]", "a java.lang.Double"),
        List.of("int[]", "Integer", "IntBuffer", "double[][]", "java.lang.Double").stream()
            .map(Article::before)
            .toList());
    // a letter is read by its name only before a digit
    assertEquals(
        List.of("a field", "an f2"), List.of("field", "f2").stream().map(Article::before).toList());
  }
}
