#!/usr/bin/env bash
# Runs bench_codec the way bench/RESULTS.md's codec figures are measured: under an exclusive flock on
# $RINGKERNEL_BENCH_LOCK (default /tmp/rk-cpu.lock; builds on a shared machine take it shared and
# wait), REPS (default 20) short repetitions of every benchmark in random order, so that ringkernel
# and its peers sample the same moments of the machine; then the table of the fastest repetition of
# each (ratios.py --statistic min) and, for comparison, of the medians.
# Usage: bench/codec/run.sh BUILD_DIR OUT.json [extra bench_codec flags, e.g. --benchmark_filter=decode]
set -euo pipefail
build=$1 out=$2
shift 2
here=$(cd "$(dirname "$0")" && pwd)
flock -x "${RINGKERNEL_BENCH_LOCK:-/tmp/rk-cpu.lock}" \
  "$build/bench/codec/bench_codec" --benchmark_min_time=0.05 --benchmark_repetitions="${REPS:-20}" \
  --benchmark_enable_random_interleaving=true --benchmark_format=json "$@" > "$out"
echo "$(date -u '+%Y-%m-%d %H:%M UTC'), $(nproc) CPUs, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2-)"
python3 "$here/ratios.py" --statistic min < "$out"
echo
python3 "$here/ratios.py" --statistic median < "$out"
