# Sourced by gpu-kit/run.sh (scripts/gpu-kit-run.sh; copied into the kit as gpu-kit/bench_queue.sh):
# bench_queue_device, the GPU queue goals of issue 6, row by row (run_bench_queue), and its rows
# under compute-sanitizer (run_bench_sanitize). Uses run.sh's globals: kit, out, scratch, only,
# rows_dir, bench_limit, row_limit, bench_sanitize_limit, pin, rt_cpu, gpu_name, failed, sanitizer,
# within_budget, limit_now, sanitizer_ready, sanitizer_refuses_gpu, gpu_state, and log_cap,
# log_rest, keep_output, pack_outputs (from outputs.sh, which run.sh sources).
# shellcheck shell=bash disable=SC2154,SC2034

# The GPU queue goals (round trip, kernel to kernel, batched throughput), row by row: each row of
# bench_queue_device is its own process (--benchmark_filter='^ROW$', ROW from
# --benchmark_list_tests) with its own time limit and JSON ($rows_dir/bench_queue_device.NN.json, NN
# in the order run; run.sh packs them into $OUT/gpu-kit.outputs.tar.gz as rows/, and merges them
# into $OUT/bench_queue_device.json), so a row that faults (poisoning its CUDA context), crashes or
# hangs is reported as such and the others still run. The order:
#   1. round 1 of the latency pairs: SPSC round trip, its raw peer (the flag exchange), the LL
#      exchange (raw_ll_ping_pong.cuh: a floor for another design, compared with the flag
#      exchange), SPSC kernel-to-kernel, its raw peer, MPMC kernel-to-kernel (its neighbour is the
#      same raw peer);
#   2. each throughput row B right before its raw peer BM_Raw_DeviceThroughput/B;
#   3. rounds 2 .. RK_BENCH_PAIRS (3) of the latency pairs, alternating ours and raw as in 1 (a row
#      that failed in an earlier round is not repeated);
#   4. any other row; the MPMC round trip last (the kernel's CAS on pinned host memory over PCIe,
#      the least tested).
# Each ratio ours / raw is then taken between a run and its neighbouring peer run, and
# report_queue_goals prints the median of those per-pair ratios (M4: one sample each, minutes apart,
# says little about a machine whose clocks and link power states drift). The round-trip rows (ours
# and raw) run with their host thread on one core (rt_cpu, taskset -c: platform() picks and
# records it); every row is pinned to the GPU's NUMA node where that is known. Should listing fail,
# all rows run in one process. The GPU's clocks, power and temperature are logged after the rows.
# Eager module loading: with CUDA's default (lazy), the first launch of each kernel loads it inside
# the first timed iteration of the rows that time a fixed number of iterations. CUDA_DEVICE_ORDER:
# CUDA's device 0 is then nvidia-smi's GPU 0, the one pinned to and named in the GOAL lines.
run_bench_queue() {
  local bin="$kit/bin/bench_queue_device" list list_status=0 rows=() row i=0 round st
  local pairs=${RK_BENCH_PAIRS:-3}
  local deadline=$((SECONDS + bench_limit))
  local rt=() rt_raw=() k2k=() k2k_raw=() k2k_other=() tp=() tp_raw=() rest=() last=() schedule=()
  local -A bad=()  # rows that did not pass: not repeated
  rm -f "$out/bench_queue_device.json" "$rows_dir"/bench_queue_device.[0-9]*.json  # an earlier run's
  list=$(timeout -k 5 30 "$bin" --benchmark_list_tests 2>&1) || list_status=$?
  mapfile -t rows < <(grep '^BM_' <<< "$list")
  for row in "${rows[@]}"; do
    case $row in
      BM_HostGpuHostRoundTrip\<*Spsc*) rt+=("$row") ;;
      BM_Raw_HostGpuHost*) rt_raw+=("$row") ;;
      BM_KernelToKernelPingPong\<DeviceSpsc*) k2k+=("$row") ;;
      BM_KernelToKernelPingPong\<*) k2k_other+=("$row") ;;
      BM_Raw_KernelToKernel*) k2k_raw+=("$row") ;;
      BM_DeviceQueueThroughput/*) tp+=("$row") ;;
      BM_Raw_DeviceThroughput/*) tp_raw+=("$row") ;;
      *Mpmc*) last+=("$row") ;;
      *) rest+=("$row") ;;
    esac
  done
  # One round of the latency pairs: each of ours, then a raw peer, alternating.
  latency_round() { schedule+=(${rt[@]+"${rt[@]}"} ${rt_raw[@]+"${rt_raw[@]}"} ${k2k[@]+"${k2k[@]}"} \
    ${k2k_raw[@]+"${k2k_raw[@]}"} ${k2k_other[@]+"${k2k_other[@]}"}); }
  latency_round
  local t b
  for t in ${tp[@]+"${tp[@]}"}; do
    schedule+=("$t")
    b=${t#BM_DeviceQueueThroughput/}
    b=${b%%/*}
    for row in ${tp_raw[@]+"${tp_raw[@]}"}; do
      if [[ $row == BM_Raw_DeviceThroughput/"$b"/* ]]; then schedule+=("$row"); fi
    done
  done
  for row in ${tp_raw[@]+"${tp_raw[@]}"}; do  # a raw row without a RingKernel row of its B
    if [[ " ${schedule[*]} " != *" $row "* ]]; then schedule+=("$row"); fi
  done
  local first_round=${#schedule[@]}
  for ((round = 2; round <= pairs; round++)); do latency_round; done
  schedule+=(${rest[@]+"${rest[@]}"} ${last[@]+"${last[@]}"})
  if [ "$list_status" -ne 0 ] || [ "${#rows[@]}" -eq 0 ]; then
    echo "FAIL bench_queue_device --benchmark_list_tests: exit $list_status, ${#rows[@]} rows ($(head -3 <<< "$list" | tr '\n' ' ')); all rows run in one process"
    failed=1
    printf '%s\n' "$list" > "$scratch/output"
    keep_output "bench_queue_device --benchmark_list_tests" "$list_status" FAIL
    bench_row "bench_queue_device (all rows)" "" "$rows_dir/bench_queue_device.00.json" "$bench_limit"
  else
    echo "bench_queue_device: ${#rows[@]} rows, ${#schedule[@]} runs (the latency pairs $pairs times, RK_BENCH_PAIRS), each its own process, in this order: $(printf '%s; ' "${schedule[@]}")"
    for row in "${schedule[@]}"; do
      i=$((i + 1))
      if [ "$i" -gt "$first_round" ] && [ -n "${bad[$row]:-}" ]; then
        echo "SKIP bench_queue_device $row (run $i): not repeated, it did not pass before"
        continue
      fi
      row_passed=0 st=0
      bench_named_row "$row" "bench_queue_device $row" "$(printf '%s/bench_queue_device.%02d.json' "$rows_dir" "$i")" \
        "$deadline" "bench_queue_device $row (run $i): not run, the $bench_limit s of RK_BENCH_LIMIT for all rows are spent" ||
        st=$?
      if [ "$st" -eq 2 ]; then continue; fi  # not run: the time is spent
      if [ "$row_passed" != 1 ]; then bad[$row]=1; fi
    done
  fi
  gpu_state "after the bench_queue_device rows"
  # One file with every row, as Google Benchmark would have written it (context: the first row's;
  # each entry's kit_run names the run, NN of its bench_queue_device.NN.json).
  if ! compgen -G "$rows_dir/bench_queue_device.[0-9]*.json" > /dev/null; then
    echo "bench_queue_device.json: no row wrote a JSON file"
  elif command -v python3 > /dev/null; then
    python3 - "$out/bench_queue_device.json" "$rows_dir"/bench_queue_device.[0-9]*.json <<'PY' ||
import json, os, re, sys
merged = None
for path in sys.argv[2:]:
    try:
        one = json.load(open(path))
    except (OSError, ValueError):
        continue  # a row killed while writing
    if merged is None:
        merged = {"context": one.get("context", {}), "benchmarks": []}
    run = int(re.search(r"\.(\d+)\.json$", os.path.basename(path)).group(1))
    for b in one.get("benchmarks", []):
        b["kit_run"] = run
        merged["benchmarks"].append(b)
if merged is not None:
    json.dump(merged, open(sys.argv[1], "w"), indent=2)
PY
      echo "bench_queue_device.json: merging the rows' files failed; they are in $archive, rows/bench_queue_device.NN.json"
  else
    echo "bench_queue_device.json: no python3 here to merge the rows' files; they are in $archive, rows/bench_queue_device.NN.json"
  fi
  pack_outputs
  report_queue_goals
}

# bench_row LABEL FILTER JSON LIMIT [TOOL]: one process of bench_queue_device (FILTER '' runs every
# row), pinned (numactl; a round-trip row also to one core) where main found how; sets row_passed=1
# on a PASS; one PASS/SKIP/FAIL line: FAIL where it timed out, exited
# non-zero (a crash: the signal named), matched no row, wrote no JSON or a row ended with an error
# (SkipWithError), SKIP where every error only says the machine lacks something ("needs 2 CUDA
# devices", "no peer access"). TOOL (run_bench_sanitize): under `compute-sanitizer --tool TOOL
# --error-exitcode 99` as a small run (RK_BENCH_SMALL=1), unpinned (nothing is timed); exit 99 is
# a FAIL naming the tool's summary line, a PASS names it too; row_alone=1 where the tool found no
# error but the row's kernels gave up waiting for their other side (else 0).
bench_row() {
  local label=$1 filter=$2 json=$3 tool=${5:-} t0=$SECONDS limit rc errors took prefix=() verdict summary hint=""
  row_alone=0
  within_budget "$label" "$4" || return 0
  limit=$limit_now
  if [ -n "$tool" ]; then
    prefix=(RK_BENCH_SMALL=1 "$sanitizer" --tool "$tool" --error-exitcode 99)
  else
    prefix=(${pin[@]+"${pin[@]}"})
    # The round-trip rows: the host thread (the whole process) on one core, rt_cpu (platform()).
    if [[ $label == *HostGpuHost* ]] && [ -n "${rt_cpu:-}" ]; then prefix+=(taskset -c "$rt_cpu"); fi
  fi
  # shellcheck disable=SC2016  # the single quotes are printed, $filter expands
  echo "=== $label (limit $limit s): ${prefix[*]:+${prefix[*]} }bench_queue_device${filter:+ --benchmark_filter='$filter'}"
  timeout -k 10 "$limit" env CUDA_MODULE_LOADING=EAGER CUDA_DEVICE_ORDER=PCI_BUS_ID ${prefix[@]+"${prefix[@]}"} \
    "$kit/bin/bench_queue_device" ${filter:+"--benchmark_filter=$filter"} \
    --benchmark_out="$json" --benchmark_out_format=json 2>&1 | tee "$scratch/output" | log_cap
  rc=${PIPESTATUS[0]}
  log_rest
  took=$((SECONDS - t0))
  errors=$(grep -o '"error_message": "[^"]*"' "$json" 2>/dev/null | cut -d'"' -f4 | sort -u | tr '\n' ';')
  errors=${errors%;}
  # compute-sanitizer's last word ("ERROR SUMMARY: 0 errors", "RACECHECK SUMMARY: 0 hazards ...").
  summary=$(grep -oE '(ERROR|RACECHECK) SUMMARY: .*' "$scratch/output" | tail -1)
  # Every row needs two kernels, or a kernel and the host, running at once: where a tool ran them
  # one after the other, the kernels give up and the row says one of these.
  if [ -n "$tool" ] && grep -qE 'not running|did not answer|gave up|lost, repeated' <<< "$errors"; then
    hint=" [under compute-sanitizer: if it ran the row's kernels one after the other, no row can pass; the tests' launch probe (messaging_device_tests) says whether it does]"
    if [ "$rc" -eq 0 ]; then row_alone=1; fi
  fi
  verdict=FAIL
  if [ "$rc" -eq 124 ] || [ "$rc" -eq 137 ]; then
    echo "FAIL $label: timed out after $limit s${errors:+ ($errors)}$hint ($took s)"
  elif [ "$rc" -gt 128 ]; then
    echo "FAIL $label: crashed, exit $rc (signal $(kill -l $((rc - 128)) 2>/dev/null || echo $((rc - 128))))${errors:+ ($errors)} ($took s)"
  elif [ -n "$tool" ] && [ "$rc" -eq 99 ]; then
    echo "FAIL $label: compute-sanitizer $tool reported errors (exit 99; ${summary:-no summary line})${errors:+ (row: $errors)} ($took s)"
  elif [ "$rc" -ne 0 ]; then
    echo "FAIL $label: exit $rc${errors:+ ($errors)}${summary:+ ($summary)} ($took s)"
  elif grep -q 'Failed to match any benchmarks' "$scratch/output"; then
    echo "FAIL $label: no row matches --benchmark_filter='$filter' ($took s)"
  elif ! grep -q '"benchmarks"' "$json" 2>/dev/null; then
    echo "FAIL $label: wrote no JSON ($took s)"
  elif [ -n "$errors" ] && grep -qvE '^(needs |no peer access)' <<< "${errors//;/$'\n'}"; then
    echo "FAIL $label: row error: $errors${summary:+ ($summary)}$hint ($took s)"
  elif [ -n "$errors" ]; then
    echo "SKIP $label: $errors ($took s)"
    verdict=SKIP
  else
    echo "PASS $label${summary:+ ($summary)} ($took s)"
    verdict=PASS
    row_passed=1
  fi
  if [ "$verdict" = FAIL ]; then failed=1; fi
  # The MANIFEST line (its JSON named, where the archive keeps it), the whole output where it
  # failed, the archive rewritten.
  keep_output "$label" "$rc" "$verdict" "$([ -n "$tool" ] || echo "rows/${json##*/}")"
}

# bench_named_row ROW LABEL JSON DEADLINE NOT_RUN [TOOL]: bench_row LABEL for the one row named ROW
# (its name as an anchored extended regex, the metacharacters . * + ? ( ) ... escaped) with the time
# left before DEADLINE ($SECONDS), row_limit at most; status 0. With under 5 s left: the FAIL line
# NOT_RUN instead, and status 2 (the callers skip what follows a run only on exactly that).
bench_named_row() {
  local row=$1 label=$2 json=$3 left=$(($4 - SECONDS)) filter
  if [ "$left" -lt 5 ]; then
    echo "FAIL $5"
    failed=1
    return 2
  fi
  # shellcheck disable=SC2001
  filter="^$(sed 's/[]\\.*+?(){}|^$[]/\\&/g' <<< "$row")\$"
  # Its status is keep_output's (pack_outputs': 1 where writing the archive failed, which its WARN
  # line says): the row ran all the same.
  bench_row "$label" "$filter" "$json" "$((row_limit < left ? row_limit : left))" ${6:+"$6"} || true
}

# run_bench_sanitize TOOL...: every row of bench_queue_device under each compute-sanitizer TOOL
# (bench_row), as a small run (RK_BENCH_SMALL=1: the least work that runs each kernel path; the
# full rows' kernels would pass their give-up budgets, as instrumented kernels run many times
# slower), each row its own process: a memcheck error stops the kernel and leaves the process's
# CUDA context unusable, so a row after it in one process would fail too, and each FAIL line names
# its row. Rows in list order, so the MPMC round trip (its echo kernel's claims on pinned memory:
# MpmcQueue::kernel_ring()) runs first. RK_BENCH_SANITIZE_ROWS: an extended regex picking rows
# (default: every row); the rows of one TOOL get RK_BENCH_SANITIZE_LIMIT s together (each at most
# RK_BENCH_ROW_LIMIT); rows past it have a "not run" FAIL line. Run where the step's REGEX is empty
# or matches "bench_queue_device" (`sanitize bench_queue_device`: these rows alone). Uses run.sh's
# sanitizer, sanitizer_ready, sanitizer_refuses_gpu and bench_sanitize_limit. Where two rows one
# after the other fail with no error from the tool because their kernels gave up waiting for their
# other side (row_alone; as where a tool makes a launch return only when its kernel ended), the
# tool's other rows are not run (one FAIL line says so): each would spend ~5-15 s failing the same way.
# A small run takes ~1 s of GPU work per row at a 100x slowdown; a row's process, ~2-5 s under
# memcheck on an H100/H200 (the tool's start, CUDA's, the module's instrumentation): 15 rows ~30-75 s.
run_bench_sanitize() {
  local bin="$kit/bin/bench_queue_device" list list_status=0 rows=() row tool deadline alone i st
  local json="$scratch/sanitize-row.json"
  if [ -n "$only" ] && ! grep -qE -- "$only" <<< bench_queue_device; then return; fi
  sanitizer_ready || return 0
  list=$(RK_BENCH_SMALL=1 timeout -k 5 30 "$bin" --benchmark_list_tests 2>&1) || list_status=$?
  mapfile -t rows < <(grep '^BM_' <<< "$list" | grep -E -- "${RK_BENCH_SANITIZE_ROWS:-.}")
  if [ "$list_status" -ne 0 ] || [ "${#rows[@]}" -eq 0 ]; then
    echo "FAIL bench_queue_device under compute-sanitizer: no rows to run (--benchmark_list_tests exit $list_status; RK_BENCH_SANITIZE_ROWS='${RK_BENCH_SANITIZE_ROWS:-}': $(head -3 <<< "$list" | tr '\n' ' '))"
    failed=1
    return
  fi
  for tool in "$@"; do
    deadline=$((SECONDS + bench_sanitize_limit))
    echo "sanitize bench_queue_device ($tool): $sanitizer, ${#rows[@]} row$([ "${#rows[@]}" = 1 ] || echo s), each its own process, RK_BENCH_SMALL=1, within $bench_sanitize_limit s (RK_BENCH_SANITIZE_LIMIT)$([ "$tool" != racecheck ] || echo "; racecheck looks at shared memory, which no row's kernel uses: for completeness")"
    alone=0 i=0
    for row in "${rows[@]}"; do
      i=$((i + 1))
      if [ "$alone" -ge 2 ]; then
        echo "FAIL bench_queue_device under compute-sanitizer $tool: its other $((${#rows[@]} - i + 1)) rows not run: the last two rows' kernels gave up waiting for their other side with no error from the tool (does it run kernels one after the other here?)"
        failed=1
        break
      fi
      rm -f "$json"  # a process that writes none must not be judged by the last row's
      st=0
      bench_named_row "$row" "bench_queue_device $row under compute-sanitizer $tool" "$json" "$deadline" \
        "bench_queue_device $row under compute-sanitizer $tool: not run, the $bench_sanitize_limit s of RK_BENCH_SANITIZE_LIMIT are spent (RK_BENCH_SANITIZE_ROWS picks rows for a call of their own)" \
        "$tool" || st=$?
      if [ "$st" -eq 2 ]; then continue; fi  # not run: the time is spent
      if sanitizer_refuses_gpu; then return; fi
      if [ "$row_alone" = 1 ]; then alone=$((alone + 1)); else alone=0; fi
    done
  done
}

# The figures of the bench_queue_device.NN.json files ($rows_dir) against issue 6's goals, one line per row
# name, over all its runs (their median; every run's figure listed):
#   GOAL met / NOT MET (RingKernel rows): round trip median <= 2000 ns, kernel-to-kernel one way
#     (ping-pong / 2, the event-timed mean; its clock64 per-round median and p99 beside it) <= 1000 ns,
#     batched throughput (B > 1) >= 1 G msgs/s (items_per_second; the per-iteration median and max
#     beside it);
#   REF (the raw-CUDA peers, BM_Raw_*): their figures, no goal;
#   RATIO (each RingKernel row against its peer): ours / raw per run, each run against the peer run
#     nearest to it in the run order (by run number NN; the one right before or after it: they alternate), and the
#     median of those per-pair ratios. Latency: > 1 means ours takes longer; throughput: the rates,
#     < 1 means ours moves fewer messages per second. A pair more than one run apart is marked.
# Each names the device (the rows' JSON context where it names one, else nvidia-smi's GPU 0). A goal
# without any figure (its rows failed or were not run) says so. A goal not met is reported, not
# failed: the kit checks that things work; the figures go to bench/RESULTS.md either way.
report_queue_goals() {
  local files=("$rows_dir"/bench_queue_device.[0-9]*.json)
  [ -f "${files[0]}" ] || files=()
  awk -F': ' -v smi_name="$gpu_name" '
    function device() { return ctx_name != "" ? ctx_name : smi_name != "" ? smi_name : "an unnamed GPU (no nvidia-smi, no device in the JSON)" }
    function med(list, n,    a, i, j, k, t) {  # the median of the numbers in the string list (n of them)
      split(list, a, " ")
      for (i = 2; i <= n; i++) { t = a[i] + 0; for (j = i - 1; j >= 1 && a[j] + 0 > t; j--) a[j + 1] = a[j]; a[j + 1] = t }
      k = int((n + 1) / 2)
      return n % 2 ? a[k] + 0 : (a[k] + a[k + 1]) / 2
    }
    function fmt(list,    a, n, i, r) { n = split(list, a, " "); r = ""; for (i = 1; i <= n; i++) r = r (i > 1 ? ", " : "") sprintf("%.4g", a[i]); return r }
    function add(key, v) { vals[key] = (key in vals) ? vals[key] " " v : v; cnt[key]++ }
    function flush() {  # the benchmark entry just read
      if (name == "" || kind == "" || err) return  # a row that ended with an error has no figure
      runs++; rname[runs] = name; rkind[runs] = kind; rfile[runs] = file; rv[runs] = v1; rv2[runs] = v2
      if (!(name in seen)) { seen[name] = 1; names[++nnames] = name }
      add(name, v1); if (v2 != "") add(name SUBSEP 2, v2); if (v3 != "") add(name SUBSEP 3, v3)
    }
    # The run number NN of bench_queue_device.NN.json, not a count of the files read: a run skipped,
    # not run, killed before writing or left empty has no file (or one awk never sees), and counting
    # would make runs several apart look adjacent.
    FNR == 1 { flush(); name = ""; kind = ""; context = 0; file = FILENAME; sub(/\.json$/, "", file); sub(/.*\./, "", file); file += 0 }
    /"context": *\{/ { context = 1 }
    /"benchmarks": *\[/ { context = 0 }
    context && ctx_name == "" && tolower($1) ~ /(gpu|device|cuda).*name|name.*(gpu|device)/ && $2 ~ /^"/ {
      v = substr($0, index($0, ": ") + 2); sub(/^"/, "", v); sub(/",?[ \t]*$/, "", v)
      if (v != "none" && v !~ /^unknown/) ctx_name = v  # a row that saw no device names none
    }
    /"name":/ && !context { flush(); name = $2; gsub(/[",]/, "", name); sub(/\/(iterations|manual_time|real_time).*/, "", name); kind = ""; v2 = v3 = ""; err = 0 }
    /"error_occurred": *true/ { err = 1 }
    # round trip: median (p99 beside it); kernel to kernel: the mean one way (clock64 median, p99)
    /"median_ns":/ { kind = "rt"; v1 = $2 + 0 }
    /"p99_ns":/ { v2 = $2 + 0 }
    /"one_way_ns":/ { kind = "k2k"; v1 = $2 + 0 }
    /"one_way_median_ns":/ { v2 = $2 + 0 }
    /"one_way_p99_ns":/ { v3 = $2 + 0 }
    /"items_per_second":/ && name ~ /Throughput\/[0-9]/ { b = name; sub(/.*Throughput\//, "", b); sub(/\/.*/, "", b); kind = "tp/" b; v1 = $2 + 0 }
    /"median_msgs_per_s":/ { v2 = $2 + 0 }
    /"max_msgs_per_s":/ { v3 = $2 + 0 }
    END {
      flush()
      for (k = 1; k <= nnames; k++) {
        n = names[k]; raw = n ~ /^BM_Raw_/; m = med(vals[n], cnt[n]); runs_txt = cnt[n] > 1 ? sprintf(" (median of %d runs: %s)", cnt[n], fmt(vals[n])) : ""
        for (j = 1; j <= runs; j++) if (rname[j] == n) { kd = rkind[j]; break }
        extra = ""
        if (kd == "rt" && (n SUBSEP 2) in vals) extra = sprintf("; p99 %.4g ns", med(vals[n SUBSEP 2], cnt[n SUBSEP 2]))
        if (kd == "k2k" && (n SUBSEP 2) in vals) extra = sprintf("; per round (clock64 on the pinging SM, / 2): median %.4g ns, p99 %.4g ns", med(vals[n SUBSEP 2], cnt[n SUBSEP 2]), med(vals[n SUBSEP 3], cnt[n SUBSEP 3]))
        if (kd ~ /^tp/ && (n SUBSEP 2) in vals) extra = sprintf("; per iteration: median %.4g, max %.4g G msgs/s", med(vals[n SUBSEP 2], cnt[n SUBSEP 2]) / 1e9, med(vals[n SUBSEP 3], cnt[n SUBSEP 3]) / 1e9)
        if (kd == "rt") { what = "median round trip"; shown = m; unit = "ns"; met = m <= 2000; goal = "<= 2000 ns"; if (!raw) rt = 1 }
        else if (kd == "k2k") { what = "one way (ping-pong round trip / 2, mean)"; shown = m; unit = "ns"; met = m <= 1000; goal = "<= 1000 ns"; if (!raw) k2k = 1 }
        else { what = "throughput"; shown = m / 1e9; unit = "G msgs/s"; met = m >= 1e9; goal = ">= 1 G msgs/s" }
        if (raw) printf "REF %s on %s: %s = %.4g %s%s%s (%s, no goal)\n", n, device(), what, shown, unit, extra, runs_txt, n ~ /LLPingPong/ ? "raw-CUDA floor of another design than the rings" : "raw-CUDA peer row"
        else if (kd == "tp/1") printf "     %s on %s: %.4g G msgs/s%s%s (one message per lane per claim; the goal is for batches)\n", n, device(), shown, extra, runs_txt
        else { printf "GOAL %s %s on %s: %s = %.4g %s%s%s (goal %s)\n", met ? "met" : "NOT MET", n, device(), what, shown, unit, extra, runs_txt, goal; if (kd ~ /^tp/) tp = 1 }
        # BM_Raw_HostGpuHostLLPingPong (raw_ll_ping_pong.cuh) is the floor of another design than the
        # rings: it gets a RATIO against the flag exchange, and is the peer of no row.
        if (raw && n !~ /LLPingPong/) continue
        # RATIO: each run of this row against the nearest raw run of the same kind.
        list = ""; list2 = ""; np = 0; far = 0; peer = ""
        for (j = 1; j <= runs; j++) {
          if (rname[j] != n) continue
          best = 0
          for (i = 1; i <= runs; i++) {
            if (rname[i] !~ /^BM_Raw_/ || rname[i] ~ /LLPingPong/ || rkind[i] != rkind[j] || rv[i] <= 0) continue
            d = rfile[i] - rfile[j]; if (d < 0) d = -d
            if (!best || d < bestd) { best = i; bestd = d }
          }
          if (!best) continue
          np++; peer = rname[best]; if (bestd > 1) far++
          list = list (np > 1 ? " " : "") rv[j] / rv[best]
          if (rv2[j] != "" && rv2[best] != "" && rv2[best] > 0) list2 = list2 (list2 != "" ? " " : "") rv2[j] / rv2[best]
        }
        if (!np) { printf "RATIO %s: no run of its raw-CUDA peer gave a figure\n", n; continue }
        sense = kd ~ /^tp/ ? "rates; < 1: ours moves fewer" : (raw ? "> 1: LL takes longer" : "> 1: ours takes longer")
        also = ""
        if (list2 != "") { split(list2, tmp, " "); n2 = 0; for (q in tmp) n2++; also = sprintf("; %s ratio: median %.3f", kd == "rt" ? "p99" : (kd == "k2k" ? "clock64 per-round median" : "per-iteration median rate"), med(list2, n2)) }
        printf "RATIO %s / %s on %s: %s = %.3f, the median of %d per-pair ratios (%s; %s)%s%s\n", n, peer, device(), raw ? "LL/flag" : "ours/raw", med(list, np), np, fmt(list), sense, also, far ? sprintf(" [%d of the pairs ran more than one run apart: not alternated]", far) : ""
      }
      if (!rt) print "GOAL no figure: host -> GPU -> host round trip median (<= 2000 ns): no BM_HostGpuHostRoundTrip row gave one (see its FAIL line)"
      if (!k2k) print "GOAL no figure: kernel -> kernel one way (ping-pong round trip / 2, <= 1000 ns): no BM_KernelToKernelPingPong row gave one"
      if (!tp) print "GOAL no figure: batched throughput (>= 1 G msgs/s): no BM_DeviceQueueThroughput/B>1 row gave one"
    }' ${files[@]+"${files[@]}"} < /dev/null
}
