"""What bench/jfr-split.py and bench/jfr-risk-split.py share: reading a JFR recording's execution
samples (as `jfr print --json --stack-depth 300 --events jdk.ExecutionSample REC.jfr` writes them)
and counting, per 100 ms window, the samples that name each query.
"""
import collections
import json

WINDOW = 0.1


def seconds(event):
    """The event's start as seconds since midnight (the recording's clock)."""
    clock = event['values']['startTime'][11:].rstrip('Z').split('+')[0]
    h, m, s = clock.split(':')
    return int(h) * 3600 + int(m) * 60 + float(s)


def samples(path, keep_thread):
    """The samples of the threads whose names keep_thread accepts, in time order: (seconds, the
    stack's method names, innermost first)."""
    found = []
    for event in json.load(open(path))['recording']['events']:
        thread = event['values']['sampledThread']['javaName'] or ''
        trace = event['values'].get('stackTrace')
        if not trace or not keep_thread(thread):
            continue
        names = [f['method']['type']['name'].replace('/', '.') + '.' + f['method']['name']
                 for f in trace['frames']]
        found.append((seconds(event), names))
    found.sort(key=lambda s: s[0])
    return found


def windows(timed, query_of):
    """Per 100 ms window, how many samples name each query (query_of of a stack: a name or None)."""
    counts = collections.defaultdict(collections.Counter)
    for t, names in timed:
        q = query_of(names)
        if q:
            counts[int(t / WINDOW)][q] += 1
    return counts
