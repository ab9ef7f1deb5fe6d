# Sourced by gpu-kit/run.sh (scripts/gpu-kit-run.sh; copied into the kit as gpu-kit/outputs.sh): what
# a run leaves in $OUT besides the benchmarks' JSONs. The log (gpu-kit.log; each program's output up
# to RK_LOG_LINES lines, then its last 500; cut to its first 8 and last 4 MiB and its summary lines
# past 15 MiB), the archive (gpu-kit.outputs.tar.gz, else .tar, else .txt: MANIFEST.txt, rows/,
# hostq/, outputs/, gpu-kit.full.log) rewritten after every program, and the exit and signal traps
# that write it a last time. Uses run.sh's globals: out, scratch; sets log, log_lines,
# pack, rows_dir, prog_n, archive, interrupted, finished.
# shellcheck shell=bash disable=SC2154,SC2034

log="$out/gpu-kit.log"
log_lines=${RK_LOG_LINES:-3000}
# What goes into the archive: pack/MANIFEST.txt, pack/rows/ (bench_queue.sh), pack/hostq/ (hostq.sh),
# pack/outputs/.
pack="$scratch/pack" rows_dir="$scratch/pack/rows" prog_n=0
mkdir -p "$rows_dir" "$pack/outputs"
if command -v tar > /dev/null && command -v gzip > /dev/null; then archive=gpu-kit.outputs.tar.gz
elif command -v tar > /dev/null; then archive=gpu-kit.outputs.tar
else archive=gpu-kit.outputs.txt; fi
# An earlier run's files where $OUT is reused (gpu-kit/out): the per-row files of older kits, the
# archive of another kind.
rm -f "$out"/bench_queue_device.[0-9]*.json "$out"/gpu-kit.outputs.* "$out"/.gpu-kit.outputs.partial

# pack_outputs: (re)writes $OUT/$archive from $pack, through a partial file renamed into place (a
# run killed while it writes keeps the previous one). Says so when it fails.
pack_outputs() {
  local tmp="$out/.gpu-kit.outputs.partial" f
  case $archive in
    *.tar.gz) tar -czf "$tmp" -C "$pack" . 2>&1 ;;
    *.tar) tar -cf "$tmp" -C "$pack" . 2>&1 ;;
    *) (cd "$pack" && find . -type f | LC_ALL=C sort | while IFS= read -r f; do echo "==> ${f#./} <=="; cat "$f"; done) > "$tmp" ;;
  esac
  if [ -s "$tmp" ] && mv -f "$tmp" "$out/$archive"; then return 0; fi
  rm -f "$tmp"
  echo "WARN $archive: writing it failed (rows and failed programs' outputs are not kept)"
  return 1
}

# log_cap: the log's copy of a program's output (stdin, which it drains): its first $log_lines
# lines as they come (a shell loop: head and mawk would hold them back in a buffer, and a run
# killed meanwhile would lose them). log_rest, once the program ended: of the lines after those
# ($scratch/output), how many were cut and the last 500.
log_cap() {
  local line n=0
  while [ "$n" -lt "$log_lines" ]; do
    if ! IFS= read -r line; then
      if [ -n "$line" ]; then printf '%s\n' "$line"; fi  # a last line without its newline
      return 0
    fi
    printf '%s\n' "$line"
    n=$((n + 1))
  done
  cat > /dev/null
}
log_rest() {
  local n rest keep
  n=$(wc -l < "$scratch/output")
  [ "$n" -gt "$log_lines" ] || return 0
  rest=$((n - log_lines)) keep=500
  if [ "$rest" -lt "$keep" ]; then keep=$rest; fi
  if [ "$rest" -gt "$keep" ]; then
    echo "[... $((rest - keep)) lines cut from the log (RK_LOG_LINES $log_lines); the whole output is in the archive, see below ...]"
  fi
  tail -n "$keep" "$scratch/output"
}

# keep_output NAME RC VERDICT [NOTE]: numbers the program run just now (NN) in the archive's
# MANIFEST.txt (NOTE beside it: a row's JSON);
# its whole output ($scratch/output) goes into the archive as outputs/NN-NAME.txt where it did not
# pass or skip, or was cut from the log (at most 12 MiB of it: the first 8 and the last 4); then
# rewrites the archive.
keep_output() {
  local name=$1 rc=$2 verdict=$3 note=${4:-} file="" slug
  prog_n=$((prog_n + 1))
  slug=${name//[^A-Za-z0-9._-]/_}
  slug=${slug:0:80}
  if { [ "$verdict" != PASS ] && [ "$verdict" != SKIP ]; } || [ "$(wc -l < "$scratch/output")" -gt "$log_lines" ]; then
    file=$(printf 'outputs/%03d-%s.txt' "$prog_n" "$slug")
    if [ "$(wc -c < "$scratch/output")" -le $((12 * 1048576)) ]; then
      cp "$scratch/output" "$pack/$file"
    else
      { head -c $((8 * 1048576)) "$scratch/output"; printf '\n[... cut: the first 8 MiB and the last 4 MiB of %s bytes kept ...]\n' "$(wc -c < "$scratch/output")"
        tail -c $((4 * 1048576)) "$scratch/output"; } > "$pack/$file"
    fi
    echo "(its whole output: $archive, $file)"
  fi
  printf '%03d %s exit %s %s%s%s\n' "$prog_n" "$verdict" "$rc" "$name" "${note:+ -> $note}" "${file:+ -> $file}" >> "$pack/MANIFEST.txt"
  pack_outputs
}

# finish: once, at the exit, whatever ends the run: a log over 15 MiB (the device tool brings back
# files of 16 MiB at most) goes whole into the archive and is cut to its first 8 and last 4 MiB and
# its summary lines; the archive is written a last time; the scratch folder removed.
summary_lines() { grep -E '^(kit (commit|sources): |(PASS|FAIL|SKIP|GOAL|REF|RATIO|WARN) )' "$1"; }
finish() {
  [ -z "${finished:-}" ] || return 0
  finished=1
  local size
  size=$(wc -c < "$log" 2>/dev/null || echo 0)
  if [ "$size" -gt $((15 * 1048576)) ]; then
    cp "$log" "$pack/gpu-kit.full.log"
    { head -c $((8 * 1048576)) "$pack/gpu-kit.full.log"
      printf '\n[... gpu-kit.log cut: %s bytes; the whole log is gpu-kit.full.log in %s ...]\n' "$size" "$archive"
      tail -c $((4 * 1048576)) "$pack/gpu-kit.full.log"
      echo "=== summary lines of the whole log"
      summary_lines "$pack/gpu-kit.full.log"; } > "$log"
  fi
  echo "archive: $out/$archive: MANIFEST.txt ($(wc -l < "$pack/MANIFEST.txt" 2>/dev/null || echo 0) programs), $(find "$pack/rows" -type f | wc -l) rows/, $(find "$pack/outputs" -type f | wc -l) outputs/$([ ! -d "$pack/hostq" ] || echo ", $(find "$pack/hostq" -type f | wc -l) hostq/")$(case $archive in *.tar.gz) echo " (tar -xzf unpacks it)" ;; *.tar) echo " (tar -xf unpacks it)" ;; esac)" >> "$log"
  pack_outputs >> "$log"
  rm -rf "$scratch"
}

# trap_outputs, right before main runs: finish at the exit (it takes over from run.sh's removal of
# the scratch folder). A signal (the device tool's limit, ^C) ends main's pipeline (its subshell
# keeps no trap); this shell then notes it in the log (close_outputs), and writes the archive and
# the summary.
trap_outputs() {
  trap finish EXIT
  interrupted=""
  trap 'interrupted=TERM' TERM
  trap 'interrupted=INT' INT
  trap 'interrupted=HUP' HUP
}

# close_outputs STATUS, once main's pipeline ended with STATUS: the FAIL line of a signal, the
# archive written (finish), the summary lines and the files in $OUT printed; returns the run's exit
# status (STATUS, or 1 where a signal stopped steps that had not failed).
close_outputs() {
  local status=$1
  if [ -n "$interrupted" ]; then
    echo "FAIL run: stopped by SIG$interrupted (exit $status of the steps); what ran is above, its files in $archive" | tee -a "$log"
    if [ "$status" -eq 0 ]; then status=1; fi
  fi
  finish
  summary_lines "$log"
  echo "gpu-kit: files in $out (the device tool brings back 8 at most):"
  ls -lA "$out"
  return "$status"
}
