// Copyright RingKernel authors.
// What the queue gpu tests share: skipping, with the reason, where there is no CUDA device or where
// kernel launches do not return before the kernel ends, the time after which their spinning
// kernels give up and waiting for them at the test's end, and the full-warp mask and warp-wide
// give-up their warp calls use.
#pragma once

#include <cuda_runtime.h>
#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <cstdint>
#include <initializer_list>
#include <string>
#include <vector>

#include "cuda_test_devices.h"
#include "ringkernel/deadline.h"
#include "ringkernel/device.h"

namespace queue_device_test {

/// Every spinning kernel gives up after this long, before the host's own 10 s deadlines: a failed
/// host-side check returns while kernels still spin, and waiting for them (KernelsDoneOnExit) then
/// ends. Each test takes milliseconds on an H100; the budget leaves room for compute-sanitizer's
/// slowdown while keeping what a failing test costs (its kernels' budget) small against gpu-kit's
/// per-binary limits.
inline constexpr std::uint64_t kernel_budget_us = 8'000'000;
/// The host side's deadline for a test's whole exchange: the kernels' budget and some.
inline constexpr auto host_deadline = std::chrono::seconds(10);

/// Waits for every kernel of its devices (cudaDeviceSynchronize) when the test returns, also early
/// from a failed ASSERT. Declared after the queues its kernels use, it goes before them: freeing
/// pinned memory does not wait for kernels (cudaFreeHost promises no synchronization, and cudaFree
/// only that it "may" synchronize), so a kernel still spinning on a freed queue could fault, and the
/// sticky error (cudaErrorIllegalAddress) would fail every later test of the process. The kernels
/// end at their budget (kernel_budget_us). Its devices: the CUDA ordinals given, or the device
/// current when it is made (where the test's launches go). Errors are left to the test's own calls.
class KernelsDoneOnExit {
 public:
  KernelsDoneOnExit() {
    int d = 0;
    if (cudaGetDevice(&d) == cudaSuccess) ordinals_.push_back(d);
    (void)cudaGetLastError();
  }
  explicit KernelsDoneOnExit(std::initializer_list<int> ordinals) : ordinals_(ordinals) {}
  ~KernelsDoneOnExit() {
    int current = -1;
    const bool known = cudaGetDevice(&current) == cudaSuccess;
    for (const int d : ordinals_)
      if (cudaSetDevice(d) == cudaSuccess) (void)cudaDeviceSynchronize();
    if (known) (void)cudaSetDevice(current);
    (void)cudaGetLastError();
  }
  KernelsDoneOnExit(const KernelsDoneOnExit&) = delete;
  KernelsDoneOnExit& operator=(const KernelsDoneOnExit&) = delete;

 private:
  std::vector<int> ordinals_;
};

/// The warp calls of the tests are collective over the full warp (mask 0xffffffff: blockDim is a
/// multiple of 32 and lanes leave only together, but where a test makes lanes leave on purpose), so
/// every lane must make each call or none: whether to go on is decided with one answer for all 32.
inline constexpr unsigned full_warp = 0xffffffffu;
/// Whether any lane of the warp saw its deadline pass: the whole warp gives up together.
__device__ inline bool warp_gives_up(const ringkernel::deadline& d) { return __any_sync(full_warp, d.passed()) != 0; }

/// Why the consumer kernel of a kernel-to-kernel test received `received` of `total` messages (empty
/// when all arrived). None at all, on one GPU: the two kernels did not run at the same time (MPS
/// limits, a debugger or a tool that serialises kernels); between two GPUs: the peer writes were not
/// seen. Some: messages lost, or a kernel stopped at its deadline.
inline std::string kernel_to_kernel_shortfall(unsigned received, unsigned total) {
  if (received == total) return {};
  if (received == 0) {
    return "the consumer kernel received nothing before its deadline: nothing the producer kernel sent "
           "reached it while it waited (one GPU: the two kernels did not run at the same time; two GPUs: "
           "the peer writes were not seen)";
  }
  return "received " + std::to_string(received) + " of " + std::to_string(total) +
         ": messages lost, or a kernel gave up at its deadline";
}

/// A ring start `before` positions short of 2^64: the indices of a test that moves more messages
/// than that cross the wrap mid-run, on the device's own 64-bit arithmetic and shuffles (the host
/// tests do the same with simulated warps). Some tests start there, some at 0, so that a failure
/// says whether the wrap is what broke.
inline constexpr std::uint64_t start_before_wrap(std::uint64_t before) { return 0 - before; }

// The probe's kernel has internal linkage (each translation unit registers its own), and so have the
// functions that launch it: an inline function with external linkage that names it would be defined
// differently in each translation unit (ODR), and the one copy kept would launch one unit's kernel.
namespace detail {
// Waits (at most budget_us) for the host to set flags[0]; flags[1] = 1 if it saw it, 2 if not.
static __global__ void launch_probe(unsigned* flags, std::uint64_t budget_us) {
  const auto give_up = ringkernel::deadline::after_us(budget_us);
  while (reinterpret_cast<volatile unsigned*>(flags)[0] == 0) {
    if (give_up.passed()) {
      flags[1] = 2;
      return;
    }
  }
  flags[1] = 1;
}

/// What the probe found: kernels and the host talk through mapped memory (both empty), launches
/// return only after their kernel ended (`skip`: a tool serialises them), or launches return while
/// the kernel runs but the two sides do not see each other's stores (`fail`: what the tests check).
struct launch_probe_result {
  std::string skip;
  std::string fail;
};

// Both empty when a launch returns while its kernel runs and the two see each other's stores (or
// the probe hit a CUDA error, which the test's own calls then report).
static inline launch_probe_result probe_asynchronous_launches() {
  unsigned* flags = nullptr;  // pinned, mapped (unified addressing): [0] host -> kernel, [1] kernel -> host
  if (cudaHostAlloc(&flags, 2 * sizeof *flags, cudaHostAllocPortable) != cudaSuccess) {
    (void)cudaGetLastError();
    return {};  // not a reason to skip: the test's own CUDA calls report the error
  }
  flags[0] = flags[1] = 0;
  cudaStream_t s = nullptr;
  launch_probe_result result;
  cudaError_t e = cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking);
  if (e == cudaSuccess) {
    launch_probe<<<1, 1, 0, s>>>(flags, 2'000'000);
    e = cudaGetLastError();
    // Still running when the launch returned, and the query did not itself wait for the kernel (a
    // tool may serialise kernels at the next call instead of inside the launch): cudaErrorNotReady
    // from a query that returned at once. Only that proves the kernel ran while this thread went on.
    const auto queried_at = std::chrono::steady_clock::now();
    const bool not_ready = e == cudaSuccess && cudaStreamQuery(s) == cudaErrorNotReady;
    const bool ran_on = not_ready && std::chrono::steady_clock::now() - queried_at < std::chrono::seconds(1);
    std::atomic_ref<unsigned>(flags[0]).store(1, std::memory_order_release);  // after the launch returned
    if (e == cudaSuccess) e = cudaStreamSynchronize(s);
    const unsigned seen = std::atomic_ref<unsigned>(flags[1]).load(std::memory_order_acquire);
    if (e == cudaSuccess && seen != 1) {
      if (ran_on) {
        result.fail = "the probe kernel ran on after its launch returned, but " +
                      std::string(seen == 2 ? "did not see the host's store to mapped pinned memory within 2 s"
                                            : "the host did not see its store to mapped pinned memory") +
                      ": host and kernels do not see each other's writes through mapped memory here";
      } else {
        result.skip = "a kernel launch (or the CUDA call after it) returned only after the kernel had ended "
                      "(compute-sanitizer may serialise kernels so): a kernel that waits for this host thread "
                      "cannot run here";
      }
    }
    (void)cudaStreamDestroy(s);
  }
  (void)cudaFreeHost(flags);  // a CUDA error is no reason to skip: the test's own calls report it
  (void)cudaGetLastError();
  return result;
}
}  // namespace detail

/// Whether kernels run while the host goes on after their launch and the two talk through mapped
/// memory (checked once per test file, with a 2 s kernel). Tests whose kernels wait for the test's
/// host thread skip where launches end with their kernel, instead of spending the kernels' budget
/// and the host's own deadlines to fail; and fail at once, saying so, where the writes are not seen.
static inline const detail::launch_probe_result& asynchronous_launches() {
  static const detail::launch_probe_result result = detail::probe_asynchronous_launches();
  return result;
}

}  // namespace queue_device_test

/// Declares `name`, the first CUDA device's id, or skips the test saying why.
#define REQUIRE_CUDA_DEVICE(name)                  \
  RINGKERNEL_REQUIRE_CUDA_DEVICES(cuda_devices_, 1); \
  const int name = cuda_devices_.front().id

/// Skips, saying why, where a kernel launch does not return before the kernel ends; fails where it
/// does but host and kernel do not see each other's writes (see above).
#define REQUIRE_ASYNCHRONOUS_LAUNCHES()                                                                  \
  if (const auto& probe_ = queue_device_test::asynchronous_launches(); !probe_.fail.empty()) {          \
    GTEST_FAIL() << probe_.fail;                                                                         \
  } else if (!probe_.skip.empty())                                                                       \
  GTEST_SKIP() << probe_.skip
