package dev.l0.jobs;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.stream.Stream;

/** Folders the jobs write and remove: their temporary inputs, a risk run's staging folders. */
public final class Folders {
  private Folders() {}

  /**
   * Deletes {@code folder} and everything below it, deepest first; a folder that is not there is
   * left alone.
   */
  public static void deleteRecursively(Path folder) throws IOException {
    if (!Files.exists(folder)) {
      return;
    }
    try (Stream<Path> paths = Files.walk(folder)) {
      paths
          .sorted(Comparator.reverseOrder())
          .forEach(
              path -> {
                try {
                  Files.delete(path);
                } catch (IOException e) {
                  throw new UncheckedIOException("cannot delete " + path, e);
                }
              });
    }
  }
}
