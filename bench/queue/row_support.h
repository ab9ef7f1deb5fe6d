// Copyright RingKernel authors.
// What every row of bench_queue_device shares (host code only; the .cu rows and the .cpp main
// alike): the device the rows use, turning CUDA errors and exceptions into failed rows, loading
// kernels before a row launches them, and waiting for a row's kernels with a host deadline.
//
// No way to hang: every kernel gives up on its own (device_bench_message.cuh's budgets), and the
// host waits for a row's kernels only until those budgets plus a margin have passed (ended_within).
// Should a kernel outlive that (a GPU that is not running it, a broken deadline), the row fails,
// the device is marked wedged, every later row skips, nothing the kernel may still touch is freed
// (freeing would wait for it: cudaFree and cudaFreeHost synchronise) and main ends the process,
// which ends the kernel with it.
#pragma once

#include <benchmark/benchmark.h>
#include <cuda_runtime.h>

#include <chrono>
#include <cstdlib>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <thread>
#include <utility>

#include "bench_guarded.h"
#include "ringkernel/device.h"

namespace bench_queue_device {

// A small run: RK_BENCH_SMALL set to anything but "" or "0" shrinks every row to the least work
// that still runs each of its kernel paths (the rings lap and fill; every batch size B), for
// compute-sanitizer (gpu-kit/run.sh's sanitize step), under which kernels run many times slower
// and the full rows would pass their kernels' give-up budgets. Its figures are not measurements
// (the JSON context says rk_bench_small). run_size(normal, small): the size for this run; the
// sizes are at each use (latency_timing.h, throughput_timing.h, bench_queue_device.cu).
inline bool small_run() {
  static const bool small = [] {
    const char* v = std::getenv("RK_BENCH_SMALL");
    return v != nullptr && *v != '\0' && std::string_view(v) != "0";
  }();
  return small;
}
template <class T>
T run_size(T normal, T small) {
  return small_run() ? small : normal;
}

// Set when a row's kernels outlived the host's deadline (see the top of this file).
inline bool& device_wedged() {
  static bool wedged = false;
  return wedged;
}

// The first CUDA device: the one every row uses and main describes (nullopt: none).
inline std::optional<ringkernel::DeviceInfo> first_cuda_device() {
  const auto cuda = ringkernel::devices(ringkernel::Backend::cuda);
  if (cuda.empty()) return std::nullopt;
  return cuda.front();
}

// False (and the row marked failed) when `e`, or the last launch, is an error.
inline bool ok(benchmark::State& state, cudaError_t e, const char* what) {
  if (e == cudaSuccess) e = cudaGetLastError();
  if (e == cudaSuccess) return true;
  state.SkipWithError((std::string(what) + ": " + cudaGetErrorName(e) + ": " + cudaGetErrorString(e)).c_str());
  return false;
}

struct CudaTarget {
  int id = -1;       // RingKernel's device id (queues, buffers)
  int ordinal = -1;  // the CUDA device ordinal (cudaSetDevice, attributes)
};

// The rows' device, made current for the launches that follow; nullopt, with the row failed, when
// there is none or an earlier row wedged it.
inline std::optional<CudaTarget> target_device(benchmark::State& state) {
  if (device_wedged()) {
    state.SkipWithError("an earlier row's kernels did not end: no further row runs in this process");
    return std::nullopt;
  }
  const auto device = first_cuda_device();
  if (!device) {
    state.SkipWithError("no CUDA device");
    return std::nullopt;
  }
  if (!ok(state, cudaSetDevice(device->ordinal), "cudaSetDevice")) return std::nullopt;
  return CudaTarget{device->id, device->ordinal};
}

// Loads the kernels of a row before it launches the first: CUDA loads a kernel lazily, at its first
// launch (CUDA_MODULE_LOADING=LAZY, the default since CUDA 12.2), and that load may wait for the
// kernels already running, such as a consumer spinning until this very producer runs (the CUDA
// Programming Guide's Lazy Loading section names this case). cudaFuncGetAttributes loads a kernel.
template <class... Kernels>
bool preloaded(benchmark::State& state, Kernels... kernels) {
  cudaFuncAttributes attributes{};
  return (ok(state, cudaFuncGetAttributes(&attributes, kernels), "cudaFuncGetAttributes") && ...);
}

// A row whose setup throws (a queue or buffer the CUDA runtime refuses, e.g. after an earlier row's
// kernel fault left the context unusable) ends with the error instead of ending the program.
using rkbench::guarded;

// Waits until the work before `event` is done, polling, for at most `limit`; false, with the row
// failed, on a CUDA error or when the work is still running then (the device is then wedged).
inline bool ended_within(benchmark::State& state, cudaEvent_t event, std::chrono::milliseconds limit,
                         const char* what) {
  const auto give_up = std::chrono::steady_clock::now() + limit;
  for (;;) {
    const cudaError_t e = cudaEventQuery(event);
    if (e != cudaErrorNotReady) return ok(state, e, what);
    if (std::chrono::steady_clock::now() >= give_up) break;
    std::this_thread::yield();
  }
  device_wedged() = true;
  state.SkipWithError((std::string(what) + ": still running " + std::to_string(limit.count()) +
                       " ms after the launch, past the kernels' own give-up budget; the process must end to stop them")
                          .c_str());
  return false;
}

// Owner of what a row's kernels use (a queue, a ring's storage): frees it at the end of the row,
// except after the device wedged (then a kernel may still use it, and freeing would wait for it).
template <class T>
class kept_unless_wedged {
 public:
  template <class... Args>
  explicit kept_unless_wedged(Args&&... args) : p_(std::make_unique<T>(std::forward<Args>(args)...)) {}
  kept_unless_wedged(const kept_unless_wedged&) = delete;
  kept_unless_wedged& operator=(const kept_unless_wedged&) = delete;
  ~kept_unless_wedged() {
    if (device_wedged()) (void)p_.release();  // deliberately leaked
  }
  T& operator*() const noexcept { return *p_; }
  T* operator->() const noexcept { return p_.get(); }

 private:
  std::unique_ptr<T> p_;
};

}  // namespace bench_queue_device
