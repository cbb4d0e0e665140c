package dev.l0.types;

import dev.l0.ir.Dim;
import dev.l0.ir.Expr;
import dev.l0.ir.L0CompileError;
import dev.l0.ir.ScalarType;
import dev.l0.ir.Type;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.function.BiFunction;

/**
 * Typing, shapes and sharing of the built-in array operations of thesis §2.3: zip, unzip, iota,
 * replicate, size, reshape, transpose, split, concat and copy. Views of an array (zip, unzip,
 * reshape, transpose, split) alias it and are unique when it is (§3.1); iota, replicate, concat and
 * copy make fresh, unique arrays.
 */
final class ArrayOperations {
  private final Environment env;
  private final BiFunction<Expr, Environment, Checked> checker;

  private ArrayOperations(Environment env, BiFunction<Expr, Environment, Checked> checker) {
    this.env = env;
    this.checker = checker;
  }

  /** Checks {@code e}, one of the operations above, with {@code checker} for its operands. */
  static Checked check(Expr e, Environment env, BiFunction<Expr, Environment, Checked> checker) {
    return new ArrayOperations(env, checker).check(e);
  }

  private Checked check(Expr e) {
    if (e instanceof Expr.Zip z) {
      return zip(z);
    }
    if (e instanceof Expr.Unzip u) {
      return unzip(u);
    }
    if (e instanceof Expr.Iota i) {
      Type count = count(i.count(), "iota");
      return Checked.fresh(new Type.Array(count, Shapes.sizeOf(i.count()), true));
    }
    if (e instanceof Expr.Replicate r) {
      count(r.count(), "replicate");
      Type value = checker.apply(r.value(), env).type();
      return Checked.fresh(new Type.Array(Shapes.asElement(value), Shapes.sizeOf(r.count()), true));
    }
    if (e instanceof Expr.Size s) {
      Type array = array(s.array(), "size").type();
      if (s.dimension() < 0 || s.dimension() >= array.rank()) {
        throw new L0CompileError(
            s.pos(),
            "size("
                + s.dimension()
                + ", ...) needs an array of rank at least "
                + (s.dimension() + 1)
                + ", got "
                + ScalarRules.name(array));
      }
      return Checked.fresh(ScalarType.I32);
    }
    if (e instanceof Expr.Reshape r) {
      return reshape(r);
    }
    if (e instanceof Expr.Transpose t) {
      return transpose(t);
    }
    if (e instanceof Expr.Split s) {
      return split(s);
    }
    if (e instanceof Expr.Concat c) {
      return concat(c);
    }
    if (e instanceof Expr.Copy c) {
      Type type = Shapes.withUniqueness(checker.apply(c.value(), env).type(), true);
      return Checked.fresh(type);
    }
    throw new IllegalStateException("not an array operation: " + e.getClass().getSimpleName());
  }

  private Checked zip(Expr.Zip z) {
    if (z.arrays().isEmpty()) {
      throw new L0CompileError(z.pos(), "zip needs at least one array");
    }
    List<Type> elements = new ArrayList<>();
    List<Dim> sizes = new ArrayList<>();
    Set<Variable> sharing = new LinkedHashSet<>();
    boolean unique = true;
    for (Expr e : z.arrays()) {
      Checked a = array(e, "zip");
      Type.Array type = (Type.Array) a.type();
      for (int i = 0; i < sizes.size(); i++) {
        if (sizes.get(i) instanceof Dim.Const p
            && type.size() instanceof Dim.Const q
            && p.size() != q.size()) {
          throw new L0CompileError(
              e.pos(),
              "zip of arrays of sizes "
                  + p.size()
                  + " and "
                  + q.size()
                  + " (arguments "
                  + (i + 1)
                  + " and "
                  + (sizes.size() + 1)
                  + ")");
        }
      }
      elements.add(Shapes.asElement(type.element()));
      sizes.add(type.size());
      sharing.addAll(a.sharing().all());
      unique &= type.unique();
    }
    return new Checked(
        new Type.Array(new Type.Tuple(elements), Shapes.firstKnown(sizes), unique),
        new Sharing.Of(sharing));
  }

  private Checked unzip(Expr.Unzip u) {
    Checked a = array(u.array(), "unzip");
    Type.Array type = (Type.Array) a.type();
    if (!(type.element() instanceof Type.Tuple tuple)) {
      throw new L0CompileError(
          u.array().pos(), "unzip needs an array of tuples, got " + ScalarRules.name(type));
    }
    Type result =
        new Type.Tuple(
            tuple.elements().stream()
                .map(t -> (Type) new Type.Array(t, type.size(), type.unique()))
                .toList());
    return view(result, a);
  }

  private Checked reshape(Expr.Reshape r) {
    List<Dim> dims = new ArrayList<>();
    for (Expr d : r.shape()) {
      count(d, "reshape");
      dims.add(Shapes.sizeOf(d));
    }
    Checked a = array(r.array(), "reshape");
    Long from = constantProduct(Shapes.dims(a.type()));
    Long to = constantProduct(dims);
    if (from != null && to != null && !from.equals(to)) {
      throw new L0CompileError(
          r.pos(),
          "reshape of an array of " + from + " elements into a shape of " + to + " elements");
    }
    return view(Shapes.arrayOf(a.type().baseElement(), dims, a.type().isUnique()), a);
  }

  /**
   * {@code transpose(k, n, a)} moves dimension k to position k + n (thesis §2.3: {@code a[i1..ik,
   * ik+1..ik+n, ..] = b[i1.., ik+1, .., ik+n, ik, ..]}); n may be negative. Both k and k + n must
   * lie in {@code 0 .. rank-1}.
   */
  private Checked transpose(Expr.Transpose t) {
    Checked a = array(t.array(), "transpose");
    int rank = a.type().rank();
    int k = t.k();
    int to = t.k() + t.n();
    if (k == 0 && t.n() == 1 && rank < 2) {
      throw new L0CompileError(
          t.pos(),
          "transpose needs an array of rank at least 2, but the array has rank "
              + rank
              + " ("
              + ScalarRules.name(a.type())
              + ")");
    }
    if (k < 0 || k >= rank || to < 0 || to >= rank) {
      throw new L0CompileError(
          t.pos(),
          "transpose("
              + k
              + ", "
              + t.n()
              + ", ...) needs 0 <= k < rank and 0 <= k + n < rank,"
              + " but the array has rank "
              + rank);
    }
    List<Dim> dims = new ArrayList<>(Shapes.dims(a.type()));
    dims.add(to, dims.remove(k));
    Type base = a.type();
    for (int i = 0; i < rank; i++) {
      base = ((Type.Array) base).element();
    }
    return view(Shapes.arrayOf(base, dims, a.type().isUnique()), a);
  }

  /**
   * {@code split(n, a)} = {@code {a[0..n-1], a[n..]}}, per shared/notes/l0-language-decisions.md.
   */
  private Checked split(Expr.Split s) {
    count(s.at(), "split");
    Checked a = array(s.array(), "split");
    Type.Array type = (Type.Array) a.type();
    Dim first = Dim.UNKNOWN;
    Dim rest = Dim.UNKNOWN;
    if (Shapes.sizeOf(s.at()) instanceof Dim.Const n
        && type.size() instanceof Dim.Const all
        && n.size() >= 0
        && n.size() <= all.size()) {
      first = n;
      rest = new Dim.Const(all.size() - n.size());
    }
    return view(Type.tuple(type.withSize(first), type.withSize(rest)), a);
  }

  private Checked concat(Expr.Concat c) {
    Type left = array(c.left(), "concat").type();
    Type right = array(c.right(), "concat").type();
    if (!right.sameShapeAs(left)) {
      throw new L0CompileError(
          c.right().pos(),
          "concat needs arrays of one type, got "
              + ScalarRules.name(left)
              + " and "
              + ScalarRules.name(right));
    }
    String conflict = Shapes.constantSizeConflict(left, right, 1);
    if (conflict != null) {
      throw new L0CompileError(c.right().pos(), "concat of arrays whose rows differ: " + conflict);
    }
    Dim size =
        Shapes.outer(left) instanceof Dim.Const p && Shapes.outer(right) instanceof Dim.Const q
            ? new Dim.Const(p.size() + q.size())
            : Dim.UNKNOWN;
    Type joined = Shapes.join(left, right);
    return Checked.fresh(((Type.Array) joined).withSize(size).withUnique(true));
  }

  /** A result that is a view of {@code source}: it aliases whatever the source aliases. */
  private static Checked view(Type result, Checked source) {
    return new Checked(result, Sharing.spread(result, source.sharing().all()));
  }

  private Checked array(Expr e, String operation) {
    Checked a = checker.apply(e, env);
    if (!(a.type() instanceof Type.Array)) {
      throw new L0CompileError(
          e.pos(), operation + " needs an array, got " + ScalarRules.name(a.type()));
    }
    return a;
  }

  /** Checks a size or count operand: i32 or i64. */
  private Type count(Expr e, String operation) {
    Type t = checker.apply(e, env).type();
    if (!ScalarRules.isIndex(t)) {
      throw new L0CompileError(
          e.pos(), operation + " needs an i32 or i64 size, got " + ScalarRules.name(t));
    }
    return t;
  }

  private static Long constantProduct(List<Dim> dims) {
    long product = 1;
    for (Dim d : dims) {
      if (!(d instanceof Dim.Const c)) {
        return null;
      }
      product *= c.size();
    }
    return product;
  }
}
