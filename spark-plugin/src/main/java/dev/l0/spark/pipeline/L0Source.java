package dev.l0.spark.pipeline;

import dev.l0.ir.Expr;
import dev.l0.ir.FunArg;
import dev.l0.ir.FunDef;
import dev.l0.ir.Program;
import dev.l0.ir.SourcePos;
import dev.l0.syntax.L0Parser;
import dev.l0.syntax.L0Printer;
import java.io.Serializable;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.HashMap;
import java.util.HexFormat;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.function.Function;
import java.util.stream.Collectors;

/**
 * One program a pipeline runs, as text that travels to executors: the L0 source, the name its
 * positions cite, the entry function, the functions of the source it keeps (the entry and what it
 * calls, so that other entries of the user's file compile to no kernels), and, for a program the
 * planner generated, where the user wrote each of its expressions ({@link #origin}).
 */
record L0Source(
    String text,
    String sourceName,
    String entry,
    List<String> functions,
    Map<SourcePos, SourcePos> origins)
    implements Serializable {

  L0Source {
    functions = List.copyOf(functions);
    origins = Map.copyOf(origins);
  }

  /**
   * A generated program: all its functions, printed, positions citing {@code sourceName}; an
   * expression's position in the printed text has as its {@link #origin} the position it has in
   * {@code program} (the user's source), passed through the origins of {@code from} where {@code
   * program} was built from generated programs.
   */
  static L0Source generated(Program program, String sourceName, String entry, L0Source... from) {
    String text = L0Printer.print(program);
    return new L0Source(
        text, sourceName, entry, program.functionNames(), origins(program, text, sourceName, from));
  }

  /**
   * For {@code text}, {@code program} printed and cited as {@code sourceName}: each printed
   * expression's position mapped to the position it has in {@code program}, passed through the
   * origins of {@code from} where {@code program} was built from generated programs.
   */
  static Map<SourcePos, SourcePos> origins(
      Program program, String text, String sourceName, L0Source... from) {
    List<Expr> written = expressions(program);
    List<Expr> printed = expressions(L0Parser.parse(text, sourceName));
    Map<SourcePos, SourcePos> origins = new HashMap<>();
    boolean sameShape = written.size() == printed.size();
    for (int k = 0; sameShape && k < written.size(); k++) {
      sameShape = written.get(k).getClass() == printed.get(k).getClass();
    }
    for (int k = 0; sameShape && k < written.size(); k++) {
      SourcePos origin = written.get(k).pos();
      for (L0Source source : from) {
        origin = source.origin(origin);
      }
      if (!origin.equals(SourcePos.NONE)) {
        origins.putIfAbsent(printed.get(k).pos(), origin);
      }
    }
    return origins;
  }

  /** Every expression of {@code program}'s function bodies, bottom-up. */
  private static List<Expr> expressions(Program program) {
    List<Expr> all = new ArrayList<>();
    program.transformUp(
        e -> {
          all.add(e);
          return e;
        });
    return all;
  }

  /**
   * Where the user wrote the expression at {@code pos} of this source's text: itself for the user's
   * own text, its position in the user's source for a generated program.
   */
  SourcePos origin(SourcePos pos) {
    return origins.getOrDefault(pos, pos);
  }

  /**
   * {@code program}'s function {@code entry} and the functions it reaches, written as {@code text},
   * with the {@code origins} of its positions (empty for text the user wrote).
   */
  static L0Source reachable(
      Program program,
      String text,
      String sourceName,
      String entry,
      Map<SourcePos, SourcePos> origins) {
    Set<String> kept = reachableFrom(program, List.of(entry));
    List<String> inOrder =
        program.functions().stream().map(FunDef::name).filter(kept::contains).toList();
    return new L0Source(text, sourceName, entry, inOrder, origins);
  }

  /** The program: the kept functions of the parsed text. */
  Program program() {
    Program all = L0Parser.parse(text, sourceName);
    return new Program(all.functions().stream().filter(f -> functions.contains(f.name())).toList());
  }

  /** The program as canonical text (what is compiled, up to positions). */
  String canonicalText() {
    return L0Printer.print(program());
  }

  /** Hex SHA-256 of the canonical text and the entry: equal for programs that compute the same. */
  String key() {
    return digest(canonicalText(), entry);
  }

  /**
   * Hex SHA-256 of what a program compiled from this source depends on, its errors' positions
   * included: the text as written, its name, the entry and the kept functions. Two sources with the
   * same {@link #key} but another layout compile to the same kernels whose errors cite other lines,
   * so they must not share one compiled program.
   */
  String compiledKey() {
    return digest(text, sourceName, entry, String.join(",", functions));
  }

  private static String digest(String... parts) {
    try {
      MessageDigest sha = MessageDigest.getInstance("SHA-256");
      for (String part : parts) {
        sha.update(part.getBytes(StandardCharsets.UTF_8));
        sha.update((byte) 0);
      }
      return HexFormat.of().formatHex(sha.digest());
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException("this JVM has no SHA-256", e);
    }
  }

  /**
   * The names of the functions of {@code program} that {@code roots} call or pass to SOACs,
   * directly or not, roots included.
   */
  static Set<String> reachableFrom(Program program, List<String> roots) {
    Map<String, FunDef> byName =
        program.functions().stream()
            .collect(Collectors.toMap(FunDef::name, Function.identity(), (first, second) -> first));
    Set<String> seen = new LinkedHashSet<>();
    Deque<String> pending = new ArrayDeque<>(roots);
    while (!pending.isEmpty()) {
      String name = pending.pop();
      FunDef f = byName.get(name);
      if (f != null && seen.add(name)) {
        addCallees(f.body(), pending);
      }
    }
    return seen;
  }

  /**
   * Adds the names {@code e} calls or passes to a SOAC (built-ins included; callers ignore names
   * that are not functions).
   */
  static void addCallees(Expr e, Deque<String> out) {
    if (e instanceof Expr.Call call) {
      out.push(call.function());
    }
    soacFunction(e)
        .ifPresent(
            f -> {
              if (f instanceof FunArg.FunctionRef ref) {
                out.push(ref.name());
              }
            });
    e.children().forEach(child -> addCallees(child, out));
  }

  /** The function argument of a SOAC expression. */
  static Optional<FunArg> soacFunction(Expr e) {
    if (e instanceof Expr.Map map) {
      return Optional.of(map.function());
    }
    if (e instanceof Expr.Filter filter) {
      return Optional.of(filter.function());
    }
    if (e instanceof Expr.Reduce reduce) {
      return Optional.of(reduce.function());
    }
    if (e instanceof Expr.Scan scan) {
      return Optional.of(scan.function());
    }
    return Optional.empty();
  }
}
