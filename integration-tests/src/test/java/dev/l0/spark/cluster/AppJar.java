package dev.l0.spark.cluster;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.URISyntaxException;
import java.net.URL;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.jar.Attributes;
import java.util.jar.JarEntry;
import java.util.jar.JarOutputStream;
import java.util.jar.Manifest;
import java.util.stream.Stream;

/**
 * The application jar a test submits: the compiled classes of one package, as {@code mvn package}
 * would put them in a jar, and the resources its job reads on the driver.
 */
public final class AppJar {
  private AppJar() {}

  /**
   * Writes {@code jar} with the classes of {@code anchor}'s package (and its sub-packages), taken
   * from the class folder that holds {@code anchor}: the main classes, even where the test classes
   * have a package of the same name; and the {@code resources}, absolute names as {@link
   * Class#getResourceAsStream} takes them ({@code "/programs/p0.l0"}), from {@code anchor}'s class
   * path.
   */
  public static Path ofPackageOf(Class<?> anchor, Path jar, String... resources)
      throws IOException {
    String packageName = anchor.getPackageName();
    URL location = anchor.getProtectionDomain().getCodeSource().getLocation();
    if (location == null || !location.getProtocol().equals("file")) {
      throw new IllegalStateException(anchor.getName() + " is not in a class folder: " + location);
    }
    Path classes;
    try {
      classes = Path.of(location.toURI());
    } catch (URISyntaxException e) {
      throw new IllegalStateException(
          "cannot locate the class folder of " + anchor.getName() + " at " + location, e);
    }
    if (!Files.isDirectory(classes)) {
      throw new IllegalStateException(anchor.getName() + " is not in a class folder: " + classes);
    }
    Path packageFolder = classes.resolve(packageName.replace('.', '/'));
    List<Path> files;
    try (Stream<Path> walk = Files.walk(packageFolder)) {
      files = walk.filter(Files::isRegularFile).sorted().toList();
    }
    Manifest manifest = new Manifest();
    manifest.getMainAttributes().put(Attributes.Name.MANIFEST_VERSION, "1.0");
    try (OutputStream out = Files.newOutputStream(jar);
        JarOutputStream jarOut = new JarOutputStream(out, manifest)) {
      for (Path file : files) {
        jarOut.putNextEntry(new JarEntry(classes.relativize(file).toString().replace('\\', '/')));
        Files.copy(file, jarOut);
        jarOut.closeEntry();
      }
      for (String resource : resources) {
        try (InputStream in = anchor.getResourceAsStream(resource)) {
          if (in == null) {
            throw new IllegalStateException(
                "the resource " + resource + " is not on the class path of " + anchor.getName());
          }
          jarOut.putNextEntry(new JarEntry(resource.substring(1)));
          in.transferTo(jarOut);
          jarOut.closeEntry();
        }
      }
    }
    return jar;
  }
}
