package dev.l0.kernels.cudaexec;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeFalse;

import dev.l0.ir.ScalarType;
import dev.l0.ir.ScalarValue;
import dev.l0.kernels.exec.HostValue;
import dev.l0.kernels.ir.GroupInput;
import dev.l0.kernels.ir.KernelGroup;
import dev.l0.kernels.jvm.FlatArray;
import dev.l0.kernels.lower.LaunchConfiguration;
import dev.l0.kernels.runtime.CudaProbe;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * {@link KernelBandwidthBenchmark} without a GPU: one line saying nothing was measured and exit 0;
 * its programs each plan one kernel of the benchmarked kind over one array input, and its result
 * check accepts the right values only. (On a GPU it runs from {@code bin/gpu-check}.)
 */
class KernelBandwidthBenchmarkTest {
  @Test
  void withoutADriverNothingIsMeasured() throws Exception {
    assumeFalse(
        CudaProbe.probe().isAvailable(),
        "this machine has a GPU; bin/gpu-check runs the benchmark");
    ByteArrayOutputStream captured = new ByteArrayOutputStream();
    int status =
        KernelBandwidthBenchmark.run(new PrintStream(captured, true, StandardCharsets.UTF_8));
    List<String> lines = captured.toString(StandardCharsets.UTF_8).lines().toList();
    assertEquals(0, status, lines.toString());
    assertEquals(1, lines.size(), lines.toString());
    assertTrue(
        lines.get(0).startsWith("KernelBandwidthBenchmark: no CUDA driver (")
            && lines.get(0).endsWith("); nothing measured"),
        lines.get(0));
  }

  @Test
  void eachProgramLowersToOneGroupOverOneF64Array() {
    LaunchConfiguration h100 = LaunchConfiguration.forDevice(132, 8);
    for (KernelBandwidthBenchmark.Case benchmarked : KernelBandwidthBenchmark.Case.values()) {
      KernelGroup group = benchmarked.lowered(h100);
      assertEquals(1, group.inputs().size(), benchmarked.kernel);
      assertTrue(group.inputs().get(0) instanceof GroupInput.Array, benchmarked.kernel);
      assertEquals(1, group.outputs().size(), benchmarked.kernel);
      assertFalse(group.kernels().isEmpty(), benchmarked.kernel);
    }
  }

  @Test
  void theResultCheckAcceptsOnlyTheProgramsValue() {
    int n = 1000;
    double[] fours = new double[n];
    Arrays.fill(fours, 4.0);
    assertTrue(KernelBandwidthBenchmark.Case.MAP.isCorrect(flat(fours), n));
    assertFalse(KernelBandwidthBenchmark.Case.MAP.isCorrect(flat(fours), n + 1));
    double[] oneWrong = fours.clone();
    oneWrong[n / 2] = 4.5;
    assertFalse(KernelBandwidthBenchmark.Case.MAP.isCorrect(flat(oneWrong), n));
    assertTrue(
        KernelBandwidthBenchmark.Case.REDOMAP.isCorrect(HostValue.of(ScalarValue.f64(2250.0)), n));
    assertFalse(
        KernelBandwidthBenchmark.Case.REDOMAP.isCorrect(HostValue.of(ScalarValue.f64(2250.25)), n));
  }

  private static HostValue flat(double[] data) {
    return HostValue.of(new FlatArray(ScalarType.F64, data, new int[] {data.length}));
  }
}
