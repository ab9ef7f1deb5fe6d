#!/usr/bin/env bash
# Packs the GPU checks of a CUDA-enabled build into gpu-kit/ (ignored by git), a folder that a GPU
# machine with no package registry, gtest, Google Benchmark or libclang can run as it is: every
# gpu-labelled test binary, the GPU benchmarks, ringkernel-info and the adder example, the host queue
# benchmark bench_queue (and bench/queue/summarize.py) for the `hostq` step, the shared libraries
# they need beyond glibc, gpu-kit/VERSION (commit, build time, source fingerprint: run.sh
# prints it first), gpu-kit/sources.sha256 and gpu-kit/run.sh, which runs them there.
# Stale kits: sources.sha256 holds the sha256 of every file the build is made from (source_paths
# below: what git tracks or does not ignore there, the files the device tool copies to the GPU
# machine), taken before the build and checked again after the packing (a file changed meanwhile
# stops the packing). run.sh recomputes them in the tree it runs in (no git needed) and refuses to
# run when any differs or is missing: pack right before the GPU call.
#
#   here:    scripts/gpu-kit.sh [BUILD_DIR]        (default build/default; builds what is missing)
#   there:   gpu-kit/run.sh [check|tests|sanitize|bench|hostq|all] [REGEX]   (default all; at most 5
#            files into $OUT: gpu-kit.log, gpu-kit.outputs.tar.gz (the per-row JSONs, hostq's
#            rounds, failed programs' whole output), bench_queue_device.json, bench_peer_copy.json;
#            REGEX picks test binaries, to split a step over calls of a time-limited machine; for
#            hostq it is bench_queue's --benchmark_filter)
#
# run.sh steps: `tests` runs each gpu test binary (gtest output in the log; SKIP if all tests skipped)
# and the adder example on the GPU (`adder --gpu`); `sanitize` runs each test binary, then each row
# of bench_queue_device (a small run, RK_BENCH_SMALL=1, one process per row), under
# compute-sanitizer memcheck and racecheck; `bench` runs bench_queue_device, bench_peer_copy (JSON)
# and ringkernel-info --bandwidth; `hostq` runs the host queue benchmark bench_queue's paired rows
# (BM_Paired_*, no GPU needed) in up to 3 rounds within 150 s, one RATIO line per row; `all` runs
# the four; `check` runs all but hostq and the bench rows' racecheck, in the order that matters
# most, within 330 s (one short call).
# Each prints one PASS/FAIL/SKIP line per program; the exit status is non-zero if any failed.
set -euo pipefail
cd "$(dirname "$0")/.."
build=${1:-build/default}
kit=gpu-kit
source_paths=(runtime bench tests templates generator scripts examples cmake CMakeLists.txt CMakePresets.json)

# sha256sum lines ("HASH  PATH", sorted by path) of every regular file under source_paths that git
# tracks or does not ignore (a tracked file deleted from the working tree is left out).
source_sums() {
  local files
  files=$(git ls-files -co --exclude-standard -- "${source_paths[@]}") || return 1
  while IFS= read -r f; do
    if [ -f "$f" ] && [ ! -L "$f" ]; then printf '%s\0' "$f"; fi
  done <<< "$files" | LC_ALL=C sort -zu | xargs -0 -r sha256sum --
}

if ! grep -q '^RINGKERNEL_ENABLE_CUDA:BOOL=ON' "$build/CMakeCache.txt" 2>/dev/null; then
  echo "gpu-kit: $build is not a configured build with RINGKERNEL_ENABLE_CUDA=ON (cmake --preset default)" >&2
  exit 2
fi

# scripts/test.sh configures build/default without the benchmarks: the kit needs them.
if ! grep -q '^RINGKERNEL_BUILD_BENCH:BOOL=ON' "$build/CMakeCache.txt"; then
  echo "gpu-kit: $build was configured without the benchmarks; configuring it with RINGKERNEL_BUILD_BENCH=ON"
  cmake "$build" -DRINGKERNEL_BUILD_BENCH=ON > /dev/null
fi

if ! git rev-parse --is-inside-work-tree > /dev/null 2>&1; then
  echo "gpu-kit: needs git (and a git work tree) to list the sources the kit is built from" >&2
  exit 2
fi
sums_before=$(source_sums)

# The gtest executables behind the gpu-labelled tests, from CTest's own list (run.sh lists and runs
# their suites). A gpu test that is not a gtest is either the example (example.adder_gpu: run.sh
# runs `adder --gpu` itself) or one run.sh would not run: that stops the packing, naming it.
test_list=$(ctest --test-dir "$build" -L gpu --show-only=json-v1 | python3 -c '
import json, sys
seen = []
for t in json.load(sys.stdin)["tests"]:
    gtest = any(a.startswith("--gtest_filter=") for a in t["command"][1:])
    if gtest:
        if t["command"][0] not in seen:
            seen.append(t["command"][0])
    elif not t["name"].startswith("example."):
        sys.exit("gpu-kit: gpu test %s is not a gtest and run.sh does not run it: %s" % (t["name"], " ".join(t["command"])))
print("\n".join(seen))')
mapfile -t tests <<< "$test_list"
if [ -z "$test_list" ]; then
  echo "gpu-kit: $build has no gpu-labelled tests" >&2
  exit 2
fi
others=("$build/bench/queue/bench_queue_device" "$build/bench/bench_peer_copy"
        "$build/runtime/ringkernel-info" "$build/examples/adder/adder")
# The host queue benchmark (the `hostq` step) only where the build has it: bench_queue needs the
# Boost.Lockfree and moodycamel headers (bench/queue/CMakeLists.txt); without it hostq says it is missing.
# (The three find_path results of that file, as its last configure left them in the cache.)
if [ "$(grep -cE '^RINGKERNEL_(RWQ|CQ|BOOST_LOCKFREE)_INCLUDE:PATH=.+' "$build/CMakeCache.txt")" = 3 ] &&
   ! grep -qE '^RINGKERNEL_(RWQ|CQ|BOOST_LOCKFREE)_INCLUDE:PATH=.*-NOTFOUND$' "$build/CMakeCache.txt"; then
  others+=("$build/bench/queue/bench_queue")
else
  echo "gpu-kit: $build has no bench_queue target (Boost.Lockfree / moodycamel headers not found): the kit's hostq step will say so" >&2
fi

targets=()
for f in "${tests[@]}" "${others[@]}"; do targets+=("$(basename "$f")"); done
cmake --build "$build" --target "${targets[@]}"

rm -rf "$kit"
mkdir -p "$kit/bin" "$kit/lib" "$kit/lib-fallback"
for f in "${tests[@]}"; do cp "$f" "$kit/bin/"; echo "$(basename "$f")" >> "$kit/tests.txt"; done
for f in "${others[@]}"; do cp "$f" "$kit/bin/"; done
strip --strip-debug "$kit"/bin/*  # the kit travels with the working tree (64 MiB in all)
# Shared libraries beyond glibc. libstdc++ and libgcc_s go to lib-fallback/, which run.sh uses only
# when the GPU machine's own are older than the programs need (its newer ones serve them otherwise,
# and compute-sanitizer's injected library may need those).
for f in "$kit"/bin/*; do
  ldd "$f" | awk '$3 ~ /^\// { print $3 }'
done | sort -u | while read -r lib; do
  case "$(basename "$lib")" in
    libc.so*|libm.so*|libpthread.so*|libdl.so*|librt.so*|ld-linux*|libcuda.so*) ;;
    libstdc++.so*|libgcc_s.so*) cp -L "$lib" "$kit/lib-fallback/" ;;
    *) cp -L "$lib" "$kit/lib/" ;;
  esac
done
# The sources again: a file changed during the build may or may not be in the binaries.
if [ "$(source_sums)" != "$sums_before" ]; then
  echo "gpu-kit: sources under ${source_paths[*]} changed while building and packing; pack again" >&2
  rm -rf "$kit"
  exit 1
fi
printf '%s\n' "$sums_before" > "$kit/sources.sha256"
cp scripts/gpu-kit-run.sh "$kit/run.sh"
cp scripts/gpu-kit-bench-queue.sh "$kit/bench_queue.sh"
cp scripts/gpu-kit-lib.sh "$kit/lib.sh"
cp scripts/gpu-kit-outputs.sh "$kit/outputs.sh"
cp scripts/gpu-kit-hostq.sh "$kit/hostq.sh"
cp bench/queue/summarize.py "$kit/bench_queue_summarize.py"
chmod +x "$kit/run.sh"
# What the kit was packed from, which run.sh prints first: a kit packed before the last change
# shows as an old commit or time. The binaries are the working tree's build, so uncommitted
# changes are counted too. cuda_runtime: the nvcc that built them (run.sh warns below its driver).
newest=$(stat -c %Y "${tests[@]}" "${others[@]}" | sort -n | tail -1)
changed=$(git status --porcelain --untracked-files=no 2>/dev/null | wc -l) || true
{
  echo "commit: $(git rev-parse --short=12 HEAD 2>/dev/null || echo unknown)$([ "$changed" -eq 0 ] || echo " + uncommitted changes in $changed files") ($(git log -1 --format='%cd, %s' --date=format:'%Y-%m-%d %H:%M' 2>/dev/null | cut -c1-90))"
  echo "built: $(date -u -d "@$newest" '+%Y-%m-%d %H:%M UTC') (newest binary, $build), packed $(date -u '+%Y-%m-%d %H:%M UTC')"
  echo "fingerprint: sha256 $(sha256sum < "$kit/sources.sha256" | cut -c1-16) of sources.sha256 ($(wc -l < "$kit/sources.sha256") files; run.sh checks them against the tree it runs in)"
  echo "source_paths: ${source_paths[*]}"
  echo "cuda_runtime: $(sed -n 's/^set(CMAKE_CUDA_COMPILER_VERSION "\(.*\)")/\1/p' "$build"/CMakeFiles/*/CMakeCUDACompiler.cmake 2>/dev/null | tail -1)"
} > "$kit/VERSION"
cat "$kit/VERSION"
echo "gpu-kit: test binaries (tests.txt): $(tr '\n' ' ' < "$kit/tests.txt")"
echo "gpu-kit: $(ls "$kit/bin" | wc -l) programs, $(find "$kit/lib" "$kit/lib-fallback" -name '*.so*' | wc -l) libraries, $(du -sh "$kit" | cut -f1) in $kit/"
echo "gpu-kit: on the GPU machine run: gpu-kit/run.sh check   (or tests|sanitize|bench|hostq|all; device tool: carry [\"$kit\"])"
