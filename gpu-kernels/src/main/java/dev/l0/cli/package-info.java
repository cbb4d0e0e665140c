/**
 * The {@code l0} command line ({@code bin/l0}): check, print and run L0 programs, and the
 * Black-Scholes demo. Each verb is one class; {@link dev.l0.cli.Main} dispatches and maps failures to exit codes.
 */
package dev.l0.cli;
