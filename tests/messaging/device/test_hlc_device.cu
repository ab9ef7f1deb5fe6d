// Copyright RingKernel authors.
// HybridLogicalClock and MessageStamper in device code (label gpu; each test skips with the reason
// when there is no CUDA device): many threads stamping one clock in device memory get unique
// stamps that increase per thread; update() adopts a remote stamp slightly ahead and rejects and
// counts one beyond the skew bound; stamps cross between a host clock and a device clock; the
// device's wall clock (%globaltimer) reads microseconds since the Unix epoch, close to the host's
// system_clock, and advances at one microsecond per microsecond. Only that last test compares the
// device's clock with the host's: the others bound stamps by the device's own clock, read by
// kernels before and after, so a device clock far from the host's fails one test, by name.
#include <cuda_runtime.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <new>
#include <vector>

#include "messaging_messages.rk.h"
#include "ringkernel/device.h"
#include "ringkernel/hlc.h"
#include "ringkernel/kernel_message.h"
#include "ringkernel/message_stamper.h"
#include "ringkernel/wall_clock.h"

#include "cuda_check.h"
#include "cuda_test_devices.h"

namespace {

using messaging_test::Tick;
using ringkernel::hlc_status;
using ringkernel::hlc_timestamp;
using ringkernel::HybridLogicalClock;
using ringkernel::KernelMessage;
using ringkernel::MessageStamper;

// Skips the test, saying why, without a CUDA device; else makes the first one current.
#define REQUIRE_CUDA_DEVICE()                      \
  RINGKERNEL_REQUIRE_CUDA_DEVICES(cuda_devices_, 1); \
  CUDA_CHECK(cudaSetDevice(cuda_devices_.front().ordinal))

/// Device memory freed when the test ends, however it ends (a failed ASSERT returns early).
class DeviceMemory {
 public:
  DeviceMemory() = default;
  DeviceMemory(const DeviceMemory&) = delete;
  DeviceMemory& operator=(const DeviceMemory&) = delete;
  ~DeviceMemory() {
    if (p_ != nullptr) EXPECT_EQ(cudaFree(p_), cudaSuccess) << "cudaFree";
  }
  void** slot() { return &p_; }
  template <class T>
  T* as() const {
    return static_cast<T*>(p_);
  }

 private:
  void* p_ = nullptr;
};

// How far the device's wall clock may be from the host's: the clock's default skew bound. Beyond
// it, with default settings, a host clock rejects the stamps of a device clock or the other way
// round, so "the same clock on host and device" would not hold in practice.
constexpr std::uint64_t clock_agreement_us = HybridLogicalClock::default_max_skew_us;

// The only spin here waits for the clock under test, so it gives up on the SM's cycle counter:
// 2e10 cycles is 10 s or more at any clock rate an SM runs at.
constexpr long long spin_budget_cycles = 20'000'000'000ll;

__global__ void construct_clock(HybridLogicalClock* clock, std::uint64_t max_skew_us) {
  new (clock) HybridLogicalClock(max_skew_us);
}

// out[0]: the device's wall clock (us) when this kernel ran.
__global__ void read_device_wall(unsigned long long* out) { out[0] = ringkernel::wall_clock_us(); }

// out: last stamp, skew rejections, logical overflows.
__global__ void read_clock(const HybridLogicalClock* clock, unsigned long long* out) {
  out[0] = clock->last().bits;
  out[1] = clock->skew_rejections();
  out[2] = clock->logical_overflows();
}

__global__ void stamp_now(HybridLogicalClock* clock, std::uint64_t* stamps, std::uint32_t per_thread) {
  const std::uint64_t thread = blockIdx.x * blockDim.x + threadIdx.x;
  for (std::uint32_t k = 0; k < per_thread; ++k) stamps[thread * per_thread + k] = clock->now().bits;
}

TEST(HlcDevice, ConcurrentStampsAreUniqueIncreasePerThreadAndFollowTheDeviceWallClock) {
  REQUIRE_CUDA_DEVICE();
  // 2048 threads on one word: of the compare-and-swaps that meet on it, one wins and the others
  // retry, so the word's atomic unit, not the SMs, sets the pace; this many threads keep the run
  // (and gpu-kit's sanitizer runs of it) short.
  constexpr std::uint32_t blocks = 16, threads = 128, per_thread = 32, total = blocks * threads * per_thread;
  DeviceMemory clock_memory, stamps_memory, state_memory;
  CUDA_CHECK(cudaMalloc(clock_memory.slot(), sizeof(HybridLogicalClock)));
  CUDA_CHECK(cudaMalloc(stamps_memory.slot(), total * sizeof(std::uint64_t)));
  CUDA_CHECK(cudaMalloc(state_memory.slot(), 5 * sizeof(unsigned long long)));
  auto* clock = clock_memory.as<HybridLogicalClock>();
  auto* state_device = state_memory.as<unsigned long long>();
  construct_clock<<<1, 1>>>(clock, HybridLogicalClock::default_max_skew_us);
  CUDA_CHECK(cudaGetLastError());
  // One stream: the wall-clock readings come before and after every stamp.
  read_device_wall<<<1, 1>>>(state_device + 3);
  CUDA_CHECK(cudaGetLastError());
  stamp_now<<<blocks, threads>>>(clock, stamps_memory.as<std::uint64_t>(), per_thread);
  CUDA_CHECK(cudaGetLastError());
  read_device_wall<<<1, 1>>>(state_device + 4);
  CUDA_CHECK(cudaGetLastError());
  read_clock<<<1, 1>>>(clock, state_device);
  CUDA_CHECK(cudaGetLastError());
  std::vector<std::uint64_t> stamps(total);
  unsigned long long state[5] = {};
  CUDA_CHECK(
      cudaMemcpy(stamps.data(), stamps_memory.as<void>(), total * sizeof(std::uint64_t), cudaMemcpyDeviceToHost));
  CUDA_CHECK(cudaMemcpy(state, state_device, sizeof state, cudaMemcpyDeviceToHost));
  const std::uint64_t device_before = state[3], device_after = state[4];

  for (std::uint32_t t = 0; t < blocks * threads; ++t) {
    for (std::uint32_t k = 1; k < per_thread; ++k) {
      ASSERT_GT(stamps[t * per_thread + k], stamps[t * per_thread + k - 1]) << "thread " << t << ", stamp " << k;
    }
  }
  std::vector<std::uint64_t> sorted = stamps;
  std::sort(sorted.begin(), sorted.end());
  const auto twice = std::adjacent_find(sorted.begin(), sorted.end());
  EXPECT_TRUE(twice == sorted.end()) << "stamp " << *twice << " issued twice";
  EXPECT_NE(sorted.front(), 0u) << "stamp 0 (\"no stamp\") issued";
  EXPECT_EQ(state[0], sorted.back()) << "last() is not the largest stamp issued";
  EXPECT_EQ(state[1], 0u);
  // Physical parts: the device's wall clock while the kernel ran (a fresh clock's first stamp is
  // the wall itself); each logical overflow puts the clock 1 us ahead of the wall.
  const std::uint64_t lead = state[2] + 1;
  const std::uint64_t first = hlc_timestamp{sorted.front()}.physical_us();
  const std::uint64_t last = hlc_timestamp{sorted.back()}.physical_us();
  EXPECT_GE(first, device_before) << "device stamps behind the device's wall clock before the kernel";
  EXPECT_LE(last, device_after + lead) << "device stamps ahead of the device's wall clock after the kernel";
  std::printf("hlc on the device: %u stamps in %llu us (device clock, three launches), %llu logical overflows, "
              "stamps span %llu us\n",
              total, static_cast<unsigned long long>(device_after - device_before), state[2],
              static_cast<unsigned long long>(last - first));
}

// One thread: a local stamp, a remote stamp `near_us` ahead of the device's wall clock (within the
// skew bound), a local stamp, a remote stamp `far_us` ahead (beyond it), a local stamp.
// out: [0] before, [1] near, [2] near status, [3] its result, [4] after near, [5] far,
//      [6] far status, [7] its result, [8] after far, [9] skew rejections, [10] wall at the start.
__global__ void update_rules(HybridLogicalClock* clock, std::uint64_t near_us, std::uint64_t far_us,
                             unsigned long long* out) {
  const std::uint64_t wall = ringkernel::wall_clock_us();
  out[10] = wall;
  out[0] = clock->now().bits;
  const hlc_timestamp near = hlc_timestamp::from_parts(wall + near_us, 7);
  const auto a = clock->update(near);
  out[1] = near.bits;
  out[2] = static_cast<unsigned long long>(a.status);
  out[3] = a.stamp.bits;
  out[4] = clock->now().bits;
  const hlc_timestamp far = hlc_timestamp::from_parts(ringkernel::wall_clock_us() + far_us, 0);
  const auto b = clock->update(far);
  out[5] = far.bits;
  out[6] = static_cast<unsigned long long>(b.status);
  out[7] = b.stamp.bits;
  out[8] = clock->now().bits;
  out[9] = clock->skew_rejections();
}

TEST(HlcDevice, UpdateAdoptsARemoteStampSlightlyAheadAndRejectsOneBeyondTheSkewBound) {
  REQUIRE_CUDA_DEVICE();
  constexpr std::uint64_t max_skew_us = 10'000, near_us = 2'000, far_us = 1'000'000;
  DeviceMemory clock_memory, out_memory;
  CUDA_CHECK(cudaMalloc(clock_memory.slot(), sizeof(HybridLogicalClock)));
  CUDA_CHECK(cudaMalloc(out_memory.slot(), 11 * sizeof(unsigned long long)));
  auto* clock = clock_memory.as<HybridLogicalClock>();
  construct_clock<<<1, 1>>>(clock, max_skew_us);
  CUDA_CHECK(cudaGetLastError());
  update_rules<<<1, 1>>>(clock, near_us, far_us, out_memory.as<unsigned long long>());
  CUDA_CHECK(cudaGetLastError());
  unsigned long long out[11] = {};
  CUDA_CHECK(cudaMemcpy(out, out_memory.as<void>(), sizeof out, cudaMemcpyDeviceToHost));
  const hlc_timestamp before{out[0]}, near{out[1]}, near_result{out[3]}, after_near{out[4]}, far{out[5]},
      far_result{out[7]}, after_far{out[8]};
  EXPECT_GE(before.physical_us(), out[10]) << "a local stamp behind the device's own wall clock";
  // Within the bound: adopted. The result is past the remote stamp, and later local stamps stay
  // ahead of it although the wall clock is behind it.
  EXPECT_EQ(out[2], static_cast<unsigned long long>(hlc_status::ok))
      << ringkernel::to_string(static_cast<hlc_status>(out[2]));
  EXPECT_GT(near_result.bits, near.bits);
  EXPECT_GT(after_near.bits, near_result.bits);
  EXPECT_GE(after_near.physical_us(), near.physical_us());
  // Beyond the bound: rejected, counted, the clock unchanged (the result is its current stamp).
  EXPECT_EQ(out[6], static_cast<unsigned long long>(hlc_status::skew_rejected));
  EXPECT_EQ(far_result.bits, after_near.bits);
  EXPECT_EQ(out[9], 1u);
  EXPECT_GT(after_far.bits, after_near.bits);
  EXPECT_LT(after_far.physical_us(), far.physical_us()) << "the rejected stamp moved the clock";
}

// A stamp from the host's clock merged on the device, and a device stamp for the host to merge.
// out: [0] status of update(host), [1] its result, [2] a device stamp after it.
__global__ void merge_host_stamp(HybridLogicalClock* clock, std::uint64_t host_stamp, unsigned long long* out) {
  const auto r = clock->update(hlc_timestamp{host_stamp});
  out[0] = static_cast<unsigned long long>(r.status);
  out[1] = r.stamp.bits;
  out[2] = clock->now().bits;
}

// Waits until the device's wall clock has advanced by `us` (or the cycle budget is spent).
// out: [0] wall at the start, [1] wall at the end, [2] 1 if it gave up.
__global__ void wait_on_device_clock(std::uint64_t us, unsigned long long* out) {
  const std::uint64_t start = ringkernel::wall_clock_us();
  const long long cycles = clock64();
  std::uint64_t now = start;
  bool gave_up = false;
  while (now - start < us && !gave_up) {
    now = ringkernel::wall_clock_us();
    gave_up = clock64() - cycles > spin_budget_cycles;
  }
  out[0] = start;
  out[1] = now;
  out[2] = gave_up ? 1 : 0;
}

// wall_clock_us() on the device is %globaltimer / 1000. The PTX ISA calls %globaltimer a 64-bit
// nanosecond timer and says nothing of its epoch; libcu++ documents that the driver initialises
// it from the host's system clock when the device is attached (possibly long before the program
// starts, under persistence mode) and does not follow later changes of the host clock. This checks
// what the docs promise for stamps on this machine: Unix-epoch microseconds, near the host's.
TEST(HlcDevice, DeviceWallClockIsUnixEpochMicrosecondsAndStampsCrossBetweenHostAndDevice) {
  REQUIRE_CUDA_DEVICE();
  constexpr std::uint64_t wait_us = 100'000;
  DeviceMemory clock_memory, out_memory;
  CUDA_CHECK(cudaMalloc(clock_memory.slot(), sizeof(HybridLogicalClock)));
  CUDA_CHECK(cudaMalloc(out_memory.slot(), 3 * sizeof(unsigned long long)));
  auto* out_device = out_memory.as<unsigned long long>();
  // A first launch (context, module loading, a sanitizer's patching) is not part of the timing.
  wait_on_device_clock<<<1, 1>>>(0, out_device);
  CUDA_CHECK(cudaGetLastError());
  CUDA_CHECK(cudaDeviceSynchronize());
  const auto steady_before = std::chrono::steady_clock::now();
  const std::uint64_t host_before = ringkernel::wall_clock_us();
  wait_on_device_clock<<<1, 1>>>(wait_us, out_device);
  CUDA_CHECK(cudaGetLastError());
  CUDA_CHECK(cudaDeviceSynchronize());
  const std::uint64_t host_after = ringkernel::wall_clock_us();
  const auto host_elapsed_us =
      std::chrono::duration_cast<std::chrono::microseconds>(std::chrono::steady_clock::now() - steady_before).count();
  unsigned long long waited[3] = {};
  CUDA_CHECK(cudaMemcpy(waited, out_device, sizeof waited, cudaMemcpyDeviceToHost));
  ASSERT_EQ(waited[2], 0u) << "the device's wall clock did not advance by " << wait_us << " us within "
                           << spin_budget_cycles << " SM cycles (it went from " << waited[0] << " to " << waited[1]
                           << ")";
  // Epoch: the device read its clock after the host's first reading and before its second, so
  // clocks that agree give host_before <= start and end <= host_after; allowed: the agreement bound.
  const auto offset_us = static_cast<long long>(waited[0]) - static_cast<long long>(host_before);
  std::printf("device wall clock: start %+lld us from the host's clock before the launch, end %+lld us from the "
              "host's after the sync; %llu us waited on the device took %lld us on the host\n",
              offset_us, static_cast<long long>(waited[1]) - static_cast<long long>(host_after),
              waited[1] - waited[0], static_cast<long long>(host_elapsed_us));
  // Beyond the bound, clocks with the default skew reject stamps from across (ahead) and
  // latency figures are off by the offset: a property of this machine, which the message names.
  const char* const why = " by more than the default skew bound: the driver sets %globaltimer from the host's clock "
                          "when it initialises the GPU and does not follow it afterwards; re-initialising the GPU "
                          "(a reset; without persistence mode, the next program once all have closed it) sets it "
                          "again, or clocks that exchange stamps with this device need a max_skew_us beyond the offset";
  EXPECT_GE(waited[0] + clock_agreement_us, host_before) << "the device's clock is behind the host's" << why;
  EXPECT_LE(waited[1], host_after + clock_agreement_us) << "the device's clock is ahead of the host's" << why;
  // Rate: what the device counted as wait_us took at least about that long on the host. A clock
  // counting 1000 times too fast would take 0.1 ms (this fails), 1000 times too slow 100 s (the
  // spin gives up above); the upper bound leaves room for launch latency under a sanitizer.
  EXPECT_GE(host_elapsed_us, static_cast<long long>(wait_us * 9 / 10));
  EXPECT_LT(host_elapsed_us, static_cast<long long>(wait_us * 100));

  // Host -> device -> host, each side with its own clock and the default skew bound.
  HybridLogicalClock host_clock;
  auto* clock = clock_memory.as<HybridLogicalClock>();
  construct_clock<<<1, 1>>>(clock, HybridLogicalClock::default_max_skew_us);
  CUDA_CHECK(cudaGetLastError());
  const hlc_timestamp host_stamp = host_clock.now();
  merge_host_stamp<<<1, 1>>>(clock, host_stamp.bits, out_device);
  CUDA_CHECK(cudaGetLastError());
  unsigned long long merged[3] = {};
  CUDA_CHECK(cudaMemcpy(merged, out_device, sizeof merged, cudaMemcpyDeviceToHost));
  EXPECT_EQ(merged[0], static_cast<unsigned long long>(hlc_status::ok)) << "the device rejected a host stamp";
  EXPECT_GT(merged[1], host_stamp.bits);
  EXPECT_GT(merged[2], merged[1]);
  const auto back = host_clock.update(hlc_timestamp{merged[2]});
  EXPECT_EQ(back.status, hlc_status::ok) << "the host rejected a device stamp";
  EXPECT_GT(back.stamp.bits, merged[2]);
}

// Threads of several blocks stamp causal messages with one stamper (and its clock) in device memory.
__global__ void construct_stamper(MessageStamper* stamper, std::int32_t sender, HybridLogicalClock* clock) {
  new (stamper) MessageStamper(sender, clock);
}
__global__ void stamp_messages(MessageStamper* stamper, KernelMessage<Tick>* out, std::uint32_t per_thread,
                               unsigned long long* failures) {
  const std::uint64_t thread = blockIdx.x * blockDim.x + threadIdx.x;
  for (std::uint32_t k = 0; k < per_thread; ++k) {
    auto m = KernelMessage<Tick>::create_data(0, ringkernel::broadcast_receiver,
                                              Tick{static_cast<std::int64_t>(thread), 1.0f, "dev"});
    if (!stamper->stamp(m)) atomicAdd(failures, 1ull);
    out[thread * per_thread + k] = m;
  }
}
// out: the stamper's next sequence number.
__global__ void read_stamper(const MessageStamper* stamper, unsigned long long* out) {
  *out = stamper->next_sequence();
}

TEST(HlcDevice, StamperGivesEverySequenceNumberOnceAndCausalStampsInOrder) {
  REQUIRE_CUDA_DEVICE();
  constexpr std::uint32_t blocks = 16, threads = 128, per_thread = 8, total = blocks * threads * per_thread;
  constexpr std::int32_t sender = 17;
  DeviceMemory clock_memory, stamper_memory, messages_memory, counters_memory;
  CUDA_CHECK(cudaMalloc(clock_memory.slot(), sizeof(HybridLogicalClock)));
  CUDA_CHECK(cudaMalloc(stamper_memory.slot(), sizeof(MessageStamper)));
  CUDA_CHECK(cudaMalloc(messages_memory.slot(), total * sizeof(KernelMessage<Tick>)));
  CUDA_CHECK(cudaMalloc(counters_memory.slot(), 4 * sizeof(unsigned long long)));
  CUDA_CHECK(cudaMemset(counters_memory.as<void>(), 0, 4 * sizeof(unsigned long long)));
  auto* clock = clock_memory.as<HybridLogicalClock>();
  auto* stamper = stamper_memory.as<MessageStamper>();
  auto* counters = counters_memory.as<unsigned long long>();
  construct_clock<<<1, 1>>>(clock, HybridLogicalClock::default_max_skew_us);
  CUDA_CHECK(cudaGetLastError());
  construct_stamper<<<1, 1>>>(stamper, sender, clock);
  CUDA_CHECK(cudaGetLastError());
  read_device_wall<<<1, 1>>>(counters + 2);  // one stream: before and after every stamp
  CUDA_CHECK(cudaGetLastError());
  stamp_messages<<<blocks, threads>>>(stamper, messages_memory.as<KernelMessage<Tick>>(), per_thread, counters + 1);
  CUDA_CHECK(cudaGetLastError());
  read_device_wall<<<1, 1>>>(counters + 3);
  CUDA_CHECK(cudaGetLastError());
  read_stamper<<<1, 1>>>(stamper, counters);
  CUDA_CHECK(cudaGetLastError());
  std::vector<KernelMessage<Tick>> messages(total);
  unsigned long long got[4] = {};
  CUDA_CHECK(cudaMemcpy(messages.data(), messages_memory.as<void>(), total * sizeof(KernelMessage<Tick>),
                        cudaMemcpyDeviceToHost));
  CUDA_CHECK(cudaMemcpy(got, counters, sizeof got, cudaMemcpyDeviceToHost));
  EXPECT_EQ(got[0], total) << "next_sequence()";
  EXPECT_EQ(got[1], 0u) << "stamp() returned false with a clock";
  const std::uint64_t device_before = got[2], device_after = got[3];
  std::vector<char> seen(total, 0);
  std::vector<std::uint64_t> hlcs;
  for (std::uint32_t i = 0; i < total; ++i) {
    const auto& h = messages[i].header;
    ASSERT_EQ(h.sender_id, sender);
    ASSERT_LT(h.sequence, total);
    ASSERT_EQ(seen[h.sequence], 0) << "sequence " << h.sequence << " given twice";
    seen[h.sequence] = 1;
    hlcs.push_back(h.hlc.bits);
    // The device's wall clock when stamped (the device/host agreement is the epoch test's).
    ASSERT_GE(static_cast<std::uint64_t>(h.timestamp_us), device_before) << "message " << i;
    ASSERT_LE(static_cast<std::uint64_t>(h.timestamp_us), device_after) << "message " << i;
    if (i % per_thread != 0) {  // one thread's messages: stamped in order
      ASSERT_GT(h.sequence, messages[i - 1].header.sequence) << "message " << i;
      ASSERT_GT(h.hlc.bits, messages[i - 1].header.hlc.bits) << "message " << i;
    }
  }
  std::sort(hlcs.begin(), hlcs.end());
  EXPECT_TRUE(std::adjacent_find(hlcs.begin(), hlcs.end()) == hlcs.end()) << "an hlc stamp given twice";
}

}  // namespace
