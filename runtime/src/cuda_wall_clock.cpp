// Copyright RingKernel authors.
#include "cuda_wall_clock.h"

#include <cuda_runtime_api.h>

#include <cstdint>
#include <string>

#include "cuda_call.h"
#include "globaltimer_ptx.h"
#include "ringkernel/error.h"
#include "ringkernel/wall_clock.h"
#include "wall_clock_bracket.h"

namespace ringkernel::detail {

namespace {

using cuda_call::check;
using cuda_call::ignore_error;

// What one measurement holds, released however it ends.
struct Resources {
  cudaLibrary_t library = nullptr;
  cudaStream_t stream = nullptr;
  std::uint64_t* device_ns = nullptr;  // pinned host memory the kernel writes through unified addressing
  Resources() = default;
  Resources(const Resources&) = delete;
  Resources& operator=(const Resources&) = delete;
  ~Resources() {
    if (stream != nullptr) {
      ignore_error(cudaStreamSynchronize(stream));
      ignore_error(cudaStreamDestroy(stream));
    }
    if (device_ns != nullptr) ignore_error(cudaFreeHost(device_ns));
    if (library != nullptr) ignore_error(cudaLibraryUnload(library));
  }
};

constexpr int readings = 8;

}  // namespace

WallClockOffset measure_cuda_wall_clock_offset(int ordinal, int device_id) {
  cuda_call::DeviceGuard guard(ordinal);
  Resources r;
  check(cudaLibraryLoadData(&r.library, globaltimer_ptx, nullptr, nullptr, 0, nullptr, nullptr, 0),
        "cudaLibraryLoadData", device_id);
  cudaKernel_t kernel = nullptr;
  check(cudaLibraryGetKernel(&kernel, r.library, globaltimer_kernel_name), "cudaLibraryGetKernel", device_id);
  check(cudaStreamCreateWithFlags(&r.stream, cudaStreamNonBlocking), "cudaStreamCreateWithFlags", device_id);
  check(cudaHostAlloc(reinterpret_cast<void**>(&r.device_ns), sizeof *r.device_ns, cudaHostAllocPortable),
        "cudaHostAlloc", device_id);
  void* args[] = {&r.device_ns};
  const auto read_device_clock = [&] {
    check(cudaLaunchKernel(reinterpret_cast<const void*>(kernel), dim3(1), dim3(1), args, 0, r.stream),
          "cudaLaunchKernel", device_id);
    check(cudaStreamSynchronize(r.stream), "cudaStreamSynchronize", device_id);
    return *r.device_ns / 1000u;
  };
  (void)read_device_clock();  // the first launch loads the kernel into the context: not timed
  WallClockOffset best{0, UINT64_MAX};
  for (int i = 0; i < readings; ++i) {
    const std::uint64_t before = wall_clock_us();
    const std::uint64_t device = read_device_clock();
    const std::uint64_t after = wall_clock_us();
    const auto reading = offset_from_bracket(before, device, after);
    if (reading && reading->uncertainty_us < best.uncertainty_us) best = *reading;
  }
  if (best.uncertainty_us == UINT64_MAX)
    throw Error(errc::invalid_state, "ringkernel::measure_wall_clock_offset", device_id,
                "the host's clock stepped back during each of " + std::to_string(readings) + " readings");
  return best;
}

}  // namespace ringkernel::detail
