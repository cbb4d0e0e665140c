/**
 * The optimiser's entry point: from a type-checked program to an optimised internal program, its
 * {@link dev.l0.opt.KernelPlan} and the explain text (thesis ch. 4–7).
 *
 * <p>The seam with the lowering (gpu-kernels' {@code dev.l0.kernels.lower}) and the evaluator: each
 * kernel of the plan is one statement binding a SOAC of {@link dev.l0.opt.ir.Exp.Soac}'s forms,
 *
 * <ul>
 *   <li>{@link dev.l0.opt.ir.Exp.Screma}, the one form of a pass that maps, reduces or scans
 *       (Futhark's screma): a function over the rows and what the pass yields, each row's results
 *       (a {@code map}, built by {@code Screma.map}), or a fold from the neutral element yielding
 *       the final accumulators or every prefix. Unfused, a {@code reduce} or {@code scan} ({@code
 *       Screma.reduce}, {@code Screma.scan}) has one operator that both folds and combines; fused,
 *       a {@code redomap} or {@code scanomap} ({@code Screma.redomap}, {@code Screma.scanomap}) has
 *       a fold and an associative combining operator of its own. Fusion makes a redomap or scanomap
 *       of a map or filter feeding a reduce or scan; the lowering runs any screma as the chunks of
 *       the documented reduction order, so no rule reassociates a float operation. A redomap may
 *       also have a map part ({@code Screma.withMapOutputs}, keyword {@code screma}): its fold
 *       returns each row's values after the accumulators, and the pass binds them as arrays after
 *       the final accumulators; horizontal fusion makes one of a reduction and a map of one array,
 *       only where SOACs are kernels. The views {@code isMap}, {@code isReduce}, {@code isScan},
 *       {@code fused} and {@code reducesAndMaps} tell the forms apart.
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
 * backend that lowers a screma at the top level also lowers it nested (a screma with a map part
 * excepted, which only kernels are). The keywords ({@code map}, {@code redomap}, {@code scanomap},
 * ...) are what the printer, the kernel plan's structures and the explain text show.
 */
package dev.l0.opt;
