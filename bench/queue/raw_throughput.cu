// Copyright RingKernel authors.
// The raw-CUDA peer of BM_DeviceQueueThroughput/B (bench_queue_device.cu): the least a hand-off of
// the same messages between the same warps needs, with no ring, run and timed by the same harness
// (throughput_timing.h: the same grid, 64-byte messages, hash and count check, staging for B > 1,
// warm-up and events), so that ours / raw says how much of the figure is the queue and how much the
// platform (HBM, L2, the consumers' hash, the staging writes).
//   BM_Raw_DeviceThroughput/B: an array of one 64-byte slot per message (4.3 M on 132 SMs, 277 MB;
//       written once, so nothing wraps and no producer ever waits for a consumer: a floor, not a
//       queue) and one ready word per chunk of slots, chunk = 32 messages for B = 1 (one per lane,
//       as warp_push claims) and B for B > 1. A producer warp takes a chunk with one atomicAdd
//       ticket on a shared counter, its lanes write the chunk's slots (B = 1: each lane its
//       message from registers; B > 1: copied from the warp's staging, as warp_push_batch copies),
//       then __syncwarp and one release store of the chunk's ready word (device scope). A consumer
//       warp takes the next chunk with one atomicAdd ticket on a second counter, lane 0 spins on
//       its ready word with acquire loads (the same %globaltimer deadline as the ring's
//       consumers), __syncwarp, then its lanes read the slots (B > 1: into the warp's staging) and
//       hash them. The ring rows claim, publish and free per slot with sequence words (72-byte
//       slots); here one ready word per chunk, written once; the payload is copied the same way
//       (Msg64 assignment). The array is 4x the ring's footprint (both exceed L2); consumers follow
//       the producers closely, as in the ring.
// Every failure (a CUDA error, a consumer that gave up, a wrong hash sum or count, kernels that
// outlive their budget) ends the row with SkipWithError and the reason; nothing can hang.
#include <benchmark/benchmark.h>
#include <cuda_runtime.h>

#include <cstdint>
#include <optional>

#include "device_bench_message.cuh"
#include "ringkernel/buffers.h"
#include "ringkernel/deadline.h"
#include "ringkernel/detail/atomic_word.h"
#include "row_support.h"
#include "throughput_batch.h"
#include "throughput_timing.h"

namespace {

using namespace bench_queue_device;
using ringkernel::detail::order;
using ready_word = ringkernel::detail::atomic_word<ringkernel::atomic_scope::device>;

// The hand-off's memory: tickets[0] (producers) and tickets[16] (consumers) on lines of their own,
// then the ready words (one per chunk, 0 = not yet written), all zeroed before each run; the slots.
struct RawHandoff {
  unsigned long long* tickets;
  std::uint64_t* ready;
  Msg64* slots;
};
constexpr std::size_t ticket_words = 32;  // 256 bytes: the two counters, 128 bytes apart

// One ticket of `n` messages for the whole warp: lane 0's atomicAdd, broadcast.
__device__ inline std::uint64_t take(unsigned long long* counter, unsigned n) {
  unsigned long long first = 0;
  if (threadIdx.x % 32 == 0) first = atomicAdd(counter, static_cast<unsigned long long>(n));
  return __shfl_sync(0xffffffffu, first, 0);
}
// After every lane wrote its slots of chunk `chunk`: __syncwarp orders them before lane 0's
// release store (cumulative), which a consumer's acquire load of the word pairs with.
__device__ inline void publish(const RawHandoff& h, std::uint64_t chunk) {
  __syncwarp();
  if (threadIdx.x % 32 == 0) ready_word(h.ready[chunk]).store(1, order::release);
}
// Lane 0 waits for chunk `chunk` until `give_up`; then __syncwarp orders its acquire before every
// lane's reads of the slots. False on every lane when it gave up.
__device__ inline bool ready(const RawHandoff& h, std::uint64_t chunk, const ringkernel::deadline& give_up) {
  bool written = true;
  if (threadIdx.x % 32 == 0) {
    const ready_word word(h.ready[chunk]);
    while (word.load(order::acquire) == 0) {
      if (give_up.passed()) {
        written = false;
        break;
      }
    }
  }
  written = __shfl_sync(0xffffffffu, written, 0);
  __syncwarp();
  return written;
}

// Every thread t sends k = 0 .. per_thread-1: produced_message(t, k), as produce() does.
__global__ void raw_produce(RawHandoff h, std::uint32_t per_thread, std::uint32_t batch, Msg64* staging) {
  const std::uint32_t lane = threadIdx.x % 32;
  Msg64 m = produced_message(blockIdx.x * blockDim.x + threadIdx.x, 0);
  if (batch == 1) {
    for (std::uint32_t k = 0; k < per_thread; ++k) {
      m.words[1] = k;
      const std::uint64_t first = take(h.tickets, 32);
      h.slots[first + lane] = m;
      publish(h, first / 32);
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
    __syncwarp();  // the staging above is visible to every lane (warp_push_batch's entry __syncwarp)
    const std::uint64_t first = take(h.tickets, batch);
    for (std::uint32_t i = lane; i < batch; i += 32) h.slots[first + i] = mine[i];
    publish(h, first / batch);  // its __syncwarp also lets the next round overwrite `mine`
  }
}

// As consume(): adds the message_hash of every message it took to totals[0] and their number to
// totals[1] (a consumer that gives up adds nothing: the count then fails the row).
__global__ void raw_consume(RawHandoff h, std::uint32_t per_thread, std::uint32_t batch, Msg64* staging,
                            unsigned long long* totals) {
  const std::uint32_t lane = threadIdx.x % 32;
  const std::uint32_t chunk = batch == 1 ? 32 : batch;
  unsigned long long hashes = 0, count = 0;
  const auto give_up = ringkernel::deadline::after_us(total_budget_us);
  Msg64* mine = batch == 1 ? nullptr : warp_staging(staging, batch);
  for (std::uint32_t left = per_thread * 32; left != 0; left -= chunk) {  // this warp's share
    const std::uint64_t first = take(h.tickets + ticket_words / 2, chunk);
    if (!ready(h, first / chunk, give_up)) return;  // the checksum then fails the row
    if (batch == 1) {
      const Msg64 m = h.slots[first + lane];
      hashes += message_hash(m);
      ++count;
      continue;
    }
    for (std::uint32_t i = lane; i < batch; i += 32) mine[i] = h.slots[first + i];
    __syncwarp();  // as warp_pop_batch ends: the warp's copy is visible to every lane
    for (std::uint32_t i = lane; i < batch; i += 32) {
      hashes += message_hash(mine[i]);
      ++count;
    }
  }
  atomicAdd(&totals[0], hashes);
  atomicAdd(&totals[1], count);
}

void BM_Raw_DeviceThroughput(benchmark::State& state) {
  if (!batch_fits(state, state.range(0))) return;
  const auto target = target_device(state);
  if (!target || !preloaded(state, raw_consume, raw_produce)) return;
  const auto grid = throughput_grid(state, *target, raw_produce, raw_consume);
  if (!grid) return;
  const auto batch = static_cast<std::uint32_t>(state.range(0));
  const std::uint64_t messages = grid->messages();
  const std::size_t control_bytes = (ticket_words + messages / 32) * sizeof(std::uint64_t);
  const kept_unless_wedged<ringkernel::DeviceBuffer> control(target->id, control_bytes);
  const kept_unless_wedged<ringkernel::DeviceBuffer> slots(target->id, messages * sizeof(Msg64));
  auto* words = static_cast<std::uint64_t*>(control->data());
  const RawHandoff h{reinterpret_cast<unsigned long long*>(words), words + ticket_words,
                     static_cast<Msg64*>(slots->data())};
  time_throughput(
      state, *target, *grid, batch,
      [&](cudaStream_t s2) {  // tickets and ready words zeroed, before any kernel of the run starts
        return ok(state, cudaMemsetAsync(control->data(), 0, control_bytes, s2), "cudaMemsetAsync") &&
               ok(state, cudaStreamSynchronize(s2), "cudaStreamSynchronize");
      },
      [&](cudaStream_t s2, Msg64* staging, unsigned long long* totals) {
        raw_consume<<<grid->consumer_blocks, throughput_threads, 0, s2>>>(h, throughput_per_thread * 2, batch,
                                                                          staging, totals);
        return ok(state, cudaSuccess, "raw_consume<<<>>>");
      },
      [&](cudaStream_t s1, Msg64* staging) {
        raw_produce<<<grid->producer_blocks, throughput_threads, 0, s1>>>(h, throughput_per_thread, batch, staging);
        return ok(state, cudaSuccess, "raw_produce<<<>>>");
      });
}

}  // namespace

// The same B as BM_DeviceQueueThroughput; gpu-kit runs each right after the ring's row of that B.
BENCHMARK(guarded<BM_Raw_DeviceThroughput>)
    ->Name("BM_Raw_DeviceThroughput")
    ->Arg(1)
    ->Arg(32)
    ->Arg(256)
    ->Arg(1024)
    ->UseManualTime()
    ->Iterations(run_size(throughput_iterations, small_throughput_iterations));
