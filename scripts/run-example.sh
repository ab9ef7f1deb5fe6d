#!/usr/bin/env bash
# The main job on a fresh machine: installs what is missing, builds ringkernel-gen and the runtime,
# generates code for examples/adder/messages.h and runs the example on a GPU when there is one,
# else on the host backend (then saying why no GPU was used). Extra arguments go to the example
# (e.g. --host). Its last line is the verdict: "adder: OK, all checks passed" (exit status 0) or
# "adder: FAILED: ..." (1); `--gpu` without a GPU says why and exits with 77.
set -euo pipefail
cd "$(dirname "$0")/.."

scripts/setup.sh
cmake --preset default
cmake --build --preset default --target adder
exec build/default/examples/adder/adder "$@"
