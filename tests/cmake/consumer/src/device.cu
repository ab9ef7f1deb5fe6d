// Uses the standalone CUDA definitions and the traits in device code (compile and link check; runs
// only where a GPU exists, and then only if called).
#include "alpha.rk.cuh"
#include "alpha.rk.h"
#include "beta.rk.cuh"
// The registry includes every header of the target, gamma.h too (extra/'s call), which needs the
// C++-only include directory and definition: take the standalone .rk.cuh of each instead.
#define RINGKERNEL_REGISTRY_USE_CUH
#include "consumer.registry.rk.h"

__global__ void summarize(const consumer::Reading* in, consumer::Summary* out) {
  namespace reg = ringkernel::registry::consumer;
  reg::dispatch(ringkernel::message_traits<consumer::Reading>::type_id, in, [&](const auto& msg) {
    if constexpr (ringkernel::message_traits<std::decay_t<decltype(msg)>>::type_id ==
                  ringkernel::message_traits<consumer::Reading>::type_id) {
      out->sensor = msg.sensor;
      out->mean = static_cast<float>(msg.value);
      out->count = ringkernel::message_traits<consumer::Reading>::field_count;
    }
  });
}

int consumer_device_checks() {
  int devices = 0;
  if (cudaGetDeviceCount(&devices) != cudaSuccess || devices == 0) return 0;  // nothing to run on
  consumer::Reading* in = nullptr;
  consumer::Summary* out = nullptr;
  if (cudaMallocManaged(&in, sizeof *in) != cudaSuccess) return 1;
  if (cudaMallocManaged(&out, sizeof *out) != cudaSuccess) return 1;
  *in = consumer::Reading{9, consumer::Unit::celsius, 21.5, {0, 0, 0, 0}};
  summarize<<<1, 1>>>(in, out);
  const bool ok = cudaDeviceSynchronize() == cudaSuccess && out->sensor == 9 && out->count == 4;
  cudaFree(in);
  cudaFree(out);
  return ok ? 0 : 1;
}
