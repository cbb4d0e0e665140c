package dev.l0.spark;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.l0.spark.pipeline.PipelinePlanningException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code L0.pipeline(Path)}: a file that cannot be read is named with why, and bytes that are not
 * UTF-8 are an error at their line and column, both at the user's call site; so is a null program.
 */
class L0PipelineFromFileTest {
  @TempDir Path folder;

  @Test
  void aMissingFileIsNamedWithWhy() {
    Path missing = folder.resolve("missing.l0");
    int line = callersLine();
    UncheckedIOException error =
        assertThrows(UncheckedIOException.class, () -> L0.pipeline(missing));
    assertEquals(
        "L0 pipeline at L0PipelineFromFileTest.java:"
            + (line + 2)
            + ": cannot read "
            + missing
            + ": no such file",
        error.getMessage());
  }

  @Test
  void bytesThatAreNotUtf8AreAnErrorAtTheirLineAndColumn() throws Exception {
    Path latin1 = folder.resolve("latin1.l0");
    Files.write(
        latin1,
        new byte[] {'f', 'u', 'n', '\n', ' ', ' ', 'x', (byte) 0xe9, ' ', '=', ' ', '1', '\n'});
    int line = callersLine();
    PipelinePlanningException error =
        assertThrows(PipelinePlanningException.class, () -> L0.pipeline(latin1));
    assertEquals(
        "L0 pipeline at L0PipelineFromFileTest.java:"
            + (line + 2)
            + ": "
            + latin1
            + ":2:4: the file is not UTF-8 text: invalid byte sequence at byte offset 7 (0xe9)",
        error.getMessage());
  }

  /** A null program of any of the three kinds is an error at the call site naming what is null. */
  @Test
  void aNullProgramIsAnErrorAtTheCallSite() {
    int line = callersLine();
    PipelinePlanningException text =
        assertThrows(PipelinePlanningException.class, () -> L0.pipeline((String) null));
    PipelinePlanningException file =
        assertThrows(PipelinePlanningException.class, () -> L0.pipeline((Path) null));
    PipelinePlanningException dsl =
        assertThrows(PipelinePlanningException.class, () -> L0.pipeline((dev.l0.ir.Program) null));
    String at = "L0 pipeline at L0PipelineFromFileTest.java:";
    assertEquals(at + (line + 2) + ": the L0 program text is null", text.getMessage());
    assertEquals(at + (line + 4) + ": the L0 program's file is null", file.getMessage());
    assertEquals(at + (line + 6) + ": the Java DSL program is null", dsl.getMessage());
  }

  private static int callersLine() {
    return StackWalker.getInstance()
        .walk(frames -> frames.skip(1).findFirst().orElseThrow())
        .getLineNumber();
  }
}
