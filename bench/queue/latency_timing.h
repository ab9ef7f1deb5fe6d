// Copyright RingKernel authors.
// How the latency rows time, one harness for the RingKernel rows and their raw-CUDA peers alike
// (bench_queue_device.cu, raw_ping_pong.cu), so that each ratio compares like with like:
//   time_round_trips: round_trip_warm_up untimed round trips (clocks, caches, link power states
//       settle), then a host -> GPU -> host round trip per iteration, each timed on its own with
//       steady_clock; counters median_ns and p99_ns (nearest rank); round_trip_samples iterations in
//       every row.
//   time_kernel_ping_pong: one untimed, checked iteration, then per iteration two 1-thread kernels
//       alternate `rounds` times; CUDA events around the launches; counter one_way_ns = the whole
//       ping-pong's time / (2 x rounds) (a mean). Besides, the ping kernel times every round on its
//       own SM with clock64 (PingOutput, device_bench_message.cuh); counters one_way_median_ns and
//       one_way_p99_ns (nearest rank) of those rounds / 2 over all timed iterations, and
//       sm_clock_mhz. Why clock64 and not %globaltimer per round: %globaltimer's updates can be
//       about 1 us apart (deadline.h), as coarse as the round trip measured (~1-2 us), while clock64
//       counts SM cycles, and both reads are on the pinging SM (one counter). Cycles become ns at
//       the clock that SM ran at in that very iteration: its clock64 cycles / its %globaltimer ns
//       over all its rounds (~0.1-0.3 s, so %globaltimer's granularity costs < 0.01 %); a clock that
//       changed within an iteration makes single rounds off by as much as it changed.
//   poll_until: the host's wait for an answer, reading the clock every 1024 polls only.
#pragma once

#include <benchmark/benchmark.h>
#include <cuda_runtime.h>

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <string>
#include <vector>

#include "device_bench_message.cuh"
#include "row_support.h"

namespace bench_queue_device {

// Every round-trip row times this many round trips (->Iterations): the same sample count for the
// medians and 99th percentiles that are compared.
constexpr benchmark::IterationCount round_trip_samples = 100'000;
// Untimed round trips before them (the first milliseconds of a fresh process pay for clocks ramping
// up and cold caches: at ~2 us a round trip, enough samples to move the 99th percentile).
constexpr std::uint64_t round_trip_warm_up = 10'000;
// A small run (RK_BENCH_SMALL, row_support.h): 100 + 200 round trips, ~5 laps of the 64-slot rings.
constexpr benchmark::IterationCount small_round_trip_samples = 200;
constexpr std::uint64_t small_round_trip_warm_up = 100;
// The host gives up on a round trip (and on the stop message) after this long.
constexpr std::chrono::seconds round_trip_give_up{1};
// Every kernel-to-kernel row: `ping_pong_rounds` rounds per iteration, ping_pong_iterations iterations.
constexpr std::uint64_t ping_pong_rounds = 100'000;
constexpr benchmark::IterationCount ping_pong_iterations = 5;
// A small run: one timed iteration (after the untimed one) of 512 rounds, 8 laps of the 64-slot rings.
constexpr std::uint64_t small_ping_pong_rounds = 512;
constexpr benchmark::IterationCount small_ping_pong_iterations = 1;

// exchange(k, give_up, error): sends message k (k = 1, 2, ..), waits until `give_up` for its answer
// and checks it is message k; false, with `error` saying why, otherwise (the row then fails). Only
// the exchange is timed. Returns whether every round trip succeeded.
// Calls ready() until it returns true (true) or `give_up` passes (false). The clock is read every
// 1024 polls only: where the clocksource is not the TSC a read is a system call (~1 us), which would
// add itself to every sample of a 2 us round trip.
template <class Ready>
bool poll_until(Ready&& ready, std::chrono::steady_clock::time_point give_up) {
  for (std::uint32_t n = 1;; ++n) {
    if (ready()) return true;
    if (n % 1024 == 0 && std::chrono::steady_clock::now() >= give_up) return false;
  }
}

template <class Exchange>
bool time_round_trips(benchmark::State& state, Exchange&& exchange) {
  std::vector<double> ns;
  ns.reserve(static_cast<std::size_t>(state.max_iterations));
  std::string error;
  std::uint64_t k = 1;
  for (const std::uint64_t warm_up = run_size(round_trip_warm_up, small_round_trip_warm_up); k <= warm_up; ++k) {
    if (!exchange(k, std::chrono::steady_clock::now() + round_trip_give_up, error)) {
      state.SkipWithError(("warm-up: " + error).c_str());
      return false;
    }
  }
  for (auto _ : state) {
    const auto t0 = std::chrono::steady_clock::now();
    if (!exchange(k++, t0 + round_trip_give_up, error)) {
      state.SkipWithError(error.c_str());
      return false;
    }
    ns.push_back(std::chrono::duration<double, std::nano>(std::chrono::steady_clock::now() - t0).count());
  }
  std::sort(ns.begin(), ns.end());
  if (!ns.empty()) {
    const std::size_t n = ns.size();
    state.counters["median_ns"] = n % 2 == 1 ? ns[n / 2] : (ns[n / 2 - 1] + ns[n / 2]) / 2;
    state.counters["p99_ns"] = ns[(n * 99 + 99) / 100 - 1];  // nearest rank: the ceil(0.99 n)-th
  }
  return true;
}

// Per iteration, and once untimed before the first: prepare(s1) readies the memory the kernels
// share (before the timed span; false: the row failed); then, between CUDA events on s1,
// launch(s1, s2, out) launches pong on s2, then ping on s1 (false: the row failed). Ping writes
// what PingOutput says into `out` (device memory: completed[0] < `rounds` means it gave up). The
// host waits for each kernel at most `wait_limit` (their give-up budget plus a margin), and fails
// the row past it (row_support.h).
template <class Prepare, class Launch>
void time_kernel_ping_pong(benchmark::State& state, std::uint64_t rounds, std::chrono::milliseconds wait_limit,
                           Prepare&& prepare, Launch&& launch) {
  PingOutput out{nullptr, nullptr};
  cudaStream_t s1 = nullptr, s2 = nullptr;
  cudaEvent_t begin = nullptr, end = nullptr, pong_done = nullptr;
  double total_ms = 0, total_cycles = 0, total_ns = 0;
  std::vector<unsigned long long> cycles(rounds);
  std::vector<double> one_way;  // ns, every timed round of every timed iteration
  one_way.reserve(static_cast<std::size_t>(rounds * static_cast<std::uint64_t>(state.max_iterations)));
  if (ok(state, cudaMalloc(&out.completed, 4 * sizeof *out.completed), "cudaMalloc") &&
      ok(state, cudaMalloc(&out.round_cycles, rounds * sizeof *out.round_cycles), "cudaMalloc") &&
      ok(state, cudaStreamCreateWithFlags(&s1, cudaStreamNonBlocking), "cudaStreamCreateWithFlags") &&
      ok(state, cudaStreamCreateWithFlags(&s2, cudaStreamNonBlocking), "cudaStreamCreateWithFlags") &&
      ok(state, cudaEventCreate(&begin), "cudaEventCreate") && ok(state, cudaEventCreate(&end), "cudaEventCreate") &&
      ok(state, cudaEventCreateWithFlags(&pong_done, cudaEventDisableTiming), "cudaEventCreateWithFlags")) {
    // One ping-pong: false (the row failed, said why) or its time in `ms`.
    // timed: the round_cycles are converted into `one_way` (after the events: not timed).
    const auto once = [&](float& ms, bool timed) {
      if (!prepare(s1) || !ok(state, cudaEventRecord(begin, s1), "cudaEventRecord") || !launch(s1, s2, out) ||
          !ok(state, cudaEventRecord(end, s1), "cudaEventRecord") ||
          !ok(state, cudaEventRecord(pong_done, s2), "cudaEventRecord") ||
          !ended_within(state, end, wait_limit, "ping kernel") ||
          !ended_within(state, pong_done, wait_limit, "pong kernel")) {
        return false;
      }
      unsigned long long done[4] = {};
      if (!ok(state, cudaMemcpy(done, out.completed, sizeof done, cudaMemcpyDeviceToHost), "cudaMemcpy")) return false;
      if (done[0] != rounds || done[1] != 0) {
        state.SkipWithError((done[0] != rounds ? "ping gave up after " + std::to_string(done[0]) + " of " +
                                                     std::to_string(rounds) +
                                                     " rounds: the pong kernel did not answer (not running alongside?)"
                                               : std::to_string(done[1]) + " answers were not the message ping sent")
                                .c_str());
        return false;
      }
      if (!ok(state, cudaEventElapsedTime(&ms, begin, end), "cudaEventElapsedTime")) return false;
      if (!timed) return true;
      if (done[2] == 0 || done[3] == 0) {
        state.SkipWithError("ping recorded no clock64 cycles or no %globaltimer time over its rounds");
        return false;
      }
      if (!ok(state, cudaMemcpy(cycles.data(), out.round_cycles, rounds * sizeof cycles[0], cudaMemcpyDeviceToHost),
              "cudaMemcpy")) {
        return false;
      }
      const double ns_per_cycle = static_cast<double>(done[3]) / static_cast<double>(done[2]);
      for (const unsigned long long c : cycles) one_way.push_back(static_cast<double>(c) * ns_per_cycle / 2);
      total_cycles += static_cast<double>(done[2]);
      total_ns += static_cast<double>(done[3]);
      return true;
    };
    float ms = 0;
    if (once(ms, false)) {  // untimed warm-up
      for (auto _ : state) {
        if (!once(ms, true)) break;
        state.SetIterationTime(ms / 1000.0);
        total_ms += ms;
      }
    }
  }
  if (!state.error_occurred() && state.iterations() != 0 && total_ms > 0) {
    const double hops = 2.0 * static_cast<double>(rounds) * static_cast<double>(state.iterations());
    state.counters["one_way_ns"] = total_ms * 1e6 / hops;
    std::sort(one_way.begin(), one_way.end());
    const std::size_t n = one_way.size();
    if (n != 0) {
      state.counters["one_way_median_ns"] = n % 2 == 1 ? one_way[n / 2] : (one_way[n / 2 - 1] + one_way[n / 2]) / 2;
      state.counters["one_way_p99_ns"] = one_way[(n * 99 + 99) / 100 - 1];  // nearest rank
      state.counters["sm_clock_mhz"] = total_cycles / total_ns * 1e3;
    }
  }
  // Both kernels have ended here unless the device wedged (then `out` stays: they may write it).
  if (!device_wedged()) {
    cudaFree(out.completed);
    cudaFree(out.round_cycles);
  }
  for (cudaEvent_t e : {begin, end, pong_done}) {
    if (e != nullptr) cudaEventDestroy(e);
  }
  for (cudaStream_t s : {s1, s2}) {
    if (s != nullptr) cudaStreamDestroy(s);
  }
}

}  // namespace bench_queue_device
