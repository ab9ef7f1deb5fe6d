# Sourced by gpu-kit/run.sh (scripts/gpu-kit-run.sh; copied into the kit as gpu-kit/bench_queue.sh):
# bench_queue_device, the GPU queue goals of issue 6, row by row. Uses run.sh's globals: kit, out,
# scratch, bench_limit, row_limit, pin, gpu_name, failed, within_budget and limit_now.
# shellcheck shell=bash disable=SC2154,SC2034

# The GPU queue goals (round trip, kernel to kernel, batched throughput), row by row: each row of
# bench_queue_device is its own process (--benchmark_filter='^ROW$', ROW from
# --benchmark_list_tests) with its own time limit and JSON ($out/bench_queue_device.NN.json, NN in
# the order run), so a row that faults (poisoning its CUDA context), crashes or hangs is reported as
# such and the others still run. The rows that decide the goals first, each next to its raw-CUDA
# peer (BM_Raw_*: the same machine state for the ratio): the SPSC round trip (2 us) and its peer,
# the kernel-to-kernel ping-pongs (1 us one way) and theirs, the batched throughput (1 G msgs/s);
# then any other row; the MPMC round trip last (the kernel's CAS on pinned host memory over PCIe,
# the least tested). Should listing fail, all rows run in one process.
# Eager module loading: with CUDA's default (lazy), the first launch of each kernel loads it inside
# the first timed iteration of the rows that time a fixed number of iterations. CUDA_DEVICE_ORDER:
# CUDA's device 0 is then nvidia-smi's GPU 0, the one pinned to and named in the GOAL lines.
run_bench_queue() {
  local bin="$kit/bin/bench_queue_device" list list_status=0 rows=() row i=0 left filter
  local deadline=$((SECONDS + bench_limit))
  rm -f "$out/bench_queue_device.json" "$out"/bench_queue_device.[0-9]*.json  # an earlier run's
  list=$(timeout -k 5 30 "$bin" --benchmark_list_tests 2>&1) || list_status=$?
  mapfile -t rows < <(grep '^BM_' <<< "$list" | awk '
    { r = 7 }
    /^BM_HostGpuHostRoundTrip<.*Spsc/ { r = 1 }
    /^BM_Raw_HostGpuHost/ { r = 2 }
    /^BM_KernelToKernelPingPong<DeviceSpsc/ { r = 3 }
    /^BM_KernelToKernelPingPong</ && r == 7 { r = 4 }
    /^BM_Raw_KernelToKernel/ { r = 5 }
    /^BM_DeviceQueueThroughput/ { r = 6 }
    /Mpmc/ && r == 7 { r = 9 }
    { printf "%d\t%04d\t%s\n", r, NR, $0 }' | sort -k1,1n -k2,2n | cut -f3-)
  if [ "$list_status" -ne 0 ] || [ "${#rows[@]}" -eq 0 ]; then
    echo "FAIL bench_queue_device --benchmark_list_tests: exit $list_status, ${#rows[@]} rows ($(head -3 <<< "$list" | tr '\n' ' ')); all rows run in one process"
    failed=1
    bench_row "bench_queue_device (all rows)" "" "$out/bench_queue_device.00.json" "$bench_limit"
  else
    echo "bench_queue_device: ${#rows[@]} rows, each its own process, in this order: $(printf '%s; ' "${rows[@]}")"
    for row in "${rows[@]}"; do
      i=$((i + 1))
      left=$((deadline - SECONDS))
      if [ "$left" -lt 5 ]; then
        echo "FAIL bench_queue_device $row: not run, the $bench_limit s of RK_BENCH_LIMIT for all rows are spent"
        failed=1
        continue
      fi
      # The row's name as an extended regex, anchored: its metacharacters (. * + ? ( ) ...) escaped.
      # shellcheck disable=SC2001
      filter="^$(sed 's/[]\\.*+?(){}|^$[]/\\&/g' <<< "$row")\$"
      bench_row "bench_queue_device $row" "$filter" "$(printf '%s/bench_queue_device.%02d.json' "$out" "$i")" \
        "$((row_limit < left ? row_limit : left))"
    done
  fi
  # One file with every row, as Google Benchmark would have written it (context: the first row's).
  if command -v python3 > /dev/null; then
    python3 - "$out/bench_queue_device.json" "$out"/bench_queue_device.[0-9]*.json <<'PY' ||
import json, sys
merged = None
for path in sys.argv[2:]:
    try:
        one = json.load(open(path))
    except (OSError, ValueError):
        continue  # a row killed while writing
    if merged is None:
        merged = {"context": one.get("context", {}), "benchmarks": []}
    merged["benchmarks"] += one.get("benchmarks", [])
if merged is not None:
    json.dump(merged, open(sys.argv[1], "w"), indent=2)
PY
      echo "bench_queue_device.json: merging the rows' files failed; they are in bench_queue_device.NN.json"
  else
    echo "bench_queue_device.json: no python3 here to merge the rows' files; they are in bench_queue_device.NN.json"
  fi
  report_queue_goals
}

# bench_row LABEL FILTER JSON LIMIT: one process of bench_queue_device (FILTER '' runs every row),
# pinned (numactl) where main found how; one PASS/SKIP/FAIL line: FAIL where it timed out, exited
# non-zero (a crash: the signal named), matched no row, wrote no JSON or a row ended with an error
# (SkipWithError), SKIP where every error only says the machine lacks something ("needs 2 CUDA
# devices", "no peer access").
bench_row() {
  local label=$1 filter=$2 json=$3 t0=$SECONDS limit rc errors took
  within_budget "$label" "$4" || return 0
  limit=$limit_now
  # shellcheck disable=SC2016  # the single quotes are printed, $filter expands
  echo "=== $label (limit $limit s): ${pin[*]:+${pin[*]} }bench_queue_device${filter:+ --benchmark_filter='$filter'}"
  timeout -k 10 "$limit" env CUDA_MODULE_LOADING=EAGER CUDA_DEVICE_ORDER=PCI_BUS_ID ${pin[@]+"${pin[@]}"} \
    "$kit/bin/bench_queue_device" ${filter:+"--benchmark_filter=$filter"} --benchmark_out="$json" \
    --benchmark_out_format=json 2>&1 | tee "$scratch/output"
  rc=${PIPESTATUS[0]}
  took=$((SECONDS - t0))
  errors=$(grep -o '"error_message": "[^"]*"' "$json" 2>/dev/null | cut -d'"' -f4 | sort -u | tr '\n' ';')
  errors=${errors%;}
  if [ "$rc" -eq 124 ] || [ "$rc" -eq 137 ]; then
    echo "FAIL $label: timed out after $limit s${errors:+ ($errors)} ($took s)"
  elif [ "$rc" -gt 128 ]; then
    echo "FAIL $label: crashed, exit $rc (signal $(kill -l $((rc - 128)) 2>/dev/null || echo $((rc - 128))))${errors:+ ($errors)} ($took s)"
  elif [ "$rc" -ne 0 ]; then
    echo "FAIL $label: exit $rc${errors:+ ($errors)} ($took s)"
  elif grep -q 'Failed to match any benchmarks' "$scratch/output"; then
    echo "FAIL $label: no row matches --benchmark_filter='$filter' ($took s)"
  elif ! grep -q '"benchmarks"' "$json" 2>/dev/null; then
    echo "FAIL $label: wrote no JSON ($took s)"
  elif [ -n "$errors" ] && grep -qvE '^(needs |no peer access)' <<< "${errors//;/$'\n'}"; then
    echo "FAIL $label: row error: $errors ($took s)"
  elif [ -n "$errors" ]; then
    echo "SKIP $label: $errors ($took s)"
    return 0
  else
    echo "PASS $label ($took s)"
    return 0
  fi
  failed=1
}

# One line per row of the bench_queue_device.NN.json files with its figure against issue 6's goal:
# round trip median <= 2000 ns, kernel-to-kernel one way (ping-pong round trip / 2) <= 1000 ns,
# batched throughput (B > 1) >= 1 G msgs/s; each names the device (the rows' JSON context where it
# names one, else nvidia-smi's GPU 0). The raw-CUDA peer rows (BM_Raw_*) give REF lines, no goal.
# A goal without any figure (its rows failed or were not run) says so. A goal not met is reported,
# not failed: the kit checks that things work; the figures go to bench/RESULTS.md either way.
report_queue_goals() {
  local files=("$out"/bench_queue_device.[0-9]*.json)
  [ -f "${files[0]}" ] || files=()
  awk -F': ' -v smi_name="$gpu_name" '
    function device() { return ctx_name != "" ? ctx_name : smi_name != "" ? smi_name : "an unnamed GPU (no nvidia-smi, no device in the JSON)" }
    function figure(what, v, unit, met, goal) {
      if (name ~ /^BM_Raw_/) printf "REF %s on %s: %s = %.4g %s (raw-CUDA peer row, no goal)\n", name, device(), what, v, unit
      else printf "GOAL %s %s on %s: %s = %.4g %s (goal %s)\n", met ? "met" : "NOT MET", name, device(), what, v, unit, goal
    }
    FNR == 1 { context = 0; name = "" }
    /"context": *\{/ { context = 1 }
    /"benchmarks": *\[/ { context = 0 }
    context && ctx_name == "" && tolower($1) ~ /(gpu|device|cuda).*name|name.*(gpu|device)/ && $2 ~ /^"/ {
      v = substr($0, index($0, ": ") + 2); sub(/^"/, "", v); sub(/",?[ \t]*$/, "", v)
      if (v != "none" && v !~ /^unknown/) ctx_name = v  # a row that saw no device names none
    }
    /"name":/ && !context { name = $2; gsub(/[",]/, "", name) }
    /"median_ns":/ { v = $2 + 0; figure("median round trip", v, "ns", v <= 2000, "<= 2000 ns"); if (name !~ /^BM_Raw_/) rt = 1 }
    /"one_way_ns":/ { v = $2 + 0; figure("one way (ping-pong round trip / 2)", v, "ns", v <= 1000, "<= 1000 ns"); if (name !~ /^BM_Raw_/) k2k = 1 }
    /"items_per_second":/ && name ~ /Throughput\/[0-9]/ {
      v = $2 + 0
      if (name ~ /Throughput\/1(\/|$)/) printf "     %s on %s: %.4g msgs/s (one message per lane per claim; the goal is for batches)\n", name, device(), v
      else { figure("throughput", v / 1e9, "G msgs/s", v >= 1e9, ">= 1 G msgs/s"); if (name !~ /^BM_Raw_/) tp = 1 }
    }
    END {
      if (!rt) print "GOAL no figure: host -> GPU -> host round trip median (<= 2000 ns): no BM_HostGpuHostRoundTrip row gave one (see its FAIL line)"
      if (!k2k) print "GOAL no figure: kernel -> kernel one way (ping-pong round trip / 2, <= 1000 ns): no BM_KernelToKernelPingPong row gave one"
      if (!tp) print "GOAL no figure: batched throughput (>= 1 G msgs/s): no BM_DeviceQueueThroughput/B>1 row gave one"
    }' ${files[@]+"${files[@]}"} < /dev/null
}
