package dev.l0.opt.ir;

import java.util.List;

/**
 * One binding {@code let <certs> {v1, ..., vn} = e}: the names {@code pattern} are bound to the
 * results of {@code exp}, which may only run once the certificates {@code certificates} hold (a
 * predicated expression, thesis §4.2).
 */
public record Stm(List<Ident> pattern, List<String> certificates, Exp exp) {
  public Stm {
    pattern = List.copyOf(pattern);
    certificates = List.copyOf(certificates);
  }

  public Stm(List<Ident> pattern, Exp exp) {
    this(pattern, List.of(), exp);
  }

  public Stm withExp(Exp newExp) {
    return new Stm(pattern, certificates, newExp);
  }

  public Stm withCertificates(List<String> certs) {
    return new Stm(pattern, certs, exp);
  }
}
