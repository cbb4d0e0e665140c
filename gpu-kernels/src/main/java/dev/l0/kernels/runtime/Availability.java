package dev.l0.kernels.runtime;

import java.util.Objects;
import java.util.Optional;

/**
 * The answer of a probe: a usable thing with a one-line description of it, or none and the one-line
 * reason why. Probes never throw; they return this.
 *
 * @param <T> what was probed for (a CUDA device, a PTX compiler)
 */
public final class Availability<T> {
  private final T value;
  private final String description;

  private Availability(T value, String description) {
    this.value = value;
    this.description = Objects.requireNonNull(description, "description");
  }

  public static <T> Availability<T> available(T value, String description) {
    return new Availability<>(Objects.requireNonNull(value, "value"), description);
  }

  public static <T> Availability<T> unavailable(String reason) {
    return new Availability<>(null, reason);
  }

  public boolean isAvailable() {
    return value != null;
  }

  public Optional<T> value() {
    return Optional.ofNullable(value);
  }

  /** What is available, or, where nothing is, why not. */
  public String description() {
    return description;
  }

  @Override
  public String toString() {
    return (isAvailable() ? "available: " : "unavailable: ") + description;
  }
}
