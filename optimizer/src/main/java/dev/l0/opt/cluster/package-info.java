/**
 * The clustering of a body's SOACs into loops with size-changing operators (seed 002, Robinson,
 * Lippmeier and Keller, <i>Fusing Filters with Integer Linear Programming</i>, {@code
 * 002_a8fe81c0996bed27.txt}): the {@link dev.l0.opt.cluster.DataflowGraph} of a body, with its
 * fusible and fusion-preventing edges and an iteration size per SOAC, where every filter's output
 * gets a size of its own (§3.5-3.6); the {@link dev.l0.opt.cluster.ClusterSolver}, which chooses
 * the clustering that minimises the paper's objective (memory traffic, then intermediate arrays,
 * then loops, §4.4) exactly by branch and bound up to a documented number of SOACs and search
 * steps, and greedily beyond; and the {@link dev.l0.opt.cluster.Clustering} it decodes and
 * re-validates. It decides which SOACs may share a loop; it rewrites no IR (the fusion pass
 * realises clusters).
 */
package dev.l0.opt.cluster;
