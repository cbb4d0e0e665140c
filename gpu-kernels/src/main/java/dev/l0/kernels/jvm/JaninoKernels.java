package dev.l0.kernels.jvm;

import dev.l0.kernels.ir.Kernel;
import dev.l0.kernels.lower.UnsupportedKernelException;
import java.lang.reflect.InvocationTargetException;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import org.codehaus.commons.compiler.CompileException;
import org.codehaus.janino.SimpleCompiler;

/**
 * Kernels of the kernel IR compiled for the JVM: the source {@link JavaKernelIrPrinter} prints,
 * compiled once by Janino (classes are cached by source text, so equal kernels share a class).
 */
final class JaninoKernels {
  /** How a rejection caused by generated code that Janino cannot compile starts. */
  static final String GENERATED_CODE_BUG = "the JVM backend generated Java that does not compile: ";

  private static final Map<String, KernelThreads> COMPILED = new ConcurrentHashMap<>();

  private JaninoKernels() {}

  /**
   * {@code kernel}'s compiled code. Generated code that does not compile (a bug of this backend, or
   * a kernel past the JVM's limits, such as 64 KiB of bytecode per method) is rejected with an
   * {@link UnsupportedKernelException} starting {@link #GENERATED_CODE_BUG}, with the compiler's
   * message and the source, so that the kernel falls back with the reason rather than failing the run.
   */
  static KernelThreads compile(Kernel kernel) {
    return compile(JavaKernelIrPrinter.print(kernel));
  }

  /** The compiled class of a printed kernel, rejected as {@link #compile(Kernel)} says. */
  static KernelThreads compile(JavaKernelIrPrinter.KernelSource source) {
    return COMPILED.computeIfAbsent(source.source(), text -> cook(source.className(), text));
  }

  private static KernelThreads cook(String className, String text) {
    SimpleCompiler compiler = new SimpleCompiler();
    compiler.setParentClassLoader(KernelThreads.class.getClassLoader());
    try {
      compiler.cook(text);
      return (KernelThreads) compiler.getClassLoader().loadClass(className).getConstructor().newInstance();
    } catch (CompileException | ClassNotFoundException | NoSuchMethodException | InstantiationException
        | IllegalAccessException | InvocationTargetException e) {
      throw new UnsupportedKernelException(GENERATED_CODE_BUG + e.getMessage() + "\n" + text);
    }
  }
}
