#!/usr/bin/env bash
# Runs bench_codec the way bench/RESULTS.md's codec figures are measured: under an exclusive flock on
# $RINGKERNEL_BENCH_LOCK (default /tmp/rk-cpu.lock; builds on a shared machine take it shared and
# wait), REPS (default 20) short repetitions of every benchmark in random order, so that ringkernel
# and its peers sample the same moments of the machine; then the table of the fastest repetition of
# each (ratios.py --statistic min) and, for comparison, of the medians.
# It builds nothing: BUILD_DIR must hold bench/codec/bench_codec (bench/README.md says how).
# Usage: bench/codec/run.sh BUILD_DIR OUT.json [extra bench_codec flags, e.g. --benchmark_filter=decode]
set -euo pipefail
usage() {
  sed -n 's/^# Usage: //p' "$0"
  echo "  REPS=N (default 20, at least 2): repetitions of each benchmark; RINGKERNEL_BENCH_LOCK: the lock file"
}
if [ "${1:-}" = -h ] || [ "${1:-}" = --help ]; then usage; exit 0; fi
if [ $# -lt 2 ]; then usage >&2; exit 2; fi
build=$1 out=$2
shift 2
here=$(cd "$(dirname "$0")" && pwd)
bin="$build/bench/codec/bench_codec"
if [ ! -x "$bin" ]; then
  echo "run.sh: $bin not built: cmake --build $build --target bench_codec (it needs Google Benchmark," \
       "libmsgpack-dev and libmsgpack-cxx-dev; configure says so when one is missing)" >&2
  exit 2
fi
reps=${REPS:-20}
if ! [[ $reps =~ ^[0-9]+$ ]] || [ "$reps" -lt 2 ]; then
  echo "run.sh: REPS=$reps: the fastest-repetition table needs at least 2 repetitions" >&2
  exit 2
fi
flock -x "${RINGKERNEL_BENCH_LOCK:-/tmp/rk-cpu.lock}" \
  "$bin" --benchmark_min_time=0.05 --benchmark_repetitions="$reps" \
  --benchmark_enable_random_interleaving=true --benchmark_format=json "$@" > "$out"
# Google Benchmark exits 0 when --benchmark_filter matches nothing, leaving an empty file.
if [ ! -s "$out" ]; then
  echo "run.sh: bench_codec wrote nothing into $out (a --benchmark_filter that matches no benchmark?)" >&2
  exit 1
fi
commit=$(git -C "$here" rev-parse --short=12 HEAD 2>/dev/null || echo unknown)
if [ -n "$(git -C "$here" status --porcelain --untracked-files=no 2>/dev/null)" ]; then commit+=" + uncommitted changes"; fi
echo "$(date -u '+%Y-%m-%d %H:%M UTC'), $(nproc) CPUs, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2-), commit $commit"
python3 "$here/ratios.py" --statistic min < "$out"
echo
python3 "$here/ratios.py" --statistic median < "$out"
