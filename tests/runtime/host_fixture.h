// Copyright RingKernel authors.
// Test helper: configure the host backend for one test, put the configuration back when it ends
// (RestoreHostConfig), and find its device ids.
#pragma once

#include <gtest/gtest.h>

#include <cstddef>
#include <cstdint>
#include <exception>
#include <utility>
#include <vector>

#include "ringkernel/device.h"
#include "ringkernel/host_backend.h"

namespace ringkernel::test {

/// Puts back, when it goes out of scope, the host backend configuration in effect when it was made,
/// however the test ends (a failed ASSERT_* returns early, an exception leaves the test): declare it
/// before the test reconfigures, and before the objects that must go before the configuration does.
class RestoreHostConfig {
 public:
  RestoreHostConfig() = default;
  RestoreHostConfig(const RestoreHostConfig&) = delete;
  RestoreHostConfig& operator=(const RestoreHostConfig&) = delete;
  ~RestoreHostConfig() {
    try {
      configure_host_backend(saved_);
    } catch (const std::exception& e) {  // a destructor must not throw: the test fails instead
      ADD_FAILURE() << "putting the host configuration back: " << e.what();
    }
  }

 private:
  HostBackendConfig saved_ = host_backend_config();
};

/// Global ids of the host devices of the configuration in effect.
inline std::vector<int> host_device_ids() {
  std::vector<int> ids;
  for (const auto& d : devices(Backend::host)) ids.push_back(d.id);
  return ids;
}

/// Global ids of the host devices after configuring `count` devices with `topology`.
inline std::vector<int> use_host_devices(int count, HostTopology topology,
                                         std::vector<std::pair<int, int>> pairs = {}) {
  HostBackendConfig config;
  config.device_count = count;
  config.topology = topology;
  config.pairs = std::move(pairs);
  configure_host_backend(config);
  return host_device_ids();
}

/// Global ids of the host devices after configuring two devices of `memory_per_device` bytes each.
inline std::vector<int> use_small_host_devices(std::size_t memory_per_device) {
  HostBackendConfig config;
  config.device_count = 2;
  config.memory_per_device = memory_per_device;
  configure_host_backend(config);
  return host_device_ids();
}

/// Deterministic, position-dependent bytes (so shifted or partial copies are detected).
inline std::vector<std::uint8_t> pattern(std::size_t n, std::uint32_t seed) {
  std::vector<std::uint8_t> v(n);
  std::uint32_t x = seed * 2654435761u + 1;
  for (auto& b : v) {
    x ^= x << 13;
    x ^= x >> 17;
    x ^= x << 5;
    b = static_cast<std::uint8_t>(x);
  }
  return v;
}

}  // namespace ringkernel::test
