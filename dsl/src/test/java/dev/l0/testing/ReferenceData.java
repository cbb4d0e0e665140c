package dev.l0.testing;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;

/**
 * The reference data sets kept under {@code dsl/src/test/resources/data} and, for the Black-Scholes
 * options the demo prices, {@code dsl/src/main/resources/data} (copies of the team's shared data,
 * provenance in {@code data/SOURCES.txt}), read from the classpath so that every module's tests
 * find them on a clean clone. A missing file fails the test; it is never skipped.
 */
public final class ReferenceData {
  private ReferenceData() {}

  /** The text of {@code data/<relative>}, e.g. {@code "blackscholes/parsec_derivagem_ref.txt"}. */
  public static String read(String relative) {
    String resource = "/data/" + relative;
    try (InputStream in = ReferenceData.class.getResourceAsStream(resource)) {
      if (in == null) {
        throw new AssertionError("reference data " + resource + " is not on the test classpath");
      }
      return new String(in.readAllBytes(), StandardCharsets.US_ASCII);
    } catch (IOException e) {
      throw new UncheckedIOException("cannot read " + resource, e);
    }
  }
}
