#!/usr/bin/env bash
# Packs the GPU checks of a CUDA-enabled build into gpu-kit/ (ignored by git), a folder that a GPU
# machine with no package registry, gtest, Google Benchmark or libclang can run as it is: every
# gpu-labelled test binary, the GPU benchmarks, ringkernel-info and the adder example, the shared
# libraries they need beyond glibc, gpu-kit/VERSION (commit, build time: run.sh prints it first, so
# a stale kit shows; pack right before the GPU call) and gpu-kit/run.sh, which runs them there.
#
#   here:    scripts/gpu-kit.sh [BUILD_DIR]        (default build/default; builds what is missing)
#   there:   gpu-kit/run.sh [check|tests|sanitize|bench|all] [REGEX]   (default all; logs and JSON
#            into $OUT; REGEX picks test binaries, to split a step over calls of a time-limited machine)
#
# run.sh steps: `tests` runs each gpu test binary (gtest output in the log; SKIP if all tests skipped)
# and the adder example on the GPU (`adder --gpu`); `sanitize` runs each test binary under
# compute-sanitizer memcheck and racecheck; `bench` runs bench_queue_device, bench_peer_copy (JSON)
# and ringkernel-info --bandwidth; `check` runs all of it in the order that matters most, within 330 s (one short call).
# Each prints one PASS/FAIL/SKIP line per program; the exit status is non-zero if any failed.
set -euo pipefail
cd "$(dirname "$0")/.."
build=${1:-build/default}
kit=gpu-kit

if ! grep -q '^RINGKERNEL_ENABLE_CUDA:BOOL=ON' "$build/CMakeCache.txt" 2>/dev/null; then
  echo "gpu-kit: $build is not a configured build with RINGKERNEL_ENABLE_CUDA=ON (cmake --preset default)" >&2
  exit 2
fi

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
cp scripts/gpu-kit-run.sh "$kit/run.sh"
cp scripts/gpu-kit-bench-queue.sh "$kit/bench_queue.sh"
chmod +x "$kit/run.sh"
# What the kit was packed from, which run.sh prints first: a kit packed before the last change
# shows as an old commit or time. The binaries are the working tree's build, so uncommitted
# changes are counted too. cuda_runtime: the nvcc that built them (run.sh warns below its driver).
newest=$(stat -c %Y "${tests[@]}" "${others[@]}" | sort -n | tail -1)
changed=$(git status --porcelain --untracked-files=no 2>/dev/null | wc -l) || true
{
  echo "commit: $(git rev-parse --short=12 HEAD 2>/dev/null || echo unknown)$([ "$changed" -eq 0 ] || echo " + uncommitted changes in $changed files") ($(git log -1 --format='%cd, %s' --date=format:'%Y-%m-%d %H:%M' 2>/dev/null | cut -c1-90))"
  echo "built: $(date -u -d "@$newest" '+%Y-%m-%d %H:%M UTC') (newest binary, $build), packed $(date -u '+%Y-%m-%d %H:%M UTC')"
  echo "cuda_runtime: $(sed -n 's/^set(CMAKE_CUDA_COMPILER_VERSION "\(.*\)")/\1/p' "$build"/CMakeFiles/*/CMakeCUDACompiler.cmake 2>/dev/null | tail -1)"
} > "$kit/VERSION"
cat "$kit/VERSION"
echo "gpu-kit: $(ls "$kit/bin" | wc -l) programs, $(find "$kit/lib" "$kit/lib-fallback" -name '*.so*' | wc -l) libraries, $(du -sh "$kit" | cut -f1) in $kit/"
echo "gpu-kit: on the GPU machine run: gpu-kit/run.sh check   (or tests|sanitize|bench|all; device tool: carry [\"$kit\"])"
