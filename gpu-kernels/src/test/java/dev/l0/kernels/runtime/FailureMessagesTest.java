package dev.l0.kernels.runtime;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;

/**
 * {@link FailureMessages}: JCuda's many-line load errors become the one line naming the missing
 * library.
 */
class FailureMessagesTest {
  private static final String JCUDA_MESSAGE =
      String.join(
          "\n",
          "Error while loading native library \"JCudaDriver-12.6.0-linux-x86_64\"",
          "Operating system name: Linux",
          "Stack trace from the attempt to load the library as a resource:",
          "java.lang.UnsatisfiedLinkError: /tmp/libJCudaDriver-12.6.0-linux-x86_64.so: libcuda.so.1: cannot open shared object file: No such file or directory",
          "\tat java.base/jdk.internal.loader.NativeLibraries.load(Native Method)");

  @Test
  void firstLoadFailureNamesTheMissingLibrary() {
    assertEquals(
        "UnsatisfiedLinkError: libcuda.so.1: cannot open shared object file",
        FailureMessages.libraryLoadFailure(new UnsatisfiedLinkError(JCUDA_MESSAGE)));
  }

  @Test
  void laterFailureFindsTheLibraryInItsCause() {
    NoClassDefFoundError later =
        new NoClassDefFoundError("Could not initialize class jcuda.driver.JCudaDriver");
    later.initCause(
        new ExceptionInInitializerError(
            "Exception java.lang.UnsatisfiedLinkError: " + JCUDA_MESSAGE));
    assertEquals(
        "NoClassDefFoundError: libcuda.so.1: cannot open shared object file",
        FailureMessages.libraryLoadFailure(later));
  }

  @Test
  void otherFailuresGiveTheirFirstLine() {
    assertEquals(
        "NoClassDefFoundError: jcuda/driver/CUdevice",
        FailureMessages.libraryLoadFailure(
            new NoClassDefFoundError("jcuda/driver/CUdevice\nmore")));
    assertEquals(
        "IllegalStateException: null", FailureMessages.oneLine(new IllegalStateException()));
  }
}
