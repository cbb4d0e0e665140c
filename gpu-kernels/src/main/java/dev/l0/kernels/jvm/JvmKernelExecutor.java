package dev.l0.kernels.jvm;

import dev.l0.ir.ScalarType;
import dev.l0.ir.ScalarValue;
import dev.l0.kernels.exec.HostEnvironment;
import dev.l0.kernels.exec.HostValue;
import dev.l0.kernels.exec.KernelExecutor;
import dev.l0.kernels.exec.KernelScope;
import dev.l0.kernels.exec.PreparedKernel;
import dev.l0.opt.KernelPlan;
import java.util.ArrayList;
import java.util.List;

/**
 * The JVM backend as a {@link KernelExecutor}: hands the host runner's flat arrays to the generated
 * kernel as they are (a boxed array is flattened once by the environment) and returns the kernel's
 * arrays flat; only scalars are boxed. Thread-safe: every run has its own kernel instance.
 */
public final class JvmKernelExecutor implements KernelExecutor {
  @Override
  public String name() {
    return "jvm";
  }

  @Override
  public PreparedKernel prepare(KernelPlan.Kernel kernel, KernelScope scope) {
    JvmKernel compiled = JvmKernel.compile(kernel, scope);
    return environment -> run(compiled, environment);
  }

  private static List<HostValue> run(JvmKernel kernel, HostEnvironment environment) {
    List<KernelParameter> parameters = kernel.parameters();
    Object[] args = new Object[parameters.size()];
    for (int k = 0; k < args.length; k++) {
      KernelParameter p = parameters.get(k);
      args[k] = p.role() == KernelParameter.Role.SCALAR ? box(environment.scalar(p.name()))
          : environment.flat(p.name());
    }
    List<HostValue> results = new ArrayList<>();
    for (Object result : kernel.run(args)) {
      results.add(result instanceof FlatArray array ? HostValue.of(array) : HostValue.of(unbox(result)));
    }
    return results;
  }

  private static Object box(ScalarValue v) {
    if (v instanceof ScalarValue.Bool b) {
      return b.value();
    }
    // if-else, not ?:, which would promote an Integer to a Long and a Float to a Double
    if (v instanceof ScalarValue.Int i) {
      if (i.type() == ScalarType.I32) {
        return Integer.valueOf((int) i.value());
      }
      return Long.valueOf(i.value());
    }
    ScalarValue.Float f = (ScalarValue.Float) v;
    if (f.type() == ScalarType.F32) {
      return Float.valueOf((float) f.value());
    }
    return Double.valueOf(f.value());
  }

  private static ScalarValue unbox(Object o) {
    if (o instanceof Boolean b) {
      return ScalarValue.bool(b);
    }
    if (o instanceof Integer i) {
      return ScalarValue.i32(i);
    }
    if (o instanceof Long l) {
      return ScalarValue.i64(l);
    }
    if (o instanceof Float f) {
      return ScalarValue.f32(f);
    }
    return ScalarValue.f64((Double) o);
  }
}
