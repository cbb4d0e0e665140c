/**
 * Producer-consumer fusion of SOACs (thesis ch. 7): the T2 graph-reduction gathering over each
 * body's dataflow graph, and the fusion algebra that composes two SOACs into one.
 */
package dev.l0.opt.fusion;
