// Copyright RingKernel authors.
// Test helper: configure the host backend with two devices joined by `topology` (all: a direct
// link, none: host-staged) and return their global ids.
#pragma once

#include <vector>

#include "ringkernel/device.h"
#include "ringkernel/host_backend.h"

namespace messaging_test {

inline std::vector<int> host_devices(ringkernel::HostTopology topology) {
  ringkernel::HostBackendConfig config;
  config.device_count = 2;
  config.topology = topology;
  ringkernel::configure_host_backend(config);
  std::vector<int> ids;
  for (const auto& d : ringkernel::devices(ringkernel::Backend::host)) ids.push_back(d.id);
  return ids;
}

}  // namespace messaging_test
