package dev.l0.kernels.jvm;

import dev.l0.kernels.ir.Kernel;
import dev.l0.kernels.lower.UnsupportedKernelException;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.lang.reflect.InvocationTargetException;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.codehaus.commons.compiler.CompileException;
import org.codehaus.commons.compiler.InternalCompilerException;
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
   * a kernel past the JVM's limits, such as 64 KiB of bytecode per method, which a class
   * initialiser of 7,500 distinct float constants passes: Janino's {@code
   * InternalCompilerException}) is rejected with an {@link UnsupportedKernelException} starting
   * {@link #GENERATED_CODE_BUG}, with the compiler's messages and the lines of the source they name
   * ({@link #excerpt}), which the program's compile error at the kernel's SOAC reports.
   */
  static KernelThreads compile(Kernel kernel) {
    return compiled(kernel).code();
  }

  /**
   * {@code kernel} compiled, reprinted with smaller method budgets until every method is at most
   * {@link #HUGE_METHOD_BYTES}.
   */
  static Compiled compiled(Kernel kernel) {
    return compiled(kernel, JavaKernelIrPrinter.methodBudget());
  }

  /** {@link #compiledForm}'s code: the compiler of launch-specialised forms. */
  static KernelThreads compileForm(Kernel kernel) {
    return compiledForm(kernel).code();
  }

  /**
   * A launch-specialised form of a kernel ({@link LaunchSpecialisations}) compiled with {@link
   * #FORM_BUDGET_FACTOR} times the method budget, as {@link #compiled(Kernel)} otherwise.
   */
  static Compiled compiledForm(Kernel kernel) {
    return compiled(kernel, FORM_BUDGET_FACTOR * JavaKernelIrPrinter.methodBudget());
  }

  /**
   * How many times the method budget a launch-specialised form's methods get. Fewer, larger methods
   * run OptionPricing's warm runs faster, but C2 takes longer over them, which a first run pays: at
   * twice the budget for every kernel, LocVolCalib medium's first run took 5.1 s against 2.5 s. A
   * form runs only from a later launch, and the general form, which the first run uses, keeps the
   * budget: OptionPricing small, medium and large best 0.110-0.113, 0.187-0.189 and 1.532-1.659 s
   * against 0.143-0.146, 0.204-0.207 and 1.676-1.713 s, first runs unchanged (bench/README.md,
   * twenty-fourth session). Three times was no faster than twice.
   */
  static final int FORM_BUDGET_FACTOR = 2;

  /**
   * {@code kernel} compiled with the method budget {@code budget}, reprinted with smaller budgets
   * until every method is at most {@link #HUGE_METHOD_BYTES}.
   */
  private static Compiled compiled(Kernel kernel, int budget) {
    boolean lanewise = dev.l0.kernels.vector.VectorMath.lanewise();
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
        | InternalCompilerException
        | ClassNotFoundException
        | NoSuchMethodException
        | InstantiationException
        | IllegalAccessException
        | InvocationTargetException e) {
      throw new UnsupportedKernelException(
          GENERATED_CODE_BUG + messages(e) + "\n" + excerpt(e, text));
    }
  }

  /** Source lines shown around the line a compile error names, on each side. */
  private static final int EXCERPT_CONTEXT = 3;

  /** Source lines shown where a compile error names none (Janino's limits: a method past 64 KB). */
  private static final int EXCERPT_HEAD = 20;

  /**
   * The lines of {@code text} that explain {@code e}, numbered as its message numbers them: those
   * around the line it names, or the first ones, with where to find the whole source. A kernel's
   * Java runs to megabytes, and the message reaches a Spark job's log and its driver's exception.
   */
  private static String excerpt(Exception e, String text) {
    List<String> lines = text.lines().toList();
    int line =
        e instanceof CompileException c && c.getLocation() != null
            ? c.getLocation().getLineNumber()
            : 0;
    int from = line > 0 ? Math.max(1, line - EXCERPT_CONTEXT) : 1;
    int to =
        line > 0
            ? Math.min(lines.size(), line + EXCERPT_CONTEXT)
            : Math.min(lines.size(), EXCERPT_HEAD);
    StringBuilder excerpt = new StringBuilder();
    for (int n = from; n <= to; n++) {
      excerpt.append(String.format("%6d  %s%n", n, lines.get(n - 1)));
    }
    return excerpt
        .append("(lines ")
        .append(from)
        .append("-")
        .append(to)
        .append(" of ")
        .append(lines.size())
        .append(" of the generated Java; bin/l0 explain FILE.l0 --java prints it whole)")
        .toString();
  }

  /** The messages of {@code e} and its causes, outermost first (Janino's say where, then why). */
  private static String messages(Throwable e) {
    StringBuilder messages = new StringBuilder(String.valueOf(e.getMessage()));
    for (Throwable cause = e.getCause(); cause != null; cause = cause.getCause()) {
      messages.append(": ").append(cause.getMessage());
    }
    return messages.toString();
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
