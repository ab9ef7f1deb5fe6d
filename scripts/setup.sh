#!/usr/bin/env bash
# Installs every Debian package RingKernel needs to build and test (the list below; README.md, "On a
# fresh machine"). Idempotent: installs only what is missing and runs `apt-get update` at most once
# per invocation. Nothing is downloaded from elsewhere.
set -euo pipefail

packages=(
  # libTooling for ringkernel-gen
  libclang-19-dev libclang-cpp19-dev llvm-19-dev clang-19
  # runtime, codecs, manifests, tests, benchmarks
  libmsgpack-dev libgtest-dev libgmock-dev libbenchmark-dev nlohmann-json3-dev
  # build tools (pkg-config: the installed ringkernel.pc's test, cmake.pkgconfig)
  cmake ninja-build make g++ pkg-config
  # benchmark peers
  libmsgpack-cxx-dev libboost-dev libreaderwriterqueue-dev libconcurrentqueue-dev
  # bench/queue/run.sh records each round's CPU time and load with /usr/bin/time
  time
  # fuzzing and sanitizers
  libclang-rt-19-dev libfuzzer-19-dev
  # the public headers checked with LLVM's libc++ too (strict_warnings.clang++.libc++)
  libc++-19-dev
  # cross-language wire checks
  python3-msgpack
)

missing=()
for p in "${packages[@]}"; do
  if ! dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed"; then
    missing+=("$p")
  fi
done

if [ ${#missing[@]} -eq 0 ]; then
  echo "setup: all ${#packages[@]} packages already installed"
  exit 0
fi

echo "setup: installing ${#missing[@]} missing package(s): ${missing[*]}"
SUDO=""
if [ "$(id -u)" -ne 0 ]; then SUDO="sudo"; fi
export DEBIAN_FRONTEND=noninteractive
$SUDO apt-get update -qq
$SUDO apt-get install -y -qq --no-install-recommends "${missing[@]}"
echo "setup: done"
