// Copyright RingKernel authors.
// CUDA backend checks (label gpu). They skip with the reason when no CUDA device exists.
#include <gtest/gtest.h>

#include <cudaTypedefs.h>  // PFN_* (libcuda is not linked: the driver's calls are looked up)
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

// The driver calls this test asks with, looked up through the runtime (the test does not link libcuda).
struct DriverContextQueries {
  PFN_cuDeviceGet_v2000 device_get = nullptr;
  PFN_cuDevicePrimaryCtxGetState_v7000 primary_state = nullptr;
  PFN_cuCtxGetCurrent_v4000 current = nullptr;

  template <class Pointer>
  static Pointer find(const char* symbol, unsigned int version) {
    void* f = nullptr;
    cudaDriverEntryPointQueryResult found{};
    if (cudaGetDriverEntryPointByVersion(symbol, &f, version, cudaEnableDefault, &found) != cudaSuccess ||
        found != cudaDriverEntryPointSuccess) {
      (void)cudaGetLastError();
      return nullptr;
    }
    return reinterpret_cast<Pointer>(f);
  }
  DriverContextQueries()
      : device_get(find<PFN_cuDeviceGet_v2000>("cuDeviceGet", 2000)),
        primary_state(find<PFN_cuDevicePrimaryCtxGetState_v7000>("cuDevicePrimaryCtxGetState", 7000)),
        current(find<PFN_cuCtxGetCurrent_v4000>("cuCtxGetCurrent", 4000)) {}
  bool complete() const { return device_get && primary_state && current; }
  // 1: the primary context of CUDA device `ordinal` is active, 0: not, -1: the driver did not say.
  int primary_active(int ordinal) const {
    CUdevice d{};
    unsigned int flags = 0;
    int active = -1;
    if (device_get(&d, ordinal) != CUDA_SUCCESS || primary_state(d, &flags, &active) != CUDA_SUCCESS) return -1;
    return active;
  }
};

// Why a test that device 0's primary context stays untouched cannot run here; empty where it can.
// The devices are counted without describing them: devices() creates the primary context of every
// device it describes (docs/runtime.md); backend_statuses() does not.
std::string why_device_0_context_cannot_be_checked(const DriverContextQueries& driver) {
  std::size_t count = 0;
  for (const BackendStatus& b : backend_statuses())
    if (b.backend == Backend::cuda) count = static_cast<std::size_t>(b.device_count);
  if (count < 2) return ringkernel_test::cuda_skip_reason(2, count);
  if (!driver.complete())
    return "cudaGetDriverEntryPointByVersion found no cuDeviceGet, cuDevicePrimaryCtxGetState or cuCtxGetCurrent";
  if (const int state = driver.primary_active(0); state != 0)
    return "device 0's primary context is active before the test (state " + std::to_string(state) +
           "): run it in a process of its own (ctest does)";
  return {};
}

// A call for device 1 made from a thread with no CUDA context (one that made no CUDA call yet)
// leaves that thread as it found it: no context bound, device 0 current (cudaGetDevice), and device
// 0's primary context untouched. Restoring "device 0" with cudaSetDevice(0) initialised that context
// (CUDA 12+), in a process that never used device 0. Checked inside the thread, while the buffer and
// the stream live (their destruction is not what this is about).
TEST(CudaBackend, ACallForDevice1FromAFreshThreadLeavesDevice0sContextAlone) {
  const DriverContextQueries driver;  // not RINGKERNEL_REQUIRE_CUDA_DEVICES: it describes the devices
  if (const std::string why = why_device_0_context_cannot_be_checked(driver); !why.empty()) GTEST_SKIP() << why;
  int active0 = -2, active1 = -2, current_device = -1;
  CUresult current_result = CUDA_ERROR_UNKNOWN;
  CUcontext bound = nullptr;
  cudaError_t get_device = cudaErrorUnknown;
  std::string error;
  std::thread([&] {
    try {
      DeviceBuffer buffer(1, 256);  // id 1 is CUDA device 1: CUDA ids come first (checked below)
      Stream stream(1);
      active0 = driver.primary_active(0);
      active1 = driver.primary_active(1);
      current_result = driver.current(&bound);
      get_device = cudaGetDevice(&current_device);
    } catch (const Error& e) {
      error = e.what();
    }
  }).join();
  ASSERT_TRUE(error.empty()) << error;
  EXPECT_EQ(active1, 1) << "device 1's primary context: the buffer and the stream live there";
  EXPECT_EQ(active0, 0) << "device 0's primary context was initialised by a call for device 1";
  EXPECT_EQ(current_result, CUDA_SUCCESS);
  EXPECT_EQ(bound, nullptr) << "the thread had no context bound before the calls, and has one after";
  EXPECT_EQ(get_device, cudaSuccess);
  EXPECT_EQ(current_device, 0) << "a thread with no context bound has device 0 current";
  EXPECT_EQ(device(1).backend, Backend::cuda);
  EXPECT_EQ(device(1).ordinal, 1);
}

// Record, wait, synchronize, query and destroy on a stream and an event of device 1, from a thread
// that made no CUDA call yet (no context bound): each runs in the object's own context and the
// thread is left with none bound. Without that, the runtime bound and initialised the primary
// context of the thread's current device (0) for the first of these calls, in a process that never
// used device 0, and left it bound. Made in this thread (DeviceGuard: the test above), used there.
TEST(CudaBackend, StreamAndEventCallsFromAFreshThreadLeaveDevice0sContextAlone) {
  const DriverContextQueries driver;
  if (const std::string why = why_device_0_context_cannot_be_checked(driver); !why.empty()) GTEST_SKIP() << why;
  auto stream = std::make_unique<Stream>(1);  // id 1 is CUDA device 1: CUDA ids come first (checked below)
  auto event = std::make_unique<Event>(1);
  ASSERT_EQ(driver.primary_active(0), 0) << "making a stream and an event of device 1 initialised device 0's";
  int active0 = -2;
  bool completed = false, idle = false;
  CUresult current_result = CUDA_ERROR_UNKNOWN;
  CUcontext bound = nullptr;
  std::string error;
  std::thread([&] {
    try {
      event->record(*stream);
      stream->wait(*event);
      event->synchronize();
      completed = event->completed();
      stream->synchronize();
      idle = stream->idle();
      event.reset();  // cudaEventDestroy
      stream.reset();  // cudaStreamDestroy
      active0 = driver.primary_active(0);
      current_result = driver.current(&bound);
    } catch (const Error& e) {
      error = e.what();
    }
  }).join();
  ASSERT_TRUE(error.empty()) << error;
  EXPECT_TRUE(completed);
  EXPECT_TRUE(idle);
  EXPECT_EQ(active0, 0) << "device 0's primary context was initialised by calls on device 1's stream and event";
  EXPECT_EQ(current_result, CUDA_SUCCESS);
  EXPECT_EQ(bound, nullptr) << "the thread had no context bound before the calls, and has one after";
  EXPECT_EQ(device(1).backend, Backend::cuda);
  EXPECT_EQ(device(1).ordinal, 1);
}

// Freeing pinned memory from a thread that made no CUDA call yet (no context bound) runs in the
// context the memory was allocated in and leaves the thread with none bound. cudaFreeHost needs a
// context: without one bound, the runtime bound the primary context of the thread's current device
// (0) and left it bound, initialising it in a process that never used device 0. On one GPU, the
// thread's binding is checked; on two, also that device 0's primary context stays untouched (the
// memory is device 1's).
TEST(CudaBackend, FreeingPinnedMemoryFromAFreshThreadLeavesItWithNoContext) {
  const DriverContextQueries driver;
  std::size_t count = 0;
  for (const BackendStatus& b : backend_statuses())
    if (b.backend == Backend::cuda) count = static_cast<std::size_t>(b.device_count);
  if (count == 0) GTEST_SKIP() << ringkernel_test::cuda_skip_reason(1, count);
  if (!driver.complete()) GTEST_SKIP() << "cudaGetDriverEntryPointByVersion found no cuCtxGetCurrent";
  const bool check_device_0 = count >= 2 && driver.primary_active(0) == 0;
  const int id = count >= 2 ? 1 : 0;  // CUDA ids come first: id 1 is CUDA device 1
  auto buffer = std::make_unique<PinnedBuffer>(id, 4096);
  int active0 = -2;
  CUresult before_result = CUDA_ERROR_UNKNOWN, after_result = CUDA_ERROR_UNKNOWN;
  CUcontext before = nullptr, after = nullptr;
  std::thread([&] {
    before_result = driver.current(&before);
    buffer.reset();  // cudaFreeHost
    after_result = driver.current(&after);
    active0 = driver.primary_active(0);
  }).join();
  ASSERT_EQ(before_result, CUDA_SUCCESS);
  ASSERT_EQ(before, nullptr) << "a new thread has no context bound";
  EXPECT_EQ(after_result, CUDA_SUCCESS);
  EXPECT_EQ(after, nullptr) << "freeing pinned memory left a context bound in a thread that had none";
  if (check_device_0) {
    EXPECT_EQ(active0, 0) << "freeing device 1's pinned memory initialised device 0's context";
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
