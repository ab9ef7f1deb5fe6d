#!/usr/bin/env bash
# The whole test suite on a fresh machine: installs what is missing, then builds and runs the
# default build (all labels; GPU tests skip with a reason when no device exists), the asan+ubsan
# build (labels unit, fuzz; ringkernel-gen instrumented too, and its tests), the tsan build (label
# unit of the multi-threaded tests: tests/runtime, tests/messaging), compiles ringkernel-gen's and the
# runtime's sources with clang++-19 as a unity build (the builds above compile one source at a
# time), and builds the product with CMake's Release flags (-O3), running its example.
set -euo pipefail

usage() {
  cat <<'EOF'
usage: scripts/test.sh [-h | --help]
  Installs what is missing (scripts/setup.sh), then builds and runs every test: the default build
  (all labels), the asan+ubsan build (labels unit, fuzz), the tsan build (label unit of the
  multi-threaded tests), compiles ringkernel-gen's and the runtime's sources with clang++-19 (a unity
  build), and builds the product at CMake's Release flags (-O3) and runs its example. About 40
  minutes on 2 cores. It takes no other argument;
  for part of the suite, after a build: ctest --preset default -L unit (or -R <regex>).
EOF
}
# Arguments first, before anything is installed or built.
for arg in "$@"; do
  case "$arg" in
    -h | --help) ;;
    *) printf 'scripts/test.sh: unknown argument %s\n' "'$arg'" >&2; usage >&2; exit 2 ;;
  esac
done
if [ $# -gt 0 ]; then usage; exit 0; fi
cd "$(dirname "$0")/.."

scripts/setup.sh

# Each step's header says how long the run has taken so far (.ci/run must stay under 45 minutes).
step() { printf '\n==== %s (%d s in) ====\n' "$*" "$SECONDS"; }

step "default build"
# Without the benchmarks: no test runs them, and compiling them was about a minute of this script on
# 2 cores. `cmake --preset default` turns them on again in build/default (scripts/gpu-kit.sh does).
cmake --preset default -DRINGKERNEL_BUILD_BENCH=OFF
cmake --build --preset default
step "default tests"
ctest --preset default

step "asan+ubsan build"
cmake --preset asan
cmake --build --preset asan
step "asan+ubsan tests"
ctest --preset asan

step "tsan build"
cmake --preset tsan
cmake --build --preset tsan
step "tsan tests"
ctest --preset tsan

step "ringkernel-gen and runtime sources with clang++-19, as a unity build"
cmake --preset clang-gen
cmake --build --preset clang-gen

step "release build (CMake's Release flags, g++ -O3) and its example"
# The tests above build at the default preset's -O2; CMake's Release, what packagers and most users
# configure, is -O3, where g++ warns in other places (-Werror stops a top-level build). No tests:
# the product's targets, and the example run on the host backend.
cmake --preset release
cmake --build --preset release
build/release/examples/adder/adder --host
step "done"
