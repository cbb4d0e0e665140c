/**
 * Keeps README.md true: runs its console examples through the {@code l0} command line in process
 * and compiles and runs its Java example, comparing what they print with what the README shows.
 */
package dev.l0.readme;
