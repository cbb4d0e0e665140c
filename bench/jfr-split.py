#!/usr/bin/env python3
"""Where the task threads of bin/l0-job parquet-benchmark spend their time, from a JFR recording.

usage: jfr print --json --stack-depth 300 --events jdk.ExecutionSample REC.jfr > REC.json
       bench/jfr-split.py REC.json [TOP]

Each execution sample of an "Executor task launch" thread, or of an "l0-compiler" thread (the
large-stack threads a task hands each runtime batch to, where the kernel runs), is given to the query that ran then: the
L0 pipeline over L0's own Parquet reader (`L0`: a stack with L0's plan and its reader), the L0
pipeline over Spark's reader (`L0sr`), L0's reader alone (`decodeL0`, the benchmark's decode-only
query over it), Spark SQL (StrictMath under Spark's generated code) or the scan-only query with
Spark's decode-only one (`scan`: Spark's generated code or its file scan without either; a 100 ms
window goes to the query most of its samples name),
by 100 ms windows; the first query of each (the warm-up) and the parquet write and the final
comparison are left out. Within a query a sample goes to the first part of the data path its stack
shows: the kernel (the generated kernel classes, VectorMath), Parquet decode, the copy out of
Spark's column vectors into runtime arrays, the output batch, another part of the L0 runtime, or
Spark's whole-stage code (ColumnarToRow, the expressions, the aggregate; StrictMath on its own).
Prints one line per part with its share of the query's samples, and the TOP most sampled methods.
Execution samples see Java code only, not time spent in native reads.
"""
import collections
import jfr_samples
import sys

WINDOW = jfr_samples.WINDOW

# The queries told apart: the L0 query over L0's own Parquet reader (fused or unfused aggregate),
# the L0 query over Spark's reader (spark.l0.parquet.ownReader=false), the batches decoded by L0's
# reader alone, Spark SQL, and the scan-only query with Spark's decode-only one. Samples of L0's
# kernel and runtime name no reader and go to the query their window's other samples name.
QUERIES = ('L0', 'L0sr', 'decodeL0', 'SQL', 'scan')


def query_of(names):
    joined = ' '.join(names)
    if 'ParquetWriteSupport' in joined or 'FileFormatWriter' in joined:
        return 'write'
    if 'Comparison' in joined or 'SpecificSafeProjection' in joined:
        return 'compare'
    if 'dev.l0.spark.parquet' in joined:
        return 'L0' if 'dev.l0.spark.plan' in joined else 'decodeL0'
    if 'dev.l0.spark' in joined and 'VectorizedParquetRecordReader' in joined:
        return 'L0sr'
    if 'dev.l0.spark' in joined or '.generated.Kernel' in joined:
        return None
    if 'StrictMath' in joined or 'FdLibm' in joined:
        return 'SQL'
    if 'GeneratedIterator' in joined or 'FileScanRDD' in joined:
        return 'scan'
    return None


def part_of(names):
    joined = ' '.join(names)
    top = names[0] if names else ''
    def has(*keys):
        return any(k in joined for k in keys)
    if has('.generated.Kernel', 'dev.l0.kernels.vector'):
        return 'kernel'
    if has('parquet', 'Parquet', 'FileScanRDD'):
        return 'Parquet decode'
    if has('ColumnReader', 'InputBatches'):
        return 'copy into runtime arrays'
    if has('OutputBatch', 'ArrowOutput', 'TaskOutput'):
        return 'output batch'
    if has('dev.l0.kernels', 'dev.l0.spark'):
        return 'L0 runtime call (not the kernel)'
    if has('GeneratedIterator'):
        if 'StrictMath' in top or 'FdLibm' in top:
            return 'whole-stage code: StrictMath'
        return 'whole-stage code: ColumnarToRow, expressions, aggregate'
    return 'other task work'


def main():
    top = int(sys.argv[2]) if len(sys.argv) > 2 else 0
    samples = jfr_samples.samples(
        sys.argv[1], lambda thread: 'Executor task launch' in thread or thread == 'l0-compiler')
    windows = jfr_samples.windows(samples, query_of)
    def label(t):
        w = int(t / WINDOW)
        for offset in (0, -1, 1, -2, 2, -3, 3):
            if windows.get(w + offset):
                return windows[w + offset].most_common(1)[0][0]
        return None
    spans = []
    for t, names in samples:
        q = label(t)
        if spans and spans[-1][0] == q:
            spans[-1][1].append(names)
        else:
            spans.append([q, [names]])
    seen = collections.Counter()
    parts = collections.Counter()
    methods = collections.defaultdict(collections.Counter)
    for q, span in spans:
        if q not in QUERIES or len(span) < 50:
            continue
        seen[q] += 1
        if seen[q] == 1:
            continue
        for names in span:
            part = part_of(names)
            parts[(q, part)] += 1
            methods[(q, part)]['.'.join(names[0].split('.')[-2:]) if names else '?'] += 1
    totals = collections.Counter()
    for (q, _), n in parts.items():
        totals[q] += n
    for (q, part), n in sorted(parts.items(), key=lambda x: (x[0][0], -x[1])):
        print(f'{q:4} {part:56} {n:6} {100 * n / totals[q]:5.1f}%')
        for name, m in methods[(q, part)].most_common(top):
            print(f'{"":9}{m:6} {name}')
    print('samples:', dict(totals), 'timed queries:', {q: seen[q] - 1 for q in seen})


if __name__ == '__main__':
    main()
