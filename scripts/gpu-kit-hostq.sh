# Sourced by gpu-kit/run.sh (scripts/gpu-kit-run.sh; copied into the kit as gpu-kit/hostq.sh): the
# `hostq` step, the host queue benchmark bench_queue (bench/queue: our host rings against
# Boost.Lockfree and moodycamel) on the GPU machine's CPUs. No GPU needed: it runs the same where
# nvidia-smi and CUDA see nothing. Uses run.sh's globals: kit, out, scratch, step, only, failed,
# within_budget, limit_now; pack, archive, log_cap, log_rest, keep_output, pack_outputs (outputs.sh).
# shellcheck shell=bash disable=SC2154,SC2034

# run_hostq: the paired rows (--benchmark_filter=BM_Paired_, or the REGEX of `run.sh hostq REGEX`),
# whose contenders alternate within each iteration, in RK_HOSTQ_ROUNDS (3) rounds, each one process
# with the rows in random order (--benchmark_enable_random_interleaving=true, as
# bench/queue/run.sh), its JSON into the archive as hostq/bench_queue.rN.json. The rounds together
# get RK_HOSTQ_LIMIT (150) s: a round is started only when what is left is more than the longest
# round so far and an eighth (a WARN line names the rounds left out). Each paired row's MinTime is
# 2 s: Google Benchmark times ~1.4 x that (2.8 s) after trials of 1, 10, 100 ... iterations (~1 s),
# so ~4 s a row on a quiet machine (5.3 s on the 2-core dev VM, whose speed drifts: 14 rows in 75 s).
# The 26 rows of 2026-11-30 (14 SPSC/MPMC, 12 PxC, which skip at once where the machine has fewer
# CPUs than P + C; all run on 16): ~100-110 s a round on 16 cores, ESTIMATED from the MinTimes (no
# PxC row with more than one thread a side has run yet): one round should fit the 150 s.
# Three rounds of every row take two calls: `hostq BM_Paired_Spsc` (12 rows, ~50 s a round, 3 fit)
# and `hostq BM_Paired_Mpmc` (14 rows, ~55-60 s a round: 2 fit, 3 with RK_HOSTQ_LIMIT=200).
# Then one RATIO line per row and RingKernel contender (the median over the rounds of each round's
# per-iteration median ratio to the best peer), a SKIP line per row that only said the machine
# lacks CPUs ("needs N CPUs, ..."), and summarize.py's tables
# (gpu-kit/bench_queue_summarize.py, bench/queue/summarize.py as packed) where python3 exists.
run_hostq() {
  local bin="$kit/bin/bench_queue" filter=BM_Paired_ rounds=${RK_HOSTQ_ROUNDS:-3} step_limit=${RK_HOSTQ_LIMIT:-150}
  local dir="$pack/hostq" list rows=() r left longest=0 t0 deadline busy0 c round_took round_ok
  if [ "$step" = hostq ] && [ -n "$only" ]; then filter=$only; fi
  mkdir -p "$dir"
  rm -f "$dir"/bench_queue.r*.json
  if [ ! -x "$bin" ]; then
    echo "FAIL hostq: $bin is missing (a build without the Boost.Lockfree / moodycamel headers, or a kit packed by an older scripts/gpu-kit.sh)"
    failed=1
    return
  fi
  list=$(timeout -k 5 30 "$bin" --benchmark_list_tests "--benchmark_filter=$filter" 2>&1)
  mapfile -t rows < <(grep '^BM_' <<< "$list")
  if [ "${#rows[@]}" -eq 0 ]; then
    echo "FAIL hostq: bench_queue lists no row for --benchmark_filter='$filter' ($(head -2 <<< "$list" | tr '\n' ' '))"
    failed=1
    return
  fi
  # The machine, as far as the figures depend on it: bench_queue pins its producer to the first CPU
  # of its affinity mask and its consumer to the second (bench/queue/transfer.h; the PxC rows use
  # the first P + C); SMT siblings there would share a core's caches.
  local allowed cpus
  allowed=$(taskset -pc $$ 2>/dev/null | sed -n 's/.*list: *//p')
  # The first two CPUs of a list such as "0-15" or "2,4-7".
  cpus=$(tr ',' '\n' <<< "${allowed:-0-1}" | awk -F- '{ for (c = $1; c <= ($2 == "" ? $1 : $2) && n < 2; c++) { print c; n++ } }')
  echo "hostq: bench_queue on the host CPUs (no GPU needed): $(nproc 2>/dev/null || echo '?') CPUs usable (${allowed:-?}), $(sed -n 's/^model name[[:space:]]*: //p' /proc/cpuinfo 2>/dev/null | head -1)"
  local first
  first=$(head -1 <<< "$cpus")
  for c in $cpus; do
    echo "hostq: CPU $c ($([ "$c" = "$first" ] && echo producer || echo consumer)): core id $(cat "/sys/devices/system/cpu/cpu$c/topology/core_id" 2>/dev/null || echo unknown), SMT siblings $(cat "/sys/devices/system/cpu/cpu$c/topology/thread_siblings_list" 2>/dev/null || echo unknown), governor $(cat "/sys/devices/system/cpu/cpu$c/cpufreq/scaling_governor" 2>/dev/null || echo none)"
  done
  echo "hostq: ${#rows[@]} rows (--benchmark_filter='$filter'), $rounds round$([ "$rounds" = 1 ] || echo s) (RK_HOSTQ_ROUNDS) within $step_limit s (RK_HOSTQ_LIMIT); load average $(cut -d' ' -f1-3 /proc/loadavg 2>/dev/null)"
  busy0=$(hostq_busy) t0=$SECONDS
  times > "$scratch/times.0"  # bash's own: its children's CPU time so far (in a subshell it would be the subshell's)
  deadline=$((SECONDS + step_limit))
  for ((r = 1; r <= rounds; r++)); do
    left=$((deadline - SECONDS))
    if [ "$r" -gt 1 ] && [ "$left" -lt $((longest + longest / 8 + 2)) ]; then
      echo "WARN hostq: round$([ "$r" = "$rounds" ] && echo " $r" || echo "s $r..$rounds") not run: $left s left of RK_HOSTQ_LIMIT ($step_limit s), a round took up to $longest s (for more rounds: split the rows over calls, e.g. \`hostq BM_Paired_Spsc\` and \`hostq BM_Paired_Mpmc\`, or raise RK_HOSTQ_LIMIT)"
      break
    fi
    round_took=0 round_ok=0
    hostq_round "bench_queue round $r of $rounds (hostq)" "$filter" "$dir/bench_queue.r$r.json" "$left"
    if [ "$round_took" -gt "$longest" ]; then longest=$round_took; fi
    if [ "$round_ok" != 1 ]; then break; fi  # a round that failed or timed out: the next would too
  done
  times > "$scratch/times.1"
  echo "hostq: $((SECONDS - t0)) s; CPU time: bench_queue $(hostq_cpu "$scratch/times.0" "$scratch/times.1") s, all processes $(hostq_busy "$busy0") (the difference: other processes, should be ~0; steal: the hypervisor ran something else on the vCPUs); load average $(cut -d' ' -f1-3 /proc/loadavg 2>/dev/null)"
  hostq_report "$dir"
  pack_outputs
}

# hostq_busy [BEFORE]: the CPU time of the whole machine, /proc/stat's "user nice system irq
# softirq, steal" in ticks; with BEFORE (an earlier output) the seconds since, as "N s, steal N s".
# hostq_cpu BEFORE AFTER: the seconds of CPU time (user + sys) the shell's waited-for children took
# between two outputs of bash's `times` (its second line: the children's).
hostq_busy() {
  awk -v before="${1:-}" -v hz="$(getconf CLK_TCK 2>/dev/null || echo 100)" '/^cpu / {
    if (before == "") { print $2 + $3 + $4 + $7 + $8 "," $9; exit }
    split(before, b, ","); printf "%.1f s, steal %.1f s", ($2 + $3 + $4 + $7 + $8 - b[1]) / hz, ($9 - b[2]) / hz }' /proc/stat 2>/dev/null
}
hostq_cpu() {
  awk 'FNR == 2 { for (i = 1; i <= 2; i++) { split($i, p, "m"); s[NR == FNR ? 1 : 2] += p[1] * 60 + p[2] } }
    END { printf "%.1f", s[2] - s[1] }' "$1" "$2"
}

# hostq_round LABEL FILTER JSON LIMIT: one process of bench_queue over the rows FILTER matches, its
# JSON into JSON (the archive's hostq/), within LIMIT and the run's budget; one PASS/FAIL line;
# sets round_took and round_ok=1 on a PASS. FAIL: timed out, crashed, exit non-zero (86: a PxC
# row's threads stuck in a queue call, its stderr line quoted), no JSON, or a row that ended with an
# error other than one saying the machine lacks CPUs ("needs N CPUs, ...": the PxC rows): those are
# skips, counted on the PASS line.
hostq_round() {
  local label=$1 json=$3 t0=$SECONDS limit rc errors skips took stuck verdict=FAIL
  within_budget "$label" "$4" || return 0
  limit=$limit_now
  echo "=== $label (limit $limit s): bench_queue --benchmark_filter='$2' --benchmark_enable_random_interleaving=true --benchmark_out=${json#"$pack"/} --benchmark_out_format=json"
  timeout -k 10 "$limit" "$kit/bin/bench_queue" "--benchmark_filter=$2" --benchmark_enable_random_interleaving=true \
    --benchmark_out="$json" --benchmark_out_format=json 2>&1 | tee "$scratch/output" | log_cap
  rc=${PIPESTATUS[0]}
  log_rest
  took=$((SECONDS - t0))
  round_took=$took
  errors=$(grep -oE '"(error|skip)_message": "[^"]*"' "$json" 2>/dev/null | cut -d'"' -f4)
  skips=$(grep -cE '^needs [0-9]+ CPUs' <<< "$errors")
  errors=$(grep -vE '^needs [0-9]+ CPUs' <<< "$errors" | grep . | sort -u | tr '\n' ';')
  if [ "$rc" -eq 124 ] || [ "$rc" -eq 137 ]; then
    echo "FAIL $label: timed out after $limit s ($took s)"
  elif [ "$rc" -gt 128 ]; then
    echo "FAIL $label: crashed, exit $rc (signal $(kill -l $((rc - 128)) 2>/dev/null || echo $((rc - 128)))) ($took s)"
  elif [ "$rc" -eq 86 ]; then  # pxc_stuck_status (bench/queue/pxc_checks.h): its line on stderr,
    # less its "bench_queue: " and its "Ending the process, exit status 86." (this line says both)
    stuck=$(sed -n '/still inside a queue call/{s/^bench_queue: //;s/ Ending the process, exit status [0-9]*\.$//;p;q;}' "$scratch/output")
    echo "FAIL $label: exit 86, threads of a PxC row stuck in a queue call after a stop: ${stuck:-its output does not say which} ($took s)"
  elif [ "$rc" -ne 0 ]; then
    echo "FAIL $label: exit $rc ($took s)"
  elif ! tail -1 "$json" 2>/dev/null | grep -q '^}'; then
    echo "FAIL $label: wrote no complete JSON ($took s)"
  elif [ -n "$errors" ]; then
    echo "FAIL $label: row error: ${errors%;} ($took s)"
  else
    verdict=PASS round_ok=1
    echo "PASS $label$([ "$skips" -eq 0 ] || echo " ($skips rows skipped: the machine lacks what they need)") ($took s)"
  fi
  if [ "$verdict" = FAIL ]; then failed=1; fi
  keep_output "$label" "$rc" "$verdict" "${json#"$pack"/}"
}

# hostq_report DIR: from the rounds' JSONs in DIR (a round killed midway counts with the rows it
# finished: Google Benchmark writes each row as it ends), one RATIO line per paired row and
# RingKernel contender: the median over the rounds of each round's ratio_OURS_median (per
# iteration: ours / the best peer of that iteration, rates; > 1: ours moves more messages per
# second), the rounds' values and the contenders' median rates beside it; a SKIP line per row that
# no round gave a figure for and that said the machine lacks CPUs ("needs N CPUs, ..."; FAIL for
# another error). Then summarize.py's tables over the complete JSONs where python3 exists.
hostq_report() {
  local files=() complete=() f
  for f in "$1"/bench_queue.r*.json; do
    if [ -f "$f" ] && grep -q '"benchmarks"' "$f"; then files+=("$f"); fi
    if [ -f "$f" ] && tail -1 "$f" | grep -q '^}'; then complete+=("$f"); fi
  done
  if [ "${#files[@]}" -eq 0 ]; then
    echo "hostq: no round wrote a JSON with rows: no figures"
    return
  fi
  echo "=== hostq summary: ${#files[@]} round$([ "${#files[@]}" = 1 ] || echo s) (${files[*]##*/} in $archive, hostq/$([ "${#complete[@]}" = "${#files[@]}" ] || echo "; $((${#files[@]} - ${#complete[@]})) cut short"))"
  # A row's name as summarize.py keys it: its arguments ("8", "P:4") without min_time:, real_time.
  awk -F': ' '
    function med(list,    a, n, i, j, t) { n = split(list, a, " ")
      for (i = 2; i <= n; i++) { t = a[i] + 0; for (j = i - 1; j >= 1 && a[j] + 0 > t; j--) a[j + 1] = a[j]; a[j + 1] = t }
      return n % 2 ? a[(n + 1) / 2] : (a[n / 2] + a[n / 2 + 1]) / 2 }
    function val() { v = substr($0, index($0, ": ") + 2); sub(/^"/, "", v); sub(/",?[ \t]*$/, "", v); return v }
    /"name":/ { n = split(val(), p, "/"); name = p[1]
      for (i = 2; i <= n; i++) if (p[i] ~ /^([A-Za-z_][A-Za-z0-9_]*:)?[0-9]+$/ && p[i] !~ /^(iterations|repeats|threads):/) name = name "/" p[i]
      if (!(name in seen)) { seen[name] = 1; names[++nn] = name } }
    /"(error|skip)_message":/ { err[name] = val(); nerr[name]++ }
    /"ratio_[A-Za-z0-9_]*_median":/ { k = $1; gsub(/[" ]/, "", k); sub(/^ratio_/, "", k); sub(/_median$/, "", k)
      if (!((name, k) in r)) ours[name] = ours[name] " " k; r[name, k] = r[name, k] " " ($2 + 0) }
    /"[A-Za-z0-9_]*_Mmsgs":/ { k = $1; gsub(/[" ]/, "", k); sub(/_Mmsgs$/, "", k)
      if (!((name, k) in rate)) who[name] = who[name] " " k; rate[name, k] = rate[name, k] " " ($2 + 0) }
    END {
      for (i = 1; i <= nn; i++) {
        name = names[i]
        if (ours[name] == "") {  # no figure in any round: skipped (a machine lacking CPUs), or failed
          if (name in err) printf "%s hostq %s: %s (%d of %d rounds)\n", err[name] ~ /^needs [0-9]+ CPUs/ ? "SKIP" : "FAIL", name, err[name], nerr[name], rounds
          continue
        }
        rates = ""; m = split(who[name], w, " "); for (j = 1; j <= m; j++) rates = rates sprintf("%s%s %.1f", j > 1 ? ", " : "", w[j], med(rate[name, w[j]]))
        m = split(ours[name], o, " ")
        for (j = 1; j <= m; j++) {
          c = split(r[name, o[j]], x, " "); list = ""; for (q = 1; q <= c; q++) list = list sprintf("%s%.2f", q > 1 ? " " : "", x[q])
          printf "RATIO hostq %s %s / best peer = %.2f (%s; rates, > 1: ours moves more; M msgs/s: %s)\n", name, o[j], med(r[name, o[j]]), (c > 1 ? "median of " c " rounds: " list : "1 round"), rates
        }
      }
    }' rounds="${#files[@]}" "${files[@]}" | LC_ALL=C sort -k3  # by row name (the rounds ran them in random order)
  if ! command -v python3 > /dev/null; then
    echo "hostq: no python3 here: bench/queue/summarize.py's tables left out (the RATIO lines above are awk's); the JSONs are in $archive, hostq/"
    return
  fi
  if [ "${#complete[@]}" -eq 0 ]; then
    echo "hostq: no complete JSON for summarize.py"
    return
  fi
  # summarize.py (bench/queue/summarize.py as packed; it reports rows that ended with an error as
  # skipped). Its tables without rows (the unpaired rows') left out.
  if ! python3 "$kit/bench_queue_summarize.py" "${complete[@]}" > "$scratch/hostq.md" 2>&1; then
    echo "hostq: summarize.py failed (its output below); the RATIO lines above are awk's"
  fi
  awk 'BEGIN { RS = ""; ORS = "\n\n" } !/^\|/ || split($0, l, "\n") > 2' "$scratch/hostq.md"
}
