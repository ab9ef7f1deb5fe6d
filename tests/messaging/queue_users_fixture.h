// Copyright RingKernel authors.
// What the QueueUsers tests (queue_users_test.cpp, kernel_ring_test.cpp) share: a host-backend
// machine of two devices with or without native atomics, and pinned queue options for one device.
#pragma once

#include <vector>

#include "ringkernel/device.h"
#include "ringkernel/host_backend.h"
#include "ringkernel/queue/message_queue.h"

namespace messaging_test {

/// Two host devices linked to each other; `native` says whether atomics are native (the default)
/// or not (a PCIe machine). The destructor restores the default configuration.
class HostMachine {
 public:
  explicit HostMachine(bool native) {
    ringkernel::HostBackendConfig config;
    config.device_count = 2;
    config.native_atomics = native;
    ringkernel::configure_host_backend(config);
    for (const auto& d : ringkernel::devices(ringkernel::Backend::host)) ids.push_back(d.id);
  }
  ~HostMachine() { ringkernel::configure_host_backend(ringkernel::HostBackendConfig{}); }
  HostMachine(const HostMachine&) = delete;
  HostMachine& operator=(const HostMachine&) = delete;
  std::vector<int> ids;
};

/// Options of a 64-slot queue in pinned memory of `device` with the sides declared as given.
inline ringkernel::QueueOptions pinned_on(int device, ringkernel::QueueUsers producers,
                                          ringkernel::QueueUsers consumers) {
  return ringkernel::QueueOptions{.capacity = 64, .memory = ringkernel::QueueMemory::pinned, .device = device,
                                  .producers = producers, .consumers = consumers};
}

}  // namespace messaging_test
