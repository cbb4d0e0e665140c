/**
 * Machine-readable output: the one-line JSON objects that device checks and benchmarks print, one
 * result per line, so that results files can be appended to and compared side by side.
 */
package dev.l0.kernels.report;
