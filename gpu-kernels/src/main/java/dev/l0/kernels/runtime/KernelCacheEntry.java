package dev.l0.kernels.runtime;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.Arrays;
import java.util.HexFormat;
import java.util.List;
import java.util.Optional;

/**
 * The cache key and the file format of one {@link KernelCache} entry. The key is the SHA-256 of
 * (source, options, compute capability, compiler identity), each field length-prefixed so no two
 * different tuples share a key. An entry is one header line {@code L0PTX1 <key> <sha256 of the PTX>
 * <PTX length in bytes>} and the PTX; an entry whose header, key, length or checksum does not match
 * is corrupt and never loaded.
 */
final class KernelCacheEntry {
  static final String MAGIC = "L0PTX1";

  private KernelCacheEntry() {}

  static String keyOf(
      String source, List<String> options, ComputeCapability target, String compilerIdentity) {
    MessageDigest digest = sha256();
    addField(digest, source);
    addField(digest, Integer.toString(options.size()));
    options.forEach(option -> addField(digest, option));
    addField(digest, target.smArchitecture());
    addField(digest, compilerIdentity);
    return HexFormat.of().formatHex(digest.digest());
  }

  static byte[] encode(String key, Ptx ptx) {
    byte[] body = ptx.text().getBytes(StandardCharsets.UTF_8);
    byte[] header =
        (MAGIC
                + " "
                + key
                + " "
                + HexFormat.of().formatHex(sha256().digest(body))
                + " "
                + body.length
                + "\n")
            .getBytes(StandardCharsets.US_ASCII);
    byte[] entry = Arrays.copyOf(header, header.length + body.length);
    System.arraycopy(body, 0, entry, header.length, body.length);
    return entry;
  }

  /** The PTX of a sound entry for {@code key}; empty for anything else. */
  static Optional<Ptx> decode(String key, byte[] entry) {
    int newline = indexOf(entry, (byte) '\n');
    if (newline < 0) {
      return Optional.empty();
    }
    String[] header = new String(entry, 0, newline, StandardCharsets.US_ASCII).split(" ");
    byte[] body = Arrays.copyOfRange(entry, newline + 1, entry.length);
    boolean sound =
        header.length == 4
            && header[0].equals(MAGIC)
            && header[1].equals(key)
            && header[3].equals(Integer.toString(body.length))
            && header[2].equals(HexFormat.of().formatHex(sha256().digest(body)));
    if (!sound || body.length == 0) {
      return Optional.empty();
    }
    return Optional.of(new Ptx(new String(body, StandardCharsets.UTF_8)));
  }

  private static void addField(MessageDigest digest, String field) {
    byte[] bytes = field.getBytes(StandardCharsets.UTF_8);
    digest.update(ByteBuffer.allocate(Long.BYTES).putLong(bytes.length).array());
    digest.update(bytes);
  }

  private static int indexOf(byte[] bytes, byte wanted) {
    for (int i = 0; i < bytes.length; i++) {
      if (bytes[i] == wanted) {
        return i;
      }
    }
    return -1;
  }

  private static MessageDigest sha256() {
    try {
      return MessageDigest.getInstance("SHA-256");
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException("every Java platform has SHA-256", e);
    }
  }
}
