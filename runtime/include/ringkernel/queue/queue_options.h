// Copyright RingKernel authors.
// QueueOptions: how a BasicMessageQueue (MpmcQueue / SpscQueue, message_queue.h) is built, and the
// check of those options against what the ring type and the memory can do (docs/messaging.md).
#pragma once

#include <cstddef>
#include <cstdint>

#include "ringkernel/queue/queue_types.h"
#include "ringkernel/queue/queue_users.h"

namespace ringkernel {

struct QueueOptions {
  std::size_t capacity = 1024;  // slots; a power of two
  FullPolicy policy = FullPolicy::block;
  QueueMemory memory = QueueMemory::host;
  int device = -1;                   // device of pinned/device memory (ignored by host memory, but checked)
  // High-water mark and latency: a shared-line read per send and receive, a clock read per receive.
  bool detailed_statistics = false;
  std::uint64_t start_position = 0;  // test hook: position of the first message (wrap-around tests)
  QueueUsers producers = QueueUsers::host_and_kernels;  // who sends: host threads (send*), kernels (ring())
  QueueUsers consumers = QueueUsers::host_and_kernels;  // who receives (receive*, try_peek, clear)
  // The device whose kernels produce / consume, where it is not `device`: pinned memory is mapped
  // for every device of its backend, so one GPU's kernels may send into a ring that another GPU's
  // backend pinned (a host-staged P2PMessageQueue's source). -1: `device`. Only for
  // QueueMemory::pinned, and a device of `device`'s backend; each side's users are checked against
  // its own device.
  int producer_device = -1;
  int consumer_device = -1;
};

/// The device whose kernels work each side of a queue with these options.
constexpr int producer_device_of(const QueueOptions& o) noexcept {
  return o.producer_device >= 0 ? o.producer_device : o.device;
}
constexpr int consumer_device_of(const QueueOptions& o) noexcept {
  return o.consumer_device >= 0 ? o.consumer_device : o.device;
}

namespace detail {

/// Throws Error (invalid_argument / unsupported / invalid_device, naming BasicMessageQueue) for
/// options that no queue on a ring with these sides accepts: a policy or memory outside its enum,
/// capacity (a power of two, at most the ring's max_capacity), policy, memory without a device, a
/// device id that names no device (whatever the memory), a side's device other than `device`
/// outside pinned memory or of another backend, and the users of each side against the memory and
/// its device (check_ring_side).
void validate_queue_options(const QueueOptions& o, bool multi_producer, bool multi_consumer,
                            std::uint64_t max_capacity);

}  // namespace detail
}  // namespace ringkernel
