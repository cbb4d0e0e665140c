"""(Adapted from the s12 audit.) Runs every audit program on every mode and compares with expected.py and across devices.
Usage: python3 run_audit.py [name-prefix ...]"""
import math, os, re, subprocess, sys
import expected
import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
L0 = os.path.join(HERE, '..', 'bin', 'l0')
MODES = {'interp': ['--no-opt'], 'opt': [], 'jvm': ['--device', 'jvm'], 'sim': ['--device', 'sim']}

class P:
    def __init__(s, t): s.t, s.i = t, 0
    def ws(s):
        while s.i < len(s.t) and s.t[s.i].isspace(): s.i += 1
    def val(s):
        s.ws(); c = s.t[s.i]
        if c == '[':
            s.i += 1; out = []
            s.ws()
            if s.t[s.i] == ']': s.i += 1; return out
            while True:
                out.append(s.val()); s.ws()
                if s.t[s.i] == ',': s.i += 1; continue
                assert s.t[s.i] == ']', s.t[s.i:]; s.i += 1; return out
        if c == '{':
            s.i += 1; out = []
            s.ws()
            if s.t[s.i] == '}': s.i += 1; return tuple(out)
            while True:
                out.append(s.val()); s.ws()
                if s.t[s.i] == ',': s.i += 1; continue
                assert s.t[s.i] == '}'; s.i += 1; return tuple(out)
        if s.t.startswith('empty(', s.i):
            j = s.t.index(')', s.i); s.i = j + 1; return []
        m = re.compile(r'true|false|-?inf|nan|-?[0-9.eE+-]+(i64|f32|i32|f64)?').match(s.t, s.i)
        tok = m.group(0); s.i = m.end()
        if tok == 'true': return True
        if tok == 'false': return False
        if tok in ('inf', '-inf', 'nan'): return float(tok)
        isf32 = tok.endswith('f32')
        tok = re.sub(r'(i64|f32|i32|f64)$', '', tok)
        if re.fullmatch(r'-?[0-9]+', tok) and not isf32: return int(tok)
        return float(np.float32(float(tok))) if isf32 else float(tok)

def parse(out):
    lines = [l for l in out.strip().split('\n') if l.strip()]
    vals = [P(l).val() for l in lines]
    return vals[0] if len(vals) == 1 else tuple(vals)

def close(a, b, path='r'):
    if isinstance(b, tuple) or isinstance(b, list):
        if not isinstance(a, (list, tuple)) or len(a) != len(b):
            return f'{path}: {a!r} vs expected {b!r}'
        for i, (x, y) in enumerate(zip(a, b)):
            r = close(x, y, f'{path}[{i}]')
            if r: return r
        return None
    if isinstance(b, bool):
        return None if a is b else f'{path}: {a!r} vs expected {b!r}'
    if isinstance(b, int):
        return None if (type(a) is int and a == b) else f'{path}: {a!r} vs expected {b!r}'
    if isinstance(b, float):
        if not isinstance(a, float): return f'{path}: {a!r} (not a float) vs expected {b!r}'
        if a == b or (math.isnan(a) and math.isnan(b)): return None
        if abs(a - b) <= 1e-12 * max(1.0, abs(b)): return None
        return f'{path}: {a!r} vs expected {b!r}'
    return f'{path}: unexpected {b!r}'

def firstdiff(a, b):
    if a[0] != b[0]: return f'rc {a[0]} vs {b[0]}'
    x, y = a[1], b[1]
    i = next((k for k in range(min(len(x), len(y))) if x[k] != y[k]), min(len(x), len(y)))
    return f'at char {i}: ...{x[max(0,i-60):i+60]!r} vs ...{y[max(0,i-60):i+60]!r}'

def run(prog, inp, mode):
    p = subprocess.run([L0, 'run', prog] + MODES[mode], input=inp, capture_output=True, text=True, timeout=300)
    return p.returncode, p.stdout, p.stderr

def main():
    names = sorted(f[:-3] for f in os.listdir(HERE) if f.endswith('.l0'))
    if len(sys.argv) > 1:
        names = [n for n in names if any(n.startswith(a) for a in sys.argv[1:])]
    names = [n for n in names if n in expected.E]
    summary = {}
    for n in names:
        prog = os.path.join(HERE, n + '.l0')
        inp = open(os.path.join(HERE, n + '.in')).read()
        exp = expected.E.get(n)
        outs = {}
        for mode in MODES:
            rc, out, err = run(prog, inp, mode)
            err = '\n'.join(l for l in err.split('\n') if not l.startswith('device:'))
            outs[mode] = (rc, out, err)
            if isinstance(exp, tuple) and exp and exp[0] == 'error':
                ok = rc == 4 and exp[1] in err
                verdict = 'ok' if ok else f'EXPECTED error containing {exp[1]!r}'
            elif isinstance(exp, tuple) and exp and exp[0] == 'within':
                # ('within', rel, value): float results whose order of summation is documented to differ
                try:
                    got = parse(out)
                    ok = rc == 0 and all(abs(g - e) <= exp[1] * abs(e) for g, e in zip(got, exp[2]))
                except Exception as e:
                    ok = False
                verdict = 'ok' if ok else f'WRONG not within {exp[1]} of {exp[2]!r}'
            elif rc != 0:
                verdict = f'FAIL rc={rc}'
            else:
                try:
                    d = close(parse(out), exp)
                except Exception as e:
                    d = f'unparsable output: {e!r}'
                verdict = 'ok' if d is None else 'WRONG ' + d
            summary.setdefault(mode, [0, 0])[0 if verdict == 'ok' else 1] += 1
            print(f'{n:18s} {mode:6s} rc={rc} {verdict}')
            if verdict != 'ok' or rc != 0:
                print('   stdout:', out.strip()[:400].replace('\n', ' | '))
                print('   stderr:', err.strip()[:600].replace('\n', ' | '))
        if outs['jvm'][:2] != outs['sim'][:2]:
            print(f'{n:18s} JVM/SIM DIFFER: ' + firstdiff(outs['jvm'], outs['sim']))
        if outs['opt'][:2] != outs['jvm'][:2]:
            print(f'{n:18s} OPT/JVM DIFFER: ' + firstdiff(outs['opt'], outs['jvm']))
        e = subprocess.run([L0, 'explain', prog], capture_output=True, text=True, timeout=300)
        bad = [l for l in e.stdout.split('\n') if 'evaluator' in l]
        print(f'{n:18s} explain rc={e.returncode} ' + ('EVALUATOR: ' + bad[0][:200] if bad else 'no kernel on the evaluator') + ('' if e.returncode == 0 else ' ' + e.stderr.strip()[:400]))
        sys.stdout.flush()
    print('SUMMARY (ok, not ok) per mode:', summary)

main()
