/**
 * The Java DSL: L0 programs written in Java with staged lambdas, in the style of Lightweight
 * Modular Staging; running the Java code once on symbolic handles builds the external IR.
 *
 * <p>Example (the thesis's P0 kernel, abridged):
 *
 * <pre>{@code
 * import static dev.l0.dsl.L0.*;
 *
 * ValType<Tup4<Bool, F64, F64, F64>> option = Tup4.of(Bool.TYPE, F64.TYPE, F64.TYPE, F64.TYPE);
 * Program p = L0.program(prog -> {
 *   Fn1<F64, F64> cnd = prog.fun("cnd", F64.TYPE, d -> ...);
 *   Fn1<Tup4<Bool, F64, F64, F64>, F64> go = prog.fun("go", option, x -> {
 *     F64 price = x._2(), strike = x._3(), years = x._4();
 *     F64 vSqrtT = let("v_sqrtT", f64(0.30).mul(years.sqrt()));
 *     F64 d1 = price.div(strike).log().add(f64(0.125).mul(years)).div(vSqrtT);
 *     F64 d2 = d1.sub(vSqrtT);
 *     return ifThenElse(x._1(),
 *         () -> price.mul(cnd.call(d1)).sub(strike.mul(cnd.call(d2))),
 *         () -> ...);
 *   });
 *   prog.fun("blackscholes", Arr.of(option), xs -> map(xs, go));
 * });
 * }</pre>
 *
 * <p>Handles: {@link dev.l0.dsl.F64}, {@link dev.l0.dsl.F32}, {@link dev.l0.dsl.I32}, {@link
 * dev.l0.dsl.I64}, {@link dev.l0.dsl.Bool}, {@link dev.l0.dsl.Arr}, {@link dev.l0.dsl.Tup2} ...
 * {@link dev.l0.dsl.Tup6}, and {@link dev.l0.dsl.TupN} for tuples of any arity (seven components
 * and more), read by position and type; arithmetic only combines handles of one type, so Java
 * rejects most ill-typed programs and the L0 type checker the rest. Integers also have the bitwise
 * operators ({@code xor}, {@code bitAnd}, {@code bitOr}, {@code shiftLeft}, {@code shiftRight}).
 *
 * <p>Functions: {@code prog.fun} takes one to three typed parameters ({@link dev.l0.dsl.Fn1} ...
 * {@link dev.l0.dsl.Fn3}), or any number as a list of types, the body reading each by position and
 * type ({@code prog.fun("main", List.of(I32.TYPE, Arr.of(F64.TYPE)), p -> ... p.get(1,
 * Arr.of(F64.TYPE)) ...)}, a {@link dev.l0.dsl.FnN}); {@code dev.l0.programs.finpar} has entries of
 * 9 and 15 parameters. {@link dev.l0.dsl.ValType#named} names a function's parameter ({@code
 * Arr.of(F64.TYPE).named("prices")}): the staged function declares it by that name, which a Spark
 * pipeline's {@code with} binds, and the body of a list-typed function may read it by name ({@code
 * p.get("prices", Arr.of(F64.TYPE))}).
 *
 * <p>Sharing: every operation is staged once, where the Java code performs it. A value used once is
 * written at its use; a value used twice (a Java variable read twice), or used inside a lambda or
 * loop body while staged outside it, is bound once with {@code let}, so staging never duplicates
 * work. A value never used is bound with {@code let} as well, so an operation that may fail (an
 * index, a division, a call) fails as in the same text program. {@link dev.l0.dsl.L0#let} binds a
 * value explicitly. The precise rule is in {@code Reifier}.
 *
 * <p>Positions: every node carries {@code SourcePos(JavaFile.java, line, 0)} of the user's line
 * that staged it (the first stack frame outside this package), so type errors found later point at
 * the Java line. Unnamed parameters get generated names ({@code p_N}, {@code x_N}), never a name a
 * user gave; type errors name them as the user wrote them instead, by position and type in their
 * function or lambda ("the 2nd parameter (i64) of the lambda at Job.java:12", see {@link
 * dev.l0.ir.Param#description}); likewise the values it binds under generated names ({@code t_N},
 * {@code c_N}, {@code acc_N}), by the operation and line that made them ("the result of the map at
 * Job.java:14", "component 2 of the accumulator of the loop at Job.java:20", see {@link
 * dev.l0.ir.Pattern.Name#description}). Errors the DSL sees itself (a value used outside the lambda
 * that staged it or in another function or program, a reshape to the wrong rank, a null argument, a
 * {@code ProgramBuilder} used after its program was built, a function of another program, ...) are
 * {@link dev.l0.ir.L0CompileError}s at that line.
 */
package dev.l0.dsl;
