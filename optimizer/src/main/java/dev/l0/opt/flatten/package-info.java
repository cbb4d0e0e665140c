/**
 * Conversion of a type-checked external L0 program into internal L0 (thesis ch. 4): tuples and
 * arrays of tuples flattened, zip/unzip removed, zip's size checks turned into certificates.
 */
package dev.l0.opt.flatten;
