package dev.l0.kernels.jvm;

import dev.l0.kernels.exec.KernelScope;
import dev.l0.kernels.lower.UnsupportedKernelException;
import dev.l0.opt.KernelPlan;
import java.lang.reflect.Constructor;
import java.lang.reflect.InvocationTargetException;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import org.codehaus.commons.compiler.CompileException;
import org.codehaus.janino.SimpleCompiler;

/**
 * One fused SOAC compiled for the JVM: the Java source {@link JavaKernelPrinter} prints, compiled
 * once by Janino (classes are cached by source text, so equal kernels share a class), run on
 * primitive arrays by {@link ChunkedExecution}. Thread-safe: every run has its own instance.
 */
public final class JvmKernel {
  /** How a rejection caused by generated code that Janino cannot compile starts. */
  public static final String GENERATED_CODE_BUG = "the JVM backend generated Java that does not compile: ";

  private static final Map<String, Constructor<?>> COMPILED = new ConcurrentHashMap<>();

  private final JavaKernelPrinter.KernelSource source;
  private final Constructor<?> constructor;

  private JvmKernel(JavaKernelPrinter.KernelSource source, Constructor<?> constructor) {
    this.source = source;
    this.constructor = constructor;
  }

  /**
   * Compiles {@code kernel}, whose surroundings {@code scope} describes, or throws
   * {@link UnsupportedKernelException} naming what the JVM backend cannot run (or, for a bug of
   * the backend, {@link #GENERATED_CODE_BUG} with the compiler's message and the source).
   */
  public static JvmKernel compile(KernelPlan.Kernel kernel, KernelScope scope) {
    JavaKernelPrinter.KernelSource source = JavaKernelPrinter.print(kernel, scope);
    return new JvmKernel(source, COMPILED.computeIfAbsent(source.source(), text -> cook(source.className(), text)));
  }

  private static Constructor<?> cook(String className, String text) {
    SimpleCompiler compiler = new SimpleCompiler();
    compiler.setParentClassLoader(KernelInstance.class.getClassLoader());
    try {
      compiler.cook(text);
      return compiler.getClassLoader().loadClass(className).getConstructor(Object[].class, Object[].class, int.class);
    } catch (CompileException | ClassNotFoundException | NoSuchMethodException e) {
      // a bug of this backend: the kernel falls back with the reason rather than failing the run
      throw new UnsupportedKernelException(GENERATED_CODE_BUG + e.getMessage() + "\n" + text);
    }
  }

  /** The values {@link #run} takes, in order. */
  public List<KernelParameter> parameters() {
    return source.parameters();
  }

  /** The generated Java source. */
  public String source() {
    return source.source();
  }

  /**
   * Runs the kernel on {@code args} ({@link FlatArray}s for arrays, boxed primitives for scalars,
   * in {@link #parameters()} order) and returns its results the same way, in the order of the
   * SOAC's statement pattern.
   */
  public Object[] run(Object[] args) {
    int size = 0;
    for (int k = 0; k < args.length; k++) {
      if (source.parameters().get(k).role() == KernelParameter.Role.ROWS) {
        int rows = ((FlatArray) args[k]).size(0);
        if (k > 0 && rows != size) {
          throw new IllegalArgumentException("SOAC inputs of different sizes " + size + " and " + rows);
        }
        size = rows;
      }
    }
    KernelInstance instance;
    try {
      instance = (KernelInstance) constructor.newInstance(source.constants().toArray(), args, size);
    } catch (InstantiationException | IllegalAccessException | InvocationTargetException e) {
      throw new IllegalStateException("cannot instantiate the generated kernel\n" + source.source(), e);
    }
    return new ChunkedExecution(instance, size).run(source.kind());
  }
}
