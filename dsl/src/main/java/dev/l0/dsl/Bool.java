package dev.l0.dsl;

import dev.l0.ir.BinaryOperator;
import dev.l0.ir.Expr;
import dev.l0.ir.PrefixOperator;
import dev.l0.ir.ScalarType;
import dev.l0.ir.SourcePos;
import java.util.List;

/**
 * A staged {@code bool}. {@code and}/{@code or} evaluate both operands, as the thesis's {@code
 * &&}/{@code ||} do; guard with {@link L0#ifThenElse} instead.
 */
public final class Bool extends Val {
  public static final ValType<Bool> TYPE = new ValType<>(ScalarType.BOOL, List.of(), Bool::new);

  Bool(Parts parts) {
    super(parts);
  }

  public Bool and(Bool other) {
    CallSite.nonNull("and(other)", other);
    return logical(BinaryOperator.AND, other);
  }

  public Bool or(Bool other) {
    CallSite.nonNull("or(other)", other);
    return logical(BinaryOperator.OR, other);
  }

  public Bool eq(Bool other) {
    CallSite.nonNull("eq(other)", other);
    return logical(BinaryOperator.EQ, other);
  }

  public Bool ne(Bool other) {
    CallSite.nonNull("ne(other)", other);
    return logical(BinaryOperator.NEQ, other);
  }

  public Bool not() {
    SourcePos pos = CallSite.current();
    return stage(TYPE, new Expr.Unary(PrefixOperator.NOT, use(pos), pos));
  }

  private Bool logical(BinaryOperator op, Bool other) {
    SourcePos pos = CallSite.current();
    return stage(TYPE, new Expr.Binary(op, use(pos), other.use(pos), pos));
  }
}
