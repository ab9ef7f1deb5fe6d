// Copyright RingKernel authors.
// What every kernel of bench_queue_device shares: the 64-byte message, the give-up budgets of
// spinning kernels, the per-message hash of the throughput rows' checksum (host and device
// compute it the same way), a throughput warp's staging, and what a ping kernel records per round.
// Nothing here defines a kernel or a non-inline function, so every .cu file of the program may
// include it (device_queue_kernels.cuh, raw_ping_pong.cuh, raw_throughput.cu).
#pragma once

#include <chrono>
#include <cstddef>
#include <cstdint>

#include "ringkernel/config.h"

namespace bench_queue_device {

struct Msg64 {
  std::uint64_t words[8];
};

// Every spinning kernel gives up after a while without progress, so that a failed launch or check
// on the other side ends in an error row instead of a hung process (the host then waits for the
// kernels with a deadline of its own, row_support.h). A row's kernels normally finish in well
// under a second (100 000 ping-pong rounds, 4.3 M messages on 132 SMs); a row that fails ends
// after its first failed iteration (the host side of a round trip gives up after 1 s, then waits
// for the echo's idle budget), so a run whose every row fails ends in about 50 s (3 x (1 + 3)
// round trips + 3 x 5 ping-pongs + 8 x 5 throughputs, the raw peers' included); gpu-kit runs each
// row in a process of its own anyway (a failing row: about 5-8 s).
constexpr std::uint64_t idle_budget_us = 3'000'000;
constexpr std::uint64_t total_budget_us = 5'000'000;
// How long the host waits for kernels whose budget is `budget_us` before it gives them up as
// wedged (row_support.h): the budget and 2 s, counted from when the host starts to wait.
constexpr std::chrono::milliseconds host_wait_limit(std::uint64_t budget_us) noexcept {
  return std::chrono::milliseconds(budget_us / 1000 + 2000);
}

// SplitMix64's finaliser (Steele, Lea, Flood 2014): a bijection on 64-bit words whose outputs for
// nearby inputs look independent, so sums of them do not cancel the way sums of the inputs do.
RINGKERNEL_HOST_DEVICE constexpr std::uint64_t splitmix64(std::uint64_t x) noexcept {
  x += 0x9e3779b97f4a7c15ull;
  x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ull;
  x = (x ^ (x >> 27)) * 0x94d049bb133111ebull;
  return x ^ (x >> 31);
}

// One message's share of the throughput checksum. words[0] (sender t) and words[1] (its k-th
// message) name the message: a lost (t, k) and a repeated (t', k') no longer cancel as they did in
// a plain sum whenever t + k = t' + k'. Words 2..7 are folded in position by position, so that a
// consumer must load every word (summing only the words that vary let the compiler drop the other
// loads: a consumer then read 8 of the 64 bytes) and a corrupted or misplaced word changes the hash.
RINGKERNEL_HOST_DEVICE constexpr std::uint64_t message_hash(const Msg64& m) noexcept {
  std::uint64_t rest = 0;
  for (int j = 2; j < 8; ++j) rest = rest * 0x100000001b3ull ^ m.words[j];  // FNV-1a's prime
  return splitmix64(((m.words[0] << 32) | (m.words[1] & 0xffffffffull)) ^ splitmix64(rest ^ (m.words[1] >> 32)));
}

// The message that producer t sends as its k-th: words t, k, 2, 3, .., 7.
RINGKERNEL_HOST_DEVICE constexpr Msg64 produced_message(std::uint64_t t, std::uint64_t k) noexcept {
  Msg64 m{};
  m.words[0] = t;
  m.words[1] = k;
  for (int j = 2; j < 8; ++j) m.words[j] = static_cast<std::uint64_t>(j);
  return m;
}

// What a ping kernel (ping<Ring>, raw_ping) writes for the host, besides its answers:
//   completed[0]: the rounds it completed (fewer than asked: it gave up); [1]: the rounds whose
//   answer was not its message; [2], [3]: clock64 cycles and %globaltimer nanoseconds from before
//   its first round to after its last (the SM clock it ran at, for converting round_cycles);
//   round_cycles[r]: round r's clock64 cycles, read before its push and after its pop (the same
//   SM, so the same counter), one 8-byte store per round in both the ring rows and the raw peer.
struct PingOutput {
  unsigned long long* completed;  // 4 words
  unsigned long long* round_cycles;  // one word per round
};

#ifdef __CUDACC__
// %globaltimer in nanoseconds (its updates are about 1 us apart on some GPUs: used only across a
// whole ping-pong, to convert clock64 cycles).
__device__ inline std::uint64_t globaltimer_ns() {
  std::uint64_t ns;
  asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(ns));
  return ns;
}

// This warp's `batch` messages of `staging` (global memory: any batch size, and no shared memory
// that could keep producer and consumer blocks from being resident together).
__device__ inline Msg64* warp_staging(Msg64* staging, std::uint32_t batch) {
  return staging + static_cast<std::size_t>((blockIdx.x * blockDim.x + threadIdx.x) / 32) * batch;
}
#endif

}  // namespace bench_queue_device
