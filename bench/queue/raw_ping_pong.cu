// Copyright RingKernel authors.
// The raw-CUDA peers of bench_queue_device's latency rows, in the same program and run, timed by
// the same harness (latency_timing.h), so that each RingKernel figure is recorded as a ratio to
// what CUDA alone achieves on the same machine at the same moment (bench/RESULTS.md):
//   BM_Raw_HostGpuHostFlagPingPong: the peer of BM_HostGpuHostRoundTrip<..>. A pinned, mapped
//       mailbox pair (raw_ping_pong.cuh) and a 1-thread persistent kernel (raw_echo) that polls
//       the request's sequence word with system-scope acquire loads and answers with a release
//       store; the host writes each request and spins on the answer. Counters median_ns, p99_ns
//       over round_trip_samples round trips, each timed on its own.
//   BM_Raw_HostGpuHostLLPingPong: the same exchange with a flag in every 8-byte word
//       (raw_ll_ping_pong.cuh, raw_ll_echo): no ring uses that design yet; the row measures how far
//       below the flag exchange it gets (gpu-kit prints its ratio to BM_Raw_HostGpuHostFlagPingPong),
//       i.e. whether a ring built on it could meet the 2 us round-trip goal that the flag exchange
//       itself misses on a PCIe GPU. The queue rows' ratios stay against the flag exchange.
//   BM_Raw_KernelToKernelFlagPingPong: the peer of BM_KernelToKernelPingPong<..>. Two 1-thread
//       kernels (raw_ping, raw_pong) on one GPU through a mailbox pair in device memory, device
//       scope. Counter one_way_ns = the ping-pong's time / (2 x rounds); one_way_median_ns and
//       one_way_p99_ns from clock64 per round on the pinging SM (latency_timing.h).
// Every failure (a CUDA error, no answer within the host's deadline, a wrong answer, kernels that
// outlive their budget) ends the row with SkipWithError and the reason; nothing can hang.
#include <benchmark/benchmark.h>
#include <cuda_runtime.h>

#include <chrono>
#include <cstdint>
#include <cstring>
#include <string>

#include "latency_timing.h"
#include "raw_ll_ping_pong.cuh"
#include "raw_ping_pong.cuh"
#include "row_support.h"

namespace {

using namespace bench_queue_device;
using std::chrono::steady_clock;

// The two mailbox protocols a host -> GPU -> host row speaks from the host: send(pair, m, k) writes
// request k, answered(pair, k, m) is true once answer k is there (and reads it into m).
struct FlagProtocol {  // raw_ping_pong.cuh: the message, then its sequence number with release
  using Pair = MailboxPair;
  static void send(Pair& boxes, const Msg64& m, std::uint64_t k) {
    boxes.request.msg = m;
    seq_word<ringkernel::atomic_scope::system>(boxes.request.seq).store(k, order::release);
  }
  static bool answered(Pair& boxes, std::uint64_t k, Msg64& m) {
    if (seq_word<ringkernel::atomic_scope::system>(boxes.answer.seq).load(order::acquire) < k) return false;
    m = boxes.answer.msg;
    return true;
  }
};
struct LLProtocol {  // raw_ll_ping_pong.cuh: a flag in every word (k < 2^32: round_trip_samples and more)
  using Pair = LLMailboxPair;
  static void send(Pair& boxes, const Msg64& m, std::uint64_t k) {
    ll_send(boxes.request, m, static_cast<std::uint32_t>(k));
  }
  static bool answered(Pair& boxes, std::uint64_t k, Msg64& m) {
    return ll_receive(boxes.answer, static_cast<std::uint32_t>(k), m);
  }
};

// One row: `echo` (a 1-thread persistent kernel) answers the host's requests through a mailbox pair
// in pinned memory; each round trip is timed on its own (time_round_trips).
template <class Protocol>
void host_echo_row(benchmark::State& state, void (*echo)(typename Protocol::Pair*), const char* echo_name) {
  using Pair = typename Protocol::Pair;
  const auto target = target_device(state);
  if (!target || !preloaded(state, echo)) return;
  // Portable, as QueueMemory::pinned allocates; mapped, so that the kernel may address it (unified
  // addressing maps every such allocation at the same address anyway).
  Pair* boxes = nullptr;
  Pair* device_boxes = nullptr;
  cudaEvent_t echo_done = nullptr;
  if (ok(state, cudaHostAlloc(&boxes, sizeof *boxes, cudaHostAllocPortable | cudaHostAllocMapped), "cudaHostAlloc") &&
      ok(state, cudaHostGetDevicePointer(&device_boxes, boxes, 0), "cudaHostGetDevicePointer") &&
      ok(state, cudaEventCreateWithFlags(&echo_done, cudaEventDisableTiming), "cudaEventCreateWithFlags")) {
    std::memset(static_cast<void*>(boxes), 0, sizeof *boxes);
    echo<<<1, 1>>>(device_boxes);
    const std::string launch = std::string(echo_name) + "<<<1, 1>>>";
    if (ok(state, cudaSuccess, launch.c_str()) && ok(state, cudaEventRecord(echo_done, 0), "cudaEventRecord")) {
      Msg64 m{};
      std::uint64_t sent = 0;
      // Exactly what the queue rows' exchange does, with a mailbox for a queue: the whole message
      // is written and read back; its words[0] names it.
      const auto exchange = [&](std::uint64_t k, steady_clock::time_point give_up, std::string& error) {
        m.words[0] = k;
        Protocol::send(*boxes, m, sent = k);
        if (!poll_until([&] { return Protocol::answered(*boxes, k, m); }, give_up)) {
          error = std::string("no answer within 1 s: the ") + echo_name + " kernel is not running";
          return false;
        }
        if (m.words[0] == k) return true;
        error = std::string(echo_name) + " returned message " + std::to_string(m.words[0]) + ", expected " +
                std::to_string(k);
        return false;
      };
      (void)time_round_trips(state, exchange);
      // Stop (a kernel that already gave up is not waiting for it; then this waits 1 s in vain).
      const std::uint64_t stop = sent + 1;
      m.words[1] = 1;
      Protocol::send(*boxes, m, stop);
      (void)poll_until([&] { return Protocol::answered(*boxes, stop, m); }, steady_clock::now() + round_trip_give_up);
      (void)ended_within(state, echo_done, host_wait_limit(idle_budget_us), (std::string(echo_name) + " kernel").c_str());
    } else {
      cudaDeviceSynchronize();  // a launched kernel gives up within idle_budget_us
    }
  }
  if (echo_done != nullptr) cudaEventDestroy(echo_done);
  if (!device_wedged()) cudaFreeHost(boxes);  // else the kernel may still use it
}

void BM_Raw_HostGpuHostFlagPingPong(benchmark::State& state) {
  host_echo_row<FlagProtocol>(state, raw_echo, "raw_echo");
}
void BM_Raw_HostGpuHostLLPingPong(benchmark::State& state) {
  host_echo_row<LLProtocol>(state, raw_ll_echo, "raw_ll_echo");
}

void BM_Raw_KernelToKernelFlagPingPong(benchmark::State& state) {
  const auto target = target_device(state);
  if (!target || !preloaded(state, raw_pong, raw_ping)) return;
  MailboxPair* boxes = nullptr;
  if (!ok(state, cudaMalloc(&boxes, sizeof *boxes), "cudaMalloc")) return;
  const std::uint64_t rounds = run_size(ping_pong_rounds, small_ping_pong_rounds);
  time_kernel_ping_pong(
      state, rounds, host_wait_limit(total_budget_us),
      [&](cudaStream_t s1) {  // empty mailboxes, before either kernel starts
        return ok(state, cudaMemsetAsync(boxes, 0, sizeof *boxes, s1), "cudaMemsetAsync") &&
               ok(state, cudaStreamSynchronize(s1), "cudaStreamSynchronize");
      },
      [&](cudaStream_t s1, cudaStream_t s2, PingOutput out) {
        raw_pong<<<1, 1, 0, s2>>>(boxes, rounds);
        if (!ok(state, cudaSuccess, "raw_pong<<<1, 1>>>")) return false;
        raw_ping<<<1, 1, 0, s1>>>(boxes, rounds, out);
        return ok(state, cudaSuccess, "raw_ping<<<1, 1>>>");
      });
  if (!device_wedged()) cudaFree(boxes);  // else a kernel may still use it
}

}  // namespace

BENCHMARK(guarded<BM_Raw_HostGpuHostFlagPingPong>)
    ->Name("BM_Raw_HostGpuHostFlagPingPong")
    ->UseRealTime()
    ->Iterations(run_size(round_trip_samples, small_round_trip_samples));
BENCHMARK(guarded<BM_Raw_HostGpuHostLLPingPong>)
    ->Name("BM_Raw_HostGpuHostLLPingPong")
    ->UseRealTime()
    ->Iterations(run_size(round_trip_samples, small_round_trip_samples));
BENCHMARK(guarded<BM_Raw_KernelToKernelFlagPingPong>)
    ->Name("BM_Raw_KernelToKernelFlagPingPong")
    ->UseManualTime()
    ->Iterations(run_size(ping_pong_iterations, small_ping_pong_iterations));
