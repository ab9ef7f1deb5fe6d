#!/usr/bin/env bash
# The GPU machine's half of scripts/gpu-kit.sh (copied to gpu-kit/run.sh): runs the packed GPU
# checks and writes at most 5 files into $OUT (or gpu-kit/out), as the device tool brings back 8 at
# most: gpu-kit.log (everything printed; each program's output up to RK_LOG_LINES (3000) lines, then
# its last 500), gpu-kit.outputs.tar.gz (MANIFEST.txt: one line per program run, its exit status and
# verdict; rows/bench_queue_device.NN.json: one per row of bench_queue_device, NN in the order run;
# outputs/NN-NAME.txt: the whole stdout and stderr of every program that failed, crashed, timed out
# or printed more than the log shows, NN its MANIFEST number; gpu-kit.full.log where the log passed
# 15 MiB and was cut; hostq/bench_queue.rN.json: the `hostq` step's rounds), bench_queue_device.json
# (the rows merged, where python3 exists) and bench_peer_copy.json. The archive is rewritten after
# every program (so a run killed outright still leaves the last one) and at the exit, whatever ends
# the run (a budget, a signal); without gzip it is gpu-kit.outputs.tar, without tar
# gpu-kit.outputs.txt (the files one after the other).
# Unpack: tar -xzf gpu-kit.outputs.tar.gz. Usage: run.sh [check|tests|sanitize|bench|hostq|all] [REGEX]
# (REGEX: only the test binaries whose names match, e.g. to split `sanitize` over calls, and the
# sanitizer runs of bench_queue_device's rows only where it matches "bench_queue_device"; for
# `hostq`, the --benchmark_filter of bench_queue instead of BM_Paired_).
#
# Every step first checks that the kit was packed from the sources of the tree it runs in
# (gpu-kit/sources.sha256, written by scripts/gpu-kit.sh: every file of runtime/ bench/ tests/
# templates/ generator/ scripts/ examples/ cmake/ and the top-level CMake files that git tracks or
# does not ignore); a file changed or missing since the packing stops the run with a FAIL line
# (repack with scripts/gpu-kit.sh; RK_KIT_SOURCES=ignore runs it anyway, saying so). Then it prints
# the kit's VERSION (commit, build time, source fingerprint), the GPUs as nvidia-smi sees them
# (driver: the kit's CUDA 13 runtime needs R580 or newer; PCIe link), their clocks, power and
# temperature (read only: nothing here changes a GPU setting), `nvidia-smi topo -m`, the host's
# clocksource and `lscpu -e`, the core the round-trip rows run on, then the devices ringkernel-info sees.
# Steps (README.md's GPU-kit paragraphs say more): `tests`: every gpu test binary and `adder --gpu`;
# `sanitize`: each test binary under compute-sanitizer memcheck and racecheck, then every row of
# bench_queue_device under each as a small run, one process per row (gpu-kit/bench_queue.sh,
# run_bench_sanitize); `bench`: bench_queue_device, bench_peer_copy, ringkernel-info --bandwidth;
# `hostq`: bench_queue's paired host rows in rounds, no GPU needed (gpu-kit/hostq.sh; REGEX picks
# the rows); `all`: the four in that order.
# bench_queue_device runs row by row, each row its own process (a fault in one, e.g. the MPMC round trip's CAS on pinned host memory, cannot poison the CUDA
# context of the others), the goal rows first, the MPMC round trip last, pinned with numactl to
# the GPU's NUMA node where numactl and the node are known (the round-trip rows to one core), the
# latency goal rows and their raw peers alternately RK_BENCH_PAIRS (3) times; then one GOAL line per
# figure and one RATIO line (ours / raw, the median of per-pair ratios) per RingKernel row
# (gpu-kit/bench_queue.sh). bench_peer_copy runs with RK_COPY_REPETITIONS (5) repetitions in random
# interleaving, aggregates displayed (the JSON keeps every repetition), one RATIO line per pair.
# `check` is the one call for a machine lent for a few minutes: bench_queue_device (the GPU queue
# goals) first, then every test binary and the example, memcheck over every binary, memcheck over
# every bench_queue_device row (small runs; racecheck over them is left to `sanitize`: no row's
# kernel uses shared memory, all racecheck looks at), racecheck over every binary, then the rest of
# `bench`, under a budget of 330 s, so a 360-second call comes back
# with the log and leaves time for a second one (`hostq` is not part of it: a call of its own).
# Whatever the budget did not reach has a "FAIL ...: not run" line; run it with the step and REGEX
# that name it.
#
# Time limits per program (seconds; override through the environment): RK_TEST_LIMIT (120; 60 under
# check), RK_SANITIZE_LIMIT (260 per tool; 120 under check), RK_BENCH_ROW_LIMIT (60 per row of
# bench_queue_device, also under a sanitizer; 30 under check), RK_BENCH_SANITIZE_LIMIT (180 for all
# rows of bench_queue_device under one sanitizer tool; 90 under check; RK_BENCH_SANITIZE_ROWS, an
# extended regex, picks the rows, e.g. 'MpmcQueue' for the MPMC round trip alone), RK_BENCH_LIMIT
# (240 for all rows of bench_queue_device together; 120 under check), RK_COPY_BENCH_LIMIT (150 for bench_peer_copy; 60 under
# check; its --benchmark_min_time: RK_COPY_MIN_TIME, 0.2 s, 0.05 under check). RK_RUN_BUDGET (570; 330 under check): the whole run ends within that many seconds even
# when programs hang (a program gets what is left of it when that is less than its own limit;
# programs after the budget is spent are not run, each with a FAIL line saying so), so one call of
# a machine that limits each command to 10 minutes always comes back with the log and the summary.
# The 5 gpu test binaries at their full limits do not fit one budget; neither does `all`: split a
# step with REGEX over calls when one reports programs not run.
# RK_SANITIZE_GTEST_FILTER: the --gtest_filter of the sanitize step; unset, it leaves out
#   - the tests whose kernels must run at the same time as another kernel (should compute-sanitizer
#     serialise kernels, each would wait out its kernels' 8 s budget and fail):
#     KernelToKernelDevice.WarpBatches, KernelToKernelDevice.SingleMessagesOnOneGpu and
#     P2PQueueDevice.KernelToKernel*; KernelToKernelDevice.WarpOperationsOneKernelAfterTheOther runs
#     the same device code one kernel after the other and stays in;
#   - CudaBackend.BufferCopiesDoNotWaitForTheLegacyDefaultStream (times copies against a running
#     kernel) and CudaBackend.CudaErrorsNameTheCallAndTheDevice (provokes cudaErrorMemoryAllocation,
#     which memcheck reports as an error, so the run would fail with exit code 99). (The backend
#     asks the driver about an allocation's end address only where another block may start there,
#     on a 256-byte boundary; so the empty copies at unaligned ends of CudaBackend.* stay in.)
#   The tests whose kernels wait for the test's host thread stay in: should a tool make launches
#   block until the kernel ends, they skip, saying so (queue_device_support.h probes it once, in 2 s).
#   Set it to '' to run every test, or to any other filter.
set -uo pipefail
kit=$(cd "$(dirname "$0")" && pwd)
out=${OUT:-$kit/out}
mkdir -p "$out"
step=${1:-all}
only=${2:-}
if [ "$step" = check ]; then
  test_limit=${RK_TEST_LIMIT:-60} sanitize_limit=${RK_SANITIZE_LIMIT:-120} bench_limit=${RK_BENCH_LIMIT:-120}
  row_limit=${RK_BENCH_ROW_LIMIT:-30} copy_limit=${RK_COPY_BENCH_LIMIT:-60} budget=${RK_RUN_BUDGET:-330}
  bench_sanitize_limit=${RK_BENCH_SANITIZE_LIMIT:-90}
else
  test_limit=${RK_TEST_LIMIT:-120} sanitize_limit=${RK_SANITIZE_LIMIT:-260} bench_limit=${RK_BENCH_LIMIT:-240}
  row_limit=${RK_BENCH_ROW_LIMIT:-60} copy_limit=${RK_COPY_BENCH_LIMIT:-150} budget=${RK_RUN_BUDGET:-570}
  bench_sanitize_limit=${RK_BENCH_SANITIZE_LIMIT:-180}
fi
copy_reps=${RK_COPY_REPETITIONS:-5}
if [ "$step" = check ]; then copy_min_time=${RK_COPY_MIN_TIME:-0.05}; else copy_min_time=${RK_COPY_MIN_TIME:-0.2}; fi
sanitizer_refused=0
sanitize_filter=${RK_SANITIZE_GTEST_FILTER-"-KernelToKernelDevice.WarpBatches:KernelToKernelDevice.SingleMessagesOnOneGpu:\
P2PQueueDevice.KernelToKernel*:CudaBackend.BufferCopiesDoNotWaitForTheLegacyDefaultStream:\
CudaBackend.CudaErrorsNameTheCallAndTheDevice"}
failed=0
scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT  # until trap_outputs (outputs.sh) takes over
# The log and the archive (gpu-kit/outputs.sh): log, log_cap and log_rest (a program's output in
# the log), keep_output (its MANIFEST line and whole output in the archive), rows_dir, archive,
# trap_outputs and close_outputs (the exit and signal traps that write the archive a last time).
# shellcheck source-path=SCRIPTDIR source=gpu-kit-outputs.sh
source "$kit/outputs.sh"

# Libraries: the kit's own (libbenchmark) always; the libstdc++ / libgcc_s of the build machine
# only when this machine's are older than the programs need. Prepending them unconditionally would
# also hand them to compute-sanitizer and to the library it injects, which may need newer ones.
export LD_LIBRARY_PATH="$kit/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
if [ -d "$kit/lib-fallback" ] && ldd "$kit"/bin/* 2>&1 | grep -q 'not found'; then
  export LD_LIBRARY_PATH="$kit/lib:$kit/lib-fallback${LD_LIBRARY_PATH#"$kit/lib"}"
fi

# compute-sanitizer: on the PATH, else where the CUDA toolkit installs it.
sanitizer=$(command -v compute-sanitizer || true)
for candidate in "${CUDA_HOME:-/usr/local/cuda}/bin/compute-sanitizer" /usr/local/cuda/compute-sanitizer/compute-sanitizer \
    /usr/local/cuda*/bin/compute-sanitizer /usr/local/cuda*/compute-sanitizer/compute-sanitizer \
    /opt/nvidia/*/compute-sanitizer /opt/nvidia/*/*/compute-sanitizer; do
  if [ -z "$sanitizer" ] && [ -x "$candidate" ]; then sanitizer=$candidate; fi
done

# run NAME LIMIT_SECONDS COMMAND...: one PASS/FAIL line with the exit status and the wall time;
# a gtest program whose tests all skipped is a SKIP line, one that skipped some says how many.
# A crash names its signal. The output streams into the log (log_cap, log_rest); keep_output
# files it.
# within_budget NAME LIMIT: sets limit_now to LIMIT, or to what is left of the run's budget when
# that is less; when too little is left, a FAIL line saying NAME was not run, and status 1.
within_budget() {
  local left=$((budget - SECONDS - 10))  # 10: the grace of timeout -k
  if [ "$left" -lt 10 ]; then
    echo "FAIL $1: not run, the run's time budget of $budget s (RK_RUN_BUDGET) is spent; run it in a call of its own"
    failed=1
    return 1
  fi
  limit_now=$2
  if [ "$limit_now" -gt "$left" ]; then limit_now=$left; fi
}

run() {
  local name=$1 limit=$2
  shift 2
  local t0=$SECONDS
  within_budget "$name" "$limit" || return 0
  limit=$limit_now
  echo "=== $name: $*"
  timeout -k 10 "$limit" "$@" 2>&1 | tee "$scratch/output" | log_cap
  local rc=${PIPESTATUS[0]}
  log_rest
  local skipped ran verdict=FAIL
  skipped=$(sed -n 's/^\[  SKIPPED \] \([0-9][0-9]*\) tests\{0,1\}, listed below:.*/\1/p' "$scratch/output" | tail -1)
  ran=$(sed -n 's/^\[==========\] \([0-9][0-9]*\) tests\{0,1\} from .* ran\..*/\1/p' "$scratch/output" | tail -1)
  if [ "$rc" -eq 0 ] && [ -n "$skipped" ] && [ "$skipped" = "$ran" ]; then
    verdict=SKIP
    echo "SKIP $name: all $ran tests skipped ($((SECONDS - t0)) s)"
  elif [ "$rc" -eq 77 ]; then  # a program's "skipped" (CTest's SKIP_RETURN_CODE), e.g. adder --gpu without a GPU
    verdict=SKIP
    echo "SKIP $name: exit 77, it found nothing to run on ($((SECONDS - t0)) s)"
  elif [ "$rc" -eq 0 ]; then
    verdict=PASS
    echo "PASS $name${skipped:+ ($skipped of $ran tests skipped)} ($((SECONDS - t0)) s)"
  elif [ "$rc" -eq 124 ] || [ "$rc" -eq 137 ]; then
    echo "FAIL $name: exit $rc, timed out after $limit s ($((SECONDS - t0)) s)"
    failed=1
  elif [ "$rc" -gt 128 ]; then
    echo "FAIL $name: crashed, exit $rc (signal $(kill -l $((rc - 128)) 2>/dev/null || echo $((rc - 128)))) ($((SECONDS - t0)) s)"
    failed=1
  else
    echo "FAIL $name: exit $rc ($((SECONDS - t0)) s)"
    failed=1
  fi
  keep_output "$name" "$rc" "$verdict"
}

# The test suites of gtest program $1, one per line: the unindented lines of --gtest_list_tests whose
# first word ends in a dot ("Suite." or "Prefix/Suite.  # TypeParam = ..."; gtest_main's "Running
# main() from ..." is not one). None when listing fails or times out (a partial list would skip
# suites silently): the program then runs whole, and its error shows.
suites_of() {
  local list
  list=$(timeout -k 5 30 "$1" --gtest_list_tests 2>/dev/null) || return 0
  awk '/^[^ ]/ && $1 ~ /\.$/ { sub(/\.$/, "", $1); print $1 }' <<< "$list"
}

# Each test binary, suite by suite where it has several, each suite its own process and time limit:
# a suite whose kernels wait out their budgets (8 s each) cannot use up the limit of the binary's
# other suites and hide their results. (A binary may so take its limit once per suite; the run's
# budget still bounds the whole.)
run_tests() {
  local t suite suites
  for t in "${tests[@]}"; do
    mapfile -t suites < <(suites_of "$kit/bin/$t")
    if [ "${#suites[@]}" -le 1 ]; then
      run "$t" "$test_limit" "$kit/bin/$t" --gtest_brief=0
      continue
    fi
    for suite in "${suites[@]}"; do
      run "$t $suite.*" "$test_limit" "$kit/bin/$t" --gtest_brief=0 "--gtest_filter=$suite.*"
    done
  done
}

# sanitizer_ready: whether compute-sanitizer can run here: false where it was not found (a FAIL
# line, said once per run) or refused this machine's GPU before (said then).
sanitizer_ready() {
  if [ "$sanitizer_refused" = 1 ]; then return 1; fi  # said once already
  if [ -z "$sanitizer" ]; then
    echo "FAIL sanitize: compute-sanitizer is neither on the PATH nor in \${CUDA_HOME:-/usr/local/cuda}/bin"
    failed=1
    sanitizer_refused=1
    return 1
  fi
}

# sanitizer_refuses_gpu: true, with a SKIP line, where the program just run ($scratch/output) says
# compute-sanitizer refuses this machine's GPU. Some machines' sandboxes (gVisor, the nvidia-h200
# kind as seen on 2026-11-04) have such a GPU: every further run would fail the same way.
sanitizer_refuses_gpu() {
  grep -qi 'device not supported' "$scratch/output" || return 1
  echo "SKIP sanitize: compute-sanitizer refuses this machine's GPU ('Device not supported'; seen under gVisor); run the sanitize step on another machine (nvidia-h100-x1 ran it on 2026-11-04)"
  sanitizer_refused=1
}

# run_sanitize TOOL...: each test binary under each compute-sanitizer tool, binary by binary.
run_sanitize() {
  sanitizer_ready || return 0
  if [ "${#tests[@]}" -eq 0 ]; then return; fi  # REGEX picked none (e.g. `sanitize bench_queue_device`)
  echo "sanitize ($*): $sanitizer, --gtest_filter='$sanitize_filter' (RK_SANITIZE_GTEST_FILTER)"
  for t in "${tests[@]}"; do
    for tool in "$@"; do
      run "$t under compute-sanitizer $tool" "$sanitize_limit" "$sanitizer" --tool "$tool" --error-exitcode 99 \
        "$kit/bin/$t" ${sanitize_filter:+"--gtest_filter=$sanitize_filter"}
      if sanitizer_refuses_gpu; then return; fi
    done
  done
}

# kit_sources_match, gpu_state, pick_pinning (platform's NUMA node and core) and report_copy_ratios
# (gpu-kit/lib.sh).
# shellcheck source-path=SCRIPTDIR source=gpu-kit-lib.sh
source "$kit/lib.sh"

# bench_queue_device row by row, with its GOAL lines: run_bench_queue; its rows under
# compute-sanitizer: run_bench_sanitize (gpu-kit/bench_queue.sh).
# shellcheck source-path=SCRIPTDIR source=gpu-kit-bench-queue.sh
source "$kit/bench_queue.sh"

# bench_queue's paired host rows in rounds, with their RATIO lines: run_hostq (gpu-kit/hostq.sh).
# shellcheck source-path=SCRIPTDIR source=gpu-kit-hostq.sh
source "$kit/hostq.sh"

# bench_peer_copy: every row RK_COPY_REPETITIONS times, the repetitions of all rows in one random
# order (so a pair's samples are spread over the same stretch of time, not minutes apart), each at
# least RK_COPY_MIN_TIME s; the console shows the aggregates, the JSON keeps every repetition.
# Single GPU (the same-device pair: 2 rows x 10 sizes x 5 repetitions, ~0.1 s each): ~10-20 s;
# two GPUs (7 rows): ~40-60 s, within RK_COPY_BENCH_LIMIT under check. Then one RATIO line per pair.
run_bench_rest() {
  rm -f "$out/bench_peer_copy.json"
  run bench_peer_copy "$copy_limit" "$kit/bin/bench_peer_copy" --benchmark_out="$out/bench_peer_copy.json" \
    --benchmark_out_format=json "--benchmark_repetitions=$copy_reps" --benchmark_enable_random_interleaving=true \
    --benchmark_display_aggregates_only=true "--benchmark_min_time=$copy_min_time"
  check_bench_rows bench_peer_copy
  report_copy_ratios
  gpu_state "after bench_peer_copy"
  run "ringkernel-info --bandwidth" 90 "$kit/bin/ringkernel-info" --bandwidth
}

# The README's main job on the GPU (exit code 77, a SKIP, if it finds no CUDA device: the preflight
# fails then where nvidia-smi sees a GPU). Left out when a REGEX picks test binaries and does not
# match "adder".
run_example() {
  if [ -n "$only" ] && ! grep -qE -- "$only" <<< adder; then return; fi
  run "adder --gpu (the example: the Add ring kernel answering the host)" "$test_limit" "$kit/bin/adder" --gpu
}

# Rows of a benchmark's JSON that ended with SkipWithError: a FAIL unless they only say the machine
# lacks something (e.g. "needs 2 CUDA devices" on a one-GPU machine, or a pair without peer access).
check_bench_rows() {
  local errors
  errors=$(grep -o '"error_message": "[^"]*"' "$out/$1.json" 2>/dev/null | cut -d'"' -f4 | sort -u)
  if [ -z "$errors" ]; then return; fi
  if grep -qvE '^(needs |no peer access)' <<< "$errors"; then
    echo "FAIL $1: rows with errors: $(tr '\n' ';' <<< "$errors")"
    failed=1
  else
    echo "SKIP $1: rows skipped: $(tr '\n' ';' <<< "$errors")"
  fi
}

# The platform, printed first by every step, so that a stale kit, a driver too old for the kit's
# CUDA runtime, or a GPU without its PCIe link shows at once and the figures can be attributed:
# the kit's VERSION (commit and build time, from scripts/gpu-kit.sh), nvidia-smi's GPUs and
# topology, the host's clocksource. Sets gpus (nvidia-smi's GPU lines, empty without any),
# gpu_name (CUDA's device 0: nvidia-smi's GPU 0, or the first of CUDA_VISIBLE_DEVICES) and pin
# (the numactl prefix binding the benchmarks to that GPU's NUMA node; empty where that cannot be).
platform() {
  if [ -f "$kit/VERSION" ]; then
    sed 's/^/kit /' "$kit/VERSION"
  else
    echo "kit VERSION missing: packed by an older scripts/gpu-kit.sh, so it may be stale"
  fi
  echo "gpu-kit run, step '$step', $(date -u '+%Y-%m-%d %H:%M UTC') on $(hostname 2>/dev/null)"
  local smi smi_status=0 topo
  smi=$(timeout -k 5 20 nvidia-smi --query-gpu=index,name,driver_version,memory.total,pcie.link.gen.current,pcie.link.width.current,pci.bus_id --format=csv 2>&1) || smi_status=$?
  if [ "$smi_status" -eq 0 ]; then
    echo "$smi"
    gpus=$(tail -n +2 <<< "$smi")
  else
    echo "nvidia-smi: $( [ "$smi_status" -eq 127 ] && echo "not installed here" || echo "exit $smi_status: $(head -2 <<< "$smi" | tr '\n' ' ')")"
  fi
  # CUDA 13's runtime needs driver R580 or newer (12: R525); older ones fail every CUDA call.
  local cuda need driver
  cuda=$(sed -n 's/^cuda_runtime: \([0-9]*\)\..*/\1/p' "$kit/VERSION" 2>/dev/null)
  case "$cuda" in 13) need=580 ;; 12) need=525 ;; *) need= ;; esac
  driver=$(head -1 <<< "$gpus" | awk -F', ' '{ split($3, v, "."); print v[1] }')
  if [ -n "$need" ] && [ -n "$driver" ] && [ "$driver" -lt "$need" ] 2>/dev/null; then
    echo "WARN driver R$driver is older than R$need, the oldest that runs the kit's CUDA $cuda runtime: expect cudaErrorInsufficientDriver (unless a CUDA forward-compatibility package is installed)"
  fi
  if [ -n "$gpus" ]; then
    topo=$(timeout -k 5 20 nvidia-smi topo -m 2>&1) || true
    echo "nvidia-smi topo -m:"
    echo "$topo"
  fi
  local clocksource
  clocksource=$(cat /sys/devices/system/clocksource/clocksource0/current_clocksource 2>/dev/null || echo unknown)
  echo "clocksource: $clocksource"
  case $clocksource in
    tsc | kvm-clock) ;;
    *) echo "WARN clocksource $clocksource: reading steady_clock may be a system call (~1 us); the round-trip samples (~2 us) include one read each" ;;
  esac
  gpu_state "before the runs"
  echo "lscpu -e:"
  timeout -k 5 10 lscpu -e 2>&1 || echo "(lscpu -e failed or is not installed)"

  pick_pinning
}

main() {
  local gpus=""
  if ! kit_sources_match; then
    if [ "${RK_KIT_SOURCES:-}" != ignore ]; then
      echo "=== summary"
      return 3
    fi
    echo "WARN kit: RK_KIT_SOURCES=ignore: running a kit that does not match this tree; its figures are not this tree's"
  fi
  platform
  # Without this check a runtime that cannot reach the GPU (driver too old for the CUDA runtime the
  # kit was built with, no device node) turns every test into a skip and the run looks green.
  local info
  local info_status=0
  info=$(timeout -k 5 60 "$kit/bin/ringkernel-info" 2>&1) || info_status=$?
  if [ "$info_status" -ne 0 ]; then  # its whole output into the archive (only parts are logged below)
    printf '%s\n' "$info" > "$scratch/output"
    echo "preflight: ringkernel-info exit $info_status"
    keep_output "ringkernel-info (preflight)" "$info_status" FAIL
  fi
  if [ "$info_status" -eq 124 ] || [ "$info_status" -eq 137 ]; then
    echo "FAIL preflight: ringkernel-info did not finish within 60 s (it launches a kernel per GPU to measure its clock)"
    failed=1
  fi
  echo "$info" | sed -n '/^Backends:/,/^$/p'
  # Each device, and each CUDA device's wall clock against the host's (HLC stamps, latency figures).
  echo "$info" | grep -E '^  \[[0-9]+\] |^ +wall clock '
  if [ -n "$gpus" ] && ! grep -qE '^ +cuda +available' <<< "$info"; then
    echo "FAIL preflight: nvidia-smi lists a GPU but RingKernel's CUDA backend has no device (see the cuda line above)"
    failed=1
  fi
  mapfile -t tests < <(grep -E -- "${only:-.}" "$kit/tests.txt")
  case "$step" in
    tests) run_tests; run_example ;;
    sanitize) run_sanitize memcheck racecheck; run_bench_sanitize memcheck racecheck ;;
    bench) run_bench_queue; run_bench_rest ;;
    hostq) run_hostq ;;
    all) run_tests; run_example; run_sanitize memcheck racecheck; run_bench_sanitize memcheck racecheck; run_bench_queue
      run_bench_rest; run_hostq ;;
    # One call for a machine lent for minutes: what the issues ask first, first. The GPU queue goals
    # (27 processes: 15 rows, the 6 latency rows 3 times; estimated 45-90 s on an H100/H200, ~1-2 s
    # of process and CUDA start each plus ~0.3 s per round-trip row, ~1 s per ping-pong row, ~0.5-1.5
    # s per throughput row; never more than RK_BENCH_LIMIT, 120 s), every test once and the example,
    # memcheck over every binary, memcheck over every bench_queue_device row (small runs, one process
    # each: ~30-70 s, at most RK_BENCH_SANITIZE_LIMIT, 90 s; no racecheck: no row's kernel uses
    # shared memory, which is all racecheck looks at), racecheck over every binary, the rest; all
    # within RK_RUN_BUDGET (330 s; ~117 s before the bench rows' memcheck was added, ~150-190 s with
    # it, at most ~210 s where it takes its whole limit) plus at most ~30 s (the last program's kill
    # grace, the closing nvidia-smi reads), so it fits a 400 s call.
    check) run_bench_queue; run_tests; run_example; run_sanitize memcheck; run_bench_sanitize memcheck
      run_sanitize racecheck; run_bench_rest ;;
  esac
  case "$step" in tests|sanitize|bench|hostq|all|check) ;; *) echo "unknown step '$step' (tests|sanitize|bench|hostq|all|check)"; failed=1 ;; esac
  echo "=== summary"
  return $failed
}

# The archive is written at the exit whatever ends the run; a signal is noted in the log.
trap_outputs
gpu_name="" pin=() rt_cpu=""
main 2>&1 | tee "$log"
close_outputs "${PIPESTATUS[0]}"
exit $?
