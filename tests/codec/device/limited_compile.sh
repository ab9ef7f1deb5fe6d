#!/bin/sh
# Copyright RingKernel authors.
# Compiler launcher (CUDA_COMPILER_LAUNCHER) of codec_map_device_nvcc_check: runs the compile command
# under a limit of virtual memory and of time, so that device code which blows up nvcc's cicc (it
# took > 9 GB before it ran out of memory, map_device_messages.h) fails the build with a message
# naming the limit, instead of taking the machine's memory or hanging.
# Usage: limited_compile.sh <MiB> <seconds> <compiler> <arguments...>
mib=$1
seconds=$2
shift 2
if ! ulimit -v $((mib * 1024)) 2>/dev/null; then
  echo "limited_compile.sh: note: ulimit -v refused here; compiling without a memory limit" >&2
fi
if command -v timeout >/dev/null 2>&1; then
  timeout -k 10 "$seconds" "$@"
else
  "$@"
fi
rc=$?
case $rc in
  124 | 134 | 137)  # timeout's status, an abort (LLVM ERROR: out of memory), a kill
    echo "error: the compile was stopped or aborted (status $rc) under limited_compile.sh's limit of" \
      "$mib MiB and $seconds s: nvcc's device code generation blew up on the codec's device paths" \
      "(tests/codec/device/map_device_messages.h says which code did before)" >&2
    ;;
esac
exit $rc
