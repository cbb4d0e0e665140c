package dev.l0.kernels.runtime;

import java.util.Arrays;
import java.util.Locale;
import java.util.stream.Collectors;

/**
 * Where work runs: CUDA where it works else the JVM ({@link #AUTO}), CUDA only, or the JVM only.
 */
public enum DeviceKind {
  AUTO,
  CUDA,
  JVM;

  /** The lower-case name used in settings and reasons: {@code auto}, {@code cuda}, {@code jvm}. */
  public String label() {
    return name().toLowerCase(Locale.ROOT);
  }

  /** The kind named {@code text} (any case). */
  public static DeviceKind parse(String text) {
    for (DeviceKind kind : values()) {
      if (kind.label().equalsIgnoreCase(text.strip())) {
        return kind;
      }
    }
    throw new IllegalArgumentException(
        "unknown device '"
            + text
            + "'; expected one of "
            + Arrays.stream(values()).map(DeviceKind::label).collect(Collectors.joining(", ")));
  }
}
