# Sourced by gpu-kit/run.sh (scripts/gpu-kit-run.sh; copied into the kit as gpu-kit/lib.sh): the
# kit's source fingerprint check, the GPU state, the NUMA node and core the benchmarks are pinned
# to, and the peer-copy RATIO lines. Uses run.sh's globals: kit, out, scratch, gpus, topo; sets pin,
# rt_cpu, gpu_name.
# shellcheck shell=bash disable=SC2154,SC2034

# Whether the kit was packed from the sources of the tree it runs in (the tree holding gpu-kit/):
# every file listed in gpu-kit/sources.sha256 (scripts/gpu-kit.sh) must be there with the same
# contents. Files in those folders that the list lacks (added since) are named in a WARN line only:
# without git there is no telling which of them git would ignore. False (a FAIL line): stale.
kit_sources_match() {
  local sums="$kit/sources.sha256" root bad listed present extra paths
  root=$(cd "$kit/.." && pwd)
  if [ ! -f "$sums" ]; then
    echo "FAIL kit: gpu-kit/sources.sha256 is missing (packed by an older scripts/gpu-kit.sh), so whether the kit is stale cannot be told: repack with scripts/gpu-kit.sh right before the GPU call"
    return 1
  fi
  if ! command -v sha256sum > /dev/null; then
    echo "WARN kit: no sha256sum here, so whether the kit matches this tree is not checked"
    return 0
  fi
  if ! bad=$(cd "$root" && sha256sum --quiet -c "$sums" 2>&1); then
    echo "FAIL kit: stale, packed from other sources than this tree ($root): $(grep -c ': FAILED' <<< "$bad") of $(wc -l < "$sums") files differ or are missing ($(grep ': FAILED' <<< "$bad" | sed 's/: FAILED.*//' | head -8 | tr '\n' ' ')...): repack with scripts/gpu-kit.sh right before the GPU call (RK_KIT_SOURCES=ignore runs it anyway)"
    return 1
  fi
  read -r -a paths <<< "$(sed -n 's/^source_paths: //p' "$kit/VERSION" 2>/dev/null)"
  listed=$(sed 's/^[0-9a-f]*  //' "$sums" | LC_ALL=C sort)
  present=$(cd "$root" && find ${paths[@]+"${paths[@]}"} -type f ! -name '*.swp' 2>/dev/null | LC_ALL=C sort)
  extra=$(LC_ALL=C comm -13 <(echo "$listed") <(echo "$present"))
  echo "kit sources: this tree matches the $(wc -l < "$sums") files the kit was built from (fingerprint $(sha256sum < "$sums" | cut -c1-16))"
  if [ -n "$extra" ]; then
    echo "WARN kit: $(wc -l <<< "$extra") files in this tree are not in the kit's source list (added since the packing, or ignored by git): $(head -5 <<< "$extra" | tr '\n' ' ')"
  fi
}

# gpu_state WHEN: the GPUs' clocks, power and temperature as nvidia-smi reads them (read only),
# labelled WHEN; nothing without a GPU. The active clock-event (throttle) reasons where the driver
# knows the field (clocks_event_reasons.active), else without them.
gpu_state() {
  [ -n "${gpus:-}" ] || return 0
  local fields=index,pstate,clocks.sm,clocks.max.sm,clocks.mem,power.draw,power.limit,temperature.gpu state
  state=$(timeout -k 2 10 nvidia-smi --query-gpu="$fields,clocks_event_reasons.active" --format=csv 2>/dev/null) ||
    state=$(timeout -k 2 10 nvidia-smi --query-gpu="$fields" --format=csv 2>&1) || true
  echo "gpu state $1 (nvidia-smi, read only):"
  echo "$state"
}

# pick_pinning: from platform(), with its locals gpus and topo in scope: gpu_name (CUDA's device 0:
# nvidia-smi's GPU 0, or the first of CUDA_VISIBLE_DEVICES), pin (the numactl prefix binding the
# benchmarks to that GPU's NUMA node; empty where that cannot be) and rt_cpu (the core the
# round-trip rows run on; empty: not pinned), each with a line saying what was picked and why.
pick_pinning() {
  local sel=0 g0 index bus numa="" node_file
  if [ -n "${CUDA_VISIBLE_DEVICES:-}" ]; then sel=${CUDA_VISIBLE_DEVICES%%,*}; fi
  if [ -n "$gpus" ]; then
    g0=$(timeout -k 5 20 nvidia-smi --query-gpu=index,name,pci.bus_id --format=csv,noheader -i "$sel" 2>/dev/null | head -1)
    if [ -z "$g0" ]; then g0=$(head -1 <<< "$gpus" | awk -F', ' '{ print $1 ", " $2 ", " $NF }'); fi
    index=${g0%%, *} bus=${g0##*, } gpu_name=${g0#*, } gpu_name=${gpu_name%, *}
  fi
  # The GPU's NUMA node: sysfs (nvidia-smi's bus id 00000000:19:00.0 is 0000:19:00.0 there), else
  # the "NUMA Affinity" column of nvidia-smi topo -m; -1 or N/A: none known.
  if [[ ${bus:-} =~ ^([0-9A-Fa-f]+):([0-9A-Fa-f]{2}:[0-9A-Fa-f]{2}\.[0-7])$ ]]; then
    node_file=$(printf '/sys/bus/pci/devices/%04x:%s/numa_node' "$((16#${BASH_REMATCH[1]}))" "${BASH_REMATCH[2],,}")
    numa=$(cat "$node_file" 2>/dev/null)
  fi
  if ! [[ $numa =~ ^[0-9]+$ ]] && [ -n "${topo:-}" ]; then
    numa=$(awk -F'\t' -v row="GPU${index:-0}" '
      { gsub(/\033\[[0-9;]*m/, "") }
      !col { for (i = 1; i <= NF; i++) if ($i ~ /NUMA Affinity/) col = i; next }
      { label = $1; gsub(/ /, "", label) }
      label == row { v = $col; gsub(/ /, "", v); print v; exit }' <<< "$topo")
  fi
  if ! [[ $numa =~ ^[0-9]+$ ]]; then numa=; fi
  pin=()
  if [ -z "$gpus" ]; then
    echo "numa: no GPU from nvidia-smi, so no NUMA node to pin to: the benchmarks run unpinned"
  elif ! command -v numactl > /dev/null; then
    echo "numa: numactl is not installed here: the benchmarks run unpinned${numa:+ (the GPU ${gpu_name:-0} is on NUMA node $numa)}"
  elif [ -z "$numa" ]; then
    echo "numa: the NUMA node of ${gpu_name:-GPU 0} (${bus:-bus unknown}) is not known (sysfs, nvidia-smi topo -m): the benchmarks run unpinned"
  elif ! numactl --cpunodebind="$numa" --membind="$numa" true 2> "$scratch/numactl"; then
    echo "numa: numactl refuses node $numa ($(head -1 "$scratch/numactl")): the benchmarks run unpinned"
  else
    pin=(numactl --cpunodebind="$numa" --membind="$numa")
    echo "numa: bench_queue_device runs pinned to the NUMA node of ${gpu_name:-GPU 0} ($bus): ${pin[*]}"
  fi
  # The round-trip rows' host thread: one core (the whole process, taskset -c), of the GPU's NUMA
  # node where the rows are pinned to it, else of the cores this script may use; the list's second
  # core where it has two or more, as the first tends to take more interrupts and housekeeping.
  local cpus="" c list=()
  if [ -n "$numa" ] && [ ${#pin[@]} -gt 0 ]; then cpus=$(cat "/sys/devices/system/node/node$numa/cpulist" 2>/dev/null); fi
  if [ -z "$cpus" ]; then cpus=$(taskset -pc $$ 2>/dev/null | sed -n 's/.*list: *//p'); fi
  for c in ${cpus//,/ }; do
    if [[ $c =~ ^([0-9]+)-([0-9]+)$ ]]; then
      mapfile -t -O "${#list[@]}" list < <(seq "${BASH_REMATCH[1]}" "${BASH_REMATCH[2]}")
    elif [[ $c =~ ^[0-9]+$ ]]; then
      list+=("$c")
    fi
  done
  rt_cpu=${list[1]:-${list[0]:-}}
  if [ -z "$rt_cpu" ] || ! command -v taskset > /dev/null || ! taskset -c "$rt_cpu" true 2> /dev/null; then
    echo "core: the round-trip rows' host thread is not pinned to one core (taskset missing, or no usable core in '${cpus:-unknown}')"
    rt_cpu=
  else
    echo "core: the round-trip rows (ours and raw) run on CPU $rt_cpu (taskset -c $rt_cpu${numa:+, NUMA node $numa}; its SMT siblings: $(cat "/sys/devices/system/cpu/cpu$rt_cpu/topology/thread_siblings_list" 2>/dev/null || echo unknown), core id $(cat "/sys/devices/system/cpu/cpu$rt_cpu/topology/core_id" 2>/dev/null || echo unknown))"
  fi
}

# PeerMemory against the raw CUDA copies it wraps, from bench_peer_copy.json's median aggregates:
# one RATIO line per pair, ours / raw of the median bytes_per_second per size (a ratio of medians:
# with the repetitions randomly interleaved, repetition k of one row has no partner in the other),
# and the issue's threshold over the sizes it covers.
report_copy_ratios() {
  [ -f "$out/bench_peer_copy.json" ] || return 0
  awk -F': ' '
    /"name":/ { name = $2; gsub(/[",]/, "", name); median = 0 }
    /"aggregate_name": *"median"/ { median = 1 }
    /"bytes_per_second":/ && median {
      base = name; sub(/_median$/, "", base); sub(/\/real_time$/, "", base)
      split(base, part, "/"); rate[part[1], part[2]] = $2 + 0
      if (!(part[2] in size_seen)) { size_seen[part[2]] = 1; sizes[++nsizes] = part[2] + 0 }
    }
    function human(b) { return b >= 1073741824 ? b / 1073741824 "G" : b >= 1048576 ? b / 1048576 "M" : b / 1024 "K" }
    function pair(ours, raw, goal, from,    i, line, low, n, r) {
      line = ""; low = ""; n = 0
      for (i = 1; i <= nsizes; i++) {
        if (!((ours, sizes[i]) in rate) || !((raw, sizes[i]) in rate) || rate[raw, sizes[i]] <= 0) continue
        r = rate[ours, sizes[i]] / rate[raw, sizes[i]]; n++
        line = line sprintf(" %s %.3f", human(sizes[i]), r)
        if (sizes[i] >= from && (low == "" || r < low)) low = r
      }
      if (!n) return
      printf "RATIO %s / %s (bench_peer_copy, median rates per size): %s; goal >= %s at >= %s: %s\n", ours, raw, substr(line, 2), goal, human(from), low == "" ? "no size" : (low >= goal ? "met" : "NOT MET") sprintf(" (lowest %.3f)", low)
    }
    END {
      for (i = 1; i < nsizes; i++) for (j = i + 1; j <= nsizes; j++) if (sizes[j] < sizes[i]) { t = sizes[i]; sizes[i] = sizes[j]; sizes[j] = t }
      pair("BM_PeerMemory_same_device", "BM_Raw_MemcpyAsync_D2D", 0.95, 1048576)
      pair("BM_PeerMemory_direct", "BM_Raw_MemcpyPeerAsync", 0.95, 1048576)
      pair("BM_PeerMemory_host_staged", "BM_Raw_Pinned_Pipelined", 0.9, 4096)
    }' "$out/bench_peer_copy.json"
}
