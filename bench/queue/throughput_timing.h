// Copyright RingKernel authors.
// How the throughput rows run and time, one harness for BM_DeviceQueueThroughput/B
// (bench_queue_device.cu) and its raw-CUDA peer BM_Raw_DeviceThroughput/B (raw_throughput.cu), so
// that their ratio compares like with like: the same grid, messages, checksum, staging and timing.
//   throughput_grid: per SM two producer blocks and one consumer block of 256 threads, all resident
//       at once (the occupancy API must fit 3 blocks of each kernel per SM), each producer thread
//       sending 64 messages (4.3 M on 132 SMs).
//   time_throughput: staging for every warp (batch > 1), the consumers' totals, two streams and
//       the events; per run: prepare (untimed), the consumers on s2, the `begin` event on s1, the
//       producers on s1, the `end` event on s2 after the consumers; the consumers' hash sum and
//       count must equal what the host computes (a lost, repeated or corrupted message fails the
//       row). Untimed runs first until throughput_warm_up has passed (the GPU's clocks ramp up out
//       of idle over milliseconds; each run is ~4 ms), then the timed iterations. Counters: Google
//       Benchmark's items_per_second (all messages / all timed windows: a mean rate),
//       median_msgs_per_s and max_msgs_per_s over the timed iterations' own rates, warm_up_runs.
#pragma once

#include <benchmark/benchmark.h>
#include <cuda_runtime.h>

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "device_bench_message.cuh"
#include "ringkernel/buffers.h"
#include "row_support.h"

namespace bench_queue_device {

constexpr std::uint32_t throughput_threads = 256, throughput_per_thread = 64;
constexpr benchmark::IterationCount throughput_iterations = 30;
// Untimed runs before the timed ones, for at least this long (and at most 1000 runs).
constexpr std::chrono::milliseconds throughput_warm_up{200};
// A small run (RK_BENCH_SMALL, row_support.h): one untimed and one timed run on a grid of one
// consumer and two producer blocks in all (32 K messages; the ring row shrinks its ring to lap it).
constexpr benchmark::IterationCount small_throughput_iterations = 1;
constexpr std::chrono::milliseconds small_throughput_warm_up{0};

struct ThroughputGrid {
  std::uint32_t consumer_blocks = 0, producer_blocks = 0;
  std::uint64_t producers = 0;  // producer threads, each sending throughput_per_thread messages
  std::uint64_t messages() const noexcept { return producers * throughput_per_thread; }
};

// The grid for these kernels on `target` (the SM count is what this process may use: a MIG slice
// reports its own); nullopt, with the row failed, where the blocks cannot all be resident. The
// consumers spin until the producers' messages come, so all of them must be resident at once:
// each kernel must fit 3 blocks per SM alone (then any 3 of the two kernels' blocks fit, as each
// resource they use is at most 3 x the larger block's share).
template <class Producer, class Consumer>
std::optional<ThroughputGrid> throughput_grid(benchmark::State& state, const CudaTarget& target, Producer producer,
                                              Consumer consumer) {
  int sms = 0, produce_per_sm = 0, consume_per_sm = 0;
  if (!ok(state, cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, target.ordinal),
          "cudaDeviceGetAttribute(cudaDevAttrMultiProcessorCount)") ||
      !ok(state, cudaOccupancyMaxActiveBlocksPerMultiprocessor(&produce_per_sm, producer, throughput_threads, 0),
          "cudaOccupancyMaxActiveBlocksPerMultiprocessor(produce)") ||
      !ok(state, cudaOccupancyMaxActiveBlocksPerMultiprocessor(&consume_per_sm, consumer, throughput_threads, 0),
          "cudaOccupancyMaxActiveBlocksPerMultiprocessor(consume)")) {
    return std::nullopt;
  }
  // A small run's three blocks are resident at once on any GPU of 3 SMs or more that fits one block
  // of each kernel per SM.
  const bool small = small_run() && sms >= 3;
  if (sms < 1 || std::min(produce_per_sm, consume_per_sm) < (small ? 1 : 3)) {
    state.SkipWithError(("needs 3 co-resident blocks of " + std::to_string(throughput_threads) +
                         " threads per SM (2 produce, 1 consume); this GPU fits " + std::to_string(produce_per_sm) +
                         " produce / " + std::to_string(consume_per_sm) + " consume blocks per SM on " +
                         std::to_string(sms) + " SMs")
                            .c_str());
    return std::nullopt;
  }
  ThroughputGrid grid;
  grid.consumer_blocks = small ? 1 : static_cast<std::uint32_t>(sms);
  grid.producer_blocks = 2 * grid.consumer_blocks;
  grid.producers = std::uint64_t{grid.producer_blocks} * throughput_threads;
  return grid;
}

// What the consumers must report when every message arrived once: the sum of message_hash over
// the messages of `producers` threads sending `per_thread` each (modulo 2^64), and their number.
inline std::pair<unsigned long long, unsigned long long> expected_totals(std::uint64_t producers,
                                                                         std::uint32_t per_thread) {
  unsigned long long hashes = 0;
  for (std::uint64_t t = 0; t < producers; ++t) {
    for (std::uint32_t k = 0; k < per_thread; ++k) hashes += message_hash(produced_message(t, k));
  }
  return {hashes, static_cast<unsigned long long>(producers) * per_thread};
}

// Runs and times a throughput row (see the top of this file). Per run: prepare(s2) readies what the
// kernels share (host-synchronous; false: the row failed); launch_consumers(s2, consumer_staging,
// totals) launches the consumers (each thread takes 2 x throughput_per_thread messages; totals[0]
// and [1] are zero) and launch_producers(s1, producer_staging) the producers (false: the row failed). The staging
// of batch > 1: `batch` messages per warp, the producer warps' first, then the consumer warps'.
template <class Prepare, class LaunchConsumers, class LaunchProducers>
void time_throughput(benchmark::State& state, const CudaTarget& target, const ThroughputGrid& grid,
                     std::uint32_t batch, Prepare&& prepare, LaunchConsumers&& launch_consumers,
                     LaunchProducers&& launch_producers) {
  const auto [expected_hashes, expected_count] = expected_totals(grid.producers, throughput_per_thread);
  const std::size_t producer_warps = grid.producers / 32;
  const std::size_t warps = producer_warps + std::size_t{grid.consumer_blocks} * throughput_threads / 32;
  const kept_unless_wedged<ringkernel::DeviceBuffer> staging(
      target.id, batch == 1 ? sizeof(Msg64) : warps * batch * sizeof(Msg64));
  auto* producer_staging = static_cast<Msg64*>(staging->data());
  Msg64* consumer_staging = batch == 1 ? producer_staging : producer_staging + producer_warps * batch;
  unsigned long long* totals = nullptr;  // [0]: the consumers' hash sum, [1]: their message count
  cudaStream_t s1 = nullptr, s2 = nullptr;
  cudaEvent_t begin = nullptr, end = nullptr, produced = nullptr;
  // One run of the row's kernels: its time in `ms`; false with the row failed.
  const auto run = [&](float& ms) {
    if (!prepare(s2)) return false;
    // On s2, ahead of the consumers: a plain cudaMemset runs on the legacy stream, which s2 does not wait for.
    if (!ok(state, cudaMemsetAsync(totals, 0, 2 * sizeof *totals, s2), "cudaMemsetAsync")) return false;
    if (!launch_consumers(s2, consumer_staging, totals)) return false;
    // From the producers' start (the consumers wait for them) to the consumers' end; recorded after
    // the consumers' launch so that the time the host spends launching them is not counted.
    if (!ok(state, cudaEventRecord(begin, s1), "cudaEventRecord")) return false;
    if (!launch_producers(s1, producer_staging) || !ok(state, cudaEventRecord(produced, s1), "cudaEventRecord") ||
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
  std::vector<double> rates;  // msgs/s of each timed iteration
  rates.reserve(static_cast<std::size_t>(state.max_iterations));
  int warm_up_runs = 0;
  if (ok(state, cudaMalloc(&totals, 2 * sizeof *totals), "cudaMalloc") &&
      ok(state, cudaStreamCreateWithFlags(&s1, cudaStreamNonBlocking), "cudaStreamCreateWithFlags") &&
      ok(state, cudaStreamCreateWithFlags(&s2, cudaStreamNonBlocking), "cudaStreamCreateWithFlags") &&
      ok(state, cudaEventCreate(&begin), "cudaEventCreate") && ok(state, cudaEventCreate(&end), "cudaEventCreate") &&
      ok(state, cudaEventCreateWithFlags(&produced, cudaEventDisableTiming), "cudaEventCreateWithFlags")) {
    // The warm-up: checked, not timed.
    bool warm = true;
    for (const auto until = std::chrono::steady_clock::now() + run_size(throughput_warm_up, small_throughput_warm_up);
         warm && (warm_up_runs == 0 || (std::chrono::steady_clock::now() < until && warm_up_runs < 1000));
         ++warm_up_runs) {
      warm = run(ms);
    }
    if (warm) {
      for (auto _ : state) {
        if (!run(ms)) break;
        state.SetIterationTime(ms / 1000.0);
        if (ms > 0) rates.push_back(static_cast<double>(expected_count) * 1000.0 / ms);
      }
    }
  }
  state.SetItemsProcessed(static_cast<std::int64_t>(state.iterations()) * static_cast<std::int64_t>(expected_count));
  if (!state.error_occurred() && !rates.empty()) {
    std::sort(rates.begin(), rates.end());
    const std::size_t n = rates.size();
    state.counters["median_msgs_per_s"] = n % 2 == 1 ? rates[n / 2] : (rates[n / 2 - 1] + rates[n / 2]) / 2;
    state.counters["max_msgs_per_s"] = rates.back();
    state.counters["warm_up_runs"] = warm_up_runs;
  }
  // Kernels of a failed iteration have given up by now, or the device is wedged (then `totals` stays).
  if (!device_wedged()) cudaFree(totals);
  for (cudaEvent_t e : {begin, end, produced}) {
    if (e != nullptr) cudaEventDestroy(e);
  }
  for (cudaStream_t s : {s1, s2}) {
    if (s != nullptr) cudaStreamDestroy(s);
  }
}

}  // namespace bench_queue_device
