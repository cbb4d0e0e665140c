"""Independent expectations for the s13 audit programs, computed in Python (not taken from the tool)."""
import math
import numpy as np

F32 = np.float32
def f32(x): return float(F32(x))
def w32(v): return (v + 2**31) % 2**32 - 2**31
def w64(v): return (v + 2**63) % 2**64 - 2**63
def tdiv(a, b):
    q = abs(a) // abs(b)
    return q if (a >= 0) == (b > 0) else -q
def tmod(a, b): return a - tdiv(a, b) * b

E = {}

def fact(n): return 1 if n == 0 else n * fact(n - 1)
def fibl(n):
    x, y = 1, 1
    for _ in range(max(n - 1, 0)): x, y = y, w32(x + y)
    return x
E['a01_fact_fib'] = (w32(fact(10)), w32(fact(13)), fibl(10), fibl(46), [fibl(n) for n in [1, 2, 5, 10, 12, 13, 20, 46, 47]])

A = np.array([[1, 2, 3], [4, 5, 6], [7, 8, 9]]); B = np.array([[9, 8, 7], [6, 5, 4], [3, 2, -1]])
E['a02_matmult_imp'] = (A @ B).tolist()
E['a03_modify_replace'] = ([5, 6, 7, 1008], [5, 100, 7, 200], [1, -1, 2, 3, 5, 8, 13])
M = np.arange(1, 21).reshape(5, 4)
E['a04_inner_fig46'] = M[1:-1, 1:-1].tolist()

def horner(x):
    c1, c2, c3, c4, c5 = 0.31938153, -0.356563782, 1.781477937, -1.821255978, 1.330274429
    return x * (c1 + x * (c2 + x * (c3 + x * (c4 + x * c5))))
def cnd0(d):
    k = 1.0 / (1.0 + 0.2316419 * abs(d)); p = horner(k)
    return 0.39894228040143267793994605993438 * math.exp(-0.5 * d * d) * p
def cnd(d):
    c = cnd0(d); return 1.0 - c if 0.0 < d else c
def go(call, price, strike, years):
    r, v = 0.08, 0.30
    vs = v * math.sqrt(years)
    d1 = (math.log(price / strike) + (r + 0.5 * v * v) * years) / vs
    d2 = d1 - vs
    c1, c2 = cnd(d1), cnd(d2)
    xe = strike * math.exp(-r * years)
    return price * c1 - xe * c2 if call else xe * (1.0 - c2) - price * (1.0 - c1)
E['a05_p0_verbatim'] = [go(*o) for o in [(True, 58.0, 65.0, 0.25), (False, 58.0, 65.0, 0.25), (True, 100.0, 100.0, 1.0), (False, 42.0, 40.0, 0.5), (True, 30.0, 60.0, 2.0)]]
E['a06_p1_verbatim'] = (np.array([[1, 2, 3], [4, 5, 6]]) @ np.array([[7, 8], [9, 10], [11, -12]])).tolist()
D = [[2, 4, 5], [1, 1000, 3], [3, 7, 1]]
E['a07_p2_verbatim'] = [[min(D[i][j], min(min(1200, D[i][k] + D[k][j]) for k in range(3))) for j in range(3)] for i in range(3)]
C = np.arange(24).reshape(2, 3, 4)
E['a08_transpose_kn'] = (np.transpose(C, (1, 0, 2)).tolist(), np.transpose(C, (1, 2, 0)).tolist(),
                         np.transpose(C, (0, 2, 1)).tolist(), np.transpose(C, (1, 0, 2)).tolist())
a_, b_, c_ = [1, 2, 3, -4], [10, 20, 30, 40], [7, 8, 9, 10]
E['a09_shimming'] = ([x + y for x, y in zip(a_, b_)], [x + y for x, y in zip(b_, c_)],
                     [x * y - z for x, y, z in zip(a_, b_, c_)], [x / y for x, y in zip(a_, b_)])
E['a10_sumpair_nullary'] = (7, 3.141592653589793 * 2.0, 5 + -7, 43, -7 + 5)
xs = [7, -7, 7, -7, -2147483648, 2147483647, 0, -1]; ds = [2, 2, -2, -2, -1, -1, -5, 3]
E['a11_int_edges'] = (-2**31, 0, -2**31, -2**31, -2**63, 0, -2**63, 2**63 - 1,
                      [w32(tdiv(x, d)) for x, d in zip(xs, ds)], [w32(tmod(x, d)) for x, d in zip(xs, ds)],
                      [w64(y * 3037000500 + 2**63 - 1) for y in [0, 1, -1, 3037000500, -4]])
xs = [1, -1, 5, -8, 1, -16, 123456789, -2147483648]; ss = [31, 31, 32, 33, 0, 2, 65, -1]
ys = [1, -1, 5, -8, 1, -16, 123456789, -2**63]
E['a12_shifts_bits'] = ([w32(x << (s & 31)) for x, s in zip(xs, ss)], [x >> (s & 31) for x, s in zip(xs, ss)],
                        [w64(y << (s & 63)) for y, s in zip(ys, ss)], [y >> ((s + 32) & 63) for y, s in zip(ys, ss)],
                        [w32((x ^ s) & (x | 255)) for x, s in zip(xs, ss)])
def sat(x, lo, hi):
    if math.isnan(x): return 0
    if x >= hi: return hi
    if x <= lo: return lo
    return int(x)  # int() truncates toward zero
rs = [2.9, -2.9, 0.5, -0.5, 3.0e9, -3.0e9, 1.0e19, -1.0e19, math.nan, math.inf, -math.inf, -0.0, 3.4028235677973366e38, 1e-50]
ys = [0, 1, -1, 4294967297, -4294967297, 2**63 - 1, -2**63, 16777217, 9007199254740993]
E['a13_conversions'] = ([sat(x, -2**31, 2**31 - 1) for x in rs], [sat(x, -2**63, 2**63 - 1) for x in rs],
                        [sat(x, -2**31, 2**31 - 1) for x in rs], [float(w32(y)) for y in ys],
                        [f32(x) for x in rs], [f32(y) for y in ys], [float(y) for y in ys])
bs = [2, 3, -2, -3, 0, 1, -1, 7, 2]; es = [10, 0, 3, 3, 5, 100, 7, 20, 31]
xr = [-7.5, 7.5, 2.0, -8.0, 0.0, math.inf, 1.0, -0.5, 3.0]; yr = [2.0, -2.0, 0.5, 0.3333333333333333, 0.0, 2.0, math.nan, 0.0, math.inf]
def jpow(x, y):  # java.lang.StrictMath.pow special cases where Python's differ
    if math.isnan(y): return math.nan
    try:
        return math.pow(x, y)
    except ValueError:
        return math.nan
    except OverflowError:
        return math.inf
def jfmod(x, y):
    try: return math.fmod(x, y)
    except ValueError: return math.nan
E['a14_pow_float_mod'] = (2 ** 9, 64, 1, [w32(b ** e) for b, e in zip(bs, es)], [jpow(x, y) for x, y in zip(xr, yr)],
                          [jfmod(x, y) for x, y in zip(xr, yr)], [float(math.floor(x)) if math.isfinite(x) else x for x in xr],
                          -0.0, 0.0)
E['a15_empty_reductions'] = (0, 1.0, (0, -math.inf), True, False, [], [], 0)
ys = [0.5, -1.25, 3.0, 2.0, 1e300, -1e300]; fl = [True, False, False, True, False, True]; vs = [1, 2, 3, 4, 5, 6]
sc, acc = [], (0, 0.0, -math.inf)
for y in ys:
    acc = (acc[0] + 1, acc[1] + y, max(acc[2], y)); sc.append(acc)
seg, sacc = [], (False, 0)
for f, v in zip(fl, vs):
    sacc = (sacc[0] or f, v if f else sacc[1] + v); seg.append(sacc)
x3 = 0
for v in vs: x3 ^= v
E['a16_tuple_scan'] = (sc, seg, (sum(vs), min(vs), x3))
xs, k = [3, 4, -5], 3
E['a17_maps_tuples_of_arrays'] = ([[int(v) for v in np.cumsum([i * x for i in range(k)])] for x in xs],
                                  [[[x / (i + 1) for i in range(k)]] * 2 for x in xs], [x % 2 == 0 for x in xs])
cube = [[[1, 5, 9], [0, 0, 7]], [[10, -3, 4], [6, 6, 6]], [[2, 2, 2], [8, 1, 9]]]
def rowf(row, t=4):
    kept = [v for v in row if v > t]; s = sum(kept)
    return [v - s if v > t else len(kept) for v in row]
E['a18_nested3_filter'] = [[rowf(r) for r in p] for p in cube]
E['a19_loop_bounds'] = (7, [0, 1, 2], [100 + sum(range(m)) if m > 0 else 100 for m in [0, -1, -2147483648, 3, 1]], 0)
E['a20_shadowing'] = (21, [21, 31, 41], 103, 1013, -24)
E['a21_deep_recursion'] = (100000 * 100001 // 2, 9, True, True)
E['a22_large_literals'] = (2**31 - 1, -2**31, 2**63 - 1, -2**63, 1.7976931348623157e308, 5e-324, 2.2250738585072014e-308,
                           f32(3.4028235e38), f32(1.4e-45), 0.3, 12)
E['a23_letwith_forms'] = ([[0, 0, 0], [4, 5, 6], [1, 2, 3], [10, 11, 12]], [[[-1, -2], [-3, -4]], [[5, 99], [7, 8]]], [1, 3, 6, 10, 15])
b2 = [[0.5, 1.5], [2.5, 3.5], [4.0, -4.0]]
E['a24_zip_unzip_arrays'] = ([1, 2, 3], b2, [True, False, True], [(1,), (2,), (3,)],
                             [(x * 2, (not f, r[0] + r[1])) for x, r, f in zip([1, 2, 3], b2, [True, False, True])])
xs = list(range(12))
E['a25_reshape_replicate_split'] = (np.reshape(xs, (2, 3, 2)).tolist(), xs, [np.reshape(xs, (3, 4)).tolist()] * 2, 2, 0, [], xs, xs, [], 12, [])
xs = [5, 9, 1, 12, 3, 7]; bs = [False, False, True, False]; rs = [2.0, -0.0, 0.0, 0.5]
def scanl(f, z, a):
    out = []
    for v in a: z = f(z, v); out.append(z)
    return out
from functools import reduce as fold
E['a26_sections_all_ops'] = ([10 - x for x in xs], [tdiv(100, x) for x in xs], [tmod(17, x) for x in xs], [2 ** (x & 7) for x in xs],
                             [x for x in xs if 3 < x], [5 == x for x in xs], scanl(lambda a, b: a - b, 0, xs), scanl(lambda a, b: a or b, False, bs),
                             fold(lambda a, b: a ^ b, xs, 0), fold(lambda a, b: a | b, xs, 0), fold(lambda a, b: a & b, xs, -1),
                             [1 << (x & 15) for x in xs], [-256 >> (x & 7) for x in xs], all(bs),
                             [math.copysign(math.inf, r) if r == 0 else 1.0 / r for r in rs])
ts, table, k = [0.0, 0.25, 1.0], [7, 8, 9], 1
lerp = lambda a, b, t: a + (b - a) * t
E['a27_curry_closures'] = ([lerp(1.0, 3.0, t) for t in ts], [table[(i + k) % 3] for i in range(5)],
                           [[[a * 100 + b * 10 + c + k + table[c] for c in range(2)] for b in range(2)] for a in range(2)],
                           [[lerp(t, 2.0 * t, u) for u in ts] for t in ts])
E['a28_odd_whitespace'] = 16
x32 = [F32(v) for v in [1.1, 2.2, -3.3, 1e7, 16777216.0, 1.0]]
s = F32(0)
for v in x32: s = F32(s + v)
def fm(fn, v): return F32(fn(float(v)))
def tr(v):
    a = fm(math.sqrt, F32(abs(v)))
    e = fm(lambda z: math.exp(z) if z < 709 else math.inf, F32(v / F32(100)))
    l = fm(math.log, F32(F32(abs(v)) + F32(1)))
    return float(F32(F32(a + e) - l))
with np.errstate(over='ignore'):
    E['a29_f32_exact'] = (float(s), [float(F32(F32(F32(v * v) / F32(3)) - F32(0.1))) for v in x32], [tr(v) for v in x32],
                          [float(z) for z in scanl(lambda a, b: F32(a * b), F32(1), x32)], float(F32(0.1)), float(F32(F32(0.1) + F32(0.2))))
E['r01_and_not_shortcircuit'] = ('error', 'r01_and_not_shortcircuit.l0:3:44: index: index 3 out of bounds for dimension 0 of size 3')
E['r02_update_oob'] = ('error', 'r02_update_oob.l0:4:5: update: index -1 out of bounds for dimension 0 of size 3')
E['r03_pow_negative_in_map'] = ('error', 'r03_pow_negative_in_map.l0:3:34: pow: negative exponent -1 for an integer power')
E['r05_concat_rows_mismatch'] = ('error', 'r05_concat_rows_mismatch.l0:2:42: concat: the rows of the first array have shape [2] but those of the second have shape [3]')
E['r06_int_mod_zero_in_scan'] = ('error', 'r06_int_mod_zero_in_scan.l0:2:65: %: integer division by zero')
def _ints(path):
    import re
    return [[int(v) for v in re.findall(r'-?\d+', line)] for line in open(path)]
def _bools(line):
    import re
    return [w == 'true' for w in re.findall(r'true|false', line)]
import os
_H = os.path.dirname(os.path.abspath(__file__))
xs = _ints(os.path.join(_H, 'a30_noncommutative_scan.in'))[0]
def mm(p, q):
    a, b, c, d = p; e, f, g, h = q
    return (w32(a * e + b * g), w32(a * f + b * h), w32(c * e + d * g), w32(c * f + d * h))
ms = [(1, x, 0, 1) if x % 2 == 0 else (1, 0, x, 1) for x in xs]
sc, acc = [], (1, 0, 0, 1)
for m in ms: acc = mm(acc, m); sc.append(acc)
af = (1, 0)
for x in xs:
    c, d = 2 * (x % 3 if x >= 0 else tmod(x, 3)) + 1, x
    af = (w64(af[0] * c), w64(c * af[1] + d))
E['a30_noncommutative_scan'] = (sc, acc, af)
_l = open(os.path.join(_H, 'a31_segscan_large.in')).read().split('\n')
fl, vs = _bools(_l[0]), _ints(os.path.join(_H, 'a31_segscan_large.in'))[1]
sums, s = [], 0
for f, v in zip(fl, vs):
    s = v if f else s + v; sums.append(s)
big = [v for v in sums if v > 100]
E['a31_segscan_large'] = (sum(big), len(big), sums[:10])
def safe(fn):
    def g(x):
        try: return fn(x)
        except OverflowError: return math.inf
        except ValueError: return math.nan
    return g
def jexp(x):
    if math.isnan(x): return math.nan
    return safe(math.exp)(x)
def jlog(x):
    if x == 0: return -math.inf
    if math.isnan(x) or x < 0: return math.nan
    return math.log(x)
def jsqrt(x):
    if x == 0 or math.isnan(x): return x
    return math.sqrt(x) if x > 0 else math.nan
def jtrig(fn):
    return lambda x: math.nan if math.isinf(x) or math.isnan(x) else fn(x)
def jfloor(x): return x if not math.isfinite(x) or x == 0 else float(math.floor(x))
xs = [0.0, -0.0, 1.0, -1.0, 0.5, -0.5, 709.0, 710.0, -745.0, -746.0, 1e22, -1e-300, 4.9e-324, math.inf, -math.inf, math.nan, 3.141592653589793, 1e300, 6.0, -30.0]
def f32of(fn):
    def g(x):
        with np.errstate(over='ignore'):
            v = float(F32(x))
        return float(F32(fn(v))) if not math.isnan(fn(v)) else math.nan
    return g
with np.errstate(over='ignore'):
    E['a32_math_edges'] = ([jexp(x) for x in xs], [jlog(x) for x in xs], [jsqrt(x) for x in xs], [jtrig(math.sin)(x) for x in xs],
                           [jtrig(math.cos)(x) for x in xs], [math.erf(x) if not math.isnan(x) else x for x in xs],
                           [jfloor(x) for x in xs], [abs(x) for x in xs], [f32of(jexp)(x) for x in xs], [f32of(jtrig(math.sin))(x) for x in xs])
xs = [math.nan, math.nan, 0.0, -0.0, 1.0, math.inf, -math.inf, math.nan]; ys = [math.nan, 1.0, -0.0, 0.0, 2.0, math.inf, math.inf, math.inf]
E['a33_nan_compare'] = ([x == y for x, y in zip(xs, ys)], [x != y for x, y in zip(xs, ys)], [x < y for x, y in zip(xs, ys)],
                        [x >= y for x, y in zip(xs, ys)], [(not (x <= y)) == (x > y) for x, y in zip(xs, ys)], True, True, 5, -1, 2)
E['a34_no_speculation'] = (0, -1, [], [], 0, [1, 2, 3], 6)
E['a35_fresh_per_iteration'] = (12345, [sum(10 + 100 - i for i in range(k)) for k in [0, 1, 2, 4]])
E['a36_alias_replicate'] = ([[1, 2, 3]] * 2, [[1, 2, 3]] * 2, ([1, 2, 3], 1), [[1, 2, 3]] * 2, [7, 2, 3])
row, ks = [1, 2, 3, 4, 5], [0, 1, 3, 5]
E['a37_split_in_thread'] = ([sum(row[:k]) * 100 - sum(row[k:]) for k in ks], [(row[k:] + row[:k])[0] * 10 + (row[k:] + row[:k])[-1] for k in ks],
                            [i * i for i in range(4)], 6)
rows = _ints(os.path.join(_H, 'a38_vector_scan_reduce.in'))[0]
rows = [rows[i:i + 40] for i in range(0, len(rows), 40)]
acc, sc = [0] * 40, []
for r in rows:
    acc = [w32(a + b) for a, b in zip(acc, r)]; sc.append(acc)
E['a38_vector_scan_reduce'] = (acc, sc, [max(c) for c in zip(*rows)])
m = [[1, -2, 3], [-5, 1, 1], [0, 0, 0], [7, 7, -1]]
sums = [sum(r) for r in m]
E['a39_filter_rows_tuples'] = ([r for r in m if sum(r) > 0], [(1, ([0.5, 9.0], True)), (5, ([4.5, -4.5], True))], sum(sums), [s * 4 for s in sums])
row, ks = [4, 1, 5, 9, 2], [0, 2, 5, 3]
def _cum(a):
    out, s = [], 0
    for v in a: s += v; out.append(s)
    return out
E['a40_thread_bounds'] = ([sum(range(len([x for x in row if x > k]))) for k in ks],
                          [([x for x in row if x > k] + row)[0] + len([x for x in row if x > k]) + 5 for k in ks],
                          [k % 5 for k in ks], [sum(_cum([2 * v for v in row[:k]])) for k in ks],
                          [sum(v * 10 if i < k else v for i, v in enumerate(row)) for k in ks], [row[k:] + row[:k] for k in ks])
E['a41_empty_tuples'] = (4, 3, ((),))
xs = [float(v) for v in open(os.path.join(_H, 'a42_float_sum_order.in')).read().strip()[1:-1].split(', ')]
E['a42_float_sum_order'] = ('within', 1e-5, (math.fsum(xs), math.fsum(xs), math.fsum(float(F32(x)) for x in xs)))
xs, ks = [1.5, -2.0, 9.0], [3, 4, 5]
E['a43_user_builtin_names'] = ([x * 2.0 for x in xs], [x + 1.0 for x in xs], [10 - k for k in ks], [1 + 2 + k for k in ks],
                               [7.0] * 3, [-x for x in xs], [42] * 3, [0.5] * 3, (7.0 + 1.0) * 2.0)
a, b = 0, 1
for _ in range(10): a, b = b, a + b
s = 0
for _ in range(3):
    for i in range(4): s = s * 2 + i
E['a44_loop_forms'] = (a, b, s, 3, [(9 - j) ** 2 for j in range(10)], sum(i * i for i in range(10)) + 20)
m, ks = [[1, 2, 3], [4, -5, 6], [7, 8, -9]], [0, 1, 2, -3, 5]
def _a45(k):
    c = [r[:] for r in m]; c[0] = [v * k for v in m[2]]
    for i in range(3): c[i][i] += k
    return sum(max(col) for col in zip(*c))
def _a45c(k):
    row = m[tmod(k, 3)]
    return sum(row) * 1000 + max(x * k for x in row)
E['a45_thread_2d'] = ([_a45(k) for k in ks], [[sum(r) for r in m] + [sum(r) + 3 * k for r in m] for k in ks], [_a45c(k) for k in ks])
xs = [float(v) for v in open(os.path.join(_H, 'a46_lanewise_region.in')).read().strip()[1:-1].split(', ')]
def _region(x):
    if x < 0.5:
        q = x - 0.5; r = q * q
        return (((((2.5 * r + 3.3) * r + 1.1) * r + 4.4) * r + 0.7) * q) / (((((1.3 * r + 0.9) * r + 2.2) * r + 0.1) * r + 1.0) + r)
    r = jsqrt(-jlog(1.0 - x + 1e-300))
    return (((((0.3 * r + 1.2) * r + 2.7) * r + 0.6) * r + 1.4) + r) / ((((0.8 * r + 1.1) * r + 0.5) * r + 1.9) * r + 1.0)
def _mul(a, b):
    if (a == 0 and math.isinf(b)) or (b == 0 and math.isinf(a)): return math.nan
    return a * b
def _add(*vs):
    s = vs[0]
    for v in vs[1:]:
        if math.isinf(s) and math.isinf(v) and s != v: s = math.nan
        else: s = s + v
    return s
def _b(x):
    e = _mul(jexp(x), jlog(abs(x)))
    return _add(e, jsqrt(x), -jpow(x, 1.5), math.erf(x) if not math.isnan(x) else x)
def _c(x): return jtrig(math.sin)(x) if x > 2.0 else _mul(jtrig(math.cos)(x), 2.0)
with np.errstate(all='ignore'):
    E['a46_lanewise_region'] = ([_region(x) for x in xs], [_b(x) for x in xs], [_c(x) for x in xs])
E['a47_i64_sizes'] = ([[0, 1], [0, 1]], [3, 1], [4, 1, 5, 9], [[3, 1, 4], [1, 5, 9]], 1, 12, [sum(range(x)) for x in [3, 1, 4, 1, 5, 9]])
E['a48_nested_shim'] = ([147, 251, 369], [(2, 5, 1)], 200)
E['r07_update_row_size'] = ('error', 'r07_update_row_size.l0:3:3: update: the new value has shape [2] but the updated part has shape [3]')
E['r04_replicate_negative'] = ('error', 'r04_replicate_negative.l0:2:27: replicate: negative size -3')
E['a49_cse_across_updates'] = (3008, 71, [10101, 10204, 10312])
E['a50_cr_line_ends'] = 8
