package dev.l0.kernels.jvm;

import dev.l0.kernels.ir.Kernel;
import dev.l0.kernels.lower.UnsupportedKernelException;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.lang.reflect.InvocationTargetException;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;
import org.codehaus.commons.compiler.CompileException;
import org.codehaus.janino.SimpleCompiler;
import org.codehaus.janino.util.ClassFile;

/**
 * Kernels of the kernel IR compiled for the JVM: the source {@link JavaKernelIrPrinter} prints,
 * compiled once by Janino (classes are cached by source text, so equal kernels share a class).
 * Every method of a compiled kernel is at most {@link #HUGE_METHOD_BYTES} bytes of bytecode, which
 * HotSpot compiles; a method over it would run interpreted: a kernel whose printed methods come out
 * larger than the printer's estimate is printed again with half the method budget.
 */
final class JaninoKernels {
  /** How a rejection caused by generated code that Janino cannot compile starts. */
  static final String GENERATED_CODE_BUG = "the JVM backend generated Java that does not compile: ";

  /**
   * HotSpot's {@code -XX:HugeMethodLimit}: it does not compile methods of more bytes of bytecode.
   */
  static final int HUGE_METHOD_BYTES = 8000;

  /**
   * How many kernel sources' compiled classes this JVM keeps for kernels printed again (another
   * program with the same kernel, a specialised form); the least recently used beyond that are
   * dropped, so that an executor running ever new programs does not keep every class it loaded (the
   * programs that use one keep it themselves).
   */
  static final int KEPT_SOURCES = 256;

  /** By source, least recently used first; each compiled once by its first caller. */
  private static final Map<String, Once> COMPILED =
      Collections.synchronizedMap(
          new LinkedHashMap<>(16, 0.75f, true) {
            @Override
            protected boolean removeEldestEntry(Map.Entry<String, Once> eldest) {
              return size() > KEPT_SOURCES;
            }
          });

  /** One source's compiled class, made by the first caller that asks (a failure keeps nothing). */
  private static final class Once {
    private Compiled compiled;

    synchronized Compiled get(String className, String text) {
      if (compiled == null) {
        compiled = cook(className, text);
      }
      return compiled;
    }
  }

  /** A compiled kernel class, its source, and the bytecode size of its largest method. */
  record Compiled(KernelThreads code, String source, int largestMethodBytes) {}

  private JaninoKernels() {}

  /**
   * {@code kernel}'s compiled code. Generated code that does not compile (a bug of this backend, or
   * a kernel past the JVM's limits, such as 64 KiB of bytecode per method) is rejected with an
   * {@link UnsupportedKernelException} starting {@link #GENERATED_CODE_BUG}, with the compiler's
   * message and the source, so that the kernel falls back with the reason rather than failing the
   * run.
   */
  static KernelThreads compile(Kernel kernel) {
    return compiled(kernel).code();
  }

  /**
   * {@code kernel} compiled, reprinted with smaller method budgets until every method is at most
   * {@link #HUGE_METHOD_BYTES}.
   */
  static Compiled compiled(Kernel kernel) {
    boolean lanewise = dev.l0.kernels.vector.VectorMath.lanewise();
    int budget = JavaKernelIrPrinter.methodBudget();
    Compiled compiled = compiled(JavaKernelIrPrinter.print(kernel, lanewise, budget));
    while (compiled.largestMethodBytes() > HUGE_METHOD_BYTES
        && budget / 2 >= JavaKernelIrPrinter.MIN_METHOD_BUDGET) {
      budget /= 2;
      compiled = compiled(JavaKernelIrPrinter.print(kernel, lanewise, budget));
    }
    return compiled;
  }

  /** The compiled class of a printed kernel, rejected as {@link #compile(Kernel)} says. */
  static KernelThreads compile(JavaKernelIrPrinter.KernelSource source) {
    return compiled(source).code();
  }

  static Compiled compiled(JavaKernelIrPrinter.KernelSource source) {
    return COMPILED
        .computeIfAbsent(source.source(), text -> new Once())
        .get(source.className(), source.source());
  }

  private static Compiled cook(String className, String text) {
    SimpleCompiler compiler = new SimpleCompiler();
    compiler.setParentClassLoader(KernelThreads.class.getClassLoader());
    try {
      // line numbers, so that a profile of a kernel points at lines of its source (bin/l0 explain
      // --java)
      compiler.setDebuggingInformation(false, true, false);
      compiler.cook(text);
      KernelThreads code =
          (KernelThreads)
              compiler.getClassLoader().loadClass(className).getConstructor().newInstance();
      return new Compiled(code, text, largestMethodBytes(compiler.getBytecodes().values()));
    } catch (CompileException
        | ClassNotFoundException
        | NoSuchMethodException
        | InstantiationException
        | IllegalAccessException
        | InvocationTargetException e) {
      throw new UnsupportedKernelException(GENERATED_CODE_BUG + e.getMessage() + "\n" + text);
    }
  }

  /** The most bytes of bytecode of any method of {@code classFiles}. */
  private static int largestMethodBytes(Iterable<byte[]> classFiles) {
    int largest = 0;
    for (byte[] bytes : classFiles) {
      try {
        ClassFile classFile = new ClassFile(new ByteArrayInputStream(bytes));
        for (ClassFile.MethodInfo method : classFile.methodInfos) {
          for (ClassFile.AttributeInfo attribute : method.getAttributes()) {
            if (attribute instanceof ClassFile.CodeAttribute code) {
              largest = Math.max(largest, code.code.length);
            }
          }
        }
      } catch (IOException e) {
        throw new UncheckedIOException("reading back a class file Janino made", e);
      }
    }
    return largest;
  }
}
