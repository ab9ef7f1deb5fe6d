// The Add kernel on a CUDA device: messages arrive as raw structs and are dispatched by type id through
// the generated registry, in device code.
#include "messages.rk.cuh"
#include "adder.registry.rk.h"
#include "adder_logic.h"

namespace {

__global__ void add_kernel(const app::AddRequest* requests, app::AddResponse* responses, int count) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= count) return;
  constexpr char worker[16] = "cuda";
  ringkernel::registry::adder::dispatch(
      ringkernel::message_traits<app::AddRequest>::type_id, &requests[i], [&](const auto& msg) {
        if constexpr (ringkernel::message_traits<std::decay_t<decltype(msg)>>::type_id ==
                      ringkernel::message_traits<app::AddRequest>::type_id) {
          responses[i] = app::handle(msg, worker);
        }
      });
}

}  // namespace

// Runs the kernel on CUDA device `ordinal` over `count` requests that live in its memory; returns
// the CUDA error string or nullptr on success.
const char* adder_run_on_device(int ordinal, const void* requests, void* responses, int count) {
  if (const cudaError_t status = cudaSetDevice(ordinal); status != cudaSuccess) {
    return cudaGetErrorString(status);
  }
  const int threads = 128;
  const int blocks = (count + threads - 1) / threads;
  add_kernel<<<blocks, threads>>>(static_cast<const app::AddRequest*>(requests),
                                  static_cast<app::AddResponse*>(responses), count);
  cudaError_t status = cudaGetLastError();
  if (status == cudaSuccess) status = cudaDeviceSynchronize();
  return status == cudaSuccess ? nullptr : cudaGetErrorString(status);
}
