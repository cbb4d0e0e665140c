package dev.l0.opt.flatten;

import dev.l0.ir.Type;
import dev.l0.opt.ir.Body;
import dev.l0.opt.ir.Exp;
import dev.l0.opt.ir.Ident;
import dev.l0.opt.ir.NameSource;
import dev.l0.opt.ir.Stm;
import dev.l0.opt.ir.SubExp;
import java.util.ArrayList;
import java.util.List;

/**
 * Collects the statements of one body under construction, binding fresh names from a {@link
 * NameSource}.
 */
public final class StmBuilder {
  private final NameSource names;
  private final List<Stm> stms = new ArrayList<>();

  public StmBuilder(NameSource names) {
    this.names = names;
  }

  /**
   * Binds fresh names (from {@code base}) of types {@code types} to {@code exp}, predicated on
   * {@code certs}.
   */
  public List<Ident> emit(String base, List<Type> types, List<String> certs, Exp exp) {
    List<Ident> pattern = types.stream().map(t -> new Ident(names.fresh(base), t)).toList();
    stms.add(new Stm(pattern, certs, exp));
    return pattern;
  }

  public Body finish(List<SubExp> result) {
    return new Body(stms, result);
  }
}
