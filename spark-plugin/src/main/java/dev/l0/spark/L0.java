package dev.l0.spark;

import dev.l0.ir.L0CompileError;
import dev.l0.ir.Program;
import dev.l0.kernels.runtime.DeviceKind;
import dev.l0.kernels.runtime.DeviceSelector;
import dev.l0.spark.pipeline.PipelineMessages;
import dev.l0.spark.pipeline.PipelinePlanningException;
import dev.l0.spark.pipeline.PipelineRequest;
import dev.l0.spark.pipeline.PipelineSpec;
import dev.l0.spark.plan.L0PipelineExec;
import dev.l0.spark.plan.L0PipelineNode;
import dev.l0.spark.plan.TasksRun;
import dev.l0.syntax.L0Printer;
import dev.l0.syntax.SourceFiles;
import dev.l0.types.TypeChecker;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Set;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.catalyst.plans.QueryPlan;
import org.apache.spark.sql.catalyst.plans.logical.LogicalPlan;
import org.apache.spark.sql.catalyst.trees.TreeNode;
import org.apache.spark.sql.execution.QueryExecution;
import org.apache.spark.sql.execution.SparkPlan;
import org.apache.spark.sql.execution.adaptive.AdaptiveSparkPlanExec;
import org.apache.spark.sql.execution.adaptive.QueryStageExec;
import org.apache.spark.sql.execution.columnar.InMemoryTableScanExec;
import scala.jdk.javaapi.CollectionConverters;

/**
 * Where users start: {@code df.transform(L0.pipeline(program).on("price", "strike"))} runs an L0
 * program over a DataFrame's columns, and {@link #explain} shows what each pipeline of a query
 * became (optimised program, kernels, device).
 */
public final class L0 {
  private L0() {}

  /**
   * A pipeline running the L0 program {@code l0Text} (errors cite it as {@code "<inline L0
   * program>"}).
   */
  public static L0Pipeline pipeline(String l0Text) {
    String callSite = UserCallSite.current();
    return L0Pipeline.of(
        given(l0Text, "the L0 program text", callSite), "<inline L0 program>", callSite);
  }

  /**
   * A pipeline running the L0 program in {@code l0File} (errors cite the file name). A file that
   * cannot be read is an {@link UncheckedIOException} naming the file and why; bytes that are not
   * UTF-8 are a {@link PipelinePlanningException} at their line and column.
   */
  public static L0Pipeline pipeline(Path l0File) {
    String callSite = UserCallSite.current();
    given(l0File, "the L0 program's file", callSite);
    try {
      return L0Pipeline.of(SourceFiles.read(l0File), l0File.getFileName().toString(), callSite);
    } catch (IOException e) {
      throw new UncheckedIOException(
          PipelineMessages.at(callSite, "cannot read " + SourceFiles.describe(e)), e);
    } catch (L0CompileError e) {
      throw new PipelinePlanningException(callSite, e.getMessage(), e);
    }
  }

  /**
   * A pipeline running a program built with the Java DSL ({@code dev.l0.dsl}). The program is type
   * checked here, while it still has the Java lines that staged it: a type error is a {@link
   * PipelinePlanningException} at this call site naming the staging line ({@code Job.java:24:
   * ...}), not a position in the program's printed text.
   */
  public static L0Pipeline pipeline(Program dslProgram) {
    String callSite = UserCallSite.current();
    given(dslProgram, "the Java DSL program", callSite);
    try {
      TypeChecker.check(dslProgram);
    } catch (L0CompileError e) {
      throw new PipelinePlanningException(callSite, e.getMessage(), e);
    }
    String text = L0Printer.print(dslProgram);
    String sourceName = "Java DSL program built at " + callSite;
    return L0Pipeline.of(
        text, sourceName, callSite, PipelineRequest.stagedAt(dslProgram, text, sourceName));
  }

  /** {@code value}, or an error at the user's {@code callSite} where it is null. */
  private static <T> T given(T value, String what, String callSite) {
    if (value == null) {
      throw new PipelinePlanningException(callSite, what + " is null");
    }
    return value;
  }

  /** Prints {@link #explainString} to standard output. */
  public static void explain(Dataset<?> df) {
    System.out.print(explainString(df));
  }

  /**
   * For every L0 pipeline in the query's optimised plan, its subqueries and the plans of the cached
   * data it reads: its optimised program and kernels, the configured device ({@value
   * L0Settings#DEVICE}) and what this driver's probe says about CUDA (the reason work would run on
   * the JVM), and where its tasks ran, from the SQL metrics of the nodes that run it in this
   * Dataset's physical plan (after an action on this Dataset; an action that plans a query of its
   * own, such as {@code count()}, {@code show()} or a {@code write()}, leaves them at none).
   */
  public static String explainString(Dataset<?> df) {
    QueryExecution execution = ((org.apache.spark.sql.classic.Dataset<?>) df).queryExecution();
    LogicalPlan optimized = execution.optimizedPlan();
    List<PipelineSpec> pipelines = new ArrayList<>();
    collectPipelines(optimized, pipelines);
    if (pipelines.isEmpty()) {
      return "no L0 pipeline in this query\n";
    }
    DeviceKind configured = L0Settings.ofActiveSession().device();
    String driverDevice =
        DeviceSelector.select(configured == DeviceKind.JVM ? DeviceKind.JVM : DeviceKind.AUTO)
            .report();
    Set<L0PipelineExec> nodes = Collections.newSetFromMap(new IdentityHashMap<>());
    collectPipelineExecs(execution.executedPlan(), nodes);
    StringBuilder text = new StringBuilder();
    for (int i = 0; i < pipelines.size(); i++) {
      PipelineSpec spec = pipelines.get(i);
      TasksRun run =
          nodes.stream()
              .filter(node -> node.spec().equals(spec))
              .map(L0PipelineExec::tasksRun)
              .reduce(TasksRun.NONE, TasksRun::plus);
      text.append("== L0 pipeline ")
          .append(i + 1)
          .append(" of ")
          .append(pipelines.size())
          .append(" ==\n")
          .append(spec.explain().strip())
          .append('\n')
          .append("configured device (")
          .append(L0Settings.DEVICE)
          .append("): ")
          .append(configured.label())
          .append('\n')
          .append("on this driver: ")
          .append(driverDevice)
          .append('\n')
          .append("ran: ")
          .append(run.describe())
          .append('\n');
    }
    return text.toString();
  }

  /**
   * The pipeline nodes of physical plan {@code plan}: through its children and subqueries, the plan
   * an adaptive plan ran (or will run), the plans of its query stages and of the cached data it
   * scans.
   */
  private static void collectPipelineExecs(SparkPlan plan, Set<L0PipelineExec> found) {
    if (plan instanceof L0PipelineExec exec) {
      found.add(exec);
    }
    List<SparkPlan> inside = new ArrayList<>(CollectionConverters.asJava(plan.children()));
    inside.addAll(CollectionConverters.asJava(plan.subqueries()));
    if (plan instanceof AdaptiveSparkPlanExec adaptive) {
      inside.add(adaptive.executedPlan());
    } else if (plan instanceof QueryStageExec stage) {
      inside.add(stage.plan());
    } else if (plan instanceof InMemoryTableScanExec scan) {
      inside.add(scan.relation().cachedPlan());
    }
    for (SparkPlan child : inside) {
      collectPipelineExecs(child, found);
    }
  }

  /**
   * The pipelines of {@code plan} in tree order: logical pipeline nodes, and the physical ones of
   * plans that Spark keeps inside a node (a cached relation's plan, an adaptive plan), through
   * children, inner children and subqueries.
   */
  private static void collectPipelines(TreeNode<?> plan, List<PipelineSpec> found) {
    if (plan instanceof L0PipelineNode node) {
      found.add(node.spec());
    } else if (plan instanceof L0PipelineExec exec) {
      found.add(exec.spec());
    }
    List<Object> inside = new ArrayList<>(CollectionConverters.asJava(plan.children()));
    List<?> inner = CollectionConverters.asJava(plan.innerChildren());
    inside.addAll(inner);
    if (plan instanceof QueryPlan<?> query) {
      // a query plan's inner children are its subqueries, unless the node keeps other plans there
      for (Object subquery : CollectionConverters.asJava(query.subqueries())) {
        if (inner.stream().noneMatch(known -> known == subquery)) {
          inside.add(subquery);
        }
      }
    }
    for (Object child : inside) {
      collectPipelines((TreeNode<?>) child, found);
    }
  }
}
