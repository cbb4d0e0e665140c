/**
 * FinPar's risk benchmarks (R0 OptionPricing, R1 LocVolCalib, R2 InterestCalib) written in Java
 * with the staged DSL {@code dev.l0.dsl}: the same computations as the text programs under {@code
 * programs/finpar/}, each building an L0 program whose entry {@code main} takes the dataset's
 * values in file order and returns what FinPar's {@code output.data} holds.
 */
package dev.l0.programs.finpar;
