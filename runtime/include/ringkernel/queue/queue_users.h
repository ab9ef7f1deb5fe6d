// Copyright RingKernel authors.
// Who works each side of a queue's ring (host threads, kernels, or both), and the check that the
// queue's memory can serve them (docs/messaging.md, "Who may use a side").
//
// An mpmc_ring side claims positions with a compare-and-swap on its index (head for producers,
// tail for consumers). Such a claim is atomic only among agents that share an atomic domain:
//  - pinned host memory: host threads and one GPU's kernels share it only where the device has
//    host-native atomics (Capability::host_native_atomics, cudaDevAttrHostNativeAtomicSupported;
//    typically NVLink-C2C, not PCIe). Elsewhere a GPU's atomics on host memory are atomic among
//    that GPU's threads only, and the host's among host threads only;
//  - another GPU's memory through a peer mapping: the claims of the mapping GPU's kernels are
//    atomic only over a link with native atomics (PeerCapability::native_atomics; NVLink, not PCIe),
//    elsewhere each is a read and a separate write.
// spsc_ring sides never read-modify-write (one producer, one consumer: plain loads and stores).
// Queues check this at construction, and host-side calls on a side declared for kernels only are
// refused, so a queue never hands out a claim that the hardware cannot make atomic.
#pragma once

#include <cstdint>

#include "ringkernel/queue/queue_types.h"

namespace ringkernel {

/// Who calls one side (producers or consumers) of a queue.
enum class QueueUsers : std::uint8_t {
  host = 1,              // host threads only (send / receive / clear on the queue object)
  kernels = 2,           // device threads only (through the queue's views: ring(), kernel_ring(), ...)
  host_and_kernels = 3,  // both, possibly at once (mpmc pinned memory: needs host-native atomics)
};
const char* to_string(QueueUsers u) noexcept;

constexpr bool has_host(QueueUsers u) noexcept { return (static_cast<unsigned>(u) & 1u) != 0; }
constexpr bool has_kernels(QueueUsers u) noexcept { return (static_cast<unsigned>(u) & 2u) != 0; }

struct QueueOptions;  // queue_options.h

namespace detail {

/// One side of a ring as a queue declares it.
struct ring_side {
  const char* name;    // "producers" / "consumers"
  QueueUsers users;
  bool claims;         // the side claims positions with compare-and-swap (mpmc_ring)
  int device;          // the device whose kernels work this side (pinned / device memory)
};

/// Throws Error (invalid_argument / unsupported, naming `call`, the side and the device) unless
/// `memory` can serve the side as declared (see the top of this file).
void check_ring_side(const char* call, const ring_side& side, QueueMemory memory);

/// Throws Error unless a ring whose claims are device scope (mpmc_ring<T, system, device>,
/// BasicMessageQueue::kernel_ring) suits the queue: first invalid_argument when `memory` is
/// QueueMemory::host (kernels cannot reach it), then unsupported when a side is host_and_kernels
/// (host threads and kernels claim one index), invalid_argument when neither side has kernels.
void check_kernel_ring(const char* call, QueueUsers producers, QueueUsers consumers, int producer_device,
                       int consumer_device, QueueMemory memory);

/// Throws Error(unsupported): a host thread called `call` on a side declared for kernels only;
/// `kernel_view` names what kernels work that side through (e.g. "source_ring() (direct_p2p mode)").
[[noreturn]] void throw_host_not_a_user(const char* call, const char* side, int device, const char* kernel_view);
/// The same for a BasicMessageQueue with these options: names its kernel_ring() (`has_kernel_ring`:
/// MpmcQueue) where that is the view for the side (pinned memory, the other side not host_and_kernels),
/// else its ring(). `side` is "producers" or "consumers"; the device is that side's.
[[noreturn]] void throw_host_not_a_user(const char* call, const char* side, const QueueOptions& options,
                                        bool has_kernel_ring);

}  // namespace detail
}  // namespace ringkernel
