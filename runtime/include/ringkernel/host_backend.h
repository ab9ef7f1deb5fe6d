// Copyright RingKernel authors.
// Configuration of the host backend: virtual devices in host memory with a configurable peer
// topology, so that every code path above the backend (direct peer copies and host-staged
// fallbacks) runs on machines without a GPU. See docs/runtime.md.
//
// Environment (read once, when the device registry is first used):
//   RINGKERNEL_HOST_DEVICES   number of virtual devices (0..64, default 2; 0 disables the backend)
//   RINGKERNEL_HOST_TOPOLOGY  "all" (default) | "none" | pairs "0-1,2-3" (host ordinals, undirected)
//   RINGKERNEL_HOST_MEMORY    memory per virtual device, bytes with optional K/M/G suffix (default 8G)
#pragma once

#include <cstddef>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace ringkernel {

enum class HostTopology { all, none, pairs };

struct HostBackendConfig {
  int device_count = 2;
  HostTopology topology = HostTopology::all;
  std::vector<std::pair<int, int>> pairs;  // host ordinals, used when topology == pairs
  std::size_t memory_per_device = std::size_t{8} << 30;

  /// True if the topology gives a direct link between host ordinals a and b (a != b).
  bool linked(int a, int b) const noexcept;

  /// Parse the environment variables above; Error(errc::configuration) names the variable and
  /// the offending text. Unset variables keep their defaults.
  static HostBackendConfig from_environment();
  /// Parse the textual forms (same grammar as the environment variables).
  static HostBackendConfig parse(std::string_view devices, std::string_view topology,
                                 std::string_view memory = {});
  /// "4 devices, topology 0-1,2-3, 8 GiB each".
  std::string describe() const;
};

/// Replace the host backend's configuration. Host device ids are renumbered; buffers, streams
/// and events created before stay valid and keep using the old virtual devices, but old host
/// device ids no longer name them. Throws Error(errc::configuration) for an invalid config.
void configure_host_backend(const HostBackendConfig& config);

/// The configuration in effect.
HostBackendConfig host_backend_config();

}  // namespace ringkernel
