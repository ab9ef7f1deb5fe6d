// Copyright RingKernel authors.
// Kernels whose PTX check_ptx_scopes.cmake inspects (test messaging.ptx_scopes, label unit; no GPU
// needed): every device-side operation on a ring's shared words, on the hybrid logical clock and on
// the stamper, at system scope (pinned host memory, peer memory) and at device scope (device memory
// of one GPU). Names say the scope the kernel must use: sys_* only .sys atomics, loads, stores and
// fences; dev_* only .gpu ones; mix_* (mpmc_ring<T, system, device>, what MpmcQueue::kernel_ring()
// hands kernels for pinned memory) claims on the index (atom: CAS) at .gpu, slot sequence words,
// the closed flag and fences at .sys. extern "C" keeps the names stable in the PTX.
#include <cstdint>

#include "ringkernel/hlc.h"
#include "ringkernel/message_stamper.h"
#include "ringkernel/queue/spsc_ring.h"
#include "ringkernel/queue/warp_enqueue.h"

namespace {
struct Payload {
  std::uint32_t a, b, c, d;
};
template <ringkernel::atomic_scope S>
using Mpmc = ringkernel::mpmc_ring<Payload, S>;
template <ringkernel::atomic_scope S>
using Spsc = ringkernel::spsc_ring<Payload, S>;
constexpr auto sys = ringkernel::atomic_scope::system;
constexpr auto dev = ringkernel::atomic_scope::device;
using Mix = ringkernel::mpmc_ring<Payload, sys, dev>;
}  // namespace

// Single-thread MPMC operations.
extern "C" __global__ void sys_mpmc_push(Mpmc<sys> r, Payload v, int* ok) { *ok = r.try_push(v) ? 1 : 0; }
extern "C" __global__ void sys_mpmc_pop(Mpmc<sys> r, Payload* out, int* ok) { *ok = r.try_pop(*out) ? 1 : 0; }
extern "C" __global__ void sys_mpmc_push_batch(Mpmc<sys> r, const Payload* in, unsigned n, int* ok) {
  *ok = static_cast<int>(r.try_push_batch(in, n));
}
extern "C" __global__ void sys_mpmc_pop_batch(Mpmc<sys> r, Payload* out, unsigned n, int* ok) {
  *ok = static_cast<int>(r.try_pop_batch(out, n));
}
extern "C" __global__ void sys_mpmc_peek_close(Mpmc<sys> r, Payload* out, int* ok) {
  *ok = (r.try_peek(*out) ? 1 : 0) + (r.closed() ? 2 : 0) + static_cast<int>(r.size());
  r.close();
}
extern "C" __global__ void dev_mpmc_push(Mpmc<dev> r, Payload v, int* ok) { *ok = r.try_push(v) ? 1 : 0; }
extern "C" __global__ void dev_mpmc_pop(Mpmc<dev> r, Payload* out, int* ok) { *ok = r.try_pop(*out) ? 1 : 0; }
extern "C" __global__ void dev_mpmc_push_batch(Mpmc<dev> r, const Payload* in, unsigned n, int* ok) {
  *ok = static_cast<int>(r.try_push_batch(in, n));
}
extern "C" __global__ void dev_mpmc_pop_batch(Mpmc<dev> r, Payload* out, unsigned n, int* ok) {
  *ok = static_cast<int>(r.try_pop_batch(out, n));
}
extern "C" __global__ void dev_mpmc_peek_close(Mpmc<dev> r, Payload* out, int* ok) {
  *ok = (r.try_peek(*out) ? 1 : 0) + (r.closed() ? 2 : 0) + static_cast<int>(r.size());
  r.close();
}

// SPSC through the ring and through endpoints.
extern "C" __global__ void sys_spsc_push(Spsc<sys> r, Payload v, int* ok) { *ok = r.try_push(v) ? 1 : 0; }
extern "C" __global__ void sys_spsc_pop(Spsc<sys> r, Payload* out, int* ok) { *ok = r.try_pop(*out) ? 1 : 0; }
extern "C" __global__ void sys_spsc_consumer_endpoint(Spsc<sys> r, Payload* out, int* ok) {
  auto rx = r.consumer();
  *ok = rx.try_pop(*out) ? 1 : 0;
}
extern "C" __global__ void sys_spsc_producer_endpoint(Spsc<sys> r, Payload v, int* ok) {
  auto tx = r.producer();
  *ok = tx.try_push(v) ? 1 : 0;
}
extern "C" __global__ void sys_spsc_push_batch(Spsc<sys> r, const Payload* in, unsigned n, int* ok) {
  *ok = static_cast<int>(r.try_push_batch(in, n));
}
extern "C" __global__ void sys_spsc_pop_batch(Spsc<sys> r, Payload* out, unsigned n, int* ok) {
  *ok = static_cast<int>(r.try_pop_batch(out, n));
}
extern "C" __global__ void dev_spsc_push(Spsc<dev> r, Payload v, int* ok) { *ok = r.try_push(v) ? 1 : 0; }
extern "C" __global__ void dev_spsc_pop(Spsc<dev> r, Payload* out, int* ok) { *ok = r.try_pop(*out) ? 1 : 0; }
extern "C" __global__ void dev_spsc_push_batch(Spsc<dev> r, const Payload* in, unsigned n, int* ok) {
  *ok = static_cast<int>(r.try_push_batch(in, n));
}
extern "C" __global__ void dev_spsc_pop_batch(Spsc<dev> r, Payload* out, unsigned n, int* ok) {
  *ok = static_cast<int>(r.try_pop_batch(out, n));
}
extern "C" __global__ void dev_spsc_consumer_endpoint(Spsc<dev> r, Payload* out, int* ok) {
  auto rx = r.consumer();
  *ok = rx.try_pop(*out) ? 1 : 0;
}
extern "C" __global__ void dev_spsc_producer_endpoint(Spsc<dev> r, Payload v, int* ok) {
  auto tx = r.producer();
  *ok = tx.try_push(v) ? 1 : 0;
}

// Warp-aggregated operations.
extern "C" __global__ void sys_warp_push(Mpmc<sys> r, Payload v, int* ok) { *ok = ringkernel::warp_push(r, v) ? 1 : 0; }
extern "C" __global__ void sys_warp_pop(Mpmc<sys> r, Payload* out, int* ok) {
  *ok = ringkernel::warp_pop(r, *out) ? 1 : 0;
}
extern "C" __global__ void sys_warp_push_batch(Mpmc<sys> r, const Payload* values, unsigned n, unsigned* done) {
  *done = ringkernel::warp_push_batch(0xffffffffu, r, values, n);
}
extern "C" __global__ void sys_warp_pop_batch(Mpmc<sys> r, Payload* out, unsigned n, unsigned* done) {
  *done = ringkernel::warp_pop_batch(0xffffffffu, r, out, n);
}
extern "C" __global__ void dev_warp_push(Mpmc<dev> r, Payload v, int* ok) { *ok = ringkernel::warp_push(r, v) ? 1 : 0; }
extern "C" __global__ void dev_warp_pop(Mpmc<dev> r, Payload* out, int* ok) {
  *ok = ringkernel::warp_pop(r, *out) ? 1 : 0;
}
extern "C" __global__ void dev_warp_push_batch(Mpmc<dev> r, const Payload* values, unsigned n, unsigned* done) {
  *done = ringkernel::warp_push_batch(0xffffffffu, r, values, n);
}
extern "C" __global__ void dev_warp_pop_batch(Mpmc<dev> r, Payload* out, unsigned n, unsigned* done) {
  *done = ringkernel::warp_pop_batch(0xffffffffu, r, out, n);
}

// System-scope slots, device-scope claims (single thread and warp-aggregated).
extern "C" __global__ void mix_mpmc_push(Mix r, Payload v, int* ok) { *ok = r.try_push(v) ? 1 : 0; }
extern "C" __global__ void mix_mpmc_pop(Mix r, Payload* out, int* ok) { *ok = r.try_pop(*out) ? 1 : 0; }
extern "C" __global__ void mix_mpmc_push_batch(Mix r, const Payload* in, unsigned n, int* ok) {
  *ok = static_cast<int>(r.try_push_batch(in, n));
}
extern "C" __global__ void mix_mpmc_pop_batch(Mix r, Payload* out, unsigned n, int* ok) {
  *ok = static_cast<int>(r.try_pop_batch(out, n));
}
extern "C" __global__ void mix_mpmc_peek_close(Mix r, Payload* out, int* ok) {
  *ok = (r.try_peek(*out) ? 1 : 0) + (r.closed() ? 2 : 0) + static_cast<int>(r.size());
  r.close();
}
extern "C" __global__ void mix_warp_push(Mix r, Payload v, int* ok) { *ok = ringkernel::warp_push(r, v) ? 1 : 0; }
extern "C" __global__ void mix_warp_pop(Mix r, Payload* out, int* ok) { *ok = ringkernel::warp_pop(r, *out) ? 1 : 0; }
extern "C" __global__ void mix_warp_push_batch(Mix r, const Payload* values, unsigned n, unsigned* done) {
  *done = ringkernel::warp_push_batch(0xffffffffu, r, values, n);
}
extern "C" __global__ void mix_warp_pop_batch(Mix r, Payload* out, unsigned n, unsigned* done) {
  *done = ringkernel::warp_pop_batch(0xffffffffu, r, out, n);
}

// The clock and the stamper: one word each, shared with whoever holds the object (system scope).
extern "C" __global__ void sys_hlc(ringkernel::HybridLogicalClock* clock, ringkernel::hlc_timestamp remote,
                                   std::uint64_t* out) {
  out[0] = clock->now().bits;
  out[1] = clock->update(remote).stamp.bits;
}
extern "C" __global__ void sys_stamper(ringkernel::MessageStamper* stamper, std::uint64_t* out) {
  *out = stamper->next_sequence();
}
