package dev.l0.types;

import dev.l0.ir.Expr;
import dev.l0.ir.FunDef;
import dev.l0.ir.L0CompileError;
import dev.l0.ir.SourcePos;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Deque;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.function.Supplier;

/**
 * The one limit on how deeply a program may nest, and the stack on which every phase handles any
 * program within it. The parser, the checker, the optimiser's passes, the lowering and the
 * interpreters walk expressions recursively. Catching a {@code StackOverflowError} would make the
 * verdict depend on the run (JIT-compiled frames are smaller than interpreted ones), so instead the
 * parser and the checker refuse nesting deeper than {@link #MAX_DEPTH} with an error at the first
 * token or node beyond it, and a program within the limit is compiled (and, by the CLI, run) on a
 * thread with a stack of {@link #STACK_BYTES}: the phases were seen to need a few kilobytes per
 * level, so this leaves a wide margin for interpreted (not yet JIT-compiled) frames.
 */
public final class NestingLimit {
  /**
   * The deepest nesting of expressions (and of types and patterns in the parser) a program may
   * have.
   */
  public static final int MAX_DEPTH = 3_000;

  /** The stack of the thread {@link #onLargeStack} runs on: 1 GiB (reserved, committed as used). */
  public static final long STACK_BYTES = 1L << 30;

  /**
   * The deepest recursion, in nested bodies, that {@link #onLargeStackBeyond} runs on the caller's
   * own stack: at a few kilobytes per level, well inside a 256 KiB thread stack.
   */
  public static final int CALLER_STACK_DEPTH = 32;

  private NestingLimit() {}

  /**
   * A construct around code nested beyond the limit: what a message calls several of them ({@code
   * 'let' expressions}) and where this one is.
   */
  public record Enclosing(String constructs, SourcePos pos) {}

  /**
   * The message for {@code what} (e.g. "the body of 'f'") nesting beyond the limit. {@code
   * enclosing} are the constructs around it, outermost first; the message names the one that
   * encloses it most often, with how often and where the outermost of them is, so that a long chain
   * of lets is named as such: {@code it is inside 2999 nested 'let' expressions, the outermost at
   * 2:3}.
   */
  public static String tooDeep(String what, List<Enclosing> enclosing) {
    Map<String, Integer> counts = new LinkedHashMap<>();
    Map<String, SourcePos> outermost = new HashMap<>();
    for (Enclosing e : enclosing) {
      counts.merge(e.constructs(), 1, Integer::sum);
      outermost.putIfAbsent(e.constructs(), e.pos());
    }
    String most = null;
    for (Map.Entry<String, Integer> count : counts.entrySet()) {
      if (most == null || count.getValue() > counts.get(most)) {
        most = count.getKey();
      }
    }
    String message =
        what
            + " is nested more than "
            + MAX_DEPTH
            + " levels deep, the limit of this implementation";
    if (most == null) {
      return message;
    }
    return message
        + ": it is inside "
        + counts.get(most)
        + " nested "
        + most
        + ", the outermost at "
        + UniquenessTracker.at(outermost.get(most))
        + "; split them into functions to nest less";
  }

  /**
   * Refuses a function whose body nests deeper than {@link #MAX_DEPTH}; walks without recursion.
   */
  static void check(FunDef function) {
    record Visit(Expr expr, int depth, Visit parent) {}
    Deque<Visit> pending = new ArrayDeque<>();
    pending.push(new Visit(function.body(), 1, null));
    while (!pending.isEmpty()) {
      Visit visit = pending.pop();
      if (visit.depth() > MAX_DEPTH) {
        List<Enclosing> enclosing = new ArrayList<>();
        for (Visit around = visit.parent(); around != null; around = around.parent()) {
          enclosing.add(new Enclosing(constructs(around.expr()), around.expr().pos()));
        }
        Collections.reverse(enclosing);
        throw new L0CompileError(
            visit.expr().pos(), tooDeep("the body of '" + function.name() + "'", enclosing));
      }
      for (Expr child : visit.expr().children()) {
        pending.push(new Visit(child, visit.depth() + 1, visit));
      }
    }
  }

  /**
   * What a message calls several expressions of {@code e}'s kind, e.g. {@code 'let' expressions}.
   */
  private static String constructs(Expr e) {
    if (e instanceof Expr.Let || e instanceof Expr.LetWith) {
      return "'let' expressions";
    }
    if (e instanceof Expr.Binary) {
      return "binary operators";
    }
    if (e instanceof Expr.Unary) {
      return "prefix operators";
    }
    if (e instanceof Expr.Call c) {
      return "calls of '" + c.function() + "'";
    }
    if (e instanceof Expr.TupleLit) {
      return "tuples";
    }
    if (e instanceof Expr.ArrayLit) {
      return "array literals";
    }
    if (e instanceof Expr.Index) {
      return "indexings";
    }
    // The other expressions are written with their keyword, the record's name: if, loop, map, ...
    return "'" + e.getClass().getSimpleName().toLowerCase(Locale.ROOT) + "' expressions";
  }

  /**
   * Runs {@code work} on a thread with a stack of {@link #STACK_BYTES} and returns its result:
   * inline when called on such a thread already, else on one of a pool of them (started when all
   * are busy, ended after a minute idle), so that a caller that runs programs often, a Spark task
   * once per batch, does not start a thread per call; what {@code work} throws is rethrown here
   * unchanged.
   */
  public static <T> T onLargeStack(Supplier<T> work) {
    if (Thread.currentThread() instanceof LargeStackThread) {
      return work.get();
    }
    Future<T> running = LARGE_STACKS.submit(work::get);
    boolean interrupted = false;
    try {
      while (true) {
        try {
          return running.get();
        } catch (InterruptedException e) {
          interrupted = true;
        } catch (ExecutionException e) {
          Throwable t = e.getCause();
          if (t instanceof Error error) {
            throw error;
          }
          throw (RuntimeException) t;
        }
      }
    } finally {
      if (interrupted) {
        Thread.currentThread().interrupt();
      }
    }
  }

  /**
   * Runs {@code work}, whose recursion goes at most {@code depth} nested bodies deep, on the
   * caller's thread where {@code depth} is at most {@link #CALLER_STACK_DEPTH}, else as {@link
   * #onLargeStack} does: a shallow program run often (a Spark task's batches) is not handed to
   * another thread on every call.
   */
  public static <T> T onLargeStackBeyond(int depth, Supplier<T> work) {
    return depth <= CALLER_STACK_DEPTH ? work.get() : onLargeStack(work);
  }

  private static final ExecutorService LARGE_STACKS =
      Executors.newCachedThreadPool(LargeStackThread::new);

  private static final class LargeStackThread extends Thread {
    LargeStackThread(Runnable body) {
      super(null, body, "l0-compiler", STACK_BYTES);
      setDaemon(true);
    }
  }
}
