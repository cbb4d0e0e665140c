#!/usr/bin/env bash
# Spark GPU discovery script (spark.executor.resource.gpu.discoveryScript): prints the GPUs of this
# machine as Spark's resource JSON, e.g. {"name":"gpu","addresses":["0","1"]}. Where nvidia-smi is
# missing or finds no GPU, it prints an empty address list (Spark then gives the executor no GPU).
set -euo pipefail
addresses=""
if command -v nvidia-smi >/dev/null 2>&1; then
  if indices="$(nvidia-smi --query-gpu=index --format=csv,noheader 2>/dev/null)"; then
    for index in $indices; do
      addresses="${addresses:+$addresses,}\"$index\""
    done
  fi
fi
printf '{"name":"gpu","addresses":[%s]}\n' "$addresses"
