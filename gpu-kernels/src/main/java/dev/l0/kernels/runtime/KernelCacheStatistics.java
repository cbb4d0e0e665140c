package dev.l0.kernels.runtime;

/**
 * Counts of a {@link KernelCache}'s lookups: entries loaded, compilations, and entries found
 * corrupt (each of which was deleted and also counts as a compilation).
 */
public record KernelCacheStatistics(long hits, long misses, long corruptEntries) {}
