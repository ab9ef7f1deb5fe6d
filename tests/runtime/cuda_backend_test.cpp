// Copyright RingKernel authors.
// CUDA backend checks (label gpu). They skip with the reason when no CUDA device exists.
#include <gtest/gtest.h>

#include <cuda_runtime_api.h>

#include <memory>
#include <string>
#include <thread>
#include <vector>

#include "cuda_test_devices.h"
#include "expect_error.h"
#include "host_fixture.h"
#include "ringkernel/error.h"
#include "ringkernel/host_backend.h"
#include "ringkernel/peer_memory.h"

namespace ringkernel {
namespace {

using test::pattern;

std::vector<int> ids_of(const std::vector<DeviceInfo>& devices) {
  std::vector<int> ids;
  for (const auto& d : devices) ids.push_back(d.id);
  return ids;
}

#define REQUIRE_CUDA_DEVICES(n)                   \
  RINGKERNEL_REQUIRE_CUDA_DEVICES(cuda_devices_, n); \
  const std::vector<int> ids = ids_of(cuda_devices_)

TEST(CudaBackend, EnumerationMatchesTheRuntime) {
  REQUIRE_CUDA_DEVICES(1u);
  int count = 0;
  ASSERT_EQ(cudaGetDeviceCount(&count), cudaSuccess);
  EXPECT_EQ(static_cast<int>(ids.size()), count);
  for (int id : ids) {
    const auto d = device(id);
    cudaDeviceProp p{};
    ASSERT_EQ(cudaGetDeviceProperties(&p, d.ordinal), cudaSuccess);
    EXPECT_EQ(d.name, p.name);
    EXPECT_EQ(d.compute_units, p.multiProcessorCount);
    EXPECT_EQ(d.compute_capability_major, p.major);
    EXPECT_EQ(d.total_memory, p.totalGlobalMem);
    EXPECT_GT(d.free_memory, 0u);
    EXPECT_FALSE(d.pci_bus_id.empty());
    EXPECT_TRUE(d.has(Capability::unified_memory));
  }
}

TEST(CudaBackend, SameDeviceAndAsyncCopiesWithEvents) {
  REQUIRE_CUDA_DEVICES(1u);
  PeerMemory peers;
  for (std::size_t n : {std::size_t{0}, std::size_t{1}, std::size_t{4097}, std::size_t{64} << 20}) {
    DeviceBuffer a(ids[0], n + 3), b(ids[0], n + 5);
    const auto data = pattern(n + 3, 11);
    a.upload(data.data(), data.size());
    Stream s(ids[0]);
    Event done(ids[0]);
    const auto r = peers.copy_peer_async(b.bytes() + 5, ids[0], a.bytes() + 3, ids[0], n, s, done);
    EXPECT_EQ(r.path, CopyPath::same_device);
    done.synchronize();
    std::vector<std::uint8_t> out(n);
    b.download(out.data(), n, 5);
    EXPECT_TRUE(std::equal(out.begin(), out.end(), data.begin() + 3));
  }
}

TEST(CudaBackend, DeviceToDeviceDirectAndHostStaged) {
  REQUIRE_CUDA_DEVICES(2u);
  PeerMemory peers(PeerMemoryOptions{std::size_t{1} << 20});
  // Peer access is process-wide state: start staged whatever ran before (gtest_repeat, shuffle).
  peers.disable_peer_access(ids[0], ids[1]);
  peers.disable_peer_access(ids[1], ids[0]);
  constexpr std::size_t n = (std::size_t{32} << 20) + 7;
  const auto data = pattern(n, 3);
  DeviceBuffer a(ids[0], n), b(ids[1], n);
  a.upload(data.data(), n);
  auto staged = peers.copy_peer(b, 0, a, 0, n);
  EXPECT_EQ(staged.path, CopyPath::host_staged);
  EXPECT_EQ(staged.chunks, 33u);
  std::vector<std::uint8_t> out(n);
  b.download(out.data(), n);
  EXPECT_TRUE(out == data);
  if (!peers.can_access_peer(ids[0], ids[1])) GTEST_SKIP() << "devices 0 and 1 have no peer access";
  peers.enable_peer_access(ids[0], ids[1]);
  std::vector<std::uint8_t> zero(n, 0);
  b.upload(zero.data(), n);
  Stream s(ids[0]);
  Event done(ids[0]);
  EXPECT_EQ(peers.copy_peer_async(b.data(), ids[1], a.data(), ids[0], n, s, done).path, CopyPath::direct_peer);
  Stream s1(ids[1]);
  s1.wait(done);  // cross-device ordering
  std::vector<std::uint8_t> back(n);
  s1.copy_async(back.data(), b.data(), n);
  s1.synchronize();
  EXPECT_TRUE(back == data);
}

TEST(CudaBackend, MappedMemoryAndCapabilities) {
  REQUIRE_CUDA_DEVICES(2u);
  PeerMemory peers;
  const auto c = peers.capability(ids[0], ids[1]);
  EXPECT_EQ(c.peer_access_supported, peers.can_access_peer(ids[0], ids[1]));
  std::cout << peers.topology() << '\n';
  if (!c.peer_access_supported) GTEST_SKIP() << "devices 0 and 1 have no peer access";
  EXPECT_TRUE(c.access == AccessType::nvlink || c.access == AccessType::pcie);
  DeviceBuffer a(ids[0], 4096);
  EXPECT_THROW(peers.map_peer_memory(a.data(), ids[0], ids[1], 4096), Error);
  peers.enable_peer_access(ids[1], ids[0]);
  void* mapped = peers.map_peer_memory(a.data(), ids[0], ids[1], 4096);
  cudaPointerAttributes attr{};
  ASSERT_EQ(cudaPointerGetAttributes(&attr, mapped), cudaSuccess);
  EXPECT_EQ(attr.device, device(ids[0]).ordinal);
  peers.unmap_peer_memory(mapped, ids[1]);
  peers.disable_peer_access(ids[1], ids[0]);
}

// The address one past a buffer's end counts as the buffer's (an empty range there is valid), and
// cudaMalloc places blocks back to back: a block of the program's own that starts there is the
// program's memory, not an overrun of the buffer (which the backend refused before).
TEST(CudaBackend, ABlockRightAfterABufferIsNotTakenForAnOverrun) {
  REQUIRE_CUDA_DEVICES(1u);
  constexpr std::size_t n = std::size_t{2} << 20;  // a multiple of the allocation granularity
  ASSERT_EQ(cudaSetDevice(device(ids[0]).ordinal), cudaSuccess);
  DeviceBuffer buffer(ids[0], n);
  std::vector<void*> raw;
  void* next = nullptr;
  for (int k = 0; k < 32 && next == nullptr; ++k) {
    void* b = nullptr;
    ASSERT_EQ(cudaMalloc(&b, n), cudaSuccess);
    raw.push_back(b);
    if (b == buffer.bytes() + n) next = b;
  }
  const auto release = [&] {
    for (void* b : raw) EXPECT_EQ(cudaFree(b), cudaSuccess);
  };
  if (next == nullptr) {
    release();
    GTEST_SKIP() << "the driver placed none of 32 blocks right after the buffer";
  }
  const auto data = pattern(4096, 5);
  Stream s(ids[0]);
  s.copy_async(next, data.data(), data.size());
  s.synchronize();
  std::vector<std::uint8_t> back(data.size());
  ASSERT_EQ(cudaMemcpy(back.data(), next, back.size(), cudaMemcpyDeviceToHost), cudaSuccess);
  EXPECT_EQ(back, data);
  EXPECT_RK_ERROR(s.copy_async(buffer.bytes() + n - 1, data.data(), 2), errc::out_of_range, "exceeds its allocation");
  // Also from a thread that made no CUDA call yet: no context is current there, which the driver's
  // cuMemGetAddressRange needs (without one it knew no block, and the copy was an overrun).
  std::thread([&] {
    EXPECT_NO_THROW(s.copy_async(next, data.data(), data.size()));
    EXPECT_RK_ERROR(s.copy_async(buffer.bytes() + n - 1, data.data(), 2), errc::out_of_range, "exceeds its allocation");
  }).join();
  s.synchronize();
  release();
}

// Nothing else can start right after a buffer of 100 bytes (blocks are 256-byte aligned at least):
// a range there overruns the buffer, into its own block's padding.
TEST(CudaBackend, ARangeStartingAtABuffersEndOverrunsIt) {
  REQUIRE_CUDA_DEVICES(1u);
  DeviceBuffer buffer(ids[0], 100);
  const auto data = pattern(8, 9);
  Stream s(ids[0]);
  s.copy_async(buffer.bytes() + 100, data.data(), 0);  // empty, at the end: valid
  EXPECT_RK_ERROR(s.copy_async(buffer.bytes() + 100, data.data(), data.size()), errc::out_of_range,
                  "exceeds its allocation of 100 bytes");
  s.synchronize();
}

// An address past a buffer's end inside its block's padding is device memory to the driver: a
// range starting there is an overrun all the same, as destination and as source.
TEST(CudaBackend, ARangeStartingInABuffersPaddingOverrunsIt) {
  REQUIRE_CUDA_DEVICES(1u);
  DeviceBuffer buffer(ids[0], 100);
  auto data = pattern(8, 3);
  Stream s(ids[0]);
  EXPECT_RK_ERROR(s.copy_async(buffer.bytes() + 200, data.data(), data.size()), errc::out_of_range,
                  "starts 100 bytes past the end of its allocation of 100 bytes");
  EXPECT_RK_ERROR(s.copy_async(data.data(), buffer.bytes() + 150, data.size()), errc::out_of_range,
                  "starts 50 bytes past the end of its allocation of 100 bytes");
  s.synchronize();
}

// Past the next 256-byte boundary, in the host page of the buffer, where the driver knows no block
// (an H200 with driver 13.0 knew nothing of any byte past the 100 asked for, and placed the next
// block 512 bytes on): no host memory either, so an overrun, never a copy on the host.
TEST(CudaBackend, ARangeStartingPastTheBoundaryWhereNoBlockLiesOverrunsIt) {
  REQUIRE_CUDA_DEVICES(1u);
  DeviceBuffer buffer(ids[0], 100);
  auto data = pattern(8, 4);
  Stream s(ids[0]);
  cudaPointerAttributes attr{};
  ASSERT_EQ(cudaPointerGetAttributes(&attr, buffer.bytes() + 300), cudaSuccess);
  if (attr.type == cudaMemoryTypeDevice) GTEST_SKIP() << "the driver placed a block 300 bytes into the buffer's";
  EXPECT_RK_ERROR(s.copy_async(buffer.bytes() + 300, data.data(), data.size()), errc::out_of_range,
                  "starts 200 bytes past the end of its allocation of 100 bytes");
  EXPECT_RK_ERROR(s.copy_async(data.data(), buffer.bytes() + 300, data.size()), errc::out_of_range,
                  "starts 200 bytes past the end of its allocation of 100 bytes");
  s.synchronize();
}

TEST(CudaBackend, CudaErrorsNameTheCallAndTheDevice) {
  REQUIRE_CUDA_DEVICES(1u);
  try {
    DeviceBuffer huge(ids[0], std::size_t{1} << 50);
    FAIL() << "no error";
  } catch (const Error& e) {
    EXPECT_EQ(e.code(), errc::out_of_memory);
    EXPECT_EQ(e.call(), "cudaMalloc");
    EXPECT_EQ(e.device(), ids[0]);
    EXPECT_NE(std::string(e.what()).find("cudaErrorMemoryAllocation"), std::string::npos) << e.what();
  }
}

// A CUDA device and a host-backend device have no path between them: copies and measure() say so
// (errc::unsupported, "different backends"), before measure() allocates anything; measure() took
// the pair for one that configure_host_backend() had split (errc::invalid_state) after allocating.
TEST(CudaBackend, PairsOfACudaAndAHostDeviceAreUnsupported) {
  REQUIRE_CUDA_DEVICES(1u);
  const test::RestoreHostConfig restore;
  const std::vector<int> host = test::use_host_devices(1, HostTopology::all);
  ASSERT_EQ(host.size(), 1u);
  PeerMemory peers;
  DeviceBuffer gpu(ids[0], 64), cpu(host[0], 64);
  const std::string different = "belong to different backends; there is no path between them";
  EXPECT_RK_ERROR(peers.copy_peer(cpu.data(), host[0], gpu.data(), ids[0], 64), errc::unsupported, different);
  EXPECT_RK_ERROR(peers.copy_peer(gpu.data(), ids[0], cpu.data(), host[0], 64), errc::unsupported, different);
  EXPECT_RK_ERROR(peers.measure(ids[0], host[0]), errc::unsupported, "PeerMemory::measure (device " +
                  std::to_string(ids[0]) + "): unsupported: devices " + std::to_string(ids[0]) + " (cuda) and " +
                  std::to_string(host[0]) + " (host) " + different);
  EXPECT_RK_ERROR(peers.measure(host[0], ids[0]), errc::unsupported, different);
}

}  // namespace
}  // namespace ringkernel
