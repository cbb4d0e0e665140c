package dev.l0.spark;

import dev.l0.spark.plan.ExecutorRuntime;
import java.util.HashMap;
import java.util.Map;
import org.apache.spark.SparkContext;
import org.apache.spark.api.plugin.DriverPlugin;
import org.apache.spark.api.plugin.ExecutorPlugin;
import org.apache.spark.api.plugin.PluginContext;
import org.apache.spark.api.plugin.SparkPlugin;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The Spark plugin ({@code spark.plugins=dev.l0.spark.L0Plugin}). The driver side passes the {@code
 * spark.l0.*} settings to every executor; the executor side starts the executor's runtime (kernel
 * cache folder, one CUDA probe logged in one line, the GPU task slots). It never breaks an
 * executor: where the settings are bad or anything fails, the executor logs why and carries on, and
 * pipelines start the runtime again from the Spark configuration on their first task.
 */
public final class L0Plugin implements SparkPlugin {
  private static final Logger LOG = LoggerFactory.getLogger(L0Plugin.class);

  /** Spark instantiates the plugin by name. */
  public L0Plugin() {}

  @Override
  public DriverPlugin driverPlugin() {
    return new DriverPlugin() {
      @Override
      public Map<String, String> init(SparkContext context, PluginContext pluginContext) {
        return L0Settings.entriesOf(context.getConf());
      }
    };
  }

  @Override
  public ExecutorPlugin executorPlugin() {
    return new ExecutorPlugin() {
      @Override
      public void init(PluginContext context, Map<String, String> extraConf) {
        try {
          Map<String, String> settings = new HashMap<>(L0Settings.entriesOf(context.conf()));
          settings.putAll(extraConf);
          ExecutorRuntime.start(L0Settings.of(settings), context.executorID(), context.resources());
        } catch (Throwable t) {
          LOG.warn(
              "L0 executor {}: the runtime did not start ({}); pipelines will start it on their first task",
              context.executorID(),
              t.toString(),
              t);
        }
      }
    };
  }
}
