/**
 * Producer-consumer fusion of SOACs (thesis ch. 7): the T2 graph-reduction gathering over each
 * body's dataflow graph, the named fusion rules of §7.3 that each fuse one producer-consumer pair
 * (and can be applied alone), horizontal fusion of independent SOACs over arrays of one outer size
 * (seed 001, {@code OuterSizes}), the cost model that lets a cheap producer be duplicated into
 * several consumers, the function composition they share, seed 002's filter clusters ({@code
 * FilterClusterRules}) and the joining of the maps its clustering puts in one loop ({@code
 * ClusterJoin}), the rules that fuse across transpose and reshape (ch. 8), ISWIM (§8.3: a scan of
 * rows interchanged with the maps of its operator, fusing through it), the pre-fusion inlining of
 * indexing into cheap maps (§9.2), the history of which rules made each kernel, and the plan they
 * make as to the order of failures ({@code FailureOrder}: fused, or kept for the rerun of a failing
 * run).
 */
package dev.l0.opt.fusion;
