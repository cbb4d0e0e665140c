package dev.l0.opt.ir;

import dev.l0.ir.Type;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Iterator;
import java.util.List;

/** A top-level internal function: flattened parameters, a body, and flattened result types. */
public record InternalFunction(String name, List<Ident> params, Body body, List<Type> returnTypes) {
  public InternalFunction {
    params = List.copyOf(params);
    returnTypes = List.copyOf(returnTypes);
  }

  public InternalFunction withBody(Body newBody) {
    return new InternalFunction(name, params, newBody, returnTypes);
  }

  /**
   * This function's arguments for the components of external values: {@code checked} for each
   * certificate parameter (thesis §4.2.1: the arrays an external array of tuples flattens into have
   * one outer size by construction), the components in order for the others.
   */
  public <V> List<V> argumentsWithCertificates(List<V> components, V checked) {
    // loops, not streams: runtimes call this once per run of a compiled program
    List<V> arguments = new ArrayList<>(params.size());
    Iterator<V> next = components.iterator();
    for (Ident p : params) {
      if (p.isCertificate()) {
        arguments.add(checked);
      } else if (next.hasNext()) {
        arguments.add(next.next());
      } else {
        throw wrongComponentCount(components);
      }
    }
    if (next.hasNext()) {
      throw wrongComponentCount(components);
    }
    return Collections.unmodifiableList(arguments);
  }

  private IllegalArgumentException wrongComponentCount(List<?> components) {
    long expected = params.stream().filter(p -> !p.isCertificate()).count();
    return new IllegalArgumentException(
        name + " takes " + expected + " argument component(s), given " + components.size());
  }

  /**
   * {@code results} of this function without the certificates of its postconditions, which the
   * outside world does not need.
   */
  public <V> List<V> resultsWithoutCertificates(List<V> results) {
    List<V> out = new ArrayList<>();
    for (int k = 0; k < results.size(); k++) {
      if (!InternalTypes.isCertificate(returnTypes.get(k))) {
        out.add(results.get(k));
      }
    }
    return out;
  }
}
