// The Add ring kernel on a CUDA device: a persistent kernel (one thread) that serves request
// envelopes from a ring in pinned host memory until a terminate message arrives (add_service.h).
// It sees the messages through messages.rk.cuh, the generated CUDA definitions, not messages.h.
#include <cuda_runtime.h>

#include <new>

#include "messages.rk.cuh"
#include "add_service.h"
#include "adder_device.h"

namespace {

// Global memory for the kernel's clock and stamper, made afresh by each launch. One kernel at a time
// uses it (AddKernelRunner).
__device__ alignas(app::ServiceClock) unsigned char add_kernel_clock[sizeof(app::ServiceClock)];

__global__ void add_ring_kernel(app::RequestRing requests, app::ResponseRing responses, app::WorkerName worker,
                                std::uint64_t idle_us, std::int64_t wall_offset_us, app::ServiceReport* report) {
  app::ServiceClock* own = new (add_kernel_clock) app::ServiceClock(wall_offset_us);
  *report = app::serve_add_requests(requests, responses, worker, idle_us, *own);
}

const char* error_of(cudaError_t status) { return status == cudaSuccess ? nullptr : cudaGetErrorString(status); }

}  // namespace

const char* adder_start_on_device(int ordinal, const AdderRings& rings, const char (&worker)[16], std::uint64_t idle_us,
                                  std::int64_t wall_offset_us, void* report, void** stream) {
  *stream = nullptr;
  app::WorkerName name{};
  for (int i = 0; i < 16; ++i) name.text[i] = worker[i];
  if (const cudaError_t status = cudaSetDevice(ordinal); status != cudaSuccess) return cudaGetErrorString(status);
  // A stream of its own that does not wait for (or hold up) the legacy default stream: the kernel
  // runs until the host sends it a terminate message.
  cudaStream_t s = nullptr;
  if (const cudaError_t status = cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking); status != cudaSuccess) {
    return cudaGetErrorString(status);
  }
  add_ring_kernel<<<1, 1, 0, s>>>(app::RequestRing(rings.requests, rings.requests_capacity),
                                  app::ResponseRing(rings.responses, rings.responses_capacity), name, idle_us,
                                  wall_offset_us, static_cast<app::ServiceReport*>(report));
  if (const cudaError_t status = cudaGetLastError(); status != cudaSuccess) {
    (void)cudaStreamDestroy(s);
    return cudaGetErrorString(status);
  }
  *stream = s;
  return nullptr;
}

const char* adder_wait_on_device(void* stream) {
  auto* s = static_cast<cudaStream_t>(stream);
  const cudaError_t status = cudaStreamSynchronize(s);
  const cudaError_t destroyed = cudaStreamDestroy(s);
  return error_of(status != cudaSuccess ? status : destroyed);
}
