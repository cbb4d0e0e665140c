package dev.l0.kernels.cudaexec;

import java.util.Optional;
import org.junit.jupiter.api.extension.AfterEachCallback;
import org.junit.jupiter.api.extension.BeforeEachCallback;
import org.junit.jupiter.api.extension.ExtensionContext;

/**
 * For GPU tests that must run every launch on the GPU, however few its rows: sets {@code
 * l0.cuda.minRows} to 0 ({@link NarrowLaunches}) before each test, so that the CUDA executors it
 * makes keep narrow launches on the GPU, and restores the property after it.
 */
public final class EveryLaunchOnTheGpu implements BeforeEachCallback, AfterEachCallback {
  private static final ExtensionContext.Namespace NAMESPACE =
      ExtensionContext.Namespace.create(EveryLaunchOnTheGpu.class);

  @Override
  public void beforeEach(ExtensionContext context) {
    context
        .getStore(NAMESPACE)
        .put("before", Optional.ofNullable(System.getProperty(NarrowLaunches.PROPERTY)));
    System.setProperty(NarrowLaunches.PROPERTY, "0");
  }

  @Override
  public void afterEach(ExtensionContext context) {
    Optional<?> before = context.getStore(NAMESPACE).get("before", Optional.class);
    before.ifPresentOrElse(
        value -> System.setProperty(NarrowLaunches.PROPERTY, (String) value),
        () -> System.clearProperty(NarrowLaunches.PROPERTY));
  }
}
