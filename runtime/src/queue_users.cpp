// Copyright RingKernel authors.
// QueueUsers: names, and the check that a queue's memory can serve the users declared for a side
// (see ringkernel/queue/queue_users.h for the hardware rules).
#include "ringkernel/queue/queue_users.h"

#include <string>
#include <string_view>

#include "ringkernel/device.h"
#include "ringkernel/error.h"
#include "ringkernel/queue/queue_options.h"

namespace ringkernel {

const char* to_string(QueueUsers u) noexcept {
  switch (u) {
    case QueueUsers::host: return "host";
    case QueueUsers::kernels: return "kernels";
    case QueueUsers::host_and_kernels: return "host_and_kernels";
  }
  return "invalid";
}

namespace detail {

namespace {

std::string side_text(const ring_side& side) {
  return std::string(side.name) + " = QueueUsers::" + to_string(side.users);
}

}  // namespace

void check_ring_side(const char* call, const ring_side& side, QueueMemory memory) {
  const unsigned bits = static_cast<unsigned>(side.users);
  if (bits == 0 || bits > 3) {
    throw Error(errc::invalid_argument, call, side.device,
                std::string(side.name) + " = " + std::to_string(bits) + " is not a QueueUsers value");
  }
  if (memory == QueueMemory::host && has_kernels(side.users) && !has_host(side.users)) {
    throw Error(errc::invalid_argument, call, no_device,
                side_text(side) + ", but QueueMemory::host is ordinary host memory that kernels cannot reach: "
                                  "use QueueMemory::pinned (or device) for a queue that kernels work");
  }
  if (memory != QueueMemory::pinned || !side.claims || side.users != QueueUsers::host_and_kernels) return;
  const DeviceInfo info = device(side.device);
  if (info.has(Capability::host_native_atomics)) return;
  throw Error(errc::unsupported, call, side.device,
              side_text(side) + " on pinned host memory, but device " + std::to_string(side.device) + " (" +
                  info.name +
                  ") has no host-native atomics: host threads and its kernels cannot claim positions of one "
                  "multi-producer/multi-consumer ring side together (each one's compare-and-swap is atomic only "
                  "among its own threads). Declare " +
                  side.name + " = QueueUsers::host or QueueUsers::kernels");
}

void check_kernel_ring(const char* call, QueueUsers producers, QueueUsers consumers, int producer_device,
                       int consumer_device, QueueMemory memory) {
  // First: with memory kernels cannot reach, no declaration of the sides makes kernel_ring() usable.
  if (memory == QueueMemory::host) {
    throw Error(errc::invalid_argument, call, no_device,
                "the queue is in QueueMemory::host, ordinary host memory that kernels cannot reach, and "
                "kernel_ring() is the ring for kernels: build the queue with QueueMemory::pinned (and "
                "QueueOptions::device), declaring the side kernels work QueueUsers::kernels and the other "
                "QueueUsers::host or kernels");
  }
  const ring_side sides[] = {{"producers", producers, true, producer_device},
                             {"consumers", consumers, true, consumer_device}};
  for (const ring_side& side : sides) {
    if (side.users != QueueUsers::host_and_kernels) continue;
    throw Error(errc::unsupported, call, side.device,
                side_text(side) + ": host threads and kernels claim positions of that side's index together, so "
                                  "its claims must be system scope (ring(), accepted on pinned memory only where "
                                  "the device has host-native atomics); kernel_ring() claims at device scope, "
                                  "atomic among one GPU's threads only. Declare " +
                    side.name + " = QueueUsers::kernels (or host) to use kernel_ring(), or use ring()");
  }
  if (!has_kernels(producers) && !has_kernels(consumers)) {
    throw Error(errc::invalid_argument, call, producer_device,
                "producers = QueueUsers::" + std::string(to_string(producers)) +
                    " and consumers = QueueUsers::" + to_string(consumers) +
                    ": no side is declared for kernels, and kernel_ring() is the ring kernels use; declare the "
                    "side they work QueueUsers::kernels");
  }
}

void throw_host_not_a_user(const char* call, const char* side, int device, const char* kernel_view) {
  throw Error(errc::unsupported, call, device,
              std::string("a host thread called it, but this queue's ") + side +
                  " are declared QueueUsers::kernels (kernels work that side through " + kernel_view +
                  "); declare " + side + " = QueueUsers::host or host_and_kernels for host-side calls");
}

void throw_host_not_a_user(const char* call, const char* side, const QueueOptions& options, bool has_kernel_ring) {
  const bool producers = std::string_view(side) == "producers";
  const QueueUsers other = producers ? options.consumers : options.producers;
  // kernel_ring() is the view check_kernel_ring accepts: this side is kernels only, so it does
  // unless the other is shared; on device memory ring()'s system scope is atomic anyway.
  const bool kernel_ring =
      has_kernel_ring && options.memory == QueueMemory::pinned && other != QueueUsers::host_and_kernels;
  throw_host_not_a_user(call, side, producers ? producer_device_of(options) : consumer_device_of(options),
                        kernel_ring ? "kernel_ring()" : "ring()");
}

}  // namespace detail
}  // namespace ringkernel
