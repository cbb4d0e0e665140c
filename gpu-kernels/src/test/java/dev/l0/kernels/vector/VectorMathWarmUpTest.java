package dev.l0.kernels.vector;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.l0.ir.L0ConfigurationError;
import dev.l0.kernels.jvm.JvmKernelExecutor;
import org.junit.jupiter.api.Test;

/**
 * The JVM backend warms its lane-wise math once per JVM, on a daemon thread that ends, when it is
 * asked for an executor; {@value VectorMathWarmUp#PROPERTY} accepts only true and false.
 */
class VectorMathWarmUpTest {
  @Test
  void anExecutorStartsOneDaemonWarmUpPerJvmThatEnds() throws InterruptedException {
    assumeTrue(VectorMath.lanewise(), "the warm-up is for the lane-wise code");
    new JvmKernelExecutor(1);
    Thread warmUp = VectorMathWarmUp.started();
    assertNotNull(warmUp, "the executor started the warm-up");
    assertEquals("l0-vector-math-warm-up", warmUp.getName());
    assertTrue(warmUp.isDaemon(), "it never keeps the JVM alive");
    new JvmKernelExecutor(2);
    VectorMathWarmUp.startOnce();
    assertSame(warmUp, VectorMathWarmUp.started(), "once per JVM");
    warmUp.join(120_000);
    assertFalse(warmUp.isAlive(), "the warm-up ends");
  }

  @Test
  void theWarmUpLeavesTheFunctionsExact() {
    VectorMathWarmUp.run();
    double[] in = {0.5, 1.0e-300, 700.0, -3.25, 2.0};
    double[] out = new double[in.length];
    VectorMath.exp(in, 0, out, 0, in.length);
    for (int i = 0; i < in.length; i++) {
      assertEquals(
          Double.doubleToRawLongBits(StrictMath.exp(in[i])), Double.doubleToRawLongBits(out[i]));
    }
  }

  @Test
  void aValueOtherThanTrueOrFalseIsRefusedNamingTheProperty() {
    assumeTrue(VectorMath.lanewise(), "the property is read where the warm-up can run");
    System.setProperty(VectorMathWarmUp.PROPERTY, "sometimes");
    try {
      L0ConfigurationError error =
          assertThrows(L0ConfigurationError.class, VectorMathWarmUp::startOnce);
      assertTrue(error.getMessage().contains(VectorMathWarmUp.PROPERTY), error.getMessage());
      assertTrue(error.getMessage().contains("sometimes"), error.getMessage());
    } finally {
      System.clearProperty(VectorMathWarmUp.PROPERTY);
    }
  }
}
