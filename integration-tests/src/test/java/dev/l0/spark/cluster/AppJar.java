package dev.l0.spark.cluster;

import java.io.IOException;
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

/** The application jar a test submits: the compiled classes of one package, as {@code mvn package} would put them in a jar. */
public final class AppJar {
  private AppJar() {}

  /**
   * Writes {@code jar} with the classes of package {@code packageName} (and its sub-packages), taken
   * from the class folder on this JVM's class path that holds it.
   */
  public static Path ofPackage(String packageName, Path jar) throws IOException {
    String packagePath = packageName.replace('.', '/');
    URL location = ClassLoader.getSystemResource(packagePath);
    if (location == null || !location.getProtocol().equals("file")) {
      throw new IllegalStateException("package " + packageName + " is not in a class folder on the class path: " + location);
    }
    Path packageFolder;
    try {
      packageFolder = Path.of(location.toURI());
    } catch (URISyntaxException e) {
      throw new IllegalStateException("cannot locate package " + packageName + " at " + location, e);
    }
    Path classes = packageFolder;
    for (int i = 0; i < packageName.split("\\.").length; i++) {
      classes = classes.getParent();
    }
    List<Path> files;
    try (Stream<Path> walk = Files.walk(packageFolder)) {
      files = walk.filter(Files::isRegularFile).sorted().toList();
    }
    Manifest manifest = new Manifest();
    manifest.getMainAttributes().put(Attributes.Name.MANIFEST_VERSION, "1.0");
    try (OutputStream out = Files.newOutputStream(jar); JarOutputStream jarOut = new JarOutputStream(out, manifest)) {
      for (Path file : files) {
        jarOut.putNextEntry(new JarEntry(classes.relativize(file).toString().replace('\\', '/')));
        Files.copy(file, jarOut);
        jarOut.closeEntry();
      }
    }
    return jar;
  }
}
