#!/usr/bin/env bash
# Runs bench_queue as ROUNDS rounds (default 15) under an exclusive flock on $RINGKERNEL_BENCH_LOCK
# (default /tmp/rk-cpu.lock; builds on a shared machine take it shared and wait), after waiting
# (up to RINGKERNEL_BENCH_IDLE_WAIT seconds, default 600; 0: no wait) for 2 seconds in which the
# machine is idle. Each round runs every selected
# benchmark once, in random order, so the contenders of a round see the same machine state (on this
# VM the host moves the two vCPUs: the core-to-core line latency changes by 3x between minutes);
# summarize.py compares contenders within each round and reports the median of those ratios.
# It also reports how much CPU time other processes used meanwhile (should be ~0).
# The rows pin their threads by index into the process's affinity mask (transfer.h): on a machine
# with more cores, `taskset -c A,B bench/queue/run.sh ...` picks the two cores.
# It builds nothing: BUILD_DIR must hold bench/queue/bench_queue (bench/README.md says how).
# Usage: bench/queue/run.sh BUILD_DIR OUT_PREFIX [extra bench_queue flags, e.g. --benchmark_filter=Spsc]
# Then:  bench/queue/summarize.py OUT_PREFIX.r*.json
set -euo pipefail
usage() {
  sed -n 's/^# Usage: //p; s/^# Then: /Then: /p' "$0"
  echo "  ROUNDS=N (default 15); RINGKERNEL_BENCH_IDLE_WAIT=SECONDS (default 600, 0: no wait); RINGKERNEL_BENCH_LOCK: the lock file"
}
if [ "${1:-}" = -h ] || [ "${1:-}" = --help ]; then usage; exit 0; fi
if [ $# -lt 2 ]; then usage >&2; exit 2; fi
if [ ! -x "$1/bench/queue/bench_queue" ]; then
  echo "run.sh: $1/bench/queue/bench_queue not built: cmake --build $1 --target bench_queue (it needs Google" \
       "Benchmark, libboost-dev, libreaderwriterqueue-dev and libconcurrentqueue-dev; configure says so when one is missing)" >&2
  exit 2
fi
if [ ! -x /usr/bin/time ]; then
  echo "run.sh: needs /usr/bin/time (Debian package: time) to count the CPU time bench_queue used" >&2
  exit 2
fi
if ! [[ ${ROUNDS:-15} =~ ^[0-9]+$ ]] || [ "${ROUNDS:-15}" -lt 1 ]; then
  echo "run.sh: ROUNDS=${ROUNDS:-}: a number of rounds, at least 1" >&2
  exit 2
fi
if ! [[ ${RINGKERNEL_BENCH_IDLE_WAIT:-600} =~ ^[0-9]+$ ]]; then
  echo "run.sh: RINGKERNEL_BENCH_IDLE_WAIT=${RINGKERNEL_BENCH_IDLE_WAIT}: seconds, 0 for no wait" >&2
  exit 2
fi
exec flock -x "${RINGKERNEL_BENCH_LOCK:-/tmp/rk-cpu.lock}" bash -s -- "$@" <<'INNER'
set -euo pipefail
build=$1 out=$2
shift 2
busy() { awk '/^cpu /{print $2+$3+$4+$7+$8+$9}' /proc/stat; }  # user nice system irq softirq steal
hz=$(getconf CLK_TCK)
wait_s=${RINGKERNEL_BENCH_IDLE_WAIT:-600}
if [ "$wait_s" -gt 0 ]; then
  echo "run.sh: waiting up to $wait_s s (RINGKERNEL_BENCH_IDLE_WAIT) for 2 idle seconds..." >&2
  idle=0 waited=0
  while [ "$waited" -lt "$wait_s" ]; do
    x=$(busy); sleep 2; y=$(busy); waited=$((waited + 2))
    if [ $((y - x)) -le $((hz / 10)) ]; then idle=1; break; fi
  done
  if [ "$idle" = 1 ]; then
    echo "run.sh: the machine was idle after $waited s" >&2
  else
    echo "run.sh: the machine stayed busy for $waited s; running anyway (the figures are not a quiet machine's)" >&2
  fi
fi
before=$(busy)
start=$(date +%s.%N)
mine=0
for r in $(seq -w 1 "${ROUNDS:-15}"); do
  /usr/bin/time -f '%U %S' -o "$out.time" "$build/bench/queue/bench_queue" --benchmark_enable_random_interleaving=true \
    --benchmark_format=json "$@" > "$out.r$r.json"
  read -r user sys < "$out.time"
  mine=$(awk -v m="$mine" -v u="$user" -v s="$sys" 'BEGIN { print m + u + s }')
  # Google Benchmark exits 0 when --benchmark_filter matches nothing, leaving an empty file.
  if [ ! -s "$out.r$r.json" ]; then
    rm -f "$out.time" "$out.r$r.json"
    echo "run.sh: bench_queue wrote nothing (a --benchmark_filter that matches no row?); stopped" >&2
    exit 1
  fi
done
end=$(date +%s.%N)
after=$(busy)
rm -f "$out.time"
awk -v b="$before" -v a="$after" -v hz="$hz" -v m="$mine" -v t0="$start" -v t1="$end" 'BEGIN {
  total = (a - b) / hz; wall = t1 - t0;
  printf "%s: wall %.1f s; CPU used by bench_queue %.1f s, by other processes %.1f s\n",
         strftime("%Y-%m-%d %H:%M UTC", t0, 1), wall, m, total - m }' | tee "$out.load"
echo "Then: bench/queue/summarize.py $out.r*.json" >&2
INNER
