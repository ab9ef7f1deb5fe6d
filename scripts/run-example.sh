#!/usr/bin/env bash
# The main job on a fresh machine: installs what is missing, builds ringkernel-gen and the runtime,
# generates code for examples/adder/messages.h and runs the example on a GPU when there is one,
# else on the host backend (then saying why no GPU was used). Arguments go to the example (--host or
# --gpu), checked before anything is installed or built. Its last line is the verdict: "adder: OK,
# all checks passed" (exit status 0) or "adder: FAILED: ..." (1); `--gpu` without a GPU says why and
# exits with 77; a bad argument exits with 2.
set -euo pipefail

usage() {
  cat <<'EOF'
usage: scripts/run-example.sh [--host | --gpu]
  Installs what is missing (scripts/setup.sh), builds the adder example (preset default) and runs it:
  (none)  on a GPU if there is one, else on a host-backend device, saying why no GPU was used
  --host  on a host-backend device even if a GPU exists
  --gpu   on a GPU; without one, say so and exit with 77 (skipped)
  -h, --help  print this and exit
The last line is the verdict: "adder: OK, all checks passed" (exit 0) or "adder: FAILED: ..." (1).
EOF
}
# The arguments the example takes (examples/adder/main.cpp), checked before the minutes of setup.
where=""
for arg in "$@"; do
  case "$arg" in
    -h | --help) usage; exit 0 ;;
    --host | --gpu)
      if [ -n "$where" ] && [ "$where" != "$arg" ]; then
        printf 'scripts/run-example.sh: %s and %s exclude each other\n' "$where" "$arg" >&2; usage >&2; exit 2
      fi
      where=$arg ;;
    *) printf 'scripts/run-example.sh: unknown argument %s\n' "'$arg'" >&2; usage >&2; exit 2 ;;
  esac
done
cd "$(dirname "$0")/.."

scripts/setup.sh
cmake --preset default
cmake --build --preset default --target adder
exec build/default/examples/adder/adder "$@"
