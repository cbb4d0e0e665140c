package dev.l0.opt.ir;

import dev.l0.ir.BinaryOperator;
import dev.l0.ir.Dim;
import dev.l0.ir.ScalarValue;
import dev.l0.ir.Type;
import java.util.HashMap;
import java.util.Map;

/**
 * Which size variables the bindings in scope show equal, for the {@link IrChecker} and for the
 * horizontal fusion of SOACs over arrays of one size: a name bound to another ({@code let m = n}),
 * a name bound to {@code size(k, a)} and the size {@code a}'s type names at {@code k} (a variable
 * or a constant, so that arrays of one constant size have equal sizes, or another {@code size(k,
 * a)} of the same array), and the two operands of an equality that an assertion in scope checks (a
 * constant too: a zip of three arrays checks {@code 12 = n && 12 = m}), directly or under {@code
 * &&}, and for the checker also under {@code ||} (a hoisted assertion checks {@code no_iteration ||
 * n = m}, which shows the sizes equal inside the loop, where it iterates, but not beside it: {@link
 * #holdingEverywhere} leaves such equalities out). The classes are built once, from the definitions
 * in scope when a SOAC's inputs have differently named sizes.
 */
public final class SizeEquality {
  private final Map<String, String> parent = new HashMap<>();
  private final boolean underDisjunctions;

  /**
   * The equalities that the {@code definitions} of the single names in scope show wherever they are
   * in scope (none under an assertion's {@code ||}), {@code scope} giving the types of the arrays
   * whose {@code size} they take.
   */
  public static SizeEquality holdingEverywhere(
      Map<String, Exp> definitions, Map<String, Type> scope) {
    return new SizeEquality(definitions, scope, false);
  }

  /** The checker's equalities, an assertion's {@code ||} included (see the class comment). */
  SizeEquality(Map<String, Exp> definitions, Map<String, Type> scope) {
    this(definitions, scope, true);
  }

  private SizeEquality(
      Map<String, Exp> definitions, Map<String, Type> scope, boolean underDisjunctions) {
    this.underDisjunctions = underDisjunctions;
    definitions.forEach(
        (name, exp) -> {
          if (exp instanceof Exp.Atom a && a.value() instanceof SubExp.Var v) {
            union(name, v.name());
          } else if (exp instanceof Exp.Size s && s.array() instanceof SubExp.Var a) {
            union(name, sizeOf(a.name(), s.dimension(), scope));
          } else if (exp instanceof Exp.Assert a) {
            checkedEqualities(a.condition(), definitions);
          }
        });
  }

  /** Whether the sizes {@code n} and {@code m} are known equal. */
  public boolean known(String n, String m) {
    return find(n).equals(find(m));
  }

  /**
   * The size variable {@code array}'s type names at {@code dimension}, the key of the constant it
   * gives there, or a key for it.
   */
  private static String sizeOf(String array, int dimension, Map<String, Type> scope) {
    Type t = scope.get(array);
    for (int k = 0; k < dimension && t instanceof Type.Array a; k++) {
      t = a.element();
    }
    if (t instanceof Type.Array a && a.size() instanceof Dim.Named named) {
      return named.variable();
    }
    if (t instanceof Type.Array a && a.size() instanceof Dim.Const c) {
      return constantKey(c.size());
    }
    return "size(" + dimension + ", " + array + ")";
  }

  private void checkedEqualities(SubExp condition, Map<String, Exp> definitions) {
    if (condition instanceof SubExp.Var v && definitions.get(v.name()) instanceof Exp.BinOp b) {
      if (b.op() == BinaryOperator.EQ) {
        union(key(b.left()), key(b.right()));
      } else if (b.op() == BinaryOperator.AND || b.op() == BinaryOperator.OR && underDisjunctions) {
        checkedEqualities(b.left(), definitions);
        checkedEqualities(b.right(), definitions);
      }
    }
  }

  /** A variable's name, or a key for a constant no variable is named (zip's {@code 12 = n}). */
  private static String key(SubExp s) {
    if (s instanceof SubExp.Const c) {
      return c.value() instanceof ScalarValue.Int i
          ? constantKey(i.value())
          : "constant " + c.value();
    }
    return ((SubExp.Var) s).name();
  }

  /** The key of the integer constant {@code value}, a size. */
  private static String constantKey(long value) {
    return "constant " + value;
  }

  private String find(String name) {
    String p = parent.getOrDefault(name, name);
    if (p.equals(name)) {
      return name;
    }
    String root = find(p);
    parent.put(name, root);
    return root;
  }

  private void union(String a, String b) {
    String ra = find(a);
    String rb = find(b);
    if (!ra.equals(rb)) {
      parent.put(ra, rb);
    }
  }
}
