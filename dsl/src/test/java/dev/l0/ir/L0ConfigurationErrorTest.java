package dev.l0.ir;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

/** A boolean setting takes true or false in any case, its default where unset, and names itself. */
class L0ConfigurationErrorTest {
  private static final String NAME = "l0.test.configurationErrorFlag";

  @Test
  void aBooleanPropertyIsTrueOrFalseOrItsDefaultAndElseAnErrorNamingIt() {
    try {
      System.clearProperty(NAME);
      assertTrue(L0ConfigurationError.booleanProperty(NAME, true, "a flag"));
      assertFalse(L0ConfigurationError.booleanProperty(NAME, false, "a flag"));
      System.setProperty(NAME, " FALSE ");
      assertFalse(L0ConfigurationError.booleanProperty(NAME, true, "a flag"));
      System.setProperty(NAME, "True");
      assertTrue(L0ConfigurationError.booleanProperty(NAME, false, "a flag"));
      System.setProperty(NAME, "off");
      L0ConfigurationError error =
          assertThrows(
              L0ConfigurationError.class,
              () -> L0ConfigurationError.booleanProperty(NAME, true, "a flag"));
      assertEquals(
          "the system property " + NAME + " must be true or false (a flag), not 'off'",
          error.getMessage());
    } finally {
      System.clearProperty(NAME);
    }
  }
}
