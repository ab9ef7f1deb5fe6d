// Copyright RingKernel authors.
// Which CUDA context a thread is left with (label gpu): RingKernel's calls from a thread that made
// no CUDA call yet (no context bound) leave it with none bound and never initialise the primary
// context of a device the call is not for. Each test runs in a process of its own (ctest does): the
// primary contexts' state is per process. They skip with the reason when the devices they need are
// missing.
#include <gtest/gtest.h>

#include <cudaTypedefs.h>  // PFN_* (libcuda is not linked: the driver's calls are looked up)
#include <cuda_runtime_api.h>

#include <memory>
#include <string>
#include <thread>
#include <vector>

#include "cuda_test_devices.h"
#include "ringkernel/buffers.h"
#include "ringkernel/device.h"
#include "ringkernel/error.h"
#include "ringkernel/event.h"
#include "ringkernel/stream.h"

namespace ringkernel {
namespace {
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

// The CUDA devices, counted without describing them: devices() creates the primary context of every
// device it describes (docs/runtime.md); backend_statuses() does not.
std::size_t cuda_device_count() {
  std::size_t count = 0;
  for (const BackendStatus& b : backend_statuses())
    if (b.backend == Backend::cuda) count = static_cast<std::size_t>(b.device_count);
  return count;
}

// Why a test that device 0's primary context stays untouched cannot run here; empty where it can.
std::string why_device_0_context_cannot_be_checked(const DriverContextQueries& driver) {
  const std::size_t count = cuda_device_count();
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

// The device a test from a fresh thread uses: 1 where there are two (CUDA ids come first: id 1 is
// CUDA device 1), so that device 0's primary context can be watched, else 0; or why it cannot run.
struct FreshThreadTarget {
  int id = 0;
  bool watch_device_0 = false;  // two devices, and device 0's primary context inactive before the test
  std::string skip;             // why the test cannot run; empty where it can
};

FreshThreadTarget fresh_thread_target(const DriverContextQueries& driver) {
  const std::size_t count = cuda_device_count();
  if (count == 0) return {0, false, ringkernel_test::cuda_skip_reason(1, count)};
  if (!driver.complete()) return {0, false, "cudaGetDriverEntryPointByVersion found no cuCtxGetCurrent"};
  return {count >= 2 ? 1 : 0, count >= 2 && driver.primary_active(0) == 0, {}};
}

// Freeing pinned memory from a thread that made no CUDA call yet (no context bound) runs in the
// context the memory was allocated in and leaves the thread with none bound. cudaFreeHost needs a
// context: without one bound, the runtime bound the primary context of the thread's current device
// (0) and left it bound, initialising it in a process that never used device 0. On one GPU, the
// thread's binding is checked; on two, also that device 0's primary context stays untouched (the
// memory is device 1's).
TEST(CudaBackend, FreeingPinnedMemoryFromAFreshThreadLeavesItWithNoContext) {
  const DriverContextQueries driver;
  const FreshThreadTarget target = fresh_thread_target(driver);
  if (!target.skip.empty()) GTEST_SKIP() << target.skip;
  const int id = target.id;
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
  if (target.watch_device_0) {
    EXPECT_EQ(active0, 0) << "freeing device 1's pinned memory initialised device 0's context";
  }
}

// Copies between host memory and a device from a thread that made no CUDA call yet leave it with no
// context bound. A copy asks the driver which device each of its addresses belongs to (host memory
// and foreign pointers are not in RingKernel's table). Asked of the runtime (cudaPointerGetAttributes)
// that may bind the primary context of the thread's current device (0), before the copy runs in the
// stream's context; the driver's call binds none. On two GPUs the copies are device 1's, and device
// 0's primary context stays untouched.
TEST(CudaBackend, CopiesFromAFreshThreadLeaveItWithNoContext) {
  const DriverContextQueries driver;
  const FreshThreadTarget target = fresh_thread_target(driver);
  if (!target.skip.empty()) GTEST_SKIP() << target.skip;
  const int id = target.id;
  DeviceBuffer buffer(id, 4096);
  Stream stream(id);
  std::vector<unsigned char> in(4096), out(4096, 0);
  for (std::size_t i = 0; i < in.size(); ++i) in[i] = static_cast<unsigned char>(i * 7 + 1);
  int active0 = -2;
  CUresult result = CUDA_ERROR_UNKNOWN;
  CUcontext bound = nullptr;
  std::string error;
  std::thread([&] {
    try {
      stream.copy_async(buffer.data(), in.data(), in.size());   // host -> device
      stream.copy_async(out.data(), buffer.data(), out.size());  // device -> host
      stream.synchronize();
      result = driver.current(&bound);
      active0 = driver.primary_active(0);
    } catch (const Error& e) {
      error = e.what();
    }
  }).join();
  ASSERT_TRUE(error.empty()) << error;
  EXPECT_EQ(out, in);
  EXPECT_EQ(result, CUDA_SUCCESS);
  EXPECT_EQ(bound, nullptr) << "copies left a context bound in a thread that had none";
  if (target.watch_device_0) {
    EXPECT_EQ(active0, 0) << "copies of device 1 initialised device 0's context";
  }
}

}  // namespace
}  // namespace ringkernel
