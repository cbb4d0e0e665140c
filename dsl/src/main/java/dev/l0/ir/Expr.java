package dev.l0.ir;

import java.util.ArrayList;
import java.util.List;
import java.util.function.UnaryOperator;

/**
 * An external L0 expression (thesis Fig. 2 and §2.3). Nodes are immutable; a rewrite builds new
 * nodes with {@link #mapChildren} / {@link #transformUp}, in the manner of Catalyst's {@code
 * TreeNode.transform}.
 */
public sealed interface Expr {
  SourcePos pos();

  /**
   * Rebuilds this node with {@code f} applied to each direct sub-expression (including those inside
   * SOAC function arguments).
   */
  Expr mapChildren(UnaryOperator<Expr> f);

  /**
   * The direct sub-expressions in source order (including those inside SOAC function arguments).
   */
  List<Expr> children();

  /**
   * The function argument of a SOAC (map, filter, reduce, scan), whose sub-expressions come first
   * in its children; empty for any other expression.
   */
  default java.util.Optional<FunArg> soacFunction() {
    if (this instanceof Map m) {
      return java.util.Optional.of(m.function());
    } else if (this instanceof Filter f) {
      return java.util.Optional.of(f.function());
    } else if (this instanceof Reduce r) {
      return java.util.Optional.of(r.function());
    } else if (this instanceof Scan s) {
      return java.util.Optional.of(s.function());
    }
    return java.util.Optional.empty();
  }

  /** Applies {@code rule} to every node, children first. */
  default Expr transformUp(UnaryOperator<Expr> rule) {
    return rule.apply(mapChildren(child -> child.transformUp(rule)));
  }

  static List<Expr> mapAll(List<Expr> exprs, UnaryOperator<Expr> f) {
    return exprs.stream().map(f).toList();
  }

  /** Constant (thesis Fig. 1, k). */
  record Literal(ScalarValue value, SourcePos pos) implements Expr {
    @Override
    public Expr mapChildren(UnaryOperator<Expr> f) {
      return this;
    }

    @Override
    public List<Expr> children() {
      return List.of();
    }
  }

  /** Variable reference. */
  record Var(String name, SourcePos pos) implements Expr {
    @Override
    public Expr mapChildren(UnaryOperator<Expr> f) {
      return this;
    }

    @Override
    public List<Expr> children() {
      return List.of();
    }
  }

  /** Tuple expression <code>{e1, ..., en}</code>. */
  record TupleLit(List<Expr> elements, SourcePos pos) implements Expr {
    public TupleLit {
      elements = List.copyOf(elements);
    }

    @Override
    public Expr mapChildren(UnaryOperator<Expr> f) {
      return new TupleLit(mapAll(elements, f), pos);
    }

    @Override
    public List<Expr> children() {
      return elements;
    }
  }

  /** Array expression <code>[e1, ..., en]</code> (never empty). */
  record ArrayLit(List<Expr> elements, SourcePos pos) implements Expr {
    public ArrayLit {
      elements = List.copyOf(elements);
    }

    @Override
    public Expr mapChildren(UnaryOperator<Expr> f) {
      return new ArrayLit(mapAll(elements, f), pos);
    }

    @Override
    public List<Expr> children() {
      return elements;
    }
  }

  /** Binary operator <code>e1 op e2</code>. */
  record Binary(BinaryOperator op, Expr left, Expr right, SourcePos pos) implements Expr {
    @Override
    public Expr mapChildren(UnaryOperator<Expr> f) {
      return new Binary(op, f.apply(left), f.apply(right), pos);
    }

    @Override
    public List<Expr> children() {
      List<Expr> all = new ArrayList<>();
      all.add(left);
      all.add(right);
      return all;
    }
  }

  /** Prefix <code>-e</code> or <code>not e</code>. */
  record Unary(PrefixOperator op, Expr operand, SourcePos pos) implements Expr {
    @Override
    public Expr mapChildren(UnaryOperator<Expr> f) {
      return new Unary(op, f.apply(operand), pos);
    }

    @Override
    public List<Expr> children() {
      List<Expr> all = new ArrayList<>();
      all.add(operand);
      return all;
    }
  }

  /** <code>if c then a else b</code>. */
  record If(Expr condition, Expr thenBranch, Expr elseBranch, SourcePos pos) implements Expr {
    @Override
    public Expr mapChildren(UnaryOperator<Expr> f) {
      return new If(f.apply(condition), f.apply(thenBranch), f.apply(elseBranch), pos);
    }

    @Override
    public List<Expr> children() {
      List<Expr> all = new ArrayList<>();
      all.add(condition);
      all.add(thenBranch);
      all.add(elseBranch);
      return all;
    }
  }

  /** Indexing <code>a[i1, ..., in]</code>; fewer indices than the rank give a slice. */
  record Index(Expr array, List<Expr> indices, SourcePos pos) implements Expr {
    public Index {
      indices = List.copyOf(indices);
    }

    @Override
    public Expr mapChildren(UnaryOperator<Expr> f) {
      return new Index(f.apply(array), mapAll(indices, f), pos);
    }

    @Override
    public List<Expr> children() {
      List<Expr> all = new ArrayList<>();
      all.add(array);
      all.addAll(indices);
      return all;
    }
  }

  /**
   * Call of a top-level function or a built-in (<code>exp</code>, <code>f64</code>, ...); the
   * checker resolves which.
   */
  record Call(String function, List<Expr> args, SourcePos pos) implements Expr {
    public Call {
      args = List.copyOf(args);
    }

    @Override
    public Expr mapChildren(UnaryOperator<Expr> f) {
      return new Call(function, mapAll(args, f), pos);
    }

    @Override
    public List<Expr> children() {
      return args;
    }
  }

  /** <code>let p = e in body</code>. */
  record Let(Pattern pattern, Expr value, Expr body, SourcePos pos) implements Expr {
    @Override
    public Expr mapChildren(UnaryOperator<Expr> f) {
      return new Let(pattern, f.apply(value), f.apply(body), pos);
    }

    @Override
    public List<Expr> children() {
      List<Expr> all = new ArrayList<>();
      all.add(value);
      all.add(body);
      return all;
    }
  }

  /**
   * In-place update <code>let dest = source with [i1, ...] &lt;- value in body</code> (thesis
   * §2.1.2); {@code pos} is the {@code let}'s position, {@code sourcePos} that of the consumed
   * array's name, where uniqueness errors point.
   */
  record LetWith(
      String dest,
      String source,
      List<Expr> indices,
      Expr value,
      Expr body,
      SourcePos pos,
      SourcePos sourcePos)
      implements Expr {
    public LetWith {
      indices = List.copyOf(indices);
    }

    /** An update whose consumed array is named where the {@code let} is (the Java DSL's call). */
    public LetWith(
        String dest, String source, List<Expr> indices, Expr value, Expr body, SourcePos pos) {
      this(dest, source, indices, value, body, pos, pos);
    }

    @Override
    public Expr mapChildren(UnaryOperator<Expr> f) {
      return new LetWith(
          dest, source, mapAll(indices, f), f.apply(value), f.apply(body), pos, sourcePos);
    }

    @Override
    public List<Expr> children() {
      List<Expr> all = new ArrayList<>();
      all.addAll(indices);
      all.add(value);
      all.add(body);
      return all;
    }
  }

  /** <code>loop (p = init) = for counter &lt; bound do loopBody in body</code> (thesis §2.1.1). */
  record Loop(
      Pattern pattern,
      Expr init,
      String counter,
      Expr bound,
      Expr loopBody,
      Expr body,
      SourcePos pos)
      implements Expr {
    @Override
    public Expr mapChildren(UnaryOperator<Expr> f) {
      return new Loop(
          pattern, f.apply(init), counter, f.apply(bound), f.apply(loopBody), f.apply(body), pos);
    }

    @Override
    public List<Expr> children() {
      List<Expr> all = new ArrayList<>();
      all.add(init);
      all.add(bound);
      all.add(loopBody);
      all.add(body);
      return all;
    }
  }

  /** <code>zip(a1, ..., an)</code>. */
  record Zip(List<Expr> arrays, SourcePos pos) implements Expr {
    public Zip {
      arrays = List.copyOf(arrays);
    }

    @Override
    public Expr mapChildren(UnaryOperator<Expr> f) {
      return new Zip(mapAll(arrays, f), pos);
    }

    @Override
    public List<Expr> children() {
      return arrays;
    }
  }

  /** <code>unzip(a)</code>. */
  record Unzip(Expr array, SourcePos pos) implements Expr {
    @Override
    public Expr mapChildren(UnaryOperator<Expr> f) {
      return new Unzip(f.apply(array), pos);
    }

    @Override
    public List<Expr> children() {
      List<Expr> all = new ArrayList<>();
      all.add(array);
      return all;
    }
  }

  /** <code>iota(n)</code> = <code>[0, ..., n-1]</code>. */
  record Iota(Expr count, SourcePos pos) implements Expr {
    @Override
    public Expr mapChildren(UnaryOperator<Expr> f) {
      return new Iota(f.apply(count), pos);
    }

    @Override
    public List<Expr> children() {
      List<Expr> all = new ArrayList<>();
      all.add(count);
      return all;
    }
  }

  /** <code>replicate(n, v)</code>. */
  record Replicate(Expr count, Expr value, SourcePos pos) implements Expr {
    @Override
    public Expr mapChildren(UnaryOperator<Expr> f) {
      return new Replicate(f.apply(count), f.apply(value), pos);
    }

    @Override
    public List<Expr> children() {
      List<Expr> all = new ArrayList<>();
      all.add(count);
      all.add(value);
      return all;
    }
  }

  /** <code>size(k, a)</code>; <code>size(a)</code> is <code>size(0, a)</code>. */
  record Size(int dimension, Expr array, SourcePos pos) implements Expr {
    @Override
    public Expr mapChildren(UnaryOperator<Expr> f) {
      return new Size(dimension, f.apply(array), pos);
    }

    @Override
    public List<Expr> children() {
      List<Expr> all = new ArrayList<>();
      all.add(array);
      return all;
    }
  }

  /** <code>reshape((d1, ..., dn), a)</code>. */
  record Reshape(List<Expr> shape, Expr array, SourcePos pos) implements Expr {
    public Reshape {
      shape = List.copyOf(shape);
    }

    @Override
    public Expr mapChildren(UnaryOperator<Expr> f) {
      return new Reshape(mapAll(shape, f), f.apply(array), pos);
    }

    @Override
    public List<Expr> children() {
      List<Expr> all = new ArrayList<>();
      all.addAll(shape);
      all.add(array);
      return all;
    }
  }

  /** <code>transpose(k, n, a)</code>; plain <code>transpose(a)</code> is <code>(0, 1)</code>. */
  record Transpose(int k, int n, Expr array, SourcePos pos) implements Expr {
    @Override
    public Expr mapChildren(UnaryOperator<Expr> f) {
      return new Transpose(k, n, f.apply(array), pos);
    }

    @Override
    public List<Expr> children() {
      List<Expr> all = new ArrayList<>();
      all.add(array);
      return all;
    }
  }

  /** <code>split(n, a)</code> = <code>{a[0..n-1], a[n..]}</code>. */
  record Split(Expr at, Expr array, SourcePos pos) implements Expr {
    @Override
    public Expr mapChildren(UnaryOperator<Expr> f) {
      return new Split(f.apply(at), f.apply(array), pos);
    }

    @Override
    public List<Expr> children() {
      List<Expr> all = new ArrayList<>();
      all.add(at);
      all.add(array);
      return all;
    }
  }

  /** <code>concat(a, b)</code>. */
  record Concat(Expr left, Expr right, SourcePos pos) implements Expr {
    @Override
    public Expr mapChildren(UnaryOperator<Expr> f) {
      return new Concat(f.apply(left), f.apply(right), pos);
    }

    @Override
    public List<Expr> children() {
      List<Expr> all = new ArrayList<>();
      all.add(left);
      all.add(right);
      return all;
    }
  }

  /** <code>copy(e)</code>: a fresh, unique copy. */
  record Copy(Expr value, SourcePos pos) implements Expr {
    @Override
    public Expr mapChildren(UnaryOperator<Expr> f) {
      return new Copy(f.apply(value), pos);
    }

    @Override
    public List<Expr> children() {
      List<Expr> all = new ArrayList<>();
      all.add(value);
      return all;
    }
  }

  /** <code>map(f, a)</code>. */
  record Map(FunArg function, Expr array, SourcePos pos) implements Expr {
    @Override
    public Expr mapChildren(UnaryOperator<Expr> f) {
      return new Map(function.mapChildren(f), f.apply(array), pos);
    }

    @Override
    public List<Expr> children() {
      List<Expr> all = new ArrayList<>();
      all.addAll(function.children());
      all.add(array);
      return all;
    }
  }

  /** <code>filter(f, a)</code>. */
  record Filter(FunArg function, Expr array, SourcePos pos) implements Expr {
    @Override
    public Expr mapChildren(UnaryOperator<Expr> f) {
      return new Filter(function.mapChildren(f), f.apply(array), pos);
    }

    @Override
    public List<Expr> children() {
      List<Expr> all = new ArrayList<>();
      all.addAll(function.children());
      all.add(array);
      return all;
    }
  }

  /** <code>reduce(f, ne, a)</code>. */
  record Reduce(FunArg function, Expr neutral, Expr array, SourcePos pos) implements Expr {
    @Override
    public Expr mapChildren(UnaryOperator<Expr> f) {
      return new Reduce(function.mapChildren(f), f.apply(neutral), f.apply(array), pos);
    }

    @Override
    public List<Expr> children() {
      List<Expr> all = new ArrayList<>();
      all.addAll(function.children());
      all.add(neutral);
      all.add(array);
      return all;
    }
  }

  /** <code>scan(f, ne, a)</code>, inclusive. */
  record Scan(FunArg function, Expr neutral, Expr array, SourcePos pos) implements Expr {
    @Override
    public Expr mapChildren(UnaryOperator<Expr> f) {
      return new Scan(function.mapChildren(f), f.apply(neutral), f.apply(array), pos);
    }

    @Override
    public List<Expr> children() {
      List<Expr> all = new ArrayList<>();
      all.addAll(function.children());
      all.add(neutral);
      all.add(array);
      return all;
    }
  }
}
