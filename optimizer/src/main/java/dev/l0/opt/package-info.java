/**
 * The optimiser's entry point: from a type-checked program to an optimised internal program, its
 * {@link dev.l0.opt.KernelPlan} and the explain text (thesis ch. 4–7).
 *
 * <p>The seam with the lowering (gpu-kernels' {@code dev.l0.kernels.lower}) and the evaluator: each
 * kernel of the plan is one statement binding a SOAC of {@link dev.l0.opt.ir.Exp.Soac}'s forms,
 *
 * <ul>
 *   <li>{@link dev.l0.opt.ir.Exp.Map}, one result row per input row;
 *   <li>{@link dev.l0.opt.ir.Exp.Reduce} and {@link dev.l0.opt.ir.Exp.Scan}, the unfused reduction
 *       and scan, whose operator is both the per-row fold and the combining operator;
 *   <li>{@link dev.l0.opt.ir.Exp.Screma}, the one fused form (Futhark's screma): a fold over the
 *       rows from the neutral element, an associative combining operator, and what the pass yields,
 *       the final accumulators ({@code redomap}, built by {@code Screma.redomap}) or every prefix
 *       ({@code scanomap}, built by {@code Screma.scanomap}). Fusion makes a screma of a map or
 *       filter feeding a reduce or scan; the lowering runs any screma as the chunks of the
 *       documented reduction order, so no rule reassociates a float operation.
 *   <li>{@link dev.l0.opt.ir.Exp.FilterMap}, a filter cluster (seed 002): per row a keep flag and
 *       scalar values, the values of the kept rows in order. A plain filter is one whose values are
 *       its row ({@code FilterMap.filter}, {@code isFilter}; its rows may be arrays, which it keeps
 *       as they are, and {@code explain} calls it {@code filter}); fusion makes one of a map
 *       feeding a filter and of a filter feeding a map, and the lowering runs it as a filter is run
 *       (counts per chunk, their offsets, a scatter). One filtermap may hold several filters of one
 *       array (a flag and values each, each result of a size of its own) and accumulators folded
 *       over the rows in order (a reduction of kept values), which the counting pass folds per
 *       chunk and a pairwise tree combines, as a screma's.
 * </ul>
 *
 * Inside a kernel's thread the same forms run sequentially ({@code acc = fold(acc, row)}), so a
 * backend that lowers a screma at the top level also lowers it nested. The keywords ({@code map},
 * {@code redomap}, {@code scanomap}, ...) are what the printer, the kernel plan's structures and
 * the explain text show.
 */
package dev.l0.opt;
