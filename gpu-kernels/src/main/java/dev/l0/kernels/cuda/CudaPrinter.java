package dev.l0.kernels.cuda;

import dev.l0.ir.BinaryOperator;
import dev.l0.ir.Builtin;
import dev.l0.ir.PrefixOperator;
import dev.l0.ir.ScalarType;
import dev.l0.ir.ScalarValue;
import dev.l0.kernels.ir.Buffer;
import dev.l0.kernels.ir.Kernel;
import dev.l0.kernels.ir.KernelExpr;
import dev.l0.kernels.ir.KernelGroup;
import dev.l0.kernels.ir.KernelStmt;
import dev.l0.kernels.ir.SharedArray;
import java.util.ArrayList;
import java.util.List;

/**
 * CUDA C for the kernel IR: one translation unit per kernel group, the math library ({@link
 * CudaMathLibrary}) in front, every kernel {@code extern "C" __global__} with {@code
 * __launch_bounds__} of the most threads per block it is launched with. Scalar semantics follow
 * {@code dev.l0.semantics.ScalarOperations}: integer {@code + - *}, negation and left shifts wrap
 * through unsigned arithmetic (no signed overflow, which C++ leaves undefined), shift counts are
 * masked as Java masks them, {@code MIN / -1} wraps, float-to-integer conversions saturate with NaN
 * giving 0, float {@code min}/{@code max} are Java's (NaN wins, -0.0 &lt; 0.0), and f32 arithmetic
 * stays in {@code float}. Compile without FMA contraction ({@link NvccCompiler#PRODUCT_OPTIONS}).
 *
 * <p>A kernel's parameters, in order: {@code int* l0_error} (the group's error word: the code of
 * the raise that set it first, then from byte 8 the {@code long long} values that raise recorded),
 * then a pointer per {@link Kernel#buffers()} (bool buffers are one byte per element; {@code
 * __restrict__}, since the runner gives every buffer its own device allocation, so that loads need
 * not wait for the stores before them), then {@link Kernel#scalars()} by value. Shared arrays of a
 * fixed size are static {@code __shared__} arrays; those sized by the block live in dynamic shared
 * memory of {@link #sharedMemoryBytes} bytes.
 *
 * <p>The launch bound caps the registers ptxas gives a thread at what a block of that many threads
 * can hold (65,536 per multiprocessor on every architecture since sm_50): without it ptxas gives a
 * large kernel up to 255 (FinPar's block-per-row kernels take them all), and a launch of more than
 * 256 such threads fails with {@code CUDA_ERROR_LAUNCH_OUT_OF_RESOURCES}.
 */
public final class CudaPrinter {
  /** Helpers for the integer and float operations whose C++ meaning differs from L0's. */
  static final String PRELUDE =
      """
      #pragma nv_diag_suppress 177
      #define L0_OP static __host__ __device__ __forceinline__
      L0_OP int l0_add_i32(int a, int b) { return (int)((unsigned)a + (unsigned)b); }
      L0_OP int l0_sub_i32(int a, int b) { return (int)((unsigned)a - (unsigned)b); }
      L0_OP int l0_mul_i32(int a, int b) { return (int)((unsigned)a * (unsigned)b); }
      L0_OP int l0_neg_i32(int a) { return (int)(0u - (unsigned)a); }
      L0_OP int l0_div_i32(int a, int b) { return b == -1 ? l0_neg_i32(a) : a / b; }
      L0_OP int l0_mod_i32(int a, int b) { return b == -1 ? 0 : a % b; }
      L0_OP int l0_shl_i32(int a, int b) { return (int)((unsigned)a << (b & 31)); }
      L0_OP int l0_shr_i32(int a, int b) { return a >> (b & 31); }
      L0_OP int l0_abs_i32(int a) { return a < 0 ? l0_neg_i32(a) : a; }
      L0_OP int l0_pow_i32(int a, int b) {
        unsigned result = 1u, square = (unsigned)a;
        for (unsigned e = (unsigned)b; e != 0u; e >>= 1) { if (e & 1u) result *= square; square *= square; }
        return (int)result;
      }
      L0_OP long long l0_add_i64(long long a, long long b) { return (long long)((unsigned long long)a + (unsigned long long)b); }
      L0_OP long long l0_sub_i64(long long a, long long b) { return (long long)((unsigned long long)a - (unsigned long long)b); }
      L0_OP long long l0_mul_i64(long long a, long long b) { return (long long)((unsigned long long)a * (unsigned long long)b); }
      L0_OP long long l0_neg_i64(long long a) { return (long long)(0ull - (unsigned long long)a); }
      L0_OP long long l0_div_i64(long long a, long long b) { return b == -1 ? l0_neg_i64(a) : a / b; }
      L0_OP long long l0_mod_i64(long long a, long long b) { return b == -1 ? 0 : a % b; }
      L0_OP long long l0_shl_i64(long long a, long long b) { return (long long)((unsigned long long)a << (b & 63)); }
      L0_OP long long l0_shr_i64(long long a, long long b) { return a >> (b & 63); }
      L0_OP long long l0_abs_i64(long long a) { return a < 0 ? l0_neg_i64(a) : a; }
      L0_OP long long l0_pow_i64(long long a, long long b) {
        unsigned long long result = 1ull, square = (unsigned long long)a;
        for (unsigned long long e = (unsigned long long)b; e != 0ull; e >>= 1) { if (e & 1ull) result *= square; square *= square; }
        return (long long)result;
      }
      L0_OP int l0_to_i32(double x) {
        if (x != x) return 0;
        if (x >= 2147483647.0) return 2147483647;
        if (x <= -2147483648.0) return (-2147483647 - 1);
        return (int)x;
      }
      L0_OP long long l0_to_i64(double x) {
        if (x != x) return 0;
        if (x >= 9223372036854775807.0) return 9223372036854775807LL;
        if (x <= -9223372036854775808.0) return (-9223372036854775807LL - 1LL);
        return (long long)x;
      }
      L0_OP double l0_min_f64(double a, double b) {
        if (a != a) return a;
        if (b != b) return b;
        if (a == 0.0 && b == 0.0) return signbit(a) ? a : b;
        return a < b ? a : b;
      }
      L0_OP double l0_max_f64(double a, double b) {
        if (a != a) return a;
        if (b != b) return b;
        if (a == 0.0 && b == 0.0) return signbit(a) ? b : a;
        return a > b ? a : b;
      }
      L0_OP float l0_min_f32(float a, float b) { return (float)l0_min_f64(a, b); }
      L0_OP float l0_max_f32(float a, float b) { return (float)l0_max_f64(a, b); }
      """;

  /** The launch's threads, declared in kernels with thread-private buffers. */
  private static final String THREADS = "l0_threads";

  /** The thread's index in the grid, declared in kernels with thread-private buffers. */
  private static final String GRID_THREAD = "l0_grid_thread";

  /** The most threads a CUDA block holds. */
  public static final int MOST_THREADS_PER_BLOCK = 1024;

  private final StringBuilder out = new StringBuilder();
  private int indent;

  /** The launch bound of every kernel ({@code __launch_bounds__}); 0 for none (expressions). */
  private final int threadsPerBlock;

  private CudaPrinter(int threadsPerBlock) {
    this.threadsPerBlock = threadsPerBlock;
  }

  /**
   * The CUDA C translation unit of {@code group}: math library, helpers, and its kernels, each
   * launched in blocks of at most {@code threadsPerBlock} threads.
   */
  public static String print(KernelGroup group, int threadsPerBlock) {
    return printModule(group.kernels(), threadsPerBlock);
  }

  /**
   * One translation unit holding {@code kernels}, whose names must differ, each launched in blocks
   * of at most {@code threadsPerBlock} threads (1 to 1024).
   */
  public static String printModule(List<Kernel> kernels, int threadsPerBlock) {
    if (threadsPerBlock < 1 || threadsPerBlock > MOST_THREADS_PER_BLOCK) {
      throw new IllegalArgumentException(
          "a block holds 1 to " + MOST_THREADS_PER_BLOCK + " threads, not " + threadsPerBlock);
    }
    CudaPrinter printer = new CudaPrinter(threadsPerBlock);
    printer.out.append(CudaMathLibrary.header()).append('\n').append(PRELUDE).append('\n');
    kernels.forEach(printer::kernel);
    return printer.out.toString();
  }

  /**
   * {@code e} as a C expression (host and device code alike; the helpers are {@code __host__
   * __device__}).
   */
  static String expression(KernelExpr e) {
    return new CudaPrinter(0).expr(e);
  }

  /**
   * The dynamic shared memory {@code kernel} needs for blocks of {@code blockSize} threads
   * (fixed-size arrays are static).
   */
  public static long sharedMemoryBytes(Kernel kernel, long blockSize) {
    long bytes = 0;
    for (SharedArray array : kernel.shared()) {
      bytes += sharedArrayBytes(array, blockSize);
    }
    return bytes;
  }

  private static long sharedArrayBytes(SharedArray array, long blockSize) {
    if (array.isFixedSize()) {
      return 0;
    }
    long raw = array.elements(blockSize) * array.elementType().bytes();
    return (raw + 7) / 8 * 8;
  }

  /**
   * The elements of the global array holding thread-private arrays of {@code perThread} elements
   * for {@code threads} threads.
   */
  public static long threadPrivateElements(long perThread, long threads) {
    return Math.multiplyExact(perThread, threads);
  }

  static String cType(ScalarType type) {
    return switch (type) {
      case BOOL -> "bool";
      case I32 -> "int";
      case I64 -> "long long";
      case F32 -> "float";
      case F64 -> "double";
    };
  }

  private void kernel(Kernel kernel) {
    List<String> params = new ArrayList<>();
    params.add("int* l0_error");
    for (Buffer b : kernel.buffers()) {
      params.add(cType(b.elementType()) + "* __restrict__ " + b.name());
    }
    for (KernelExpr.Var v : kernel.scalars()) {
      params.add(cType(v.type()) + " " + v.name());
    }
    out.append("extern \"C\" __global__ void __launch_bounds__(")
        .append(threadsPerBlock)
        .append(") ")
        .append(kernel.name())
        .append('(')
        .append(String.join(", ", params))
        .append(") {\n");
    indent = 1;
    for (SharedArray array : kernel.shared().stream().filter(SharedArray::isFixedSize).toList()) {
      line(
          "__shared__ "
              + cType(array.elementType())
              + " "
              + array.name()
              + "["
              + array.elementsPerBlock()
              + "];");
    }
    List<SharedArray> blockSized =
        kernel.shared().stream().filter(array -> !array.isFixedSize()).toList();
    if (!blockSized.isEmpty()) {
      line("extern __shared__ unsigned long long l0_shared[];");
      String offset = "0";
      for (SharedArray array : blockSized) {
        line(
            cType(array.elementType())
                + "* "
                + array.name()
                + " = ("
                + cType(array.elementType())
                + "*)((unsigned char*)l0_shared + "
                + offset
                + ");");
        offset =
            offset
                + " + ((("
                + array.elementsPerThread()
                + "ull * blockDim.x + "
                + array.elementsPerBlock()
                + "ull) * "
                + array.elementType().bytes()
                + "ull + 7ull) / 8ull * 8ull)";
      }
    }
    if (kernel.buffers().stream().anyMatch(Buffer::isThreadPrivate)) {
      line("const long long " + THREADS + " = (long long)gridDim.x * blockDim.x;");
      line(
          "const long long "
              + GRID_THREAD
              + " = (long long)blockIdx.x * blockDim.x + threadIdx.x;");
    }
    kernel.body().forEach(this::statement);
    out.append("}\n\n");
  }

  private void line(String text) {
    out.append("  ".repeat(indent)).append(text).append('\n');
  }

  private void block(List<KernelStmt> body) {
    indent++;
    body.forEach(this::statement);
    indent--;
  }

  private void statement(KernelStmt s) {
    if (s instanceof KernelStmt.Declare d) {
      line(
          cType(d.variable().type()) + " " + d.variable().name() + " = " + expr(d.initial()) + ";");
    } else if (s instanceof KernelStmt.Assign a) {
      line(a.variable().name() + " = " + expr(a.value()) + ";");
    } else if (s instanceof KernelStmt.Store st) {
      line(element(st.buffer(), st.index()) + " = " + expr(st.value()) + ";");
    } else if (s instanceof KernelStmt.SharedStore st) {
      line(st.array().name() + "[" + expr(st.index()) + "] = " + expr(st.value()) + ";");
    } else if (s instanceof KernelStmt.If i) {
      line("if (" + expr(i.condition()) + ") {");
      block(i.thenBody());
      if (!i.elseBody().isEmpty()) {
        line("} else {");
        block(i.elseBody());
      }
      line("}");
    } else if (s instanceof KernelStmt.For f) {
      String counter = f.counter().name();
      line(
          "for (long long "
              + counter
              + " = "
              + expr(f.start())
              + "; "
              + counter
              + " < "
              + expr(f.bound())
              + "; "
              + counter
              + " += "
              + expr(f.step())
              + ") {");
      block(f.body());
      line("}");
    } else if (s instanceof KernelStmt.While w) {
      line("while (" + expr(w.condition()) + ") {");
      block(w.body());
      line("}");
    } else if (s instanceof KernelStmt.Barrier) {
      line("__syncthreads();");
    } else {
      // a thread's first error stays: a capacity overflow is not replaced by what the thread
      // computes after it
      KernelStmt.RaiseError r = (KernelStmt.RaiseError) s;
      if (r.values().isEmpty()) {
        line("atomicCAS(l0_error, 0, " + r.code() + ");");
      } else {
        line("if (atomicCAS(l0_error, 0, " + r.code() + ") == 0) {");
        indent++;
        for (int k = 0; k < r.values().size(); k++) {
          line(
              "((long long*) (l0_error + 2))["
                  + k
                  + "] = (long long) ("
                  + expr(r.values().get(k))
                  + ");");
        }
        indent--;
        line("}");
      }
    }
  }

  private String expr(KernelExpr e) {
    if (e instanceof KernelExpr.Constant c) {
      return constant(c.value());
    }
    if (e instanceof KernelExpr.Var v) {
      return v.name();
    }
    if (e instanceof KernelExpr.Thread t) {
      return "((long long)" + t.index().cudaName() + ")";
    }
    if (e instanceof KernelExpr.Binary b) {
      return binary(b);
    }
    if (e instanceof KernelExpr.Unary u) {
      return unary(u);
    }
    if (e instanceof KernelExpr.Call c) {
      return call(c);
    }
    if (e instanceof KernelExpr.Select s) {
      return "(" + expr(s.condition()) + " ? " + expr(s.ifTrue()) + " : " + expr(s.ifFalse()) + ")";
    }
    if (e instanceof KernelExpr.Load l) {
      return element(l.buffer(), l.index());
    }
    KernelExpr.SharedLoad l = (KernelExpr.SharedLoad) e;
    return l.array().name() + "[" + expr(l.index()) + "]";
  }

  /**
   * Element {@code index} of {@code buffer}: of the running thread's interleaved array for a
   * thread-private one.
   */
  private String element(Buffer buffer, KernelExpr index) {
    if (buffer.isThreadPrivate()) {
      return buffer.name() + "[(" + expr(index) + ") * " + THREADS + " + " + GRID_THREAD + "]";
    }
    return buffer.name() + "[" + expr(index) + "]";
  }

  static String constant(ScalarValue value) {
    if (value instanceof ScalarValue.Bool b) {
      return b.value() ? "true" : "false";
    }
    if (value instanceof ScalarValue.Int i) {
      long v = i.value();
      if (i.type() == ScalarType.I32) {
        return v == Integer.MIN_VALUE ? "(-2147483647 - 1)" : "(" + v + ")";
      }
      return v == Long.MIN_VALUE ? "(-9223372036854775807LL - 1LL)" : "(" + v + "LL)";
    }
    ScalarValue.Float f = (ScalarValue.Float) value;
    double v = f.value();
    boolean single = f.type() == ScalarType.F32;
    if (Double.isNaN(v) || Double.isInfinite(v)) {
      String bits = "l0_bits_double(" + Double.doubleToLongBits(v) + "LL)";
      return single ? "((float)" + bits + ")" : bits;
    }
    return "(" + (single ? Float.toString((float) v) + "f" : Double.toString(v)) + ")";
  }

  private String binary(KernelExpr.Binary b) {
    String l = expr(b.left());
    String r = expr(b.right());
    ScalarType t = b.operandType();
    BinaryOperator op = b.op();
    if (op.kind() == BinaryOperator.Kind.COMPARISON || op.kind() == BinaryOperator.Kind.LOGICAL) {
      String symbol =
          switch (op) {
            case EQ -> "==";
            case OR -> "||";
            case AND -> "&&";
            default -> op.symbol();
          };
      return "(" + l + " " + symbol + " " + r + ")";
    }
    if (t.isFloat()) {
      return switch (op) {
        case MOD -> (t == ScalarType.F32 ? "fmodf(" : "fmod(") + l + ", " + r + ")";
        case POW -> (t == ScalarType.F32 ? "l0_powf(" : "l0_pow(") + l + ", " + r + ")";
        default -> "(" + l + " " + op.symbol() + " " + r + ")";
      };
    }
    String suffix = t == ScalarType.I32 ? "_i32(" : "_i64(";
    return switch (op) {
      case BAND, BOR, XOR -> "(" + l + " " + op.symbol() + " " + r + ")";
      default -> "l0_" + op.name().toLowerCase() + suffix + l + ", " + r + ")";
    };
  }

  private String unary(KernelExpr.Unary u) {
    String operand = expr(u.operand());
    if (u.op() == PrefixOperator.NOT) {
      return "(!" + operand + ")";
    }
    ScalarType t = u.operand().type();
    return t.isFloat()
        ? "(-" + operand + ")"
        : "l0_neg" + (t == ScalarType.I32 ? "_i32(" : "_i64(") + operand + ")";
  }

  private String call(KernelExpr.Call c) {
    List<String> args = c.args().stream().map(this::expr).toList();
    ScalarType t = c.args().get(0).type();
    String x = args.get(0);
    Builtin f = c.function();
    switch (f.kind()) {
      case FLOAT_MATH:
        return "l0_" + f.functionName() + (t == ScalarType.F32 ? "f(" : "(") + x + ")";
      case CONVERSION:
        return conversion(x, t, f.conversionTarget());
      default:
        break;
    }
    String suffix = "_" + t.keyword();
    if (f == Builtin.ABS) {
      return t.isFloat()
          ? (t == ScalarType.F32 ? "fabsf(" : "fabs(") + x + ")"
          : "l0_abs" + suffix + "(" + x + ")";
    }
    if (t.isFloat()) {
      return "l0_" + f.functionName() + suffix + "(" + x + ", " + args.get(1) + ")";
    }
    String comparison = f == Builtin.MIN ? " < " : " > ";
    return "(" + x + comparison + args.get(1) + " ? " + x + " : " + args.get(1) + ")";
  }

  private static String conversion(String x, ScalarType from, ScalarType to) {
    if (from.isFloat() && to.isInteger()) {
      return "l0_to_" + to.keyword() + "((double)" + x + ")";
    }
    return "((" + cType(to) + ")" + x + ")";
  }
}
