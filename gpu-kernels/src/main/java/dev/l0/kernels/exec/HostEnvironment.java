package dev.l0.kernels.exec;

import dev.l0.ir.ScalarValue;
import dev.l0.ir.SourcePos;
import dev.l0.ir.Value;
import dev.l0.kernels.jvm.FlatArray;
import dev.l0.semantics.ArrayOperations;
import java.util.HashMap;
import java.util.IdentityHashMap;
import java.util.Map;
import java.util.function.Function;

/**
 * The variables of one host-runner call, by name, the call's {@link RunMeter} and the {@link
 * SpareArrays} its JVM kernels allocate their buffers from. Each variable holds the {@link
 * HostValue} it was bound to; {@link #flat} and {@link #value} give it in the form the consumer
 * needs, converting a boxed array to a {@link FlatArray} or a flat array to a {@link Value} at most
 * once per value and call (conversions are kept by value, so aliases share them). A call creates
 * its own environment, so it is not thread-safe and need not be.
 */
public final class HostEnvironment {
  private final Map<String, HostValue> bound = new HashMap<>();
  private final Map<String, Function<HostEnvironment, HostValue>> onRead = new HashMap<>();
  private final Map<HostValue, Value> boxedConversions = new IdentityHashMap<>();
  private final Map<HostValue, FlatArray> flatConversions = new IdentityHashMap<>();
  private final RunMeter meter;
  private final SpareArrays spares;

  /** An environment whose kernels allocate every buffer anew ({@link SpareArrays#NONE}). */
  public HostEnvironment(RunMeter meter) {
    this(meter, SpareArrays.NONE);
  }

  /** An environment whose JVM kernels allocate their buffers from {@code spares}. */
  public HostEnvironment(RunMeter meter, SpareArrays spares) {
    this.meter = meter;
    this.spares = spares;
  }

  /** The meter of the call this environment belongs to. */
  public RunMeter meter() {
    return meter;
  }

  /** Where the call's JVM kernels allocate their buffers. */
  public SpareArrays spares() {
    return spares;
  }

  /** Binds {@code name} to {@code value}. */
  public void bind(String name, HostValue value) {
    bound.put(name, value);
  }

  /**
   * Binds {@code name} to the value {@code compute} makes from this environment, made only when
   * something reads {@code name} (an index function that kernels read as a view of its operand).
   */
  public void bindOnRead(String name, Function<HostEnvironment, HostValue> compute) {
    onRead.put(name, compute);
  }

  /** Whether {@code name} has a value (or one made when read). */
  public boolean binds(String name) {
    return bound.containsKey(name) || onRead.containsKey(name);
  }

  /** The value {@code name} is bound to, in the form it was bound in. */
  public HostValue get(String name) {
    HostValue value = bound.get(name);
    if (value == null && onRead.containsKey(name)) {
      value = onRead.remove(name).apply(this);
      bound.put(name, value);
    }
    if (value == null) {
      throw new IllegalStateException("no value for variable " + name);
    }
    return value;
  }

  /** {@code name}'s value as an interpreter value; a flat array is boxed on first use. */
  public Value value(String name) {
    HostValue value = get(name);
    if (value instanceof HostValue.Boxed boxed) {
      return boxed.value();
    }
    return boxedConversions.computeIfAbsent(
        value,
        unused -> {
          meter.addBoxedArray();
          return value.boxed();
        });
  }

  /** {@code name}'s value, a scalar. */
  public ScalarValue scalar(String name) {
    return (ScalarValue) value(name);
  }

  /**
   * {@code name}'s value, an array of scalars, as a {@link FlatArray}; a boxed array is flattened
   * on first use.
   */
  public FlatArray flat(String name) {
    HostValue value = get(name);
    if (value instanceof HostValue.Flat flat) {
      return flat.array();
    }
    return flatConversions.computeIfAbsent(value, HostValue::flat);
  }

  /**
   * A new environment with this one's bindings, conversions, meter and spare arrays, for a variant
   * of the call (e.g. a piece of a kernel's rows).
   */
  public HostEnvironment copy() {
    HostEnvironment copy = new HostEnvironment(meter, spares);
    copy.bound.putAll(bound);
    copy.onRead.putAll(onRead);
    copy.boxedConversions.putAll(boxedConversions);
    copy.flatConversions.putAll(flatConversions);
    return copy;
  }

  /**
   * {@code size(dimension, name)} as the interpreter computes it, without boxing a flat array: the
   * size of that dimension, also below an empty dimension (an empty array keeps its inner sizes).
   */
  public int size(String name, int dimension) {
    HostValue value = get(name);
    if (value instanceof HostValue.Boxed boxed) {
      return (int)
          ((ScalarValue.Int) ArrayOperations.size(dimension, boxed.value(), SourcePos.NONE))
              .value();
    }
    return ((HostValue.Flat) value).array().size(dimension);
  }
}
