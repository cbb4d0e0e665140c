package dev.l0.opt.ir;

import java.util.List;

/** A sequence of bindings followed by the (multiple) results: internal L0's tupleless let-nest. */
public record Body(List<Stm> stms, List<SubExp> result) {
  public Body {
    stms = List.copyOf(stms);
    result = List.copyOf(result);
  }
}
