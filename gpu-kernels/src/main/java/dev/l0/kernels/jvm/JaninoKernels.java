package dev.l0.kernels.jvm;

import dev.l0.kernels.ir.Kernel;
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
  private static final Map<String, KernelThreads> COMPILED = new ConcurrentHashMap<>();

  private JaninoKernels() {}

  /**
   * {@code kernel}'s compiled code; generated code that does not compile is a bug of this backend,
   * an {@link IllegalStateException} with the compiler's message and the source.
   */
  static KernelThreads compile(Kernel kernel) {
    JavaKernelIrPrinter.KernelSource source = JavaKernelIrPrinter.print(kernel);
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
      throw new IllegalStateException("the JVM backend generated Java that does not compile: " + e.getMessage() + "\n" + text, e);
    }
  }
}
