// Copyright RingKernel authors.
// nvcc compile check: every device-side messaging API instantiated in __global__ kernels - rings
// at device and system scope (single ops, batches, warp-aggregated ops), block-scope rings in
// __shared__ memory initialised on the device, the hybrid logical clock,
// KernelMessage factories and stamping, the envelope codec (peek_envelope_type_id,
// envelope_header_problem, to_string of a codec_status included), the generated registry's
// dispatch_envelope (.rk.h types).
#include "messaging.registry.rk.h"
#include "messaging_messages.rk.h"
#include "ringkernel/envelope_codec.h"
#include "ringkernel/hlc.h"
#include "ringkernel/message_stamper.h"
#include "ringkernel/queue/spsc_ring.h"
#include "ringkernel/queue/warp_enqueue.h"

namespace {

using messaging_test::Blob64;
using messaging_test::Tagged;
using messaging_test::Tick;

template <ringkernel::atomic_scope S>
__global__ void rings(ringkernel::mpmc_ring<Tagged, S> mpmc, ringkernel::spsc_ring<Blob64, S> spsc, int* status) {
  Tagged t{threadIdx.x, 0, blockIdx.x};
  int ok = ringkernel::warp_push(mpmc, t) ? 1 : 0;
  Tagged back{};
  ok += ringkernel::warp_pop(mpmc, back) ? 1 : 0;
  ok += mpmc.try_push(t) ? 1 : 0;
  ok += static_cast<int>(mpmc.try_pop_batch(&back, 1));
  __shared__ Tagged batch[64];
  ok += static_cast<int>(ringkernel::warp_push_batch(0xffffffffu, mpmc, batch, 64));
  ok += static_cast<int>(ringkernel::warp_pop_batch(0xffffffffu, mpmc, batch, 64));
  if (threadIdx.x == 0) {
    Blob64 b{};
    ok += spsc.try_push(b) ? 1 : 0;
    ok += static_cast<int>(spsc.try_push_batch(&b, 1));
    ok += spsc.try_pop(b) ? 1 : 0;
    ok += spsc.try_peek(b) ? 1 : 0;
    ok += static_cast<int>(spsc.size());
  }
  atomicAdd(status, ok);
}

// Block-scope rings in __shared__ memory, initialised in device code by one thread, then used by
// the whole block after __syncthreads() (docs/messaging.md §3, "Creating a ring").
__global__ void block_rings(int* status) {
  using BlockMpmc = ringkernel::mpmc_ring<Tagged, ringkernel::atomic_scope::block>;
  using BlockSpsc = ringkernel::spsc_ring<Tagged, ringkernel::atomic_scope::block>;
  __shared__ alignas(ringkernel::detail::queue_line_bytes) unsigned char mpmc_memory[BlockMpmc::bytes_for(64)];
  __shared__ alignas(ringkernel::detail::queue_line_bytes) unsigned char spsc_memory[BlockSpsc::bytes_for(8)];
  if (threadIdx.x == 0) {
    (void)BlockMpmc::initialize(mpmc_memory, 64);
    (void)BlockSpsc::initialize(spsc_memory, 8);
  }
  __syncthreads();
  const BlockMpmc mpmc(mpmc_memory);
  Tagged t{threadIdx.x, 0, blockIdx.x};
  int ok = ringkernel::warp_push(mpmc, t) ? 1 : 0;
  ok += ringkernel::warp_pop(mpmc, t) ? 1 : 0;
  if (threadIdx.x == 0) {
    BlockSpsc spsc(spsc_memory);
    ok += spsc.try_push(t) ? 1 : 0;
    ok += spsc.try_pop(t) ? 1 : 0;
  }
  atomicAdd(status, ok);
}

// A clock as a __device__ variable: constant-initialised (constexpr constructor), in global memory,
// where its atomics belong (ringkernel/hlc.h). The stamper, like the clock, in global memory too.
__device__ ringkernel::HybridLogicalClock device_clock{500'000};

__global__ void clocks_and_envelopes(ringkernel::HybridLogicalClock* clock, ringkernel::MessageStamper* stampers,
                                     std::uint8_t* out, int* status) {
  ringkernel::MessageStamper& stamper = stampers[threadIdx.x];
  if (device_clock.max_skew_us() != 500'000 || device_clock.now().bits == 0) atomicAdd(status, -1000);
  auto m = ringkernel::KernelMessage<Tick>::create_data(1, ringkernel::broadcast_receiver, Tick{7, 1.0f, "dev"});
  const bool stamped = stamper.stamp(m) && stamper.stamp_at(m, ringkernel::wall_clock_us());
  const auto r = clock->update(m.header.hlc);
  std::uint8_t* buf = out + threadIdx.x * ringkernel::max_envelope_encoded_size<Tick>;
  const auto e = ringkernel::encode_envelope(m, buf, ringkernel::max_envelope_encoded_size<Tick>);
  ringkernel::KernelMessage<Tick> back{};
  const auto d = ringkernel::decode_envelope(buf, e.size, back);
  std::uint32_t type_id = 0;
  const auto p = ringkernel::peek_envelope_type_id(buf, e.size, type_id);
  ringkernel::KernelMessage<Tagged> other{};
  const auto wrong = ringkernel::decode_envelope(buf, e.size, other);
  const bool same = stamped && back == m && r.status == ringkernel::hlc_status::ok && d.status == ringkernel::codec_status::ok &&
                    p.status == ringkernel::codec_status::ok && type_id == ringkernel::message_traits<Tick>::type_id &&
                    wrong.status == ringkernel::codec_status::wrong_message_type &&
                    ringkernel::to_string(wrong.status)[0] == 'w' && ringkernel::envelope_header_problem(m) == nullptr;
  atomicAdd(status, same ? 1 : 0);
}

struct RouteCheck {
  int* status;
  template <class T>
  __device__ void operator()(const ringkernel::KernelMessage<T>& m) const {
    atomicAdd(status, m.header.type_id == ringkernel::message_traits<T>::type_id ? 1 : 0);
  }
};

__global__ void routed_envelopes(const std::uint8_t* in, std::size_t size, int* status) {
  const auto r = ringkernel::registry::messaging::dispatch_envelope(in, size, ringkernel::on_device(RouteCheck{status}));
  if (r.status != ringkernel::codec_status::ok) atomicAdd(status, -static_cast<int>(r.size) - 1);
}

}  // namespace

// Host-side references so the kernels are emitted.
void* messaging_device_kernels[] = {reinterpret_cast<void*>(&rings<ringkernel::atomic_scope::device>),
                                    reinterpret_cast<void*>(&rings<ringkernel::atomic_scope::system>),
                                    reinterpret_cast<void*>(&block_rings),
                                    reinterpret_cast<void*>(&clocks_and_envelopes),
                                    reinterpret_cast<void*>(&routed_envelopes)};
