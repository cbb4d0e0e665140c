package dev.l0.kernels.lower;

import dev.l0.ir.SourcePos;
import dev.l0.opt.ir.Body;
import dev.l0.opt.ir.Exp;
import dev.l0.opt.ir.Lambda;
import dev.l0.opt.ir.Stm;
import java.util.List;
import java.util.Optional;

/**
 * The source position of optimiser code, for rejections: an expression's own position where it has
 * one, else the first position found in the bodies and functions it holds (SOACs, loops and
 * branches carry none of their own).
 */
final class SourcePositions {
  private SourcePositions() {}

  static SourcePos of(Exp e) {
    return find(e).orElse(SourcePos.NONE);
  }

  /**
   * Where a SOAC is, for its run-time errors: its own position (its keyword, where the interpreter
   * reports its errors), else (a filter) {@link #of}.
   */
  static SourcePos ofSoac(Exp.Soac soac) {
    SourcePos own = soac instanceof Exp.Screma s ? s.pos() : SourcePos.NONE;
    return own.equals(SourcePos.NONE) ? of(soac) : own;
  }

  /**
   * Where the code a statement binds is, for a rejection of it: a SOAC's own keyword ({@link
   * #ofSoac}: an inner map whose function has no positioned code, such as {@code f64(i)}, is still
   * named), else {@link #of}.
   */
  static SourcePos ofStatement(Exp e) {
    return e instanceof Exp.Soac soac ? ofSoac(soac) : of(e);
  }

  /**
   * A SOAC as the program wrote it, for messages: its L0 name (a fused redomap or screma is the
   * reduce the program wrote, a scanomap its scan, a filtermap its filter) and the line and column
   * of its keyword, or ({@code near}) of the first code inside it where it has none of its own,
   * e.g. {@code the reduce at 3:5}.
   */
  static String asWritten(Exp.Soac soac) {
    SourcePos own = soac instanceof Exp.Screma s ? s.pos() : SourcePos.NONE;
    SourcePos inside = of(soac);
    String where =
        !own.equals(SourcePos.NONE)
            ? " at " + lineAndColumn(own)
            : !inside.equals(SourcePos.NONE) ? " near " + lineAndColumn(inside) : "";
    return "the " + l0Name(soac) + where;
  }

  /** The L0 name of the SOAC a program wrote that became {@code soac}. */
  static String l0Name(Exp.Soac soac) {
    return soac instanceof Exp.Screma s ? s.writtenName() : "filter";
  }

  /**
   * The other SOACs of the program that fusion made part of {@code soac}, as written, e.g. {@code
   * the map at 3:4 and the reduce at 5:2}; empty where there are none.
   */
  static Optional<String> fusedWith(Exp.Soac soac) {
    if (!(soac instanceof Exp.Screma s) || s.alsoWritten().isEmpty()) {
      return Optional.empty();
    }
    List<String> named =
        s.alsoWritten().stream()
            .map(w -> "the " + w.soac() + " at " + lineAndColumn(w.pos()))
            .toList();
    return Optional.of(
        named.size() == 1
            ? named.get(0)
            : String.join(", ", named.subList(0, named.size() - 1))
                + " and "
                + named.get(named.size() - 1));
  }

  /** {@code line:column}, or {@code line N} for a position with no column (DSL code). */
  private static String lineAndColumn(SourcePos pos) {
    return pos.column() > 0 ? pos.line() + ":" + pos.column() : "line " + pos.line();
  }

  private static Optional<SourcePos> find(Exp e) {
    Optional<SourcePos> own = own(e);
    if (own.isPresent()) {
      return own;
    }
    for (Body b : e.bodies()) {
      Optional<SourcePos> inner = find(b);
      if (inner.isPresent()) {
        return inner;
      }
    }
    for (Lambda l : e.lambdas()) {
      Optional<SourcePos> inner = find(l.body());
      if (inner.isPresent()) {
        return inner;
      }
    }
    return Optional.empty();
  }

  private static Optional<SourcePos> find(Body body) {
    for (Stm stm : body.stms()) {
      Optional<SourcePos> pos = find(stm.exp());
      if (pos.isPresent()) {
        return pos;
      }
    }
    return Optional.empty();
  }

  private static Optional<SourcePos> own(Exp e) {
    SourcePos pos =
        e instanceof Exp.BinOp b
            ? b.pos()
            : e instanceof Exp.Index i
                ? i.pos()
                : e instanceof Exp.Update u
                    ? u.pos()
                    : e instanceof Exp.ArrayLit a
                        ? a.pos()
                        : e instanceof Exp.Iota i
                            ? i.pos()
                            : e instanceof Exp.Replicate r
                                ? r.pos()
                                : e instanceof Exp.Reshape r
                                    ? r.pos()
                                    : e instanceof Exp.Split s
                                        ? s.pos()
                                        : e instanceof Exp.Concat c
                                            ? c.pos()
                                            : e instanceof Exp.Assert a ? a.pos() : SourcePos.NONE;
    return pos.equals(SourcePos.NONE) ? Optional.empty() : Optional.of(pos);
  }
}
