package dev.l0.types;

import dev.l0.ir.L0CompileError;
import dev.l0.ir.Pattern;
import dev.l0.ir.Type;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.stream.Collectors;

/**
 * Binding patterns (thesis Fig. 1): matching a pattern against a type and splitting sharing along
 * it.
 */
final class Patterns {
  private Patterns() {}

  /** Checks that {@code pattern} fits {@code type}; the types its names get, left to right. */
  static List<Type> match(Pattern pattern, Type type) {
    Set<String> seen = new HashSet<>();
    for (Pattern.Name n : pattern.names()) {
      if (!n.isWildcard() && !seen.add(n.name())) {
        throw new L0CompileError(n.pos(), "name '" + n.name() + "' is bound twice in one pattern");
      }
    }
    List<Type> leaves = new ArrayList<>();
    collectLeafTypes(pattern, type, leaves);
    return leaves;
  }

  private static void collectLeafTypes(Pattern pattern, Type type, List<Type> leaves) {
    if (pattern instanceof Pattern.Tuple p) {
      if (!(type instanceof Type.Tuple t) || t.elements().size() != p.elements().size()) {
        throw new L0CompileError(
            p.pos(),
            "the pattern "
                + describe(p)
                + " does not match a value of type "
                + ScalarRules.name(type));
      }
      for (int i = 0; i < p.elements().size(); i++) {
        collectLeafTypes(p.elements().get(i), t.elements().get(i), leaves);
      }
    } else {
      leaves.add(type);
    }
  }

  /** The sharing of each name of {@code pattern}, whose shape has been checked. */
  static List<Sharing> leafSharing(Pattern pattern, Sharing sharing) {
    if (pattern instanceof Pattern.Tuple p) {
      List<Sharing> leaves = new ArrayList<>();
      for (int i = 0; i < p.elements().size(); i++) {
        leaves.addAll(leafSharing(p.elements().get(i), sharing.component(i)));
      }
      return leaves;
    }
    return List.of(sharing);
  }

  private static String describe(Pattern pattern) {
    if (pattern instanceof Pattern.Tuple t) {
      return t.elements().stream()
          .map(Patterns::describe)
          .collect(Collectors.joining(", ", "{", "}"));
    }
    return ((Pattern.Name) pattern).name();
  }

  static List<String> names(Pattern pattern) {
    return pattern.names().stream().map(Pattern.Name::name).toList();
  }
}
