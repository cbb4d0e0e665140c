package dev.l0.kernels.jvm;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;

import java.lang.ref.WeakReference;
import java.util.UUID;
import org.junit.jupiter.api.Test;

/**
 * A JVM that compiles ever new kernels (an executor running generated programs) keeps only the
 * {@link JaninoKernels#KEPT_SOURCES} most recently used compiled classes, and a thread that ran a
 * kernel's region does not keep its class and workspace once nothing else uses it.
 */
class JaninoKernelsRetentionTest {
  /** A kernel class of its own (a fresh name and body) returning {@code value}. */
  private static JavaKernelIrPrinter.KernelSource kernel(String name, int value) {
    String text =
        "package dev.l0.kernels.jvm.retention;\n"
            + "public class "
            + name
            + " extends dev.l0.kernels.jvm.KernelThreads {\n"
            + "  public int run(Object[] m, Object[] s, int first, int end, int grid) {\n"
            + "    return "
            + value
            + ";\n  }\n  public Object newWorkspace() {\n    return new double[1 << 16];\n  }\n}\n";
    return new JavaKernelIrPrinter.KernelSource(
        "dev.l0.kernels.jvm.retention." + name, text, false);
  }

  private static String freshName() {
    return "K" + UUID.randomUUID().toString().replace("-", "");
  }

  @Test
  void onlyTheMostRecentlyUsedKernelsStayCompiledAndADroppedOneCanBeCollected() {
    JavaKernelIrPrinter.KernelSource oldest = kernel(freshName(), -1);
    WeakReference<Class<?>> oldestClass = firstUse(oldest);
    JavaKernelIrPrinter.KernelSource recent = null;
    for (int k = 0; k < JaninoKernels.KEPT_SOURCES; k++) {
      recent = kernel(freshName(), k);
      JaninoKernels.compile(recent);
    }
    assertSame(JaninoKernels.compile(recent), JaninoKernels.compile(recent));
    for (int attempt = 0; attempt < 20 && oldestClass.get() != null; attempt++) {
      System.gc();
    }
    assertNull(oldestClass.get(), "the least recently used kernel's class is still reachable");
    KernelThreads again = JaninoKernels.compile(oldest);
    assertEquals(-1, again.run(new Object[0], new Object[0], 0, 1, 1));
  }

  /** Compiles and runs {@code source}'s region on this thread; a weak reference to its class. */
  private static WeakReference<Class<?>> firstUse(JavaKernelIrPrinter.KernelSource source) {
    KernelThreads code = JaninoKernels.compile(source);
    assertSame(code, JaninoKernels.compile(source));
    assertSame(JvmSupport.workspace(code), JvmSupport.workspace(code));
    return new WeakReference<>(code.getClass());
  }
}
