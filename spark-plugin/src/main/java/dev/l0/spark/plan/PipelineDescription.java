package dev.l0.spark.plan;

import dev.l0.kernels.runtime.DeviceKind;
import dev.l0.spark.pipeline.PipelineSpec;

/**
 * The one line a pipeline node shows in {@code df.explain()}: {@code L0Pipeline <summary>,
 * device=<configured>}.
 */
final class PipelineDescription {
  private PipelineDescription() {}

  static String of(PipelineSpec spec, DeviceKind configuredDevice) {
    return "L0Pipeline " + spec.summary() + ", device=" + configuredDevice.label();
  }
}
