package dev.l0.math;

/**
 * fdlibm 5.3's constants for {@code exp} ({@code e_exp.c}), {@code log} ({@code e_log.c}) and
 * {@code erf} ({@code s_erf.c}), as published: the one copy that the scalar algorithms ({@link
 * L0Math}) and the lane-wise ones ({@code dev.l0.kernels.vector.LaneMath}) both compute with, so
 * that the two cannot drift apart.
 */
public final class Fdlibm {
  private Fdlibm() {}

  /** fdlibm's ln2 split in two (e_exp.c's ln2HI[0], ln2LO[0]), and 1/ln2. */
  public static final double LN2_HI = 6.93147180369123816490e-01;

  public static final double LN2_LO = 1.90821492927058770002e-10;
  public static final double INV_LN2 = 1.44269504088896338700e+00;

  /** e_exp.c's polynomial coefficients P1..P5 and 2^-1000. */
  public static final double P1 = 1.66666666666666019037e-01;

  public static final double P2 = -2.77777777770155933842e-03;
  public static final double P3 = 6.61375632143793436117e-05;
  public static final double P4 = -1.65339022054652515390e-06;
  public static final double P5 = 4.13813679705723846039e-08;
  public static final double TWO_M1000 = 9.33263618503218878990e-302;

  // fdlibm e_log.c constants (its ln2_hi and ln2_lo are e_exp.c's LN2_HI and LN2_LO above)
  public static final double TWO54 = 1.80143985094819840000e+16;
  public static final double LG1 = 6.666666666666735130e-01;
  public static final double LG2 = 3.999999999940941908e-01;
  public static final double LG3 = 2.857142874366239149e-01;
  public static final double LG4 = 2.222219843214978396e-01;
  public static final double LG5 = 1.818357216161805012e-01;
  public static final double LG6 = 1.531383769920937332e-01;
  public static final double LG7 = 1.479819860511658591e-01;

  // fdlibm s_erf.c constants; the hexadecimal comments are the IEEE high and low words.
  public static final double TINY = 1e-300;

  /** c = (float) 0.84506291151, 0x3FEB0AC1 60000000. */
  public static final double ERX = 8.45062911510467529297e-01;

  public static final double EFX = 1.28379167095512586316e-01;
  public static final double EFX8 = 1.02703333676410069053e+00;
  // erf on [0, 0.84375]: x + x * PP(x^2) / QQ(x^2)
  public static final double PP0 = 1.28379167095512558561e-01;
  public static final double PP1 = -3.25042107247001499370e-01;
  public static final double PP2 = -2.84817495755985104766e-02;
  public static final double PP3 = -5.77027029648944159157e-03;
  public static final double PP4 = -2.37630166566501626084e-05;
  public static final double QQ1 = 3.97917223959155352819e-01;
  public static final double QQ2 = 6.50222499887672944485e-02;
  public static final double QQ3 = 5.08130628187576562776e-03;
  public static final double QQ4 = 1.32494738004321644526e-04;
  public static final double QQ5 = -3.96022827877536812320e-06;
  // erf on [0.84375, 1.25]: c + PA(s) / QA(s), s = |x| - 1
  public static final double PA0 = -2.36211856075265944077e-03;
  public static final double PA1 = 4.14856118683748331666e-01;
  public static final double PA2 = -3.72207876035701323847e-01;
  public static final double PA3 = 3.18346619901161753674e-01;
  public static final double PA4 = -1.10894694282396677476e-01;
  public static final double PA5 = 3.54783043256182359371e-02;
  public static final double PA6 = -2.16637559486879084300e-03;
  public static final double QA1 = 1.06420880400844228286e-01;
  public static final double QA2 = 5.40397917702171048937e-01;
  public static final double QA3 = 7.18286544141962662868e-02;
  public static final double QA4 = 1.26171219808761642112e-01;
  public static final double QA5 = 1.36370839120290507362e-02;
  public static final double QA6 = 1.19844998467991074170e-02;
  // erfc on [1.25, 1/0.35]: exp(-x*x - 0.5625 + RA(z) / SA(z)) / x, z = 1 / x^2
  public static final double RA0 = -9.86494403484714822705e-03;
  public static final double RA1 = -6.93858572707181764372e-01;
  public static final double RA2 = -1.05586262253232909814e+01;
  public static final double RA3 = -6.23753324503260060396e+01;
  public static final double RA4 = -1.62396669462573470355e+02;
  public static final double RA5 = -1.84605092906711035994e+02;
  public static final double RA6 = -8.12874355063065934246e+01;
  public static final double RA7 = -9.81432934416914548592e+00;
  public static final double SA1 = 1.96512716674392571292e+01;
  public static final double SA2 = 1.37657754143519042600e+02;
  public static final double SA3 = 4.34565877475229228821e+02;
  public static final double SA4 = 6.45387271733267880336e+02;
  public static final double SA5 = 4.29008140027567833386e+02;
  public static final double SA6 = 1.08635005541779435134e+02;
  public static final double SA7 = 6.57024977031928170135e+00;
  public static final double SA8 = -6.04244152148580987438e-02;
  // erfc on [1/0.35, 6]: as above with RB / SB
  public static final double RB0 = -9.86494292470009928597e-03;
  public static final double RB1 = -7.99283237680523006574e-01;
  public static final double RB2 = -1.77579549177547519889e+01;
  public static final double RB3 = -1.60636384855821916062e+02;
  public static final double RB4 = -6.37566443368389627722e+02;
  public static final double RB5 = -1.02509513161107724954e+03;
  public static final double RB6 = -4.83519191608651397019e+02;
  public static final double SB1 = 3.03380607434824582924e+01;
  public static final double SB2 = 3.25792512996573918826e+02;
  public static final double SB3 = 1.53672958608443695994e+03;
  public static final double SB4 = 3.19985821950859553908e+03;
  public static final double SB5 = 2.55305040643316442583e+03;
  public static final double SB6 = 4.74528541206955367215e+02;
  public static final double SB7 = -2.24409524465858183362e+01;
}
