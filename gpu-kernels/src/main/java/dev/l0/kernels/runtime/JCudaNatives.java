package dev.l0.kernels.runtime;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * Where JCuda's native libraries are unpacked: one folder per user, {@code ~/.cache/l0/native} (the
 * system property {@value #DIRECTORY_PROPERTY} moves it), instead of the JVM's temp folder. JCuda
 * 12.6's {@code LibUtils} loads a binding ({@code libJCudaDriver-12.6.0-linux-x86_64.so}, NVRTC's)
 * from {@code java.library.path} if it is there, else unpacks it from its jar into {@code
 * java.io.tmpdir}, reusing a file of that name already there, and never deletes it. On a Spark
 * executor the temp folder is often one per executor or container, so a long-running cluster
 * collects copies; in a per-user folder each user has one copy per JCuda version, reused by every
 * JVM. The folder is given to JCuda by pointing {@code java.io.tmpdir} at it while the binding's
 * class initialises (JCuda reads the property at that moment), then restoring it.
 */
final class JCudaNatives {
  /** The system property that names the folder instead of {@code ~/.cache/l0/native}. */
  static final String DIRECTORY_PROPERTY = "l0.nativeDir";

  private static final Object LOCK = new Object();

  private JCudaNatives() {}

  /**
   * Initialises JCuda's class {@code bindingClass} (e.g. {@code jcuda.driver.JCudaDriver}), which
   * loads its native library; a library that cannot load throws the {@code LinkageError} JCuda
   * throws. Where the folder cannot be made, JCuda unpacks into the temp folder as it would alone.
   */
  static void initialise(String bindingClass) {
    synchronized (LOCK) {
      String temp = System.getProperty("java.io.tmpdir");
      Path folder =
          directory(System.getProperty(DIRECTORY_PROPERTY), System.getProperty("user.home"));
      boolean redirected = usable(folder);
      if (redirected) {
        System.setProperty("java.io.tmpdir", folder.toString());
      }
      try {
        Class.forName(bindingClass, true, JCudaNatives.class.getClassLoader());
      } catch (ClassNotFoundException e) {
        throw new NoClassDefFoundError(bindingClass);
      } finally {
        if (redirected) {
          System.setProperty("java.io.tmpdir", temp);
        }
      }
    }
  }

  static Path directory(String property, String userHome) {
    if (property != null && !property.isBlank()) {
      return Path.of(property);
    }
    return Path.of(userHome, ".cache", "l0", "native");
  }

  private static boolean usable(Path folder) {
    try {
      Files.createDirectories(folder);
      return Files.isWritable(folder);
    } catch (IOException | SecurityException e) {
      return false;
    }
  }
}
