package dev.l0.kernels.vector;

import dev.l0.math.L0Math;

/**
 * {@link VectorMath}'s fallback where the Vector API module is absent: the scalar functions per
 * element.
 */
final class ScalarLoops {
  private ScalarLoops() {}

  static void exp(double[] in, int inOffset, double[] out, int outOffset, int count) {
    for (int i = 0; i < count; i++) {
      out[outOffset + i] = L0Math.exp(in[inOffset + i]);
    }
  }

  static void log(double[] in, int inOffset, double[] out, int outOffset, int count) {
    for (int i = 0; i < count; i++) {
      out[outOffset + i] = L0Math.log(in[inOffset + i]);
    }
  }

  static void sqrt(double[] in, int inOffset, double[] out, int outOffset, int count) {
    for (int i = 0; i < count; i++) {
      out[outOffset + i] = L0Math.sqrt(in[inOffset + i]);
    }
  }

  static void pow(
      double[] x, int xOffset, double[] y, int yOffset, double[] out, int outOffset, int count) {
    for (int i = 0; i < count; i++) {
      out[outOffset + i] = L0Math.pow(x[xOffset + i], y[yOffset + i]);
    }
  }

  static void sin(double[] in, int inOffset, double[] out, int outOffset, int count) {
    for (int i = 0; i < count; i++) {
      out[outOffset + i] = L0Math.sin(in[inOffset + i]);
    }
  }

  static void cos(double[] in, int inOffset, double[] out, int outOffset, int count) {
    for (int i = 0; i < count; i++) {
      out[outOffset + i] = L0Math.cos(in[inOffset + i]);
    }
  }

  static void erf(double[] in, int inOffset, double[] out, int outOffset, int count) {
    for (int i = 0; i < count; i++) {
      out[outOffset + i] = L0Math.erf(in[inOffset + i]);
    }
  }
}
