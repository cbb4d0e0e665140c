/**
 * The runtime API: compile an L0 program once for a device (auto, CUDA or the JVM) and run its
 * entry function many times on Java arrays, flat n-D arrays or NIO buffers, getting results back
 * the same way.
 */
package dev.l0.kernels.api;
