/**
 * The {@code l0} command line ({@code bin/l0}): check, print, explain and run L0 programs, and the
 * Black-Scholes demo; one class per verb, {@link dev.l0.cli.Main} maps failures to exit codes.
 */
package dev.l0.cli;
