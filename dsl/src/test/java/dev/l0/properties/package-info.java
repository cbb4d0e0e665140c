/**
 * Property tests of the foundation on random well-typed programs and values: printer/parser round
 * trip, type checking, interpreter failure discipline, data-format round trip.
 *
 * <p>Every property runs 1000 tries from a fresh random seed; on failure jqwik prints the seed and
 * the shrunk sample, and re-runs the failing sample first next time ({@code
 * AfterFailureMode.SAMPLE_FIRST}). To replay a reported run exactly, put its seed into the
 * annotation, e.g. {@code @Property(tries = 1000, seed = "-2387465128364")}, and run the one class
 * with {@code mvn -B -q -o -Dl0.buildDir=target-gen -pl dsl test -Dtest=ClassName
 * -Dsurefire.failIfNoSpecifiedTests=false}.
 */
package dev.l0.properties;
