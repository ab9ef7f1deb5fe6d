// Copyright RingKernel authors.
// The kernels of bench_queue_device.cu (see there): a persistent echo for the host round trip, ping
// and pong for the kernel-to-kernel hop, producer and consumer warps for the batched throughput.
// Each gives up after a while without progress, so that a failure on the other side ends a row
// with an error instead of a hung process.
#pragma once

#include <cuda_runtime.h>

#include <cstdint>

#include "ringkernel/deadline.h"
#include "ringkernel/queue/mpmc_ring.h"
#include "ringkernel/queue/spsc_ring.h"
#include "ringkernel/queue/warp_enqueue.h"

namespace bench_queue_device {

struct Msg64 {
  std::uint64_t words[8];
};
using ringkernel::atomic_scope;
using DeviceRing = ringkernel::mpmc_ring<Msg64, atomic_scope::device>;
using DeviceSpscRing = ringkernel::spsc_ring<Msg64, atomic_scope::device>;
// What a persistent kernel holds: an spsc_ring side as an endpoint (index and cache in registers,
// so each operation reads the ring's memory only for the slot and when the cache runs out), an
// mpmc_ring as itself.
template <class Ring>
__device__ auto receiving_end(Ring ring) {
  if constexpr (Ring::multi_consumer) {
    return ring;
  } else {
    return ring.consumer();
  }
}
template <class Ring>
__device__ auto sending_end(Ring ring) {
  if constexpr (Ring::multi_producer) {
    return ring;
  } else {
    return ring.producer();
  }
}

// Every spinning kernel gives up after a while without progress, so that a failed launch or check
// on the other side ends in an error row instead of a hung process (the cleanup waits for kernels).
// A row's kernels normally finish in well under a second (100 000 ping-pong rounds, 4.3 M messages);
// a row that fails ends after its first failed iteration, so a run whose every row fails ends in
// about 40 s (2 x (1 + 3) + 2 x 5 + 4 x 5), within gpu-kit's limit for the program (120 s in `check`).
constexpr std::uint64_t idle_budget_us = 3'000'000;
constexpr std::uint64_t total_budget_us = 5'000'000;

// Echo until a message with words[1] == 1 (stop) arrives.
template <class Ring>
__global__ void echo(Ring in_ring, Ring out_ring) {
  auto in = receiving_end(in_ring);
  auto out = sending_end(out_ring);
  Msg64 m{};
  for (;;) {
    auto give_up = ringkernel::deadline::after_us(idle_budget_us);
    while (!in.try_pop(m)) {
      if (give_up.passed()) return;
    }
    const bool stop = m.words[1] == 1;
    give_up = ringkernel::deadline::after_us(idle_budget_us);
    while (!out.try_push(m)) {
      if (give_up.passed()) return;
    }
    if (stop) return;
  }
}

// Writes the number of rounds it completed to completed[0] (fewer than `rounds`: it gave up, and the
// row must not report the time as a latency) and the rounds whose answer was not its message to [1].
template <class Ring>
__global__ void ping(Ring to_ring, Ring from_ring, std::uint64_t rounds, unsigned long long* completed) {
  auto to = sending_end(to_ring);
  auto from = receiving_end(from_ring);
  Msg64 m{};
  const auto give_up = ringkernel::deadline::after_us(total_budget_us);
  std::uint64_t r = 0, wrong = 0;
  for (; r < rounds; ++r) {
    m.words[0] = r;
    bool stuck = false;
    while (!to.try_push(m) && !(stuck = give_up.passed())) {
    }
    while (!stuck && !from.try_pop(m) && !(stuck = give_up.passed())) {
    }
    if (stuck) break;
    if (m.words[0] != r) ++wrong;
  }
  completed[0] = r;
  completed[1] = wrong;
}
template <class Ring>
__global__ void pong(Ring from_ring, Ring to_ring, std::uint64_t rounds) {
  auto from = receiving_end(from_ring);
  auto to = sending_end(to_ring);
  Msg64 m{};
  const auto give_up = ringkernel::deadline::after_us(total_budget_us);
  for (std::uint64_t r = 0; r < rounds; ++r) {
    while (!from.try_pop(m)) {
      if (give_up.passed()) return;
    }
    while (!to.try_push(m)) {
      if (give_up.passed()) return;
    }
  }
}

// This warp's `batch` messages of `staging` (global memory: any batch size, and no shared memory
// that could keep producer and consumer blocks from being resident together).
__device__ Msg64* warp_staging(Msg64* staging, std::uint32_t batch) {
  return staging + static_cast<std::size_t>((blockIdx.x * blockDim.x + threadIdx.x) / 32) * batch;
}

// The consumers' checksum of one message: all eight words, so each is loaded (summing only the word
// that varies let the compiler drop the other loads: a consumer then read 8 of the 64 bytes).
__device__ unsigned long long message_sum(const Msg64& m) {
  unsigned long long s = 0;
  for (const std::uint64_t w : m.words) s += w;
  return s;
}

// Every thread t sends k = 0 .. per_thread-1: words[0] = t, words[1] = k, words[j] = j for j >= 2;
// batch > 1: each warp stages `batch` of its lanes' messages and pushes them with warp_push_batch calls.
__global__ void produce(DeviceRing ring, std::uint32_t per_thread, std::uint32_t batch, Msg64* staging) {
  const std::uint32_t lane = threadIdx.x % 32;
  Msg64 m{};
  m.words[0] = blockIdx.x * blockDim.x + threadIdx.x;
  for (std::uint32_t j = 2; j < 8; ++j) m.words[j] = j;
  const auto give_up = ringkernel::deadline::after_us(total_budget_us);
  if (batch == 1) {
    for (std::uint32_t k = 0; k < per_thread; ++k) {
      m.words[1] = k;
      while (!ringkernel::warp_push(ring, m)) {
        if (give_up.passed()) return;
      }
    }
    return;
  }
  Msg64* mine = warp_staging(staging, batch);
  const std::uint32_t per_call = batch / 32;  // of each lane's messages
  for (std::uint32_t k = 0; k < per_thread; k += per_call) {
    for (std::uint32_t j = 0; j < per_call; ++j) {
      m.words[1] = k + j;
      mine[j * 32 + lane] = m;
    }
    // warp_push_batch begins and ends with __syncwarp(mask): the staging above is visible to every
    // lane, and the next round's staging waits until every lane has copied its share.
    for (std::uint32_t sent = 0; sent < batch;) {
      if (__any_sync(0xffffffffu, give_up.passed())) return;  // the same answer on every lane
      sent += ringkernel::warp_push_batch(0xffffffffu, ring, mine + sent, batch - sent);
    }
  }
}
__global__ void consume(DeviceRing ring, std::uint32_t per_thread, std::uint32_t batch, Msg64* staging,
                        unsigned long long* sum) {
  const std::uint32_t lane = threadIdx.x % 32;
  unsigned long long local = 0;
  const auto give_up = ringkernel::deadline::after_us(total_budget_us);
  if (batch == 1) {
    Msg64 m{};
    for (std::uint32_t k = 0; k < per_thread; ++k) {
      while (!ringkernel::warp_pop(ring, m)) {
        if (give_up.passed()) return;  // the checksum then fails the row
      }
      local += message_sum(m);
    }
  } else {
    Msg64* mine = warp_staging(staging, batch);
    for (std::uint32_t left = per_thread * 32; left != 0;) {  // this warp's share
      if (__any_sync(0xffffffffu, give_up.passed())) return;  // the checksum then fails the row
      // The full warp calls (blockDim is a multiple of 32, lanes leave together); the call's entry
      // __syncwarp orders the last round's reads of `mine` before its writes.
      const unsigned n = ringkernel::warp_pop_batch(0xffffffffu, ring, mine, batch < left ? batch : left);
      for (unsigned i = lane; i < n; i += 32) local += message_sum(mine[i]);
      left -= n;
    }
  }
  atomicAdd(sum, local);
}

}  // namespace bench_queue_device
