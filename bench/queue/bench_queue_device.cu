// Copyright RingKernel authors.
// GPU queue benchmarks (need a CUDA device; each reports an error and does nothing without one):
//   BM_HostGpuHostRoundTrip<Queue>: a persistent kernel echoes messages from one pinned-memory
//       ring to another; time per host send -> host receive; counters median_ns and p99_ns from
//       round_trip_samples round trips, each timed on its own (goal: median <= 2 us on H100/H200).
//       MpmcQueue (the kernel claims with compare-and-swap on host memory) and SpscQueue (plain
//       loads and stores; the kernel holds each side as an endpoint, spsc_ring::consumer() /
//       producer()). Peer: BM_Raw_HostGpuHostFlagPingPong (raw_ping_pong.cu).
//   BM_KernelToKernelPingPong<Ring>: two persistent kernels bounce a message through two
//       device-memory rings; time per one-way hop = round trip / 2 (goal <= 1 us); mpmc_ring and
//       spsc_ring. Peer: BM_Raw_KernelToKernelFlagPingPong (raw_ping_pong.cu). Both latency kinds
//       are timed by latency_timing.h, the same code for a row and its peer.
//   BM_DeviceQueueThroughput/B: producer warps push, consumer warps pop through one device-memory
//       ring, 64-byte messages (goal >= 1 G msgs/s); B = 1: warp_push / warp_pop (one message per
//       lane per claim); B > 1: warp_push_batch / warp_pop_batch of B messages per warp call, staged
//       in global memory (a claim covers up to 8 positions per lane: 256 for a full warp). Two
//       producer blocks and one consumer block per SM, all resident at once. The consumers sum a
//       hash of every message (every word of it: device_bench_message.cuh) and count them; both
//       are compared with what was sent, so a lost, repeated or corrupted message fails the row.
//       One untimed iteration first (module and first-touch costs); each timed window still holds
//       one submit/launch latency of the producers (a few us against ~4 ms).
// Any CUDA error (a launch refused, a kernel image missing for this GPU) ends the row with
// SkipWithError naming the call, instead of spinning on a queue that no kernel serves; so does a
// kernel that gave up (no answer, a ping-pong short of its rounds, a wrong checksum), whose time
// would otherwise be reported as a result, and an exception from the runtime (guarded).
// The kernels: device_queue_kernels.cuh; the shared plumbing: row_support.h; main (with the
// platform as benchmark context): bench_queue_device_main.cpp. gpu-kit/run.sh prints each row's
// figure against its goal.
#include <benchmark/benchmark.h>
#include <cuda_runtime.h>

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <optional>
#include <string>
#include <utility>

#include "device_queue_kernels.cuh"
#include "latency_timing.h"
#include "ringkernel/buffers.h"
#include "ringkernel/queue/message_queue.h"
#include "row_support.h"

namespace {

using namespace bench_queue_device;
using std::chrono::steady_clock;

template <class Queue>
void BM_HostGpuHostRoundTrip(benchmark::State& state) {
  const auto target = target_device(state);
  if (!target || !preloaded(state, echo<typename Queue::ring_type>)) return;
  using ringkernel::QueueUsers;
  const kept_unless_wedged<Queue> in(ringkernel::QueueOptions{.capacity = 64,
                                                              .memory = ringkernel::QueueMemory::pinned,
                                                              .device = target->id,
                                                              .producers = QueueUsers::host,
                                                              .consumers = QueueUsers::kernels});
  const kept_unless_wedged<Queue> out(ringkernel::QueueOptions{.capacity = 64,
                                                               .memory = ringkernel::QueueMemory::pinned,
                                                               .device = target->id,
                                                               .producers = QueueUsers::kernels,
                                                               .consumers = QueueUsers::host});
  cudaEvent_t echo_done = nullptr;
  if (!ok(state, cudaEventCreateWithFlags(&echo_done, cudaEventDisableTiming), "cudaEventCreateWithFlags")) return;
  echo<typename Queue::ring_type><<<1, 1>>>(in->ring(), out->ring());
  if (ok(state, cudaSuccess, "echo<<<1, 1>>>") && ok(state, cudaEventRecord(echo_done, 0), "cudaEventRecord")) {
    Msg64 m{};
    const auto exchange = [&](std::uint64_t k, steady_clock::time_point give_up, std::string& error) {
      m.words[0] = k;  // the echo must return this very message (else the row reports no latency)
      if (!poll_until([&] { return in->try_send(m).ok(); }, give_up) ||
          !poll_until([&] { return out->try_receive(m) == ringkernel::ReceiveStatus::ok; }, give_up)) {
        error = "no answer within 1 s: the echo kernel is not running";
        return false;
      }
      if (m.words[0] == k) return true;
      error = "echo returned message " + std::to_string(m.words[0]) + ", expected " + std::to_string(k);
      return false;
    };
    (void)time_round_trips(state, exchange);
    m.words[1] = 1;  // stop (a kernel that already gave up is not waiting for it)
    if (in->send(m, round_trip_give_up).ok()) (void)out->receive(m, round_trip_give_up);
    (void)ended_within(state, echo_done, host_wait_limit(idle_budget_us), "echo kernel");
  } else {
    cudaDeviceSynchronize();  // a launched kernel gives up within idle_budget_us
  }
  cudaEventDestroy(echo_done);
}

template <class Ring = DeviceRing>
Ring device_ring(ringkernel::QueueStorage& storage, std::uint64_t capacity) {
  return ringkernel::initialize_ring<Ring>(storage, capacity);
}

template <class Ring>
void BM_KernelToKernelPingPong(benchmark::State& state) {
  const auto target = target_device(state);
  if (!target || !preloaded(state, pong<Ring>, ping<Ring>)) return;
  constexpr std::uint64_t capacity = 64, rounds = ping_pong_rounds;
  using ringkernel::QueueMemory, ringkernel::QueueStorage;
  const kept_unless_wedged<QueueStorage> a(QueueMemory::device, target->id, Ring::bytes_for(capacity));
  const kept_unless_wedged<QueueStorage> b(QueueMemory::device, target->id, Ring::bytes_for(capacity));
  std::optional<Ring> ab, ba;
  time_kernel_ping_pong(
      state, rounds, host_wait_limit(total_budget_us),
      [&](cudaStream_t) {  // empty rings (uploaded: the copy has ended when this returns)
        ab.emplace(device_ring<Ring>(*a, capacity));
        ba.emplace(device_ring<Ring>(*b, capacity));
        return true;
      },
      [&](cudaStream_t s1, cudaStream_t s2, unsigned long long* completed) {
        pong<Ring><<<1, 1, 0, s2>>>(*ab, *ba, rounds);
        if (!ok(state, cudaSuccess, "pong<<<1, 1>>>")) return false;
        ping<Ring><<<1, 1, 0, s1>>>(*ab, *ba, rounds, completed);
        return ok(state, cudaSuccess, "ping<<<1, 1>>>");
      });
}

// What the consumers must report when every message arrived once: the sum of message_hash over
// the messages of `producers` threads sending `per_thread` each (modulo 2^64), and their number.
std::pair<unsigned long long, unsigned long long> expected_totals(std::uint64_t producers, std::uint32_t per_thread) {
  unsigned long long hashes = 0;
  for (std::uint64_t t = 0; t < producers; ++t) {
    for (std::uint32_t k = 0; k < per_thread; ++k) hashes += message_hash(produced_message(t, k));
  }
  return {hashes, static_cast<unsigned long long>(producers) * per_thread};
}

void BM_DeviceQueueThroughput(benchmark::State& state) {
  const auto target = target_device(state);
  if (!target || !preloaded(state, consume, produce)) return;
  const auto batch = static_cast<std::uint32_t>(state.range(0));
  constexpr std::uint64_t capacity = 1 << 20;
  constexpr std::uint32_t threads = 256, per_thread = 64;
  // The grid: per SM two producer blocks and one consumer block (264 + 132 on an H100 SXM or H200).
  // The consumers spin until the producers' messages come, so all of them must be resident at
  // once: each kernel must fit 3 blocks per SM alone (then any 3 of the two kernels' blocks fit,
  // as each resource they use is at most 3 x the larger block's share). The SM count is what this
  // process may use: a MIG slice reports its own.
  int sms = 0, produce_per_sm = 0, consume_per_sm = 0;
  if (!ok(state, cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, target->ordinal),
          "cudaDeviceGetAttribute(cudaDevAttrMultiProcessorCount)") ||
      !ok(state, cudaOccupancyMaxActiveBlocksPerMultiprocessor(&produce_per_sm, produce, threads, 0),
          "cudaOccupancyMaxActiveBlocksPerMultiprocessor(produce)") ||
      !ok(state, cudaOccupancyMaxActiveBlocksPerMultiprocessor(&consume_per_sm, consume, threads, 0),
          "cudaOccupancyMaxActiveBlocksPerMultiprocessor(consume)")) {
    return;
  }
  if (sms < 1 || std::min(produce_per_sm, consume_per_sm) < 3) {
    state.SkipWithError(("needs 3 co-resident blocks of " + std::to_string(threads) +
                         " threads per SM (2 produce, 1 consume); this GPU fits " + std::to_string(produce_per_sm) +
                         " produce / " + std::to_string(consume_per_sm) + " consume blocks per SM on " +
                         std::to_string(sms) + " SMs")
                            .c_str());
    return;
  }
  const auto consumer_blocks = static_cast<std::uint32_t>(sms), producer_blocks = 2 * consumer_blocks;
  const std::uint64_t producers = std::uint64_t{producer_blocks} * threads;
  const auto [expected_hashes, expected_count] = expected_totals(producers, per_thread);
  const kept_unless_wedged<ringkernel::QueueStorage> storage(ringkernel::QueueMemory::device, target->id,
                                                             DeviceRing::bytes_for(capacity));
  // Staging for every producer warp and every consumer warp (batch > 1).
  const std::size_t producer_warps = producers / 32;
  const std::size_t warps = producer_warps + std::size_t{consumer_blocks} * threads / 32;
  const kept_unless_wedged<ringkernel::DeviceBuffer> staging(
      target->id, batch == 1 ? sizeof(Msg64) : warps * batch * sizeof(Msg64));
  auto* producer_staging = static_cast<Msg64*>(staging->data());
  Msg64* consumer_staging = batch == 1 ? producer_staging : producer_staging + producer_warps * batch;
  unsigned long long* totals = nullptr;  // [0]: the consumers' hash sum, [1]: their message count
  cudaStream_t s1 = nullptr, s2 = nullptr;
  cudaEvent_t begin = nullptr, end = nullptr, produced = nullptr;
  // One run of the row's kernels: its time in `ms`; false with the row failed.
  const auto run = [&](float& ms) {
    const DeviceRing ring = device_ring(*storage, capacity);
    // On s2, ahead of the consumers: a plain cudaMemset runs on the legacy stream, which s2 does not wait for.
    if (!ok(state, cudaMemsetAsync(totals, 0, 2 * sizeof *totals, s2), "cudaMemsetAsync")) return false;
    consume<<<consumer_blocks, threads, 0, s2>>>(ring, per_thread * 2, batch, consumer_staging, totals);
    if (!ok(state, cudaSuccess, "consume<<<>>>")) return false;
    // From the producers' start (the consumers wait for them) to the consumers' end; recorded after
    // the consumers' launch so that the time the host spends launching them is not counted.
    if (!ok(state, cudaEventRecord(begin, s1), "cudaEventRecord")) return false;
    produce<<<producer_blocks, threads, 0, s1>>>(ring, per_thread, batch, producer_staging);
    if (!ok(state, cudaSuccess, "produce<<<>>>") || !ok(state, cudaEventRecord(produced, s1), "cudaEventRecord") ||
        !ok(state, cudaEventRecord(end, s2), "cudaEventRecord") ||
        !ended_within(state, end, host_wait_limit(total_budget_us), "consume kernel") ||
        !ended_within(state, produced, host_wait_limit(total_budget_us), "produce kernel")) {
      return false;
    }
    unsigned long long got[2] = {};
    if (!ok(state, cudaMemcpy(got, totals, sizeof got, cudaMemcpyDeviceToHost), "cudaMemcpy")) return false;
    if (got[0] != expected_hashes || got[1] != expected_count) {
      state.SkipWithError(("consumers took " + std::to_string(got[1]) + " messages of " +
                           std::to_string(expected_count) + ", hash sum " + std::to_string(got[0]) + ", expected " +
                           std::to_string(expected_hashes) + ": lost, repeated or corrupted messages")
                              .c_str());
      return false;
    }
    return ok(state, cudaEventElapsedTime(&ms, begin, end), "cudaEventElapsedTime");
  };
  float ms = 0;
  if (ok(state, cudaMalloc(&totals, 2 * sizeof *totals), "cudaMalloc") &&
      ok(state, cudaStreamCreateWithFlags(&s1, cudaStreamNonBlocking), "cudaStreamCreateWithFlags") &&
      ok(state, cudaStreamCreateWithFlags(&s2, cudaStreamNonBlocking), "cudaStreamCreateWithFlags") &&
      ok(state, cudaEventCreate(&begin), "cudaEventCreate") && ok(state, cudaEventCreate(&end), "cudaEventCreate") &&
      ok(state, cudaEventCreateWithFlags(&produced, cudaEventDisableTiming), "cudaEventCreateWithFlags") &&
      run(ms)) {  // the warm-up: checked, not timed
    for (auto _ : state) {
      if (!run(ms)) break;
      state.SetIterationTime(ms / 1000.0);
    }
  }
  state.SetItemsProcessed(static_cast<std::int64_t>(state.iterations()) * static_cast<std::int64_t>(expected_count));
  // Kernels of a failed iteration have given up by now, or the device is wedged (then `totals` stays).
  if (!device_wedged()) cudaFree(totals);
  for (cudaEvent_t e : {begin, end, produced}) {
    if (e != nullptr) cudaEventDestroy(e);
  }
  for (cudaStream_t s : {s1, s2}) {
    if (s != nullptr) cudaStreamDestroy(s);
  }
}

}  // namespace

// Names as BENCHMARK_TEMPLATE gives them (bench/RESULTS.md and gpu-kit-run.sh refer to them).
BENCHMARK(guarded<BM_HostGpuHostRoundTrip<ringkernel::MpmcQueue<Msg64>>>)
    ->Name("BM_HostGpuHostRoundTrip<ringkernel::MpmcQueue<Msg64>>")
    ->UseRealTime()
    ->Iterations(round_trip_samples);
BENCHMARK(guarded<BM_HostGpuHostRoundTrip<ringkernel::SpscQueue<Msg64>>>)
    ->Name("BM_HostGpuHostRoundTrip<ringkernel::SpscQueue<Msg64>>")
    ->UseRealTime()
    ->Iterations(round_trip_samples);
BENCHMARK(guarded<BM_KernelToKernelPingPong<DeviceRing>>)
    ->Name("BM_KernelToKernelPingPong<DeviceRing>")
    ->UseManualTime()
    ->Iterations(ping_pong_iterations);
BENCHMARK(guarded<BM_KernelToKernelPingPong<DeviceSpscRing>>)
    ->Name("BM_KernelToKernelPingPong<DeviceSpscRing>")
    ->UseManualTime()
    ->Iterations(ping_pong_iterations);
// B = 256 is one full claim per call (8 positions per lane); 1024 takes four.
BENCHMARK(guarded<BM_DeviceQueueThroughput>)
    ->Name("BM_DeviceQueueThroughput")
    ->Arg(1)
    ->Arg(32)
    ->Arg(256)
    ->Arg(1024)
    ->UseManualTime()
    ->Iterations(10);
