#!/usr/bin/env bash
# The GPU machine's half of scripts/gpu-kit.sh (copied to gpu-kit/run.sh): runs the packed GPU
# checks and writes gpu-kit.log (everything printed), bench_queue_device.json and
# bench_peer_copy.json into $OUT (or gpu-kit/out). Usage: run.sh [tests|sanitize|bench|all] [REGEX]
# (REGEX: only the test binaries whose names match, e.g. to split `sanitize` over several calls of
# a machine that limits each command's time).
set -uo pipefail
kit=$(cd "$(dirname "$0")" && pwd)
out=${OUT:-$kit/out}
mkdir -p "$out"
export LD_LIBRARY_PATH="$kit/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
step=${1:-all}
only=${2:-}
failed=0
log="$out/gpu-kit.log"

# run NAME LIMIT_SECONDS COMMAND...: one PASS/FAIL line with the exit status and the wall time.
run() {
  local name=$1 limit=$2
  shift 2
  local t0=$SECONDS
  echo "=== $name: $*"
  timeout "$limit" "$@"
  local rc=$?
  if [ $rc -eq 0 ]; then
    echo "PASS $name ($((SECONDS - t0)) s)"
  else
    echo "FAIL $name: exit $rc$([ $rc -eq 124 ] && echo ", timed out after $limit s") ($((SECONDS - t0)) s)"
    failed=1
  fi
}

main() {
  echo "gpu-kit run, step '$step', $(date -u '+%Y-%m-%d %H:%M UTC')"
  nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv,noheader || echo "(no nvidia-smi)"
  mapfile -t tests < <(grep -E -- "${only:-.}" "$kit/tests.txt")
  if [ "$step" = tests ] || [ "$step" = all ]; then
    for t in "${tests[@]}"; do run "$t" 300 "$kit/bin/$t" --gtest_brief=0; done
  fi
  if [ "$step" = sanitize ] || [ "$step" = all ]; then
    for t in "${tests[@]}"; do
      for tool in memcheck racecheck; do
        run "$t under compute-sanitizer $tool" 600 compute-sanitizer --tool "$tool" --error-exitcode 99 "$kit/bin/$t"
      done
    done
  fi
  if [ "$step" = bench ] || [ "$step" = all ]; then
    run bench_queue_device 400 "$kit/bin/bench_queue_device" --benchmark_out="$out/bench_queue_device.json" \
      --benchmark_out_format=json
    run bench_peer_copy 300 "$kit/bin/bench_peer_copy" --benchmark_out="$out/bench_peer_copy.json" \
      --benchmark_out_format=json
    for j in bench_queue_device bench_peer_copy; do  # rows that ended with SkipWithError
      local errors
      errors=$(grep -o '"error_message": "[^"]*"' "$out/$j.json" 2>/dev/null | cut -d'"' -f4 | sort -u)
      if [ -z "$errors" ]; then continue; fi
      if grep -qv '^needs ' <<< "$errors"; then
        echo "FAIL $j: rows with errors: $(tr '\n' ';' <<< "$errors")"
        failed=1
      else  # e.g. "needs 2 CUDA devices" on a one-GPU machine
        echo "SKIP $j: rows skipped: $(tr '\n' ';' <<< "$errors")"
      fi
    done
    run "ringkernel-info --bandwidth" 120 "$kit/bin/ringkernel-info" --bandwidth
    run "adder example (picks a GPU when there is one)" 120 "$kit/bin/adder"
  fi
  case "$step" in tests|sanitize|bench|all) ;; *) echo "unknown step '$step' (tests|sanitize|bench|all)"; failed=1 ;; esac
  echo "=== summary"
  return $failed
}

main 2>&1 | tee "$log"
status=${PIPESTATUS[0]}
grep -E '^(PASS|FAIL|SKIP) ' "$log"
exit "$status"
