// Copyright RingKernel authors.
// The check of QueueOptions (ringkernel/queue/queue_options.h), and the capacity rule it shares
// with the rings' initialize (ring_control.h).
#include "ringkernel/queue/queue_options.h"

#include <bit>
#include <string>

#include "ringkernel/device.h"
#include "ringkernel/error.h"
#include "ringkernel/queue/ring_control.h"

namespace ringkernel::detail {

namespace {

// A side's own device (producer_device / consumer_device), where one is given.
void check_side_device(const char* name, int id, const QueueOptions& o) {
  if (id == no_device || id == o.device) return;  // -1: the ring's own device; other negative ids name none
  if (id < 0) {
    throw Error(errc::invalid_device, "BasicMessageQueue", id,
                std::string("QueueOptions::") + name + " = " + std::to_string(id) +
                    " names no device (device ids are 0 and up; -1: the same as QueueOptions::device)");
  }
  if (o.memory != QueueMemory::pinned) {
    throw Error(errc::invalid_argument, "BasicMessageQueue", id,
                std::string("QueueOptions::") + name + " = " + std::to_string(id) + " with QueueMemory::" +
                    to_string(o.memory) + ": only pinned memory is mapped for the kernels of a device other than "
                    "QueueOptions::device (" + std::to_string(o.device) + "); for a ring in one device's memory that "
                    "another device's kernels reach through a peer mapping, use P2PMessageQueue");
  }
  const DeviceInfo side = require_device(id, "BasicMessageQueue", std::string("QueueOptions::") + name);
  if (o.device >= 0 && side.backend != device(o.device).backend) {
    throw Error(errc::unsupported, "BasicMessageQueue", id,
                std::string("QueueOptions::") + name + " = " + std::to_string(id) + " is a " + to_string(side.backend) +
                    " device, but the ring is pinned memory of device " + std::to_string(o.device) + " (" +
                    to_string(device(o.device).backend) + "): only devices of one backend share it");
  }
}

}  // namespace

void check_ring_capacity(const char* call, std::uint64_t capacity, bool multi_consumer, std::uint64_t max_capacity) {
  if (!is_power_of_two(capacity)) {
    throw Error(errc::invalid_argument, call, no_device,
                "capacity " + std::to_string(capacity) + " is not a power of two (" +
                    (multi_consumer ? "2, 4, 8, ... for a multi-consumer ring" : "1, 2, 4, ...") + ")");
  }
  if (capacity > max_capacity) {
    throw Error(errc::invalid_argument, call, no_device,
                "capacity " + std::to_string(capacity) + " is too large: the ring's bytes would exceed what "
                "std::size_t counts (the largest valid capacity for this message type is " +
                    std::to_string(std::bit_floor(max_capacity)) + " slots)");
  }
  if (multi_consumer && capacity < 2) {
    throw Error(errc::invalid_argument, call, no_device,
                "capacity 1: a multi-producer/multi-consumer ring needs at least 2 slots (with one, a published "
                "slot and a free slot of the next lap carry the same sequence word)");
  }
}

void validate_queue_options(const QueueOptions& o, bool multi_producer, bool multi_consumer,
                            std::uint64_t max_capacity) {
  // Values outside the enums (a cast, an uninitialised field) are refused, not read as another one.
  switch (o.policy) {
    case FullPolicy::block:
    case FullPolicy::reject:
    case FullPolicy::drop_oldest:
    case FullPolicy::drop_newest: break;
    default:
      throw Error(errc::invalid_argument, "BasicMessageQueue", no_device,
                  "QueueOptions::policy " + std::to_string(static_cast<int>(o.policy)) +
                      " is no FullPolicy (block, reject, drop_oldest, drop_newest)");
  }
  switch (o.memory) {
    case QueueMemory::host:
    case QueueMemory::pinned:
    case QueueMemory::device: break;
    default:
      throw Error(errc::invalid_argument, "BasicMessageQueue", no_device,
                  "QueueOptions::memory " + std::to_string(static_cast<int>(o.memory)) +
                      " is no QueueMemory (host, pinned, device)");
  }
  check_ring_capacity("BasicMessageQueue", o.capacity, multi_consumer, max_capacity);
  if (o.policy == FullPolicy::drop_oldest && !multi_consumer) {
    throw Error(errc::invalid_argument, "BasicMessageQueue", no_device,
                "FullPolicy::drop_oldest needs a multi-consumer ring (the sender evicts as a second consumer): "
                "use MpmcQueue, or drop_newest / reject / block");
  }
  if (o.policy == FullPolicy::drop_oldest && has_host(o.producers) && !has_host(o.consumers)) {
    throw Error(errc::invalid_argument, "BasicMessageQueue", o.device,
                std::string("FullPolicy::drop_oldest with consumers = QueueUsers::") + to_string(o.consumers) +
                    ": a host-side sender evicts by receiving, so consumers must include the host");
  }
  if (o.device < no_device) {
    throw Error(errc::invalid_device, "BasicMessageQueue", o.device,
                "QueueOptions::device = " + std::to_string(o.device) +
                    " names no device (device ids are 0 and up; -1: none, for host memory)");
  }
  if (o.memory != QueueMemory::host && o.device < 0) {
    throw Error(errc::invalid_argument, "BasicMessageQueue", no_device,
                std::string("QueueMemory::") + to_string(o.memory) + " needs QueueOptions::device (" +
                    std::to_string(o.device) + " names no device): the device whose " +
                    (o.memory == QueueMemory::pinned ? "backend provides the page-locked memory" : "memory holds the ring") +
                    " and whose kernels work the ring");
  }
  if (o.device >= 0)  // an id that names no device is an error whatever the memory (host memory ignores it)
    (void)require_device(o.device, "BasicMessageQueue", "QueueOptions::device");
  check_side_device("producer_device", o.producer_device, o);
  check_side_device("consumer_device", o.consumer_device, o);
  check_ring_side("BasicMessageQueue", {"producers", o.producers, multi_producer, producer_device_of(o)}, o.memory);
  check_ring_side("BasicMessageQueue", {"consumers", o.consumers, multi_consumer, consumer_device_of(o)}, o.memory);
}

}  // namespace ringkernel::detail
