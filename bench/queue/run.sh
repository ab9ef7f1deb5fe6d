#!/usr/bin/env bash
# Runs bench_queue as ROUNDS rounds (default 15) under an exclusive flock on $RINGKERNEL_BENCH_LOCK
# (default /tmp/rk-cpu.lock; builds on a shared machine take it shared and wait), after waiting
# (up to 10 minutes) for 2 seconds in which the machine is idle. Each round runs every selected
# benchmark once, in random order, so the contenders of a round see the same machine state (on this
# VM the host moves the two vCPUs: the core-to-core line latency changes by 3x between minutes);
# summarize.py compares contenders within each round and reports the median of those ratios.
# It also reports how much CPU time other processes used meanwhile (should be ~0).
# Usage: bench/queue/run.sh BUILD_DIR OUT_PREFIX [extra bench_queue flags, e.g. --benchmark_filter=Spsc]
# Then:  bench/queue/summarize.py OUT_PREFIX.r*.json
set -euo pipefail
exec flock -x "${RINGKERNEL_BENCH_LOCK:-/tmp/rk-cpu.lock}" bash -s "$@" <<'INNER'
set -euo pipefail
build=$1 out=$2
shift 2
busy() { awk '/^cpu /{print $2+$3+$4+$7+$8+$9}' /proc/stat; }  # user nice system irq softirq steal
hz=$(getconf CLK_TCK)
for _ in $(seq 1 300); do
  x=$(busy); sleep 2; y=$(busy)
  if [ $((y - x)) -le $((hz / 10)) ]; then break; fi
done
before=$(busy)
start=$(date +%s.%N)
mine=0
for r in $(seq -w 1 "${ROUNDS:-15}"); do
  /usr/bin/time -f '%U %S' -o "$out.time" "$build/bench/queue/bench_queue" --benchmark_enable_random_interleaving=true \
    --benchmark_format=json "$@" > "$out.r$r.json"
  read -r user sys < "$out.time"
  mine=$(awk -v m="$mine" -v u="$user" -v s="$sys" 'BEGIN { print m + u + s }')
done
end=$(date +%s.%N)
after=$(busy)
rm -f "$out.time"
awk -v b="$before" -v a="$after" -v hz="$hz" -v m="$mine" -v t0="$start" -v t1="$end" 'BEGIN {
  total = (a - b) / hz; wall = t1 - t0;
  printf "%s: wall %.1f s; CPU used by bench_queue %.1f s, by other processes %.1f s\n",
         strftime("%Y-%m-%d %H:%M UTC", t0, 1), wall, m, total - m }' | tee "$out.load"
INNER
