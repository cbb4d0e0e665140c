package dev.l0.kernels.exec;

import dev.l0.ir.ScalarType;
import dev.l0.kernels.jvm.FlatArray;
import java.lang.reflect.Array;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * The arrays one caller's calls have allocated on the JVM (their buffers: results among them), and
 * those of them the caller is done with, which later calls allocate again instead of new ones: a
 * Spark task that runs a pipeline batch after batch gives back the previous batch's results when it
 * asks for the next one, so its result arrays are allocated once per task, not once per batch. An
 * array given back is reused only if this holder allocated it (never a caller's input, nor an array
 * the program keeps), and is zero-filled again before it is reused, so a reused array reads as a
 * new one. At most {@code capacity} arrays are kept for reuse and tracked as allocated. One
 * caller's calls, one after another (not thread-safe); {@link #NONE} reuses nothing and may be
 * shared.
 */
public final class SpareArrays {
  /** Allocates every array anew and keeps none: for calls whose results the caller keeps. */
  public static final SpareArrays NONE = new SpareArrays(0);

  private final int capacity;
  private final List<Object> allocated = new ArrayList<>();
  private final List<Object> spare = new ArrayList<>();

  /** A holder keeping at most {@code capacity} arrays for reuse. */
  public SpareArrays(int capacity) {
    if (capacity < 0) {
      throw new IllegalArgumentException("a capacity of spare arrays is not negative: " + capacity);
    }
    this.capacity = capacity;
  }

  /**
   * A zero-filled array of {@code length} elements of {@code type} ({@link FlatArray#allocate}'s
   * form): a spare one of that class and length where there is one, else a new one.
   */
  public Object allocate(ScalarType type, int length) {
    Object array = takeSpare(type, length);
    if (array == null) {
      array = FlatArray.allocate(type, length);
    }
    if (allocated.size() < capacity) {
      allocated.add(array);
    }
    return array;
  }

  /**
   * The caller is done with {@code arrays} (and with everything calls have returned so far): those
   * among them that this holder allocated become spare, up to its capacity; the rest are ignored.
   */
  public void giveBack(List<?> arrays) {
    for (Object array : arrays) {
      if (spare.size() < capacity && isAllocated(array) && !isSpare(array)) {
        spare.add(array);
      }
    }
    allocated.clear();
  }

  /** How many arrays are spare now. */
  public int spareCount() {
    return spare.size();
  }

  private Object takeSpare(ScalarType type, int length) {
    Class<?> arrayClass = arrayClass(type);
    for (int k = 0; k < spare.size(); k++) {
      Object candidate = spare.get(k);
      if (candidate.getClass() == arrayClass && Array.getLength(candidate) == length) {
        spare.remove(k);
        zeroFill(candidate);
        return candidate;
      }
    }
    return null;
  }

  private static Class<?> arrayClass(ScalarType type) {
    return switch (type) {
      case BOOL -> boolean[].class;
      case I32 -> int[].class;
      case I64 -> long[].class;
      case F32 -> float[].class;
      case F64 -> double[].class;
    };
  }

  private boolean isAllocated(Object array) {
    return containsSame(allocated, array);
  }

  private boolean isSpare(Object array) {
    return containsSame(spare, array);
  }

  private static boolean containsSame(List<Object> arrays, Object array) {
    for (Object known : arrays) {
      if (known == array) {
        return true;
      }
    }
    return false;
  }

  private static void zeroFill(Object array) {
    if (array instanceof double[] d) {
      Arrays.fill(d, 0.0);
    } else if (array instanceof long[] l) {
      Arrays.fill(l, 0L);
    } else if (array instanceof int[] i) {
      Arrays.fill(i, 0);
    } else if (array instanceof float[] f) {
      Arrays.fill(f, 0.0f);
    } else {
      Arrays.fill((boolean[]) array, false);
    }
  }
}
