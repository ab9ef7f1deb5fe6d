#!/usr/bin/env bash
# Generator benchmark (not a test): ringkernel-gen on a header with 1,000 message types against
# clang++-19 -fsyntax-only on the same header, run alternately and side by side; prints the medians
# and the ratio. The timed runs hold an exclusive flock on $RINGKERNEL_BENCH_LOCK (default
# /tmp/rk-cpu.lock), as bench/codec/run.sh and bench/queue/run.sh do (builds on a shared machine take
# it shared and wait). ringkernel-gen works on more than one thread, clang on one: RESULTS.md's figures
# are from 2-core machines (on a bigger one, `taskset -c 0,1 bench/generator/run.sh` gives it 2 cores).
# It prints wall times only (RESULTS.md's CPU-time ratio is not measured here).
# Usage: bench/generator/run.sh [BUILD_DIR (default build/default)] [COUNT (default 1000)] [REPETITIONS (default 9)]
set -euo pipefail
if [ "${1:-}" = -h ] || [ "${1:-}" = --help ]; then sed -n 's/^# Usage: //p' "$0"; exit 0; fi
root="$(cd "$(dirname "$0")/../.." && pwd)"
build="${1:-$root/build/default}"
count="${2:-1000}"
reps="${3:-9}"
gen="$build/generator/ringkernel-gen"
[ -x "$gen" ] || { echo "run.sh: $gen not built (cmake --build $build --target ringkernel-gen)" >&2; exit 2; }
for n in "$count" "$reps"; do
  [[ $n =~ ^[1-9][0-9]*$ ]] || { echo "run.sh: '$n' is not a positive count ($(sed -n 's/^# Usage: //p' "$0"))" >&2; exit 2; }
done
command -v clang++-19 > /dev/null || { echo "run.sh: clang++-19 not found (Debian package clang-19; scripts/setup.sh installs it)" >&2; exit 2; }

work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
python3 "$root/bench/generator/make_header.py" "$count" "$work/messages.h"

flock -x "${RINGKERNEL_BENCH_LOCK:-/tmp/rk-cpu.lock}" python3 - "$gen" "$work" "$reps" "$count" <<'PY'
import statistics, subprocess, sys, time
gen, work, reps, count = sys.argv[1], sys.argv[2], int(sys.argv[3]), sys.argv[4]
header = f"{work}/messages.h"
commands = {
    "ringkernel-gen": [gen, "--output-dir", f"{work}/out", header, "--", "-std=c++20"],
    "clang++-19 -fsyntax-only": ["clang++-19", "-fsyntax-only", "-xc++", "-std=c++20",
                                 "-Wno-unknown-attributes", "-Wno-pragma-once-outside-header", header],
}
times = {name: [] for name in commands}
for name, cmd in commands.items():  # warm-up (page cache, first output write)
    subprocess.run(cmd, check=True)
for _ in range(reps):
    for name, cmd in commands.items():
        start = time.perf_counter()
        subprocess.run(cmd, check=True)
        times[name].append(time.perf_counter() - start)
med = {name: statistics.median(t) for name, t in times.items()}
for name, t in times.items():
    print(f"{name:28s} median {med[name]*1000:8.1f} ms  min {min(t)*1000:8.1f} ms  ({reps} runs, {count} messages)")
print(f"ratio ringkernel-gen / clang++-19 -fsyntax-only = {med['ringkernel-gen'] / med['clang++-19 -fsyntax-only']:.2f}")
PY
