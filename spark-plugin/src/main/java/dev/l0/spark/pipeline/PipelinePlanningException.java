package dev.l0.spark.pipeline;

/**
 * A pipeline that cannot be planned: its message is {@code "L0 pipeline at <callSite>: <what is
 * wrong>"}; L0 compile errors keep their {@code file:line:col: message}.
 */
public final class PipelinePlanningException extends IllegalArgumentException {
  private static final long serialVersionUID = 1L;

  /** An error at the user's {@code callSite} saying {@code problem}. */
  public PipelinePlanningException(String callSite, String problem) {
    super(PipelineMessages.at(callSite, problem));
  }

  /** An error at the user's {@code callSite} saying {@code problem}, caused by {@code cause}. */
  public PipelinePlanningException(String callSite, String problem, Throwable cause) {
    super(PipelineMessages.at(callSite, problem), cause);
  }
}
