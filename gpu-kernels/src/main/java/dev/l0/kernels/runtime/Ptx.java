package dev.l0.kernels.runtime;

/** PTX assembly text, what a {@link PtxCompiler} makes and {@code cuModuleLoadData} loads. */
public record Ptx(String text) {
  public Ptx {
    if (text == null || text.isBlank()) {
      throw new IllegalArgumentException("PTX text is empty");
    }
  }
}
