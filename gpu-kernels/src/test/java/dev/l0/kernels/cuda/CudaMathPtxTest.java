package dev.l0.kernels.cuda;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.util.List;
import java.util.Optional;
import java.util.regex.Pattern;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * l0_math.cuh with the check kernel compiles to PTX through {@link NvccCompiler} with the product's
 * options, and that PTX holds no fused multiply-add (so device arithmetic rounds as the JVM's),
 * while nvcc's default would contract. Skipped where nvcc is absent.
 */
class CudaMathPtxTest {
  /**
   * A floating-point fused multiply-add in PTX: {@code fma.rn.f64}, {@code mad.rn.f32}, ... (not
   * integer {@code mad.lo.s32}).
   */
  private static final Pattern FMA_INSTRUCTION =
      Pattern.compile("(?m)^\\s*(fma|mad)\\.[a-z.]*f(32|64)\\b");

  private static NvccCompiler nvcc;

  @BeforeAll
  static void findNvcc() {
    Optional<NvccCompiler> found = NvccCompiler.onThisMachine();
    assumeTrue(
        found.isPresent(), "nvcc is not on the PATH nor in $CUDA_HOME/bin: PTX is not checked");
    nvcc = found.get();
  }

  @Test
  void checkKernelCompilesToPtxWithItsEntryAndNoFma() {
    String ptx = nvcc.compileToPtx(CudaMathCheckSource.kernel(), CudaMathCheckSource.KERNEL_NAME);
    assertTrue(
        ptx.contains(".entry " + CudaMathCheckSource.KERNEL_NAME + "("),
        "PTX lacks the kernel's entry:\n" + head(ptx));
    assertTrue(ptx.contains("div.rn.f64"), "the math library's divisions are missing from the PTX");
    assertFalse(FMA_INSTRUCTION.matcher(ptx).find(), "PTX contains fma although -fmad=false");
  }

  @Test
  void withoutFmadFalseNvccContractsTheSameSource() {
    List<String> defaults =
        nvcc.options().stream().filter(option -> !option.startsWith("-fmad")).toList();
    NvccCompiler contracting =
        new NvccCompiler(nvcc.executable(), defaults, NvccCompiler.DEFAULT_TIMEOUT);
    String ptx =
        contracting.compileToPtx(CudaMathCheckSource.kernel(), CudaMathCheckSource.KERNEL_NAME);
    assertTrue(
        FMA_INSTRUCTION.matcher(ptx).find(),
        "nvcc's default no longer contracts a*b+c, so the fma check above proves nothing");
  }

  private static String head(String text) {
    return text.length() <= 2000 ? text : text.substring(0, 2000) + "\n...";
  }
}
