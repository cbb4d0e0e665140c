package dev.l0.kernels.sim;

import dev.l0.ir.ScalarValue;
import dev.l0.ir.SourcePos;
import dev.l0.kernels.ir.KernelExpr;
import dev.l0.kernels.ir.ThreadIndex;
import dev.l0.semantics.Operands;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The host scalars of a kernel group (input sizes, chunk counts, grid sizes, read-back values): its
 * host-step expressions compiled once to slots, then evaluated on every run against that run's
 * {@link Values}, with {@code ScalarOperations}' meaning. Every host of kernel groups uses it, the
 * simulator and the CUDA executor alike, so both compute the same sizes and grids.
 */
public final class HostScalars {
  private final ExpressionCompiler compiler;
  private final Map<String, Integer> slots = new LinkedHashMap<>();

  /** For the host steps of group {@code groupName} (named in error messages). */
  public HostScalars(String groupName) {
    this.compiler = new ExpressionCompiler(groupName + " (host)", Map.of(), Map.of());
  }

  /** The slot of host scalar {@code variable}, declared on its first use. */
  public int declare(KernelExpr.Var variable) {
    return slots.computeIfAbsent(variable.name(), name -> slots.size());
  }

  /**
   * The slot of the declared host scalar {@code name}; an {@code IllegalArgumentException} if it is
   * not declared.
   */
  public int slotOf(String name) {
    return compiler.slot(name, slots);
  }

  /**
   * {@code e}, which may read the scalars declared so far (an {@code IllegalArgumentException} for
   * any other variable, a thread register or memory).
   */
  public Expression compile(KernelExpr e) {
    CompiledExpr compiled = compiler.compile(e, slots);
    return values -> compiled.eval(values.frame);
  }

  /** Empty values for one run, a slot for every scalar declared so far. */
  public Values newValues() {
    return new Values(slots.size());
  }

  /** A compiled host expression. */
  @FunctionalInterface
  public interface Expression {
    ScalarValue evaluate(Values values);

    /** The value of an integer expression (a size, an index, a grid size). */
    default long evaluateIndex(Values values) {
      return Operands.integer(evaluate(values), SourcePos.NONE).value();
    }

    /**
     * The value of a size (of an allocation, of an output's dimension), 0 where the program's
     * values make it negative: only a run that fails computes one (the kernel using that size
     * raises the program's error for it, and guards every access) or one under an empty dimension
     * (the rows of a map over no rows whose function fails on the zero row have size 0, README
     * "Shapes of empty arrays").
     */
    default long evaluateSize(Values values) {
      return Math.max(0, evaluateIndex(values));
    }
  }

  /**
   * The host scalars of one run, by slot; reading one before it is set is an {@code
   * IllegalArgumentException}.
   */
  public static final class Values {
    private final ScalarValue[] slots;
    private final Frame frame = new HostFrame();

    private Values(int size) {
      this.slots = new ScalarValue[size];
    }

    public void set(int slot, ScalarValue value) {
      slots[slot] = value;
    }

    public ScalarValue get(int slot) {
      ScalarValue value = slots[slot];
      if (value == null) {
        throw new IllegalArgumentException("a host scalar is read before it is defined");
      }
      return value;
    }

    /** Host code has scalars only: no thread registers and no memory. */
    private final class HostFrame implements Frame {
      @Override
      public ScalarValue local(int slot) {
        return get(slot);
      }

      @Override
      public ScalarValue register(ThreadIndex index) {
        throw new IllegalArgumentException("a host expression reads " + index.cudaName());
      }

      @Override
      public ScalarValue load(int buffer, long index) {
        throw new IllegalArgumentException("a host expression reads global memory");
      }

      @Override
      public ScalarValue sharedLoad(int array, long index) {
        throw new IllegalArgumentException("a host expression reads shared memory");
      }
    }
  }
}
