package dev.l0.kernels.exec;

import dev.l0.ir.Dim;
import dev.l0.ir.L0ResourceError;
import dev.l0.ir.ScalarValue;
import dev.l0.ir.SourcePos;
import dev.l0.ir.Type;
import dev.l0.ir.Value;
import dev.l0.kernels.jvm.FlatArray;
import dev.l0.kernels.lower.KernelLowering;
import dev.l0.opt.KernelPlan;
import dev.l0.opt.ir.Analysis;
import dev.l0.opt.ir.Body;
import dev.l0.opt.ir.Exp;
import dev.l0.opt.ir.Ident;
import dev.l0.opt.ir.Stm;
import dev.l0.opt.ir.SubExp;
import dev.l0.semantics.ArrayOperations;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * Refuses, before a kernel runs, a flat array it would make that cannot exist in this JVM, as a too
 * large {@code iota} is refused: more elements than one Java array holds, or more bytes than the
 * heap's maximum. Such arrays are the kernel's inputs that the host holds boxed with shared rows (a
 * {@code replicate} of a row, which every backend flattens) and its outputs (a {@code map} whose
 * rows are {@code replicate}s or {@code iota}s). The error names the operation, its flat size and
 * its source position: the replicate or iota that made an input, or the one a map's function
 * returns as each row of an output; an output without such a row is named by its SOAC as the
 * program wrote it, at that SOAC ({@link KernelLowering#asWritten}).
 */
final class KernelArrayLimits {
  /** An array the kernel flattens or allocates, and what made it. */
  private record Checked(String variable, Type type, String operation, SourcePos pos) {}

  private final List<Checked> inputs;
  private final List<Checked> outputs;

  private KernelArrayLimits(List<Checked> inputs, List<Checked> outputs) {
    this.inputs = inputs;
    this.outputs = outputs;
  }

  /**
   * The limits of {@code kernel}'s arrays: its free variables that {@code definitions} (statements
   * by the name they bind) says a {@code replicate} of rows made, and its outputs.
   */
  static KernelArrayLimits of(KernelPlan.Kernel kernel, Map<String, Stm> definitions) {
    List<Checked> inputs = new ArrayList<>();
    for (String variable : Analysis.freeVariables(kernel.statement())) {
      Stm definition = definitions.get(variable);
      if (definition != null && definition.exp() instanceof Exp.Replicate replicate) {
        inputs.add(
            new Checked(
                variable, definition.pattern().get(0).type(), "replicate", replicate.pos()));
      }
    }
    Exp.Soac soac = (Exp.Soac) kernel.statement().exp();
    Body rowBody = soac.rowFunction().body();
    List<Checked> outputs = new ArrayList<>();
    List<Ident> pattern = kernel.outputs();
    for (int k = 0; k < pattern.size(); k++) {
      Ident output = pattern.get(k);
      Exp row = k < rowBody.result().size() ? definition(rowBody, rowBody.result().get(k)) : null;
      String operation = KernelLowering.asWritten(kernel);
      SourcePos pos = KernelLowering.position(kernel);
      if (soac.isMap() && row instanceof Exp.Replicate r) {
        operation = soac.keyword() + " of replicate";
        pos = r.pos();
      } else if (soac.isMap() && row instanceof Exp.Iota i) {
        operation = soac.keyword() + " of iota";
        pos = i.pos();
      }
      outputs.add(new Checked(output.name(), output.type(), operation, pos));
    }
    return new KernelArrayLimits(List.copyOf(inputs), List.copyOf(outputs));
  }

  /**
   * Throws an {@link L0ResourceError} where an input bound boxed in {@code environment}, or an
   * output whose sizes are known there, could not be one flat array in this JVM.
   */
  void require(HostEnvironment environment) {
    for (Checked input : inputs) {
      if (environment.get(input.variable()) instanceof HostValue.Boxed boxed
          && boxed.value() instanceof Value.Array array) {
        require(input, ArrayOperations.scalarCount(array));
      }
    }
    for (Checked output : outputs) {
      double elements = elements(output.type(), environment);
      if (elements > 0) {
        require(output, elements);
      }
    }
  }

  private static void require(Checked array, double elements) {
    ArrayOperations.requireFlatArrayRoomFor(
        array.operation(), elements, FlatArray.elementType(array.type()).bytes(), array.pos());
  }

  /**
   * The number of scalars of an array of {@code type} whose sizes {@code environment} knows; 0
   * where one is unknown or {@code type} is not an array.
   */
  private static double elements(Type type, HostEnvironment environment) {
    double elements = 1;
    Type t = type;
    while (t instanceof Type.Array a) {
      if (a.size() instanceof Dim.Const c) {
        elements *= c.size();
      } else if (a.size() instanceof Dim.Named n
          && environment.binds(n.variable())
          && environment.get(n.variable()).boxed() instanceof ScalarValue.Int size) {
        elements *= size.value();
      } else {
        return 0;
      }
      t = a.element();
    }
    return t == type ? 0 : elements;
  }

  /** The expression that binds {@code result} in {@code body}, or {@code null}. */
  private static Exp definition(Body body, SubExp result) {
    for (Stm stm : body.stms()) {
      if (stm.pattern().size() == 1 && result.equals(stm.pattern().get(0).var())) {
        return stm.exp();
      }
    }
    return null;
  }
}
