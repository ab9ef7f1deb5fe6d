// Copyright RingKernel authors.
// ringkernel/cuda_interop.h on a GPU (label gpu; skips without a CUDA device): a kernel launched on
// cuda_stream(s) runs in order with the stream's copies and is captured by an Event recorded on
// it; cuda_event(e) orders a stream of the user's own. The kernel waits 50 ms before it writes, so
// a launch or record that is not in the stream's order shows up as unincremented bytes.
#include <cuda_runtime.h>
#include <gtest/gtest.h>

#include <cstdint>
#include <cstring>
#include <vector>

#include "cuda_test_devices.h"
#include "ringkernel/buffers.h"
#include "ringkernel/cuda_interop.h"
#include "ringkernel/device.h"

namespace {

__device__ std::uint64_t interop_global_ns() {
  std::uint64_t ns;
  asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(ns));
  return ns;
}

// One thread waits `delay_ns`, then every element is incremented.
__global__ void delayed_increment(std::uint32_t* data, int n, std::uint64_t delay_ns) {
  __shared__ bool go;
  if (threadIdx.x == 0) {
    const std::uint64_t start = interop_global_ns();
    while (interop_global_ns() - start < delay_ns) {
    }
    go = true;
  }
  __syncthreads();
  if (go)
    for (int i = static_cast<int>(threadIdx.x); i < n; i += static_cast<int>(blockDim.x)) data[i] += 1;
}

TEST(CudaInterop, KernelsOnTheStreamAreOrderedWithItsCopiesAndEvents) {
  RINGKERNEL_REQUIRE_CUDA_DEVICES(cuda, 1);
  const ringkernel::DeviceInfo& d = cuda.front();
  constexpr int n = 1 << 16;
  constexpr std::size_t bytes = n * sizeof(std::uint32_t);
  ringkernel::DeviceBuffer data(d.id, bytes);
  ringkernel::PinnedBuffer in(d.id, bytes), out(d.id, bytes), out_user(d.id, bytes);
  auto* host_in = static_cast<std::uint32_t*>(in.data());
  for (int i = 0; i < n; ++i) host_in[i] = static_cast<std::uint32_t>(i) * 3u;
  std::memset(out.data(), 0, bytes);
  std::memset(out_user.data(), 0, bytes);

  ringkernel::Stream s(d.id), t(d.id);
  const cudaStream_t native = ringkernel::cuda_stream(s);
  ASSERT_NE(native, nullptr) << "a null cudaStream_t is the legacy default stream";
  unsigned flags = 0;
  ASSERT_EQ(cudaStreamGetFlags(native, &flags), cudaSuccess);
  EXPECT_EQ(flags & cudaStreamNonBlocking, cudaStreamNonBlocking);

  ASSERT_EQ(cudaSetDevice(d.ordinal), cudaSuccess);
  s.copy_async(data.data(), in.data(), bytes);
  delayed_increment<<<1, 256, 0, native>>>(static_cast<std::uint32_t*>(data.data()), n, 50'000'000);
  ASSERT_EQ(cudaGetLastError(), cudaSuccess);
  ringkernel::Event done(d.id);
  done.record(s);

  t.wait(done);  // the runtime's own stream: after the kernel
  t.copy_async(out.data(), data.data(), bytes);
  cudaStream_t user = nullptr;  // and a stream of the user's own, through cuda_event
  ASSERT_EQ(cudaStreamCreateWithFlags(&user, cudaStreamNonBlocking), cudaSuccess);
  ASSERT_EQ(cudaStreamWaitEvent(user, ringkernel::cuda_event(done), 0), cudaSuccess);
  ASSERT_EQ(cudaMemcpyAsync(out_user.data(), data.data(), bytes, cudaMemcpyDefault, user), cudaSuccess);
  t.synchronize();
  ASSERT_EQ(cudaStreamSynchronize(user), cudaSuccess);
  ASSERT_EQ(cudaStreamDestroy(user), cudaSuccess);

  const auto* got = static_cast<const std::uint32_t*>(out.data());
  const auto* got_user = static_cast<const std::uint32_t*>(out_user.data());
  int wrong = 0, wrong_user = 0;
  for (int i = 0; i < n; ++i) {
    wrong += got[i] != host_in[i] + 1u;
    wrong_user += got_user[i] != host_in[i] + 1u;
  }
  EXPECT_EQ(wrong, 0) << "elements not incremented when the runtime's stream read them (first: "
                      << got[0] << ", expected " << host_in[0] + 1u << ")";
  EXPECT_EQ(wrong_user, 0) << "elements not incremented when the user's stream read them";
}

}  // namespace
