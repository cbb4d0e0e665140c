#!/usr/bin/env bash
# check_errors.sh: bin/l0 check on every ill-formed program here; compares with expected_errors.txt
# (FILE: first line of the message, reviewed by hand: position and wording).
cd "$(dirname "$0")"
for f in e*.l0 u*.l0; do printf '%s\t' "$f"; ../../bin/l0 check "$f" 2>&1 | head -1; done > /tmp/l0-audit-errors.txt
diff expected_errors.txt /tmp/l0-audit-errors.txt && echo "all $(wc -l < expected_errors.txt) error messages as expected"
