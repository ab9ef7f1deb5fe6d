// Copyright RingKernel authors.
// The kernels of bench_queue_device.cu (see there): a persistent echo for the host round trip, ping
// and pong for the kernel-to-kernel hop, producer and consumer warps for the batched throughput.
// Each gives up after a while without progress, so that a failure on the other side ends a row
// with an error instead of a hung process.
#pragma once

#include <cuda_runtime.h>

#include <cstdint>

#include "device_bench_message.cuh"
#include "ringkernel/deadline.h"
#include "ringkernel/queue/mpmc_ring.h"
#include "ringkernel/queue/spsc_ring.h"
#include "ringkernel/queue/warp_enqueue.h"

namespace bench_queue_device {

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

// Records what PingOutput describes (device_bench_message.cuh): the rounds it completed (fewer
// than `rounds`: it gave up, and the row must not report the time as a latency), wrong answers,
// each round's clock64 cycles and the clock it ran at.
template <class Ring>
__global__ void ping(Ring to_ring, Ring from_ring, std::uint64_t rounds, PingOutput out) {
  auto to = sending_end(to_ring);
  auto from = receiving_end(from_ring);
  Msg64 m{};
  const auto give_up = ringkernel::deadline::after_us(total_budget_us);
  const long long c0 = clock64();
  const std::uint64_t g0 = globaltimer_ns();
  std::uint64_t r = 0, wrong = 0;
  for (; r < rounds; ++r) {
    m.words[0] = r;
    const long long t0 = clock64();
    bool stuck = false;
    while (!to.try_push(m) && !(stuck = give_up.passed())) {
    }
    while (!stuck && !from.try_pop(m) && !(stuck = give_up.passed())) {
    }
    if (stuck) break;
    out.round_cycles[r] = static_cast<unsigned long long>(clock64() - t0);
    if (m.words[0] != r) ++wrong;
  }
  out.completed[2] = static_cast<unsigned long long>(clock64() - c0);
  out.completed[3] = globaltimer_ns() - g0;
  out.completed[0] = r;
  out.completed[1] = wrong;
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

// Every thread t sends k = 0 .. per_thread-1: produced_message(t, k) (words t, k, 2, .., 7);
// batch > 1: each warp stages `batch` of its lanes' messages and pushes them with warp_push_batch calls.
__global__ void produce(DeviceRing ring, std::uint32_t per_thread, std::uint32_t batch, Msg64* staging) {
  const std::uint32_t lane = threadIdx.x % 32;
  Msg64 m = produced_message(blockIdx.x * blockDim.x + threadIdx.x, 0);
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
  // Of each lane's messages; batch is a multiple of 32 whose batch / 32 divides per_thread
  // (batch_fits, throughput_batch.h, refuses any other before a launch).
  const std::uint32_t per_call = batch / 32;
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
// Adds the message_hash of every message it took to totals[0] and their number to totals[1] (a
// consumer that gives up adds nothing: the count then fails the row).
__global__ void consume(DeviceRing ring, std::uint32_t per_thread, std::uint32_t batch, Msg64* staging,
                        unsigned long long* totals) {
  const std::uint32_t lane = threadIdx.x % 32;
  unsigned long long hashes = 0, count = 0;
  const auto give_up = ringkernel::deadline::after_us(total_budget_us);
  if (batch == 1) {
    Msg64 m{};
    for (std::uint32_t k = 0; k < per_thread; ++k) {
      while (!ringkernel::warp_pop(ring, m)) {
        if (give_up.passed()) return;  // the checksum then fails the row
      }
      hashes += message_hash(m);
      ++count;
    }
  } else {
    Msg64* mine = warp_staging(staging, batch);
    for (std::uint32_t left = per_thread * 32; left != 0;) {  // this warp's share
      if (__any_sync(0xffffffffu, give_up.passed())) return;  // the checksum then fails the row
      // The full warp calls (blockDim is a multiple of 32, lanes leave together); the call's entry
      // __syncwarp orders the last round's reads of `mine` before its writes.
      const unsigned n = ringkernel::warp_pop_batch(0xffffffffu, ring, mine, batch < left ? batch : left);
      for (unsigned i = lane; i < n; i += 32) {
        hashes += message_hash(mine[i]);
        ++count;
      }
      left -= n;
    }
  }
  atomicAdd(&totals[0], hashes);
  atomicAdd(&totals[1], count);
}

}  // namespace bench_queue_device
