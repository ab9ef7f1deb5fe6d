// Copyright RingKernel authors.
// GPU queue benchmarks (need a CUDA device; each reports an error and does nothing without one):
//   BM_HostGpuHostRoundTrip<Queue>: a persistent kernel echoes messages from one pinned-memory
//       ring to another; time per host send -> host receive; counters median_ns and p99_ns from
//       round_trip_samples round trips, each timed on its own (goal: median <= 2 us on H100/H200).
//       MpmcQueue (the kernel claims with compare-and-swap on host memory, at device scope:
//       kernel_ring()) and SpscQueue (plain
//       loads and stores; the kernel holds each side as an endpoint, spsc_ring::consumer() /
//       producer()). Peer: BM_Raw_HostGpuHostFlagPingPong (raw_ping_pong.cu).
//   BM_KernelToKernelPingPong<Ring>: two persistent kernels bounce a message through two
//       device-memory rings; time per one-way hop = round trip / 2 (goal <= 1 us; one_way_ns, a
//       mean over CUDA events; one_way_median_ns / one_way_p99_ns from clock64 per round); mpmc_ring
//       and spsc_ring. Peer: BM_Raw_KernelToKernelFlagPingPong (raw_ping_pong.cu). Both latency kinds
//       are timed by latency_timing.h, the same code for a row and its peer.
//   BM_DeviceQueueThroughput/B: producer warps push, consumer warps pop through one device-memory
//       ring, 64-byte messages (goal >= 1 G msgs/s); B = 1: warp_push / warp_pop (one message per
//       lane per claim); B > 1: warp_push_batch / warp_pop_batch of B messages per warp call, staged
//       in global memory (a claim covers up to 8 positions per lane: 256 for a full warp). Two
//       producer blocks and one consumer block per SM, all resident at once. The consumers sum a
//       hash of every message (every word of it: device_bench_message.cuh) and count them; both
//       are compared with what was sent, so a lost, repeated or corrupted message fails the row.
//       Untimed runs for 200 ms first (module, first-touch costs, clocks ramping up); each timed
//       window still holds one submit/launch latency of the producers (a few us against ~4 ms);
//       counters median_msgs_per_s, max_msgs_per_s besides items_per_second. Run and timed by
//       throughput_timing.h, the same code as its peer BM_Raw_DeviceThroughput/B (raw_throughput.cu):
//       the same grid, messages, checksum and staging through a bare ticketed slot array.
// Any CUDA error (a launch refused, a kernel image missing for this GPU) ends the row with
// SkipWithError naming the call, instead of spinning on a queue that no kernel serves; so does a
// kernel that gave up (no answer, a ping-pong short of its rounds, a wrong checksum), whose time
// would otherwise be reported as a result, and an exception from the runtime (guarded).
// RK_BENCH_SMALL=1 shrinks every row to a few laps of its rings (row_support.h), for compute-sanitizer.
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
#include "throughput_batch.h"
#include "throughput_timing.h"

namespace {

using namespace bench_queue_device;
using std::chrono::steady_clock;

// The view the echo kernel works on: MpmcQueue's kernel_ring() (claims at device scope: this
// GPU's kernels are each side's only claimers, and a system-scope claim on pinned memory is not
// atomic at system scope without host-native atomics, which compute-sanitizer memcheck rejects),
// SpscQueue's ring() (no claims).
template <class Queue>
auto kernel_view(const Queue& q) {
  if constexpr (requires { q.kernel_ring(); }) {
    return q.kernel_ring();
  } else {
    return q.ring();
  }
}
template <class Queue>
using kernel_view_t = decltype(kernel_view(std::declval<const Queue&>()));

template <class Queue>
void BM_HostGpuHostRoundTrip(benchmark::State& state) {
  const auto target = target_device(state);
  if (!target || !preloaded(state, echo<kernel_view_t<Queue>>)) return;
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
  echo<kernel_view_t<Queue>><<<1, 1>>>(kernel_view(*in), kernel_view(*out));
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
  constexpr std::uint64_t capacity = 64;
  const std::uint64_t rounds = run_size(ping_pong_rounds, small_ping_pong_rounds);
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
      [&](cudaStream_t s1, cudaStream_t s2, PingOutput out) {
        pong<Ring><<<1, 1, 0, s2>>>(*ab, *ba, rounds);
        if (!ok(state, cudaSuccess, "pong<<<1, 1>>>")) return false;
        ping<Ring><<<1, 1, 0, s1>>>(*ab, *ba, rounds, out);
        return ok(state, cudaSuccess, "ping<<<1, 1>>>");
      });
}

void BM_DeviceQueueThroughput(benchmark::State& state) {
  if (!batch_fits(state, state.range(0))) return;
  const auto target = target_device(state);
  if (!target || !preloaded(state, consume, produce)) return;
  const auto grid = throughput_grid(state, *target, produce, consume);
  if (!grid) return;
  const auto batch = static_cast<std::uint32_t>(state.range(0));
  // A small run: 32 K messages lap a ring of 4096 slots 8 times (and fill it).
  const std::uint64_t capacity = run_size<std::uint64_t>(1 << 20, 4096);
  const kept_unless_wedged<ringkernel::QueueStorage> storage(ringkernel::QueueMemory::device, target->id,
                                                             DeviceRing::bytes_for(capacity));
  std::optional<DeviceRing> ring;
  time_throughput(
      state, *target, *grid, batch,
      [&](cudaStream_t) {  // an empty ring (uploaded: the copy has ended when this returns)
        ring.emplace(device_ring(*storage, capacity));
        return true;
      },
      [&](cudaStream_t s2, Msg64* staging, unsigned long long* totals) {
        consume<<<grid->consumer_blocks, throughput_threads, 0, s2>>>(*ring, throughput_per_thread * 2, batch,
                                                                      staging, totals);
        return ok(state, cudaSuccess, "consume<<<>>>");
      },
      [&](cudaStream_t s1, Msg64* staging) {
        produce<<<grid->producer_blocks, throughput_threads, 0, s1>>>(*ring, throughput_per_thread, batch, staging);
        return ok(state, cudaSuccess, "produce<<<>>>");
      });
}

}  // namespace

// Names as BENCHMARK_TEMPLATE gives them (bench/RESULTS.md and gpu-kit-run.sh refer to them).
BENCHMARK(guarded<BM_HostGpuHostRoundTrip<ringkernel::MpmcQueue<Msg64>>>)
    ->Name("BM_HostGpuHostRoundTrip<ringkernel::MpmcQueue<Msg64>>")
    ->UseRealTime()
    ->Iterations(run_size(round_trip_samples, small_round_trip_samples));
BENCHMARK(guarded<BM_HostGpuHostRoundTrip<ringkernel::SpscQueue<Msg64>>>)
    ->Name("BM_HostGpuHostRoundTrip<ringkernel::SpscQueue<Msg64>>")
    ->UseRealTime()
    ->Iterations(run_size(round_trip_samples, small_round_trip_samples));
BENCHMARK(guarded<BM_KernelToKernelPingPong<DeviceRing>>)
    ->Name("BM_KernelToKernelPingPong<DeviceRing>")
    ->UseManualTime()
    ->Iterations(run_size(ping_pong_iterations, small_ping_pong_iterations));
BENCHMARK(guarded<BM_KernelToKernelPingPong<DeviceSpscRing>>)
    ->Name("BM_KernelToKernelPingPong<DeviceSpscRing>")
    ->UseManualTime()
    ->Iterations(run_size(ping_pong_iterations, small_ping_pong_iterations));
// B = 256 is one full claim per call (8 positions per lane); 1024 takes four.
BENCHMARK(guarded<BM_DeviceQueueThroughput>)
    ->Name("BM_DeviceQueueThroughput")
    ->Arg(1)
    ->Arg(32)
    ->Arg(256)
    ->Arg(1024)
    ->UseManualTime()
    ->Iterations(run_size(throughput_iterations, small_throughput_iterations));
