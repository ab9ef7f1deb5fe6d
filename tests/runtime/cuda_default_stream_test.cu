// Copyright RingKernel authors.
// DeviceBuffer::upload / download and PeerMemory::copy_peer while a kernel occupies the legacy
// default stream (label gpu; skips without a CUDA device). A persistent kernel launched with
// <<<grid, block>>> never ends on its own; a runtime copy that ran on the legacy default stream
// (plain cudaMemcpy) would wait for it forever. The kernel here gives up after `limit_ns`, so a
// regression fails the timing check below instead of hanging the test.
#include <cuda_runtime.h>
#include <gtest/gtest.h>

#include <chrono>
#include <cstdint>
#include <vector>

#include "cuda_test_devices.h"
#include "ringkernel/buffers.h"
#include "ringkernel/device.h"
#include "ringkernel/peer_memory.h"

namespace {

__device__ std::uint64_t global_ns() {
  std::uint64_t ns;
  asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(ns));
  return ns;
}

// Spins until the host sets *release (mapped pinned memory) or limit_ns have passed.
__global__ void hold(const volatile unsigned* release, std::uint64_t limit_ns) {
  const std::uint64_t start = global_ns();
  while (*release == 0 && global_ns() - start < limit_ns) {
  }
}

TEST(CudaBackend, BufferCopiesDoNotWaitForTheLegacyDefaultStream) {
  RINGKERNEL_REQUIRE_CUDA_DEVICES(cuda, 1);
  const ringkernel::DeviceInfo& d = cuda.front();
  // Everything is allocated before the kernel starts: allocation may synchronise with it.
  ringkernel::PinnedBuffer flag(d.id, sizeof(unsigned));
  *static_cast<volatile unsigned*>(flag.data()) = 0;
  ringkernel::DeviceBuffer a(d.id, 1 << 20), b(d.id, 1 << 20);
  std::vector<unsigned char> in(1 << 20, 0x5a), out(1 << 20, 0);
  ringkernel::PeerMemory peers;
  peers.copy_peer(b, 0, a, 0, 16);  // creates the internal stream now, not while the kernel runs
  a.upload(in.data(), 16);          // and the first copies from and to pageable memory (the driver
  b.download(out.data(), 16);       // sets up its staging for them once)

  constexpr std::uint64_t limit_ns = 20'000'000'000;  // the kernel's own end: 20 s
  ASSERT_EQ(cudaSetDevice(d.ordinal), cudaSuccess);
  hold<<<1, 1>>>(static_cast<const volatile unsigned*>(flag.data()), limit_ns);
  ASSERT_EQ(cudaGetLastError(), cudaSuccess);

  const auto t0 = std::chrono::steady_clock::now();
  a.upload(in.data(), in.size());
  peers.copy_peer(b, 0, a, 0, in.size());
  b.download(out.data(), out.size());
  const auto waited = std::chrono::steady_clock::now() - t0;
  const bool kernel_still_running = cudaStreamQuery(nullptr) == cudaErrorNotReady;

  *static_cast<volatile unsigned*>(flag.data()) = 1;  // let the kernel go
  ASSERT_EQ(cudaDeviceSynchronize(), cudaSuccess);
  EXPECT_TRUE(kernel_still_running) << "the copies returned only after the kernel had ended";
  EXPECT_LT(waited, std::chrono::seconds(5)) << "the copies waited for the kernel on the legacy default stream";
  EXPECT_EQ(out, in);
}

}  // namespace
