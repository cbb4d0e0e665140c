/**
 * The math functions of L0 ({@code exp}, {@code log}, {@code sqrt}, {@code sin}, {@code cos},
 * {@code floor}, {@code erf}, {@code pow}) with results bit-identical to StrictMath (fdlibm).
 */
package dev.l0.math;
