#!/usr/bin/env python3
"""Where the L0 query of bin/l0-job risk-benchmark spends its time, from a JFR recording.

usage: JAVA_OPTS="-XX:StartFlightRecording=filename=REC.jfr,settings=profile" bin/l0-job risk-benchmark
       jfr print --json --stack-depth 300 --events jdk.ExecutionSample REC.jfr > REC.json
       bench/jfr-risk-split.py REC.json [TOP]

Unlike jfr-split.py (the parquet benchmark's task threads), this takes the samples of every thread
(tasks, the driver's planning, broadcast and shuffle threads) in the L0 query's windows: 100 ms
windows are labelled L0 where most of their labelled samples show the pipeline, its kernels or the
element-wise exact sum, and SQL where they show the SQL variants' erf UDF, StrictMath or the
scalar exact sum; an unlabelled window
takes its predecessor's label; the first L0 span (the warm-up, which compiles) is left out. Each
sample goes to the part its topmost recognised frame names (so a kernel frame under the
aggregation iterator counts as kernel). Prints one line per part with its share of the L0 samples,
and the TOP most sampled methods of each.
"""
import collections
import jfr_samples
import sys

WINDOW = jfr_samples.WINDOW
PARTS = [
    ('kernel', ('dev.l0.kernels.jvm.generated.Kernel', 'dev.l0.kernels.vector', 'jdk.incubator.vector',
                'dev.l0.math')),
    ('exact sum (ExactFloatSum)', ('dev.l0.kernels.exact',)),
    ('Parquet decode', ('parquet', 'Parquet', 'FileScanRDD')),
    ('L0 data path (spark-plugin)', ('dev.l0.spark',)),
    ('L0 runtime, other', ('dev.l0',)),
    ('broadcast join: build and probe', ('BroadcastHash', 'HashedRelation', 'BroadcastExchange')),
    ('aggregate input (SafeProjection, toDoubleArray) and buffers',
     ('SafeProjection', 'toDoubleArray', 'ObjectAggregat', 'ScalaAggregator', 'TypedImperativeAggregate',
      'ObjectHashAggregate')),
    ('whole-stage code (ColumnarToRow, join, UnsafeRow writes)',
     ('UnsafeRowWriter', 'UnsafeWriter', 'GeneratedIterator', 'ColumnarToRow', 'UnsafeProjection',
      'Platform.copyMemory')),
    ('shuffle and task serialization', ('Shuffle', 'shuffle', 'Serializ', 'Kryo', 'ObjectOutputStream',
                                        'ObjectInputStream')),
    ('planning and code generation', ('janino', 'codehaus', 'catalyst.analysis', 'catalyst.optimizer',
                                      'QueryExecution', 'catalyst.rules', 'CodeGenerator')),
]


def query_of(names):
    joined = ' '.join(names)
    if any(k in joined for k in ('generated.Kernel', 'dev.l0.spark.plan', 'dev.l0.spark.pipeline',
                                 'ExactSums$VectorSum')):
        return 'L0'
    if any(k in joined for k in ('ExactSums$ScalarSum', 'L0Math.erf', 'StrictMath', 'FdLibm')):
        return 'SQL'
    return None


def part_of(names):
    for name in names:
        for part, keys in PARTS:
            if any(k in name for k in keys):
                return part
    return 'other'


def main():
    top = int(sys.argv[2]) if len(sys.argv) > 2 else 0
    samples = jfr_samples.samples(sys.argv[1], lambda thread: 'JFR' not in thread)
    windows = jfr_samples.windows(samples, query_of)
    label = None
    spans = []
    for t, names in samples:
        w = int(t / WINDOW)
        if windows.get(w):
            label = windows[w].most_common(1)[0][0]
        if spans and spans[-1][0] == label:
            spans[-1][1].append(names)
        else:
            spans.append([label, [names]])
    parts = collections.Counter()
    methods = collections.defaultdict(collections.Counter)
    l0_spans = 0
    for q, span in spans:
        if q != 'L0' or len(span) < 20:
            continue
        l0_spans += 1
        if l0_spans == 1:
            continue
        for names in span:
            part = part_of(names)
            parts[part] += 1
            methods[part]['.'.join(names[0].split('.')[-2:]) if names else '?'] += 1
    total = sum(parts.values())
    for part, n in parts.most_common():
        print(f'{part:60} {n:6} {100 * n / total:5.1f}%')
        for name, m in methods[part].most_common(top):
            print(f'{"":9}{m:6} {name}')
    print('L0 samples:', total, 'timed L0 spans:', l0_spans - 1)


if __name__ == '__main__':
    main()
